"""The standings of real events (SPEC "Standings"), built and played through the services with
chosen scores: totals, tiebreaks, playoffs, penalties, incomplete records and disqualifications."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring import services as scoring_services
from scoring.models import HoleEntry
from tests.tournaments.helpers import ScoreFn, by_number, event, play_round
from tournaments import services
from tournaments.models import Entrant, EntrantStatus, Penalty, Round, Table, Tournament
from tournaments.standings import StandingLine, Standings, compute_standings

pytestmark = pytest.mark.django_db

HIGH = 10  # the rest of the field scores more than this on every hole: never low enough to matter


def seat(tournament: Tournament) -> Round:
    """Seat and publish the next round."""
    round_ = services.seat_next_round(tournament)
    return services.publish_round(tournament, round_.number)


def tables(round_: Round) -> list[list[str]]:
    """The names at each table of a seated round, in seat order."""
    return [
        list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for table in Table.objects.filter(round=round_).select_related("game").order_by("number")
    ]


def mates(round_: Round, name: str) -> set[str]:
    """Who sat at `name`'s table in `round_`, `name` apart."""
    return next(set(names) - {name} for names in tables(round_) if name in names)


def record(tournament: Tournament, round_: Round, scores: ScoreFn, *, finalize: bool = True) -> Round:
    """Every table of a published round records every hole with `scores`; confirmed, finalized."""
    for table in Table.objects.filter(round=round_).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in range(1, tournament.ruleset["holes"] + 1):
            scoring_services.hole_record(
                table.game,
                entries={name: scores(round_.number, hole, name) for name in names},
                ender=None,
                capabilities={"view", "score"},
            )
        services.confirm_table(table.game, names[1])
    if finalize:
        services.finalize_round(tournament, round_.number)
    return round_


def play(tournament: Tournament, scores: ScoreFn) -> Round:
    """Seat, publish, play and finalize the next round."""
    return record(tournament, seat(tournament), scores)


def fixed(table: dict[str, tuple[int, ...]]) -> ScoreFn:
    """Scores from a table {name: (hole 1, hole 2, ...)} (every round alike). Anyone else scores
    HIGH plus their number on every hole: distinct totals, no ties among them."""
    return lambda _round, hole, name: table[name][hole - 1] if name in table else HIGH + by_number(name)


def line(standings: Standings, name: str) -> StandingLine:
    """The line of `name`."""
    return next(found for found in standings.lines if found.name == name)


def names(standings: Standings) -> list[str]:
    """The players in standings order."""
    return [found.name for found in standings.lines]


def entrant(tournament: Tournament, name: str) -> Entrant:
    """The player called `name`."""
    return tournament.entrants.get(name=name)


def penalize(tournament: Tournament, name: str, step: str, points: int = 0, *, round_number: int = 1, **more):
    """A penalty row, as the officiating services will write it."""
    return Penalty.objects.create(
        tournament=tournament,
        entrant=entrant(tournament, name),
        round_number=round_number,
        offence="time" if step == "points" else "illegal_move",
        step=step,
        points=points,
        **more,
    )


# --- Totals and tiebreaks --------------------------------------------------------------------------


def test_a_tie_on_total_is_broken_by_countback() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (3, 3), "P02": (1, 5)}))
    standings = compute_standings(tournament)
    assert names(standings)[:2] == ["P02", "P01"]
    first, second = standings.lines[:2]
    assert (first.total, second.total) == (6, 6)
    assert (first.rank, second.rank) == (1, 2)
    assert dict(first.columns)["countback"] == "1, 5"
    assert dict(second.columns)["countback"] == "3, 3"
    assert first.why_above == "countback: 1 on their best hole against 3"
    assert not first.playoff and not second.playoff


def test_a_tie_on_countback_is_broken_by_holes_won_at_the_players_own_table() -> None:
    tournament = event(8, rounds=1)
    round_ = seat(tournament)
    beaten_by = mates(round_, "P02") - {"P01"}  # they beat P02 on both holes at P02's table
    scores = {"P01": (2, 4), "P02": (4, 2)} | dict.fromkeys(beaten_by, (3, 1))
    record(tournament, round_, fixed(scores))
    standings = compute_standings(tournament)
    order = names(standings)
    assert order[order.index("P01") + 1] == "P02"
    p01, p02 = line(standings, "P01"), line(standings, "P02")
    assert p01.total == p02.total == 6
    assert dict(p01.columns)["countback"] == dict(p02.columns)["countback"] == "2, 4"
    assert p01.holes_won > p02.holes_won == 0
    assert dict(p01.columns)["most_holes_won"] == str(p01.holes_won)
    assert p01.why_above == f"most holes won: {p01.holes_won} against 0"
    assert p02.rank == p01.rank + 1


