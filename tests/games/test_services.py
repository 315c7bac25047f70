"""Live-game services on the real database: create, record, edit, delete, undo, match end, tiebreaks."""

from __future__ import annotations

import pytest

from scoring import selectors, services
from scoring.game_errors import (
    GameError,
    HoleNotFound,
    MatchFinished,
    NothingToUndo,
    PlayoffNotPending,
    RulesFrozen,
    StaleVersion,
)
from scoring.models import ChangeAction, GameStatus, Hole, HoleEntry, Player
from scoring.rules import DeckError, RulesError

from .conftest import GRID_3, GRID_21, typed

pytestmark = pytest.mark.django_db


def totals(game) -> dict[str, int]:
    return {seat.name: seat.total for seat in game.seats.order_by("seat")}


# -- creating games ------------------------------------------------------------------------------


def test_it_creates_a_game_with_seats_in_order_and_unguessable_distinct_tokens(make_game):
    game = make_game(
        ["Ann", "Bob", "Cy"], ruleset={"preset": "official", "holes": 5}, first_dealer=2, title="Fri"
    )
    assert [s.name for s in game.seats.order_by("seat")] == ["Ann", "Bob", "Cy"]
    assert game.ruleset["holes"] == 5 and game.ruleset["preset"] == "official"
    assert game.first_dealer == 2 and game.title == "Fri"
    assert len(game.edit_token) >= 32 and len(game.view_token) >= 32
    assert game.edit_token != game.view_token
    assert not game.is_frozen and game.status == GameStatus.IN_PROGRESS


def test_it_records_a_logged_in_creator_as_owner_and_reuses_their_roster(make_game, django_user_model):
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    first = make_game(["Ann", "Bob"], owner=user)
    second = make_game(["ann", "Dee"], owner=user)
    assert first.owner == user
    assert list(selectors.games_for_user(user)) == [second, first]
    assert Player.objects.filter(owner=user).count() == 3  # Ann reused (case-insensitive), Bob, Dee
    assert selectors.recent_player_names(user)[:1] in (["Ann"], ["Dee"])


def test_it_refuses_bad_player_lists_naming_the_seat(make_game):
    with pytest.raises(GameError) as error:
        make_game(["Ann", "ann"])
    assert error.value.problems[0].where == "players[2]"
    assert "already at the table" in error.value.message
    with pytest.raises(GameError):
        make_game(["Ann"])
    with pytest.raises(GameError) as error:
        make_game(["Ann", "  "])
    assert "Seat 2 needs a name" in error.value.message
    with pytest.raises(GameError) as error:
        make_game(["Ann", "Bob"], first_dealer=2)
    assert error.value.problems[0].where == "first_dealer"


def test_it_refuses_an_unknown_preset_through_the_engine_with_the_other_problems(make_game):
    with pytest.raises(GameError) as error:
        make_game(["Ann", "ann"], ruleset="no-such-preset")
    wheres = [p.where for p in error.value.problems]
    assert "players[2]" in wheres and any(w.startswith("ruleset") for w in wheres)
    assert "no-such-preset" in str(error.value)


# -- recording holes ---------------------------------------------------------------------------------


def test_it_records_grids_and_typed_totals_with_engine_scores(make_game):
    game = make_game(["ann", "bob", "cy"])
    hole = services.hole_record(
        game, entries={"ann": GRID_3, "bob": GRID_21, "cy": {"total": 12}}, ender="ann"
    )
    entries = {e.seat.name: e for e in hole.entries.select_related("seat")}
    assert entries["ann"].score == 3 and entries["ann"].cards == GRID_3 and not entries["ann"].typed
    assert entries["bob"].score == 21
    assert entries["cy"].typed and entries["cy"].typed_total == 12 and entries["cy"].cards is None
    assert hole.number == 1 and hole.dealer_seat == 0 and hole.ender.name == "ann"
    assert totals(game) == {"ann": 3, "bob": 21, "cy": 12}


def test_it_stores_canonical_card_tokens(make_game):
    game = make_game()
    hole = services.hole_record(
        game, entries={"ann": [["q", "T", "k"], ["Qh", "10", "3"]], "bob": 4}, ender=None
    )
    assert hole.entries.get(seat__name="ann").cards == [["Q", "10", "K"], ["QH", "10", "3"]]


