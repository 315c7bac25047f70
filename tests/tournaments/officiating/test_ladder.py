"""Rule 6.3's ladder as data: each offence step by step, time points, an official's decided step."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.officiating.ladder import Rung, decided_rung, next_rung, time_points


def test_it_climbs_the_illegal_move_ladder_and_stays_on_the_last_rung() -> None:
    assert [next_rung("illegal_move", n) for n in range(5)] == [
        Rung("warning"),
        Rung("points", 5),
        Rung("round_dq"),
        Rung("round_dq"),
        Rung("round_dq"),
    ]


def test_cheating_disqualifies_at_once_and_unsportsmanlike_conduct_after_a_warning() -> None:
    assert next_rung("cheating", 0) == Rung("event_dq")
    assert [next_rung("unsportsmanlike", n) for n in range(3)] == [
        Rung("warning"),
        Rung("event_dq"),
        Rung("event_dq"),
    ]


def test_time_costs_two_points_per_started_minute_every_time() -> None:
    assert [time_points(s) for s in (0, 1, 59, 60, 61, 120, 200)] == [0, 2, 2, 2, 4, 4, 8]
    assert next_rung("time", 3, seconds_over=200) == Rung("points", 8)


@given(st.integers(min_value=0, max_value=10**6))
def test_time_points_are_even_and_cover_the_time_over(seconds: int) -> None:
    points = time_points(seconds)
    assert points % 2 == 0 and (points // 2) * 60 >= seconds > (points // 2 - 1) * 60 - (seconds == 0) * 60


def test_an_officials_step_takes_the_ladders_points_for_it() -> None:
    assert decided_rung("illegal_move", "points") == Rung("points", 5)
    assert decided_rung("illegal_move", "event_dq") == Rung("event_dq")
    assert decided_rung("time", "points", seconds_over=61) == Rung("points", 4)
    assert decided_rung("unsportsmanlike", "points") == Rung("points", 5)  # project decision
    assert decided_rung("cheating", "warning") == Rung("warning")