def test_a_shared_lowest_score_counts_as_a_hole_won_for_each() -> None:
    tournament = event(8, rounds=1)
    round_ = seat(tournament)
    table = tables(round_)[0]
    record(tournament, round_, lambda _r, _h, name: 2 if name in table[:2] else HIGH + by_number(name))
    standings = compute_standings(tournament)
    assert line(standings, table[0]).holes_won == line(standings, table[1]).holes_won == 2
    assert line(standings, table[2]).holes_won == 0


def test_a_complete_tie_for_first_goes_to_a_playoff_once_every_round_is_finalized() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (2, 2), "P02": (2, 2)}))
    standings = compute_standings(tournament)
    assert standings.final
    first, second, third = standings.lines[:3]
    assert {first.name, second.name} == {"P01", "P02"}
    assert first.rank == second.rank == 1 and third.rank == 3
    assert first.playoff and second.playoff and not third.playoff
    assert not first.shared
    assert first.why_above == ""  # tied: nothing ranks one above the other yet
    assert "sudden_death" in standings.tiebreakers


def test_the_same_tie_is_not_a_playoff_while_rounds_remain() -> None:
    tournament = event(8, rounds=2)
    play(tournament, fixed({"P01": (2, 2), "P02": (2, 2)}))
    standings = compute_standings(tournament)
    assert not standings.final
    first, second = standings.lines[:2]
    assert first.rank == second.rank == 1
    assert not first.playoff and not second.playoff
    assert "sudden_death" not in standings.tiebreakers


def test_a_shared_chain_shares_the_place() -> None:
    tournament = event(8, rounds=1, tiebreakers=["countback", "shared"])
    play(tournament, fixed({"P01": (2, 2), "P02": (2, 2)}))
    standings = compute_standings(tournament)
    first, second = standings.lines[:2]
    assert first.rank == second.rank == 1
    assert first.shared and second.shared
    assert not first.playoff
    assert standings.lines[2].rank == 3


def test_per_round_scores_add_up_to_the_total() -> None:
    tournament = event(8, rounds=2)
    play_round(tournament)  # P07 scores 7 + hole on each hole
    services.finalize_round(tournament, 1)
    play(tournament, lambda round_number, hole, name: by_number(name) * round_number)
    standings = compute_standings(tournament)
    p07 = line(standings, "P07")
    assert standings.round_numbers == (1, 2)
    assert p07.rounds == (8 + 9, 14 + 14)
    assert p07.total == sum(p07.rounds) and p07.holes_played == 4
    assert names(standings) == [f"P{n:02d}" for n in range(1, 9)]
    assert [found.rank for found in standings.lines] == list(range(1, 9))
    assert all(found.why_above == "" for found in standings.lines)  # no ties on total


# --- Penalty points ---------------------------------------------------------------------------------


def test_penalty_points_enter_the_total_but_never_a_holes_score() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (1, 1), "P02": (2, 2)}))
    penalize(tournament, "P01", "points", 4)
    penalize(tournament, "P01", "points", 6, rescinded_at=timezone.now(), rescind_reason="appeal upheld")
    standings = compute_standings(tournament)
    p01 = line(standings, "P01")
    assert (p01.total, p01.penalty_points, p01.rounds) == (6, 4, (2,))
    assert dict(p01.columns)["countback"] == "1, 1"  # the holes as played
    assert sorted(
        HoleEntry.objects.filter(
            seat__name="P01", hole__game__tournament_table__round__tournament=tournament
        ).values_list("score", flat=True)
    ) == [1, 1]
    # 6 against P02's 4: P02 leads now.
    assert names(standings)[:2] == ["P02", "P01"]


def test_a_penalty_ties_two_totals_and_the_chain_decides() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (1, 1), "P02": (2, 2)}))
    penalize(tournament, "P01", "points", 2)
    standings = compute_standings(tournament)
    p01, p02 = line(standings, "P01"), line(standings, "P02")
    assert p01.total == p02.total == 4
    assert names(standings)[:2] == ["P01", "P02"]  # countback over the holes: 1 beats 2
    assert p01.why_above == "countback: 1 on their best hole against 2"


# --- Incomplete records and disqualifications --------------------------------------------------------


def test_dropped_players_keep_their_rounds_and_rank_after_complete_records() -> None:
    tournament = event(10, rounds=3)
    low = fixed({"P01": (0, 0), "P02": (0, 1), "P03": (1, 1)})  # the three best players
    play(tournament, low)
    services.drop_entrant(tournament, entrant(tournament, "P01").pk)
    services.drop_entrant(tournament, entrant(tournament, "P03").pk)
    play(tournament, low)
    services.drop_entrant(tournament, entrant(tournament, "P02").pk)
    play(tournament, low)
    standings = compute_standings(tournament)
    assert names(standings)[-3:] == ["P02", "P01", "P03"]  # 2 rounds, then 1 round by total
    assert all(found.complete for found in standings.lines[:7])
    p01, p02 = line(standings, "P01"), line(standings, "P02")
    assert not p01.complete and p01.status == EntrantStatus.DROPPED
    assert p01.rounds == (0, None, None) and p01.total == 0 and p01.holes_played == 2
    assert p02.rounds == (1, 1, None) and p02.rank == 8
    assert [found.rank for found in standings.lines] == list(range(1, 11))