def test_it_rotates_the_dealer_clockwise_and_names_the_next_hole(make_game):
    game = make_game(["ann", "bob", "cy"], first_dealer=1)
    dealers = [typed(game, 1, 2, 3).dealer_seat for _ in range(4)]
    assert dealers == [1, 2, 0, 1]
    board = selectors.scoreboard(game)
    assert board.next_hole.number == 5
    assert (board.next_hole.dealer, board.next_hole.first_player) == ("cy", "ann")


def test_it_applies_the_ender_penalty_from_the_engine(make_game):
    game = make_game(
        ["ann", "bob"], ruleset={"preset": "basic", "ender_penalty": {"kind": "fixed", "points": 10}}
    )
    hole = typed(game, 5, 3, ender="ann")
    ann = hole.entries.get(seat__name="ann")
    assert ann.grid_score == 5 and ann.score == 15
    assert ann.adjustments[0]["kind"] == "ender_penalty" and ann.adjustments[0]["points"] == 10


def test_it_refuses_missing_and_unknown_players_naming_them(make_game):
    game = make_game(["ann", "bob"])
    with pytest.raises(GameError) as error:
        services.hole_record(game, entries={"ann": 3, "zed": 4}, ender="nobody")
    wheres = {p.where for p in error.value.problems}
    assert {"entries.zed", "entries.bob", "ender"} <= wheres
    assert not Hole.objects.filter(game=game).exists()


def test_it_refuses_a_bad_card_naming_player_and_position(make_game):
    game = make_game()
    with pytest.raises(RulesError) as error:
        services.hole_record(game, entries={"ann": [["Q", "1Z", "K"], ["Q", "7", "3"]], "bob": 3}, ender=None)
    assert error.value.problems[0].where.startswith("entries.ann")
    assert "1Z" in error.value.message
    assert not Hole.objects.filter(game=game).exists()


def test_it_refuses_a_grid_of_the_wrong_shape(make_game):
    game = make_game()
    with pytest.raises(RulesError):
        services.hole_record(game, entries={"ann": [["Q", "7"], ["Q", "7"]], "bob": 3}, ender=None)


def test_it_checks_the_decks_across_the_table_naming_rank_and_counts(make_game):
    game = make_game()  # official: one pack
    with pytest.raises(DeckError) as error:
        services.hole_record(
            game,
            entries={"ann": [["5", "5", "5"], ["5", "K", "K"]], "bob": [["5", "2", "4"], ["A", "2", "3"]]},
            ender=None,
        )
    message = error.value.message
    assert "5" in message and "ann 4" in message and "bob 1" in message
    assert not Hole.objects.filter(game=game).exists()


def test_it_checks_exact_cards_with_suits(make_game):
    game = make_game()
    with pytest.raises(DeckError) as error:
        services.hole_record(
            game,
            entries={"ann": [["QH", "7", "K"], ["Q", "7", "3"]], "bob": [["QH", "5", "4"], ["A", "2", "3"]]},
            ender=None,
        )
    assert "Q" in error.value.message


def test_it_lets_more_players_use_more_decks_automatically(make_game):
    game = make_game(["a", "b", "c", "d"], ruleset="basic")  # auto: 4 players -> 2 packs
    hole = services.hole_record(
        game, entries={"a": [["5", "5", "5"], ["5", "K", "K"]], "b": [["5", "2", "4"], ["A", "2", "3"]],
                       "c": 10, "d": 11}, ender=None,
    )  # fmt: skip
    assert hole.entries.count() == 4


# -- ruleset freeze --------------------------------------------------------------------------------


def test_it_changes_the_ruleset_until_the_first_hole_and_then_cites_seed_001(make_game):
    game = make_game()
    services.set_game_ruleset(game, {"preset": "basic", "holes": 3})
    assert game.ruleset["preset"] == "basic" and game.ruleset["holes"] == 3
    typed(game, 3, 4)
    game.refresh_from_db()
    assert game.is_frozen
    with pytest.raises(RulesFrozen) as error:
        services.set_game_ruleset(game, "official")
    assert "seed 001" in error.value.message
    assert "cannot" in error.value.message and "dealt" in error.value.message
    game.refresh_from_db()
    assert game.ruleset["preset"] == "basic"


def test_it_keeps_the_ruleset_frozen_even_when_every_hole_is_deleted(make_game):
    game = make_game()
    typed(game, 3, 4)
    services.hole_delete(game, 1)
    with pytest.raises(RulesFrozen):
        services.set_game_ruleset(game, "basic")


