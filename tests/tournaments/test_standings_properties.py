"""Properties of a tournament's standings on random small events played through the services:
every total is the player's hole scores plus their penalty points, recomputed here from the rows
themselves, and the order never goes back on (group, total)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import HoleEntry
from tests.tournaments.helpers import event
from tests.tournaments.test_standings import play, record, seat
from tournaments import services
from tournaments.models import EntrantStatus, Penalty, PenaltyStep, RoundStatus, Tournament
from tournaments.standings import compute_standings

STEPS = [PenaltyStep.WARNING, PenaltyStep.POINTS, PenaltyStep.ROUND_DQ, PenaltyStep.EVENT_DQ]


@st.composite
def events(draw) -> dict:
    """An event's shape: players, rounds, holes, scores, penalties, a drop, a last round left live."""
    players = draw(st.integers(min_value=4, max_value=9))
    rounds = draw(st.integers(min_value=1, max_value=3))
    holes = draw(st.integers(min_value=1, max_value=2))
    # Small scores make ties (and so every tiebreak) frequent.
    scores = draw(
        st.lists(st.integers(-2, 4), min_size=players * rounds * holes, max_size=players * rounds * holes)
    )
    penalty = st.tuples(
        st.integers(1, players),
        st.sampled_from(STEPS),
        st.integers(0, 6),
        st.integers(1, rounds),
        st.booleans(),  # rescinded
    )
    return {
        "players": players,
        "rounds": rounds,
        "holes": holes,
        "scores": scores,
        "penalties": draw(st.lists(penalty, max_size=3)),
        "drop": draw(st.none() | st.integers(1, players)) if rounds > 1 else None,
        "live": draw(st.booleans()),
    }


def build(shape: dict) -> Tournament:
    """Play the event the shape describes, through the services."""
    tournament = event(shape["players"], rounds=shape["rounds"], holes=shape["holes"])
    rounds, holes, players = shape["rounds"], shape["holes"], shape["players"]

    def scores(round_number: int, hole: int, name: str) -> int:
        index = ((round_number - 1) * holes + hole - 1) * players + int(name[1:]) - 1
        return shape["scores"][index]

    for number in range(1, rounds + 1):
        if number == rounds and shape["live"]:
            record(tournament, seat(tournament), scores, finalize=False)
        else:
            play(tournament, scores)
        if number == 1 and shape["drop"] is not None:
            services.drop_entrant(tournament, tournament.entrants.get(name=f"P{shape['drop']:02d}").pk)
    disqualified: set[int] = set()
    for who, step, points, round_number, rescinded in shape["penalties"]:
        if step == PenaltyStep.EVENT_DQ and not rescinded:
            # One active event DQ a player, held by the database: a second one is drawn rescinded.
            rescinded = who in disqualified
            disqualified.add(who)
        Penalty.objects.create(
            tournament=tournament,
            entrant=tournament.entrants.get(name=f"P{who:02d}"),
            round_number=round_number,
            offence="illegal_move",
            step=step,
            points=points if step == PenaltyStep.POINTS else 0,
            rescinded_at=timezone.now() if rescinded else None,
        )
    return tournament


@pytest.mark.django_db
@given(shape=events())
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
def test_totals_are_hole_scores_plus_penalties_and_the_order_holds(shape: dict) -> None:
    tournament = build(shape)
    standings = compute_standings(tournament, live=True)
    counted = set(
        tournament.round_set.filter(status__in=[RoundStatus.PUBLISHED, RoundStatus.FINALIZED]).values_list(
            "number", flat=True
        )
    )
    assert set(standings.round_numbers) == counted

    live_penalties = Penalty.objects.filter(tournament=tournament, rescinded_at__isnull=True)
    points: dict[str, int] = defaultdict(int)
    round_dq: dict[str, set[int]] = defaultdict(set)
    event_dq: set[str] = set()
    for name, step, pts, round_number in live_penalties.values_list(
        "entrant__name", "step", "points", "round_number"
    ):
        points[name] += pts
        if step == PenaltyStep.ROUND_DQ:
            round_dq[name].add(round_number)
        if step == PenaltyStep.EVENT_DQ:
            event_dq.add(name)
    per_round: dict[tuple[str, int], int] = defaultdict(int)
    seated: dict[str, set[int]] = defaultdict(set)
    for name, number, score in HoleEntry.objects.filter(
        hole__game__tournament_table__round__tournament=tournament, hole__is_playoff=False
    ).values_list("seat__name", "hole__game__tournament_table__round__number", "score"):
        seated[name].add(number)
        if number in counted and number not in round_dq[name]:
            per_round[(name, number)] += score

    keys = []
    for position, line in enumerate(standings.lines):
        name = line.name
        valid = (seated[name] & counted) - round_dq[name]
        assert line.rounds == tuple(
            per_round.get((name, n)) if n in valid else None for n in standings.round_numbers
        )
        assert line.penalty_points == points[name]
        assert line.total == sum(per_round[(name, n)] for n in valid) + points[name]
        disqualified = name in event_dq or line.status == EntrantStatus.DISQUALIFIED
        assert line.disqualified == disqualified
        assert line.complete == (not disqualified and valid == counted)
        group = 0 if line.complete else len(counted) + 2 if disqualified else 1 + len(counted - valid)
        keys.append((group, line.total))
        assert line.rank == position + 1 or (
            line.rank == standings.lines[position - 1].rank and keys[-1] == keys[-2]
        )
    assert keys == sorted(keys)
    assert len(standings.lines) == shape["players"]