def test_a_late_entry_plays_the_rounds_after_it_entered_with_an_incomplete_record() -> None:
    tournament = event(8, rounds=2)
    play(tournament, fixed({}))
    services.add_entrant(tournament, "Lena")
    play(tournament, fixed({"Lena": (0, 0)}))
    standings = compute_standings(tournament)
    lena = line(standings, "Lena")
    assert lena.rounds == (None, 0) and not lena.complete and lena.status == EntrantStatus.ACTIVE
    assert names(standings)[-1] == "Lena" and lena.rank == 9


def test_a_player_disqualified_from_a_round_has_no_game_in_it() -> None:
    tournament = event(8, rounds=2)
    play(tournament, fixed({"P01": (1, 1)}))
    play(tournament, fixed({"P01": (1, 1)}))
    penalize(tournament, "P01", "round_dq", round_number=2)
    standings = compute_standings(tournament)
    p01 = line(standings, "P01")
    assert p01.rounds == (2, None) and p01.total == 2 and p01.holes_played == 2
    assert not p01.complete and not p01.disqualified
    assert names(standings)[-1] == "P01"  # after every complete record, whatever its total


def test_a_player_disqualified_from_a_round_leaves_its_holes_to_the_others_at_the_table() -> None:
    tournament = event(8, rounds=1)
    round_ = seat(tournament)
    neighbour = sorted(mates(round_, "P01"))[0]
    record(tournament, round_, fixed({"P01": (1, 1), neighbour: (2, 2)}))
    before = line(compute_standings(tournament), neighbour).holes_won
    penalize(tournament, "P01", "round_dq")
    after = compute_standings(tournament)
    assert before == 0
    # The disqualified player's scores leave the standings entirely: the neighbour won both holes.
    assert line(after, neighbour).holes_won == 2


@pytest.mark.parametrize("how", ["penalty", "status"])
def test_a_player_disqualified_from_the_event_is_last_marked_dq(how: str) -> None:
    tournament = event(8, rounds=2)
    play(tournament, fixed({"P01": (0, 0), "P02": (20, 20)}))
    services.drop_entrant(tournament, entrant(tournament, "P02").pk)  # incomplete, still above a DQ
    play(tournament, fixed({"P01": (0, 0)}))
    if how == "penalty":
        penalize(tournament, "P01", "event_dq", round_number=2)
    else:
        Entrant.objects.filter(tournament=tournament, name="P01").update(status=EntrantStatus.DISQUALIFIED)
    standings = compute_standings(tournament)
    last = standings.lines[-1]
    assert (last.name, last.status, last.disqualified, last.complete) == ("P01", "disqualified", True, False)
    assert last.to_api()["status"] == "disqualified"
    assert names(standings)[-2] == "P02"
    assert last.rank == 8


def test_a_rescinded_disqualification_counts_for_nothing() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (0, 0)}))
    penalize(tournament, "P01", "event_dq", rescinded_at=timezone.now(), rescind_reason="mistaken identity")
    standings = compute_standings(tournament)
    assert standings.lines[0].name == "P01" and standings.lines[0].complete


# --- Which rounds count -----------------------------------------------------------------------------


def test_live_standings_count_the_round_in_play_and_after_round_ones_do_not() -> None:
    tournament = event(8, rounds=2, standings_release="after_round")
    play(tournament, fixed({}))
    round_ = seat(tournament)
    record(tournament, round_, fixed({"P05": (0, 0)}), finalize=False)
    live = compute_standings(tournament, live=True)
    released = compute_standings(tournament, live=False)
    assert live.round_numbers == (1, 2) and live.live
    assert released.round_numbers == (1,) and not released.live
    assert line(live, "P05").total == 30 and line(live, "P05").rounds == (30, 0)
    assert line(released, "P05").total == 30 and line(released, "P05").rounds == (30,)
    assert names(live)[0] == "P05" and names(released)[0] == "P01"
    # Both are complete records in what they count.
    assert all(found.complete for found in live.lines + released.lines)


def test_a_seated_round_not_yet_published_counts_nowhere() -> None:
    tournament = event(8, rounds=2)
    play(tournament, fixed({}))
    services.seat_next_round(tournament)
    assert compute_standings(tournament, live=True).round_numbers == (1,)
    assert all(found.complete for found in compute_standings(tournament).lines)


def test_the_api_line_carries_the_contracts_keys() -> None:
    tournament = event(8, rounds=1)
    play(tournament, fixed({"P01": (1, 2)}))
    first = compute_standings(tournament).lines[0].to_api()
    assert first["player"] == {"id": entrant(tournament, "P01").pk, "name": "P01"}
    assert {
        "rank": 1,
        "total": 3,
        "rounds": [3],
        "penalty_points": 0,
        "complete": True,
        "status": "active",
        "playoff": False,
    }.items() <= first.items()
    assert first["holes_won"] == 2