def test_it_refuses_new_players_once_cards_are_dealt(make_game):
    game = make_game()
    services.seat_add(game, "cy")
    assert [s.name for s in game.seats.order_by("seat")] == ["ann", "bob", "cy"]
    services.seat_remove(game, 0)
    assert [(s.seat, s.name) for s in game.seats.order_by("seat")] == [(0, "bob"), (1, "cy")]
    typed(game, 1, 2)
    with pytest.raises(RulesFrozen):
        services.seat_add(game, "dee")
    services.seat_rename(game, 0, "Robert")
    assert selectors.scoreboard(game).players[0].name == "Robert"


# -- edits, deletes, undo --------------------------------------------------------------------------


def test_it_edits_a_hole_checking_the_version(make_game):
    game = make_game()
    hole = typed(game, 3, 4)
    updated = services.hole_update(
        game, 1, expected_version=hole.version, entries={"ann": GRID_3, "bob": 9}, ender=None
    )
    assert updated.version == hole.version + 1
    assert totals(game) == {"ann": 3, "bob": 9}
    with pytest.raises(StaleVersion) as error:
        services.hole_update(game, 1, expected_version=hole.version, entries={"ann": 1, "bob": 1}, ender=None)
    assert "changed by someone else" in error.value.message
    assert totals(game) == {"ann": 3, "bob": 9}


def test_it_deletes_a_middle_hole_and_renumbers_the_later_ones(make_game):
    game = make_game()
    for n in range(1, 4):
        typed(game, n, 10 * n)
    services.hole_delete(game, 2, actor="ann")
    board = selectors.scoreboard(game)
    assert [h.number for h in board.holes] == [1, 2]
    assert [h.entries[0].score for h in board.holes] == [1, 3]
    assert totals(game) == {"ann": 4, "bob": 40}
    with pytest.raises(HoleNotFound):
        services.hole_delete(game, 3)


def test_it_undoes_an_edit_a_delete_and_a_record_and_keeps_every_change(make_game):
    game = make_game()
    typed(game, 1, 10)
    typed(game, 2, 20)
    typed(game, 3, 30)
    services.hole_update(game, 2, expected_version=1, entries={"ann": 7, "bob": 7}, ender=None, actor="bob")
    services.hole_delete(game, 1, actor="cy")
    assert totals(game) == {"ann": 10, "bob": 37}

    undo = services.undo_last_change(game, actor="ann")  # the delete: hole 1 comes back, others move up
    assert undo.undoes.action == ChangeAction.DELETE
    board = selectors.scoreboard(game)
    assert [(h.number, h.entries[0].score) for h in board.holes] == [(1, 1), (2, 7), (3, 3)]

    services.undo_last_change(game, actor="ann")  # the edit: hole 2 back to 2 / 20
    assert totals(game) == {"ann": 6, "bob": 60}

    services.undo_last_change(game, actor="ann")  # the third hole's recording
    assert totals(game) == {"ann": 3, "bob": 30}
    assert selectors.scoreboard(game).next_hole.number == 3

    history = selectors.game_history(game)
    assert [line.action for line in history] == [
        "undo",
        "undo",
        "undo",
        "delete",
        "update",
        "create",
        "create",
        "create",
    ]
    edit = next(line for line in history if line.action == "update")
    assert edit.actor == "bob" and edit.undone
    assert edit.before["entries"][0]["total"] == 2 and edit.after["entries"][0]["total"] == 7


def test_it_says_when_there_is_nothing_to_undo(make_game):
    game = make_game()
    with pytest.raises(NothingToUndo):
        services.undo_last_change(game)
    typed(game, 1, 2)
    services.undo_last_change(game)
    with pytest.raises(NothingToUndo):
        services.undo_last_change(game)


def test_it_bumps_the_game_version_on_every_change(make_game):
    game = make_game()
    versions = [game.version]
    typed(game, 1, 2)
    versions.append(game.version)
    services.hole_update(game, 1, expected_version=1, entries={"ann": 2, "bob": 2}, ender=None)
    versions.append(game.version)
    services.undo_last_change(game)
    versions.append(game.version)
    services.hole_delete(game, 1)
    versions.append(game.version)
    assert versions == sorted(set(versions))


# -- match end and tiebreaks ---------------------------------------------------------------------


def test_it_ends_the_match_after_the_rulesets_holes_and_refuses_another(make_game):
    game = make_game(ruleset="official-quick")  # 6 holes
    for n in range(6):
        typed(game, n, 5)
    board = selectors.scoreboard(game)
    assert board.match_over and board.status == GameStatus.FINISHED
    assert board.winners == ("ann",) and board.next_hole is None
    assert "6 holes" in board.reason
    with pytest.raises(MatchFinished) as error:
        typed(game, 1, 1)
    assert "over" in error.value.message
    assert Hole.objects.filter(game=game).count() == 6


