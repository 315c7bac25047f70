"""The live leaderboard during a round ranks what is comparable: the finalized rounds plus the holes
of the round in play that every player has played, each line saying how far the player is
("thru N"), so a player who has played fewer holes is never shown ahead because of it; once the
round is finalized the order is the SPEC's again (every hole counted)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services as scoring_services
from tests.tournaments.helpers import event
from tests.tournaments.test_standings import fixed, line, names, play, seat
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.models import Round, Table, Tournament
from tournaments.standings import compute_standings

pytestmark = pytest.mark.django_db


def play_holes(round_: Round, holes_at: list[int], score) -> None:
    """Table i records its first `holes_at[i]` holes with `score(hole, name)`."""
    for table, holes in zip(
        Table.objects.filter(round=round_).select_related("game").order_by("number"), holes_at, strict=True
    ):
        seated = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in range(1, holes + 1):
            scoring_services.hole_record(
                table.game,
                entries={name: score(hole, name) for name in seated},
                ender=None,
                capabilities={"view", "score"},
            )


def table_of(round_: Round, number: int) -> list[str]:
    table = Table.objects.select_related("game").get(round=round_, number=number)
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def test_a_player_with_fewer_holes_is_not_shown_ahead_because_of_it() -> None:
    tournament = event(8, rounds=1, holes=3)
    round_ = seat(tournament)
    fast, slow = table_of(round_, 1), table_of(round_, 2)
    # The fast table scores 2 a hole and has played 3 holes (6 each); the slow one 4 a hole, 1 hole.
    play_holes(round_, [3, 1], lambda hole, name: 2 if name in fast else 4)
    standings = compute_standings(tournament, live=True)
    # Counting every hole played, the slow table's 4 would beat the fast table's 6: it does not.
    assert set(names(standings)[:4]) == set(fast) and set(names(standings)[4:]) == set(slow)
    assert standings.comparable_holes == 1
    assert line(standings, fast[0]).thru == 3 and line(standings, slow[0]).thru == 1
    # Each line shows the round's score over the holes compared, which is its total (issue 31).
    assert line(standings, fast[0]).rounds == (2,) and line(standings, fast[0]).total == 2
    assert line(standings, slow[0]).rounds == (4,) and line(standings, slow[0]).total == 4


def test_the_final_order_is_the_specs_every_hole_counted() -> None:
    tournament = event(8, rounds=1, holes=3)
    round_ = seat(tournament)
    fast = table_of(round_, 1)
    # A fast start, a slow finish: ahead after hole 1, behind once every hole counts.
    play_holes(round_, [3, 3], lambda hole, name: (0 if hole == 1 else 9) if name in fast else 3)
    for table in Table.objects.filter(round=round_).select_related("game"):
        services.confirm_table(table.game, table.game.seats.order_by("seat").first().name)
    services.finalize_round(tournament, 1)
    final = compute_standings(tournament, live=True)
    assert final.final and final.comparable_holes is None
    assert all(found.thru is None for found in final.lines)
    assert set(names(final)[4:]) == set(fast)  # 18 each, after the others' 9
    assert line(final, fast[0]).total == 18


def test_between_rounds_the_live_board_ranks_the_finalized_rounds_until_every_player_has_a_hole() -> None:
    tournament = event(8, rounds=2, holes=2)
    play(tournament, fixed({"P01": (0, 0)}))
    round_ = seat(tournament)
    play_holes(round_, [2, 0], lambda hole, name: -5)
    standings = compute_standings(tournament, live=True)
    assert standings.comparable_holes == 0
    assert names(standings) == names(compute_standings(tournament, live=False))


@st.composite
def rounds_in_play(draw) -> dict:
    """Two tables of a 3-hole round, each at its own hole, with small scores (ties are frequent)."""
    return {
        "holes": draw(st.lists(st.integers(0, 3), min_size=2, max_size=2)),
        "scores": draw(st.lists(st.integers(-2, 6), min_size=24, max_size=24)),
    }


def _built(holes_at: list[int], scores: list[int]) -> Tournament:
    tournament = event(8, rounds=1, holes=3)
    play_holes(seat(tournament), holes_at, lambda hole, name: scores[(hole - 1) * 8 + int(name[1:]) - 1])
    return tournament


@given(shape=rounds_in_play())
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
def test_holes_played_beyond_the_slowest_table_never_move_the_ranking(shape: dict) -> None:
    holes_at, scores = shape["holes"], shape["scores"]
    ahead = compute_standings(_built(holes_at, scores), live=True)
    # The same event with every table stopped at the slowest table's hole ranks the same.
    level = compute_standings(_built([min(holes_at)] * 2, scores), live=True)
    assert [(found.name, found.rank, found.total) for found in ahead.lines] == [
        (found.name, found.rank, found.total) for found in level.lines
    ]
    assert {found.name: found.thru for found in ahead.lines} == {
        name: holes_at[index] for index, table in enumerate(_tables(ahead)) for name in table
    }


def _tables(standings) -> list[list[str]]:
    tournament = Tournament.objects.get(entrants__pk=standings.lines[0].entrant_id)
    round_ = Round.objects.get(tournament=tournament, number=1)
    return [table_of(round_, 1), table_of(round_, 2)]


def test_the_public_leaderboard_and_the_projector_show_thru_n(django_capture_on_commit_callbacks) -> None:
    tournament = event(8, rounds=1, holes=3)
    round_ = seat(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        play_holes(round_, [2, 1], lambda hole, name: 3)
    public = as_user(None)
    board = public.get(f"/tournaments/{tournament.pk}/public/leaderboard/").content.decode()
    assert board.count('<span class="thru">thru 2</span>') == 4
    assert board.count('<span class="thru">thru 1</span>') == 4
    assert "totals include round 1&#x27;s first hole, which every player has played" in board
    assert '<th scope="col">R1 (hole 1)</th>' in board
    projector = public.get(f"/tournaments/{tournament.pk}/projector/panels/").content.decode()
    assert projector.count('<span class="thru">thru 2</span>') == 4
    assert projector.count('<span class="thru">thru 1</span>') == 4
