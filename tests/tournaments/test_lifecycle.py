"""A round's lifecycle on the server: seated, published, finished and confirmed, finalized."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from scoring.game_errors import HoleAlreadyRecorded
from scoring.hole_policies import HoleChangeRefused, ReasonRequired
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.errors import TournamentError, WrongState
from tournaments.models import EventLogEntry, RoundStatus, Table, TableSeat
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def test_it_seats_twelve_players_at_three_tables_of_four() -> None:
    tournament = event(12)
    round_ = services.seat_next_round(tournament)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert [t.game.seats.count() for t in tables] == [4, 4, 4]
    assert TableSeat.objects.filter(round=round_).values("entrant").distinct().count() == 12
    assert all(t.game.managed_by == "tournaments.table" for t in tables)
    assert round_.status == RoundStatus.SEATED


def test_it_refuses_to_seat_round_two_while_round_one_is_in_play() -> None:
    tournament = event(12)
    services.seat_next_round(tournament)
    with pytest.raises(WrongState, match="Round 1 is seated"):
        services.seat_next_round(tournament)


def test_it_keeps_tables_from_scoring_before_publishing() -> None:
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    game = Table.objects.filter(round=round_).first().game
    names = list(game.seats.values_list("name", flat=True))
    with pytest.raises(HoleChangeRefused, match="not started"):
        scoring_services.hole_record(
            game, entries=dict.fromkeys(names, 5), ender=None, capabilities={"view", "score"}
        )
    assert game.holes.count() == 0


def test_it_finalizes_only_when_every_table_is_over_and_confirmed() -> None:
    tournament = event(8)
    round_ = play_round(tournament, confirm=False)
    with pytest.raises(WrongState, match="not confirmed") as refused:
        services.finalize_round(tournament, round_.number)
    assert "1, 2" in str(refused.value.problems[0].message)
    for table in Table.objects.filter(round=round_):
        services.confirm_table(table.game, table.game.seats.get(seat=2).name)
    services.finalize_round(tournament, round_.number)
    round_.refresh_from_db()
    assert round_.status == RoundStatus.FINALIZED


def test_it_names_tables_still_playing_even_with_an_override() -> None:
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    with pytest.raises(WrongState, match="still playing: 1, 2"):
        services.finalize_round(tournament, round_.number, override=True, reason="late")


def test_it_records_an_override_for_finished_unconfirmed_tables() -> None:
    tournament = event(8)
    play_round(tournament, confirm=False)
    with pytest.raises(TournamentError, match="reason"):
        services.finalize_round(tournament, 1, override=True)
    services.finalize_round(tournament, 1, override=True, reason="players left", actor=user("dora"))
    entry = EventLogEntry.objects.get(action="round_finalized_override")
    assert entry.reason == "players left" and entry.details["unconfirmed_tables"] == [1, 2]


def test_it_lets_only_an_official_correct_a_hole_after_the_next_one() -> None:
    tournament = event(8)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    game = Table.objects.filter(round=round_).first().game
    names = list(game.seats.values_list("name", flat=True))
    scoring_services.hole_record(
        game, entries=dict.fromkeys(names, 5), ender=None, capabilities={"view", "score"}
    )
    scoring_services.hole_record(
        game, entries=dict.fromkeys(names, 6), ender=None, capabilities={"view", "score"}
    )
    game.refresh_from_db()
    hole = game.holes.get(number=1)
    with pytest.raises(HoleChangeRefused, match="Call an official"):
        scoring_services.hole_update(
            game,
            1,
            expected_version=hole.version,
            entries=dict.fromkeys(names, 4),
            ender=None,
            capabilities={"view", "score"},
        )
    with pytest.raises(ReasonRequired):
        scoring_services.hole_update(
            game,
            1,
            expected_version=hole.version,
            entries=dict.fromkeys(names, 4),
            ender=None,
            capabilities={"view", "score", "officiate"},
        )


def test_it_locks_a_finalized_round_for_everyone_but_a_director_with_a_reason() -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    game = Table.objects.filter(round=round_).first().game
    names = list(game.seats.values_list("name", flat=True))
    hole = game.holes.get(number=2)
    kwargs = {"expected_version": hole.version, "entries": dict.fromkeys(names, 1), "ender": None}
    with pytest.raises(HoleChangeRefused, match="finalized"):
        scoring_services.hole_update(game, 2, capabilities={"view", "score", "officiate"}, **kwargs)
    with pytest.raises(ReasonRequired):
        scoring_services.hole_update(game, 2, capabilities={"view", "score", "manage"}, **kwargs)
    scoring_services.hole_update(game, 2, capabilities={"view", "score", "manage"}, reason="appeal", **kwargs)


def test_a_hole_queued_on_a_phone_reaching_a_finalized_round_hears_that_it_is_finalized() -> None:
    # The phone filled in hole 2 offline; the director entered it and finalized meanwhile. The
    # refusal names the finalized round (the phone says so), not "hole 2 saved by someone else";
    # a retry of a hole that did arrive before the round closed is still answered as recorded.
    tournament = event(8)
    round_ = play_round(tournament)
    services.finalize_round(tournament, 1)
    game = Table.objects.filter(round=round_).first().game
    names = list(game.seats.values_list("name", flat=True))
    queued = {"entries": dict.fromkeys(names, 1), "ender": None, "capabilities": {"view", "score"}}
    with pytest.raises(HoleChangeRefused, match="finalized"):
        scoring_services.hole_record(game, expected_number=2, **queued)
    director = queued | {"capabilities": {"view", "score", "manage"}}  # may change it: told as before
    with pytest.raises(HoleAlreadyRecorded, match="saved by someone else"):
        scoring_services.hole_record(game, expected_number=2, **director)
    casual = scoring_services.create_game(players=["Ann", "Bob"], ruleset={"preset": "official", "holes": 1})
    scoring_services.hole_record(casual, entries={"Ann": 1, "Bob": 2}, ender=None)
    with pytest.raises(HoleAlreadyRecorded, match="saved by someone else"):  # a casual game: as before
        scoring_services.hole_record(casual, entries={"Ann": 1, "Bob": 2}, ender=None, expected_number=1)


def test_it_runs_three_rounds_and_ranks_the_lowest_total_first() -> None:
    tournament = event(12)
    for number in (1, 2, 3):
        play_round(tournament)
        services.finalize_round(tournament, number)
    standings = compute_standings(tournament, live=False)
    assert standings.final
    assert [line.name for line in standings.lines[:3]] == ["P01", "P02", "P03"]
    first = standings.lines[0]
    assert first.total == sum(first.rounds) and len(first.rounds) == 3 and first.complete
    with pytest.raises(WrongState, match="All 3 rounds"):
        services.seat_next_round(tournament)


def test_it_clears_a_confirmation_when_a_hole_is_corrected(django_capture_on_commit_callbacks) -> None:
    tournament = event(8)
    round_ = play_round(tournament)
    table = Table.objects.filter(round=round_).first()
    assert table.is_confirmed
    names = list(table.game.seats.values_list("name", flat=True))
    hole = table.game.holes.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.hole_update(
            table.game,
            2,
            expected_version=hole.version,
            entries=dict.fromkeys(names, 3),
            ender=None,
            capabilities={"view", "score"},
        )
    table.refresh_from_db()
    assert not table.is_confirmed