def test_it_ends_the_match_after_the_hole_in_which_someone_reaches_the_target(make_game):
    game = make_game(["ann", "bob", "cy"], ruleset={"preset": "basic", "holes": None, "target_score": 100})
    typed(game, 60, 30, 40)
    assert not selectors.scoreboard(game).match_over
    typed(game, 45, 30, 20)
    board = selectors.scoreboard(game)
    assert board.match_over and "100" in board.reason
    assert board.winners == ("cy",)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.winners == ["cy"]


def test_it_breaks_a_tie_by_countback(make_game):
    game = make_game(ruleset={"preset": "official", "holes": 2})
    typed(game, 1, 4)
    typed(game, 9, 6)  # both 10; ann's best hole (1) beats bob's (4)
    board = selectors.scoreboard(game)
    assert board.totals == {"ann": 10, "bob": 10}
    assert board.winners == ("ann",) and board.outcome.status == "won"
    assert board.outcome.steps[0].method == "countback"


def test_it_plays_sudden_death_among_the_tied_players_only(make_game):
    game = make_game(["ann", "bob", "cy"], ruleset={"preset": "official", "holes": 2})
    typed(game, 3, 5, 9)
    typed(
        game, 5, 3, 9
    )  # ann and bob tie on 8 with the same holes: countback and holes won cannot split them
    board = selectors.scoreboard(game)
    assert board.status == GameStatus.SUDDEN_DEATH and board.contenders == ("ann", "bob")
    assert board.next_hole.is_playoff and board.next_hole.players == ("ann", "bob")
    with pytest.raises(MatchFinished):
        typed(game, 1, 1, 1)
    with pytest.raises(GameError) as error:
        services.hole_record(game, entries={"ann": 2, "bob": 2, "cy": 0}, ender=None, playoff=True)
    assert "not playing this playoff hole" in error.value.message

    typed(game, 4, 4, playoff=True, players=["ann", "bob"])  # still level
    assert selectors.scoreboard(game).status == GameStatus.SUDDEN_DEATH
    typed(game, 2, 6, playoff=True, players=["ann", "bob"])
    board = selectors.scoreboard(game)
    assert board.status == GameStatus.FINISHED and board.winners == ("ann",)
    assert [h.number for h in board.playoff_holes] == [1, 2] and len(board.holes) == 2
    assert board.totals == {"ann": 8, "bob": 8, "cy": 18}  # playoff holes never change totals
    assert board.players[0].playoff_total == 6
    with pytest.raises(PlayoffNotPending):
        typed(game, 1, 1, playoff=True, players=["ann", "bob"])


def test_it_refuses_a_playoff_hole_when_no_tie_calls_for_one(make_game):
    game = make_game()
    with pytest.raises(PlayoffNotPending):
        typed(game, 1, 2, playoff=True, players=["ann", "bob"])


def test_it_shows_a_shared_victory_as_such(make_game):
    game = make_game(ruleset={"preset": "basic", "holes": 2})  # tiebreakers: countback, shared
    typed(game, 3, 5)
    typed(game, 5, 3)
    board = selectors.scoreboard(game)
    assert board.status == GameStatus.FINISHED
    assert board.shared_victory and set(board.winners) == {"ann", "bob"}
    assert all(p.is_winner for p in board.players)


def test_it_reopens_a_finished_match_when_a_hole_is_deleted(make_game):
    game = make_game(ruleset={"preset": "official", "holes": 2})
    typed(game, 1, 2)
    typed(game, 1, 2)
    assert selectors.scoreboard(game).match_over
    services.hole_delete(game, 2)
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS and game.winners == []
    typed(game, 5, 1)
    assert selectors.scoreboard(game).winners == ("bob",)


def test_it_keeps_stored_totals_equal_to_the_entries(make_game):
    game = make_game(["ann", "bob", "cy"])
    typed(game, 1, 2, 3)
    typed(game, 4, 5, 6)
    services.hole_update(game, 1, expected_version=1, entries={"ann": 10, "bob": 2, "cy": 3}, ender=None)
    for seat in game.seats.all():
        scores = HoleEntry.objects.filter(seat=seat, hole__is_playoff=False).values_list("score", flat=True)
        assert seat.total == sum(scores) and seat.holes_played == len(scores)


