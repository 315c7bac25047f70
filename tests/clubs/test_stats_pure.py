"""The stats' pure parts, by hypothesis: rival and nemesis against their definitions, the turn
average, and the rating chart on any history."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from clubs.selectors.head_to_head import MIN_SHARED_GAMES, HeadToHead, nemesis_of, rival_of
from clubs.selectors.member_stats import average_turn_seconds
from clubs.web.stats_charts import _ticks, rating_chart


@st.composite
def meetings(draw) -> list[HeadToHead]:
    count = draw(st.integers(0, 8))
    rows = []
    for index in range(count):
        ahead, behind, tied = (draw(st.integers(0, 6)) for _ in range(3))
        if ahead + behind + tied:
            rows.append(HeadToHead(index + 1, f"M{index}", ahead + behind + tied, ahead, behind, tied))
    return rows


@given(meetings())
def test_the_rival_finished_ahead_most_often_among_members_met_three_times(rows) -> None:
    rival = rival_of(rows)
    eligible = [r for r in rows if r.games >= MIN_SHARED_GAMES and r.behind > 0]
    if not eligible:
        assert rival is None
        return
    assert rival in eligible
    assert rival.behind == max(r.behind for r in eligible)
    assert rival.games == max(r.games for r in eligible if r.behind == rival.behind)


@given(meetings())
def test_the_nemesis_has_the_best_share_among_those_ahead_more_often_than_behind(rows) -> None:
    nemesis = nemesis_of(rows)
    eligible = [r for r in rows if r.games >= MIN_SHARED_GAMES and r.behind > r.ahead]
    if not eligible:
        assert nemesis is None
        return
    assert nemesis in eligible
    assert all(nemesis.behind * r.games >= r.behind * nemesis.games for r in eligible)


@given(
    st.dictionaries(
        st.tuples(st.integers(1, 5), st.integers(0, 3)), st.tuples(st.integers(0, 10**7), st.integers(1, 50))
    )
)
def test_the_turn_average_adds_the_members_seats_only(times) -> None:
    seats = sorted(times)[::2]
    turns = sum(times[s][1] for s in seats)
    expected = round(sum(times[s][0] for s in seats) / turns / 1000, 1) if turns else None
    assert average_turn_seconds(seats, times) == expected


@given(st.lists(st.floats(-60, 60, allow_nan=False), min_size=2, max_size=300))
@example([5.0, -5e-324])  # a denormal just below a tick once put the axis above it (CI, issue 33)
def test_the_chart_spans_every_rating_and_names_first_and_last(ordinals) -> None:
    ticks = _ticks(min(ordinals), max(ordinals))
    assert ticks[0] <= min(ordinals) and ticks[-1] >= max(ordinals) and len(ticks) <= 12
    svg = str(rating_chart(ordinals))
    assert svg.startswith('<svg class="chart rating-chart"') and svg.count("<polyline") == 1
    assert f"{ordinals[-1]:.1f}" in svg and 'role="img"' in svg
