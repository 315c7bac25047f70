"""What `scoring` offers the apps built on it (`tournaments`): reads through `scoring.selectors`
(regular hole scores of many games, scorecards, progress, the deal order) and the writes that lock
and delete games through `scoring.services`. Each on the real database, through the services."""

from __future__ import annotations

import pytest
from django.db import transaction

from scoring import selectors, services
from scoring.models import Game, Hole
from scoring.rules.match import dealer_for_hole, first_player_for_hole
from tests.games.conftest import typed

pytestmark = pytest.mark.django_db


def _played(make_game, *holes: tuple[int, ...], players=("ann", "bob", "cat")) -> Game:
    game = make_game(list(players), ruleset={"preset": "official", "holes": 3})
    for totals in holes:
        typed(game, *totals)
    game.refresh_from_db()
    return game


def test_it_reads_the_regular_hole_scores_of_many_games_in_two_queries(make_game, django_assert_num_queries):
    first = _played(make_game, (1, 2, 3), (4, 5, 6))
    second = _played(make_game, (7, 8, 9))
    with django_assert_num_queries(2):
        rows = selectors.regular_hole_scores([first.pk, second.pk])
    by_seat = {(game, seat, number): score for game, seat, _hole, number, score in rows}
    assert by_seat == {
        (first.pk, 0, 1): 1, (first.pk, 1, 1): 2, (first.pk, 2, 1): 3,
        (first.pk, 0, 2): 4, (first.pk, 1, 2): 5, (first.pk, 2, 2): 6,
        (second.pk, 0, 1): 7, (second.pk, 1, 1): 8, (second.pk, 2, 1): 9,
    }  # fmt: skip
    hole_ids = {hole for _g, _s, hole, _n, _score in rows}
    assert hole_ids == set(Hole.objects.filter(game__in=[first, second]).values_list("pk", flat=True))


def test_it_leaves_playoff_holes_out_of_the_regular_scores_and_the_holes_played(make_game):
    game = _played(make_game, (1, 1, 5), (1, 1, 5), (1, 1, 5), players=("ann", "bob", "cat"))
    assert game.status != "finished"  # ann and bob tie: a playoff is pending
    typed(game, 0, 2, playoff=True, players=["ann", "bob"])
    rows = selectors.regular_hole_scores([game.pk])
    assert len(rows) == 9 and {number for *_rest, number, _score in rows} == {1, 2, 3}
    progress = selectors.game_progress(game.pk)
    assert progress is not None and progress.holes_played == 3 and progress.finished
    assert progress.holes_to_play == 3
    last_regular = Hole.objects.filter(game=game, is_playoff=False).latest("created_at").created_at
    assert progress.last_hole_at == last_regular


def test_it_answers_the_progress_of_many_games_in_one_query(make_game, django_assert_num_queries):
    started = _played(make_game, (1, 2, 3))
    fresh = make_game(["ann", "bob"], ruleset={"preset": "official", "holes": None, "target_score": 50})
    with django_assert_num_queries(1):
        progress = selectors.games_progress([started.pk, fresh.pk])
    assert progress[started.pk].holes_played == 1 and not progress[started.pk].finished
    assert progress[fresh.pk].holes_played == 0 and progress[fresh.pk].last_hole_at is None
    assert progress[fresh.pk].holes_to_play is None
    assert selectors.game_progress(10**9) is None


def test_it_gives_the_engines_deal_order_for_every_hole_and_table_size():
    for players in range(2, 9):
        for first_dealer in range(players):
            for hole in range(1, 19):
                assert selectors.deal_order(first_dealer, players, hole) == (
                    dealer_for_hole(first_dealer, hole, players),
                    first_player_for_hole(first_dealer, hole, players),
                )
    # The deal passes clockwise: the dealer of hole 2 sits left of hole 1's, who plays first in hole 1.
    assert selectors.deal_order(2, 4, 1) == (2, 3) and selectors.deal_order(2, 4, 2) == (3, 0)


def test_it_builds_scorecards_with_the_holes_won(make_game):
    game = _played(make_game, (1, 2, 1), (5, 3, 4))
    card = selectors.scorecards([game.pk])[game.pk]
    assert card.players == ["ann", "bob", "cat"] and card.totals == [6, 5, 5]
    assert [(hole.number, hole.scores, hole.winners) for hole in card.holes] == [
        (1, [1, 2, 1], {"ann", "cat"}),
        (2, [5, 3, 4], {"bob"}),
    ]
    assert selectors.seat_names(game.pk) == ["ann", "bob", "cat"]


@pytest.mark.django_db(transaction=True)  # no test transaction around it: autocommit, as a view
def test_it_locks_games_only_inside_the_callers_transaction(make_game):
    game = make_game(["ann", "bob"])
    with pytest.raises(RuntimeError):
        services.lock_games([game.pk])
    with transaction.atomic():
        locked = services.lock_games([game.pk])
    assert list(locked) == [game.pk] and locked[game.pk].status == game.status


def test_it_deletes_games_in_bulk_with_their_holes(make_game):
    kept = _played(make_game, (1, 2, 3))
    gone = [_played(make_game, (1, 2, 3)), make_game(["ann", "bob"])]
    assert services.delete_games([g.pk for g in gone]) == 2
    assert set(Game.objects.values_list("pk", flat=True)) == {kept.pk}
    assert Hole.objects.filter(game_id__in=[g.pk for g in gone]).count() == 0