def test_it_ranks_by_the_engines_final_order_once_the_match_is_over(make_game):
    game = make_game(["ann", "bob", "cy"], ruleset={"preset": "official", "holes": 2})
    typed(game, 9, 4, 20)
    typed(game, 1, 6, 20)  # ann and bob on 10: ann's 1 wins the countback
    ranks = {p.name: p.rank for p in selectors.scoreboard(game).players}
    assert ranks == {"ann": 1, "bob": 2, "cy": 3}


def test_it_keeps_the_first_dealer_when_an_earlier_seat_leaves(make_game):
    game = make_game(["ann", "bob", "cy", "dee", "eve"], first_dealer=2)  # cy deals first
    services.seat_remove(game, 0)
    game.refresh_from_db()
    assert game.first_dealer == 1 and selectors.scoreboard(game).next_hole.dealer == "cy"
    services.seat_remove(game, 2)  # dee leaves: cy still deals
    assert selectors.scoreboard(game).next_hole.dealer == "cy"
    services.seat_remove(game, 1)  # cy leaves: the next seat clockwise deals
    assert selectors.scoreboard(game).next_hole.dealer == "eve"
    services.seat_add(game, "fay")
    services.seat_remove(game, 1)  # eve, the last but one, leaves: fay is next clockwise
    assert selectors.scoreboard(game).next_hole.dealer == "fay"


def test_it_checks_a_playoff_hole_against_the_packs_of_the_whole_table(make_game):
    game = make_game(
        ["ann", "bob", "cy", "dee"], ruleset={"preset": "basic", "holes": 1, "tiebreakers": ["sudden_death"]}
    )
    typed(game, 4, 4, 9, 9)  # four players: two packs in play
    six_fives = {"ann": [["5", "5", "5"], ["K", "Q", "J"]], "bob": [["5", "5", "K"], ["Q", "J", "5"]]}
    hole = services.hole_record(game, entries=six_fives, ender=None, playoff=True)  # 35 each: still level
    assert hole.is_playoff and hole.entries.count() == 2
    with pytest.raises(DeckError) as error:  # nine fives is more than two packs hold
        services.hole_record(
            game,
            entries={"ann": [["5", "5", "5"], ["5", "5", "J"]], "bob": [["5", "5", "5"], ["5", "Q", "A"]]},
            ender=None,
            playoff=True,
        )
    assert error.value.problems[0].where.startswith("entries")


def test_it_lists_recent_names_and_games_of_a_browser_by_edit_token(make_game):
    older = make_game(["Ann", "Bob"])
    newer = make_game(["Cy", "ann"])
    tokens = [older.edit_token, newer.edit_token]
    assert list(selectors.games_for_tokens(tokens)) == [newer, older]
    assert selectors.recent_player_names(None, edit_tokens=tokens) == ["Cy", "ann", "Bob"]
    assert selectors.recent_player_names(None, edit_tokens=[older.view_token]) == []  # view links: not yours


def test_the_history_says_each_change_and_what_became_of_it_in_a_sentence() -> None:
    """ "Recorded · Hole 9 undone" did not read: each line is one natural, translatable sentence."""
    from scoring.selectors.change_history import game_history

    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    services.hole_record(game, entries={"Ann": 5, "Bob": 7}, ender=None, actor="Ann")
    services.hole_record(game, entries={"Ann": 3, "Bob": 2}, ender=None, actor="Ann")
    hole = selectors.hole_detail(game, 1)
    services.hole_update(
        game, 1, expected_version=hole.version, entries={"Ann": 4, "Bob": 7}, ender=None, actor="Bob"
    )
    services.undo_last_change(game, actor="Ann")  # the edit of hole 1
    services.redo_change(game, actor="Ann")  # the edit again
    services.undo_last_change(game, actor="Ann")  # the redo
    assert [line.summary for line in game_history(game)] == [
        "Undone: redo of hole 1",
        "Redone: edit of hole 1, then undone",
        "Undone: edit of hole 1, then redone",
        "Hole 1 edited, then undone",
        "Hole 2 recorded",
        "Hole 1 recorded",
    ]
    undo_recording = game_history(game)
    services.hole_delete(game, 2, actor="Bob")
    services.undo_last_change(game, actor="Bob")
    lines = game_history(game)
    assert [line.summary for line in lines[:2]] == [
        "Undone: deletion of hole 2",
        "Hole 2 deleted, then undone",
    ]
    assert len(lines) == len(undo_recording) + 2
