"""The stats selectors against hand-computed figures, and against a naive recomputation in Python
from the rows over random histories."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest

from clubs.models import Member, MemberResult, Season, SeatMember
from clubs.selectors.head_to_head import head_to_head, nemesis_of, rival_of
from clubs.selectors.leaderboard import club_leaderboard
from clubs.selectors.member_stats import average_turn_seconds, member_stats
from clubs.selectors.seasons import SeasonOrder, season_games, season_leaderboard
from tests.clubs.factories import make_club, make_members
from tests.clubs.stats_rows import Line, counted_game

pytestmark = pytest.mark.django_db

DAY = datetime(2027, 3, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def four_games():
    """Ann, Bob, Cy, Dee (retired later: off the leaderboard), Eve (never played)."""
    club = make_club()
    ann, bob, cy, dee, eve = make_members(club, "Ann", "Bob", "Cy", "Dee", "Eve")
    counted_game(
        club, DAY, [Line(ann, 1, 20, low=4, best=-2), Line(bob, 2, 30, low=2, best=0), Line(cy, 3, 41)]
    )
    counted_game(
        club, DAY + timedelta(days=1), [Line(ann, 1, 25, low=3, best=1), Line(bob, 1, 25, low=3, best=-5)]
    )
    third = [Line(bob, 1, 10, low=5, best=-1), Line(ann, 2, 18, low=1, best=2), Line(dee, 3, 30)]
    counted_game(club, DAY + timedelta(days=2), third)
    counted_game(
        club, DAY + timedelta(days=40), [Line(cy, 1, 12, holes=6, low=6, best=-3), Line(ann, 2, 30, holes=6)]
    )
    Member.objects.filter(pk=dee.pk).update(retired_at=DAY)
    return club, ann, bob, cy, dee, eve


def test_the_leaderboard_ranks_active_members_by_ordinal_unrated_last(
    four_games, django_assert_num_queries
) -> None:
    club, ann, bob, cy, _dee, eve = four_games
    with django_assert_num_queries(1):
        board = club_leaderboard(club)
    ordinals = {m.pk: m.ordinal for m in Member.objects.filter(club=club)}
    rated = sorted((ann, bob, cy), key=lambda m: -ordinals[m.pk])
    assert [row.member_id for row in board] == [m.pk for m in rated] + [eve.pk]
    assert [row.rank for row in board] == [1, 2, 3, None]
    assert {row.name: row.games for row in board} == {"Ann": 4, "Bob": 3, "Cy": 2, "Eve": 0}


def test_a_members_record_counts_a_shared_first_place_as_a_win(four_games, django_assert_num_queries) -> None:
    _club, ann, *_ = four_games
    with django_assert_num_queries(6):  # five of results, one of their seats (none timed: no readings)
        stats = member_stats(ann)
    record = stats.record
    assert (record.games, record.wins, record.holes_played, record.total_points) == (4, 2, 33, 93)
    assert (record.low_hole_score, record.best_hole_score) == (8, -2)
    assert record.average_per_hole == round(93 / 33, 2)
    assert [point.game_id for point in stats.history] == list(
        MemberResult.objects.filter(member=ann).order_by("finished_at").values_list("game_id", flat=True)
    )
    last = MemberResult.objects.filter(member=ann).order_by("-finished_at").first()
    assert stats.history[-1].ordinal == pytest.approx(last.mu_after - 3 * last.sigma_after)
    assert [game.place for game in stats.recent] == [2, 2, 1, 1]
    assert stats.recent[0].with_members == ("Cy",)
    assert stats.recent[0].board_url.startswith("/games/v/")
    assert stats.average_turn_seconds is None


def test_head_to_head_counts_ahead_behind_and_tied_from_the_members_side(four_games) -> None:
    _club, ann, _bob, cy, _dee, _eve = four_games
    meetings = {row.name: (row.games, row.ahead, row.behind, row.tied) for row in head_to_head(ann)}
    assert meetings == {"Bob": (3, 1, 1, 1), "Cy": (2, 1, 1, 0), "Dee": (1, 1, 0, 0)}
    # Bob is the only one met 3 times: neither beat the other more often, so rival yes, nemesis no.
    assert rival_of(head_to_head(ann)).name == "Bob"
    assert nemesis_of(head_to_head(ann)) is None
    assert rival_of(head_to_head(cy)) is None  # never 3 games with anyone


def test_rival_and_nemesis_need_three_shared_games() -> None:
    club = make_club()
    me, often, rarely = make_members(club, "Me", "Often", "Rarely")
    for day in range(4):
        counted_game(club, DAY + timedelta(days=day), [Line(often, 1, 10), Line(me, 2, 20)])
    for day in range(2):
        counted_game(club, DAY + timedelta(days=10 + day), [Line(rarely, 1, 10), Line(me, 2, 20)])
    stats = member_stats(me)
    assert stats.rival.name == "Often" and stats.nemesis.name == "Often"
    assert member_stats(often).rival is None and member_stats(often).nemesis is None


def test_the_season_counts_games_within_its_dates_and_sorts_by_each_column(
    four_games, django_assert_num_queries
) -> None:
    club, ann, _bob, _cy, _dee, _eve = four_games
    season = Season.objects.create(club=club, name="March", start=date(2027, 3, 1), end=date(2027, 3, 31))
    with django_assert_num_queries(1):
        rows = season_leaderboard(season)
    assert [row.name for row in rows] == [
        "Ann",
        "Bob",
        "Dee",
        "Cy",
    ]  # wins, then lower average (63/27 < 65/27)
    ann_row = next(row for row in rows if row.name == "Ann")
    assert (ann_row.record.games, ann_row.record.wins, ann_row.record.total_points) == (3, 2, 63)
    first = MemberResult.objects.filter(member=ann).order_by("finished_at").first()
    last_in = (
        MemberResult.objects.filter(member=ann, finished_at__lt=DAY + timedelta(days=30))
        .order_by("-finished_at")
        .first()
    )
    assert ann_row.rating_change == pytest.approx(
        (last_in.mu_after - 3 * last_in.sigma_after) - (first.mu_before - 3 * first.sigma_before)
    )
    assert next(r.name for r in season_leaderboard(season, SeasonOrder.TOTAL_POINTS)) == "Dee"
    assert next(r.name for r in season_leaderboard(season, SeasonOrder.LOW_HOLES)) == "Bob"
    assert next(r.name for r in season_leaderboard(season, SeasonOrder.AVERAGE)) == "Ann"
    assert [r.name for r in season_leaderboard(season, SeasonOrder.RATING_CHANGE)][-1] in {"Cy", "Dee"}
    count, games = season_games(season)
    assert count == 3 and len(games) == 3
    assert games[0].finished_at > games[-1].finished_at


def test_average_turn_time_adds_the_members_seats_only() -> None:
    times = {(1, 0): (60_000, 4), (1, 1): (999_000, 1), (2, 2): (30_000, 2)}
    assert average_turn_seconds([(1, 0), (2, 2)], times) == 15.0
    assert average_turn_seconds([(3, 0)], times) is None


# ---------------------------------------------------------------------------------------------
# Random histories against a naive recomputation from the rows


def _random_history(seed: int):
    rng = random.Random(seed)
    club = make_club(f"Random {seed}")
    members = make_members(club, *[f"P{index}" for index in range(7)])
    for number in range(40):
        table = rng.sample(members, rng.randint(2, 4))
        totals = [rng.randint(-5, 60) for _ in table]
        places = [1 + sum(other < total for other in totals) for total in totals]  # ties share a place
        lines = [
            Line(
                member, place, total, holes=rng.choice((6, 9)), low=rng.randint(0, 6), best=rng.randint(-5, 9)
            )
            for member, place, total in zip(table, places, totals, strict=True)
        ]
        counted_game(club, DAY + timedelta(hours=13 * number), lines, players=len(table) + rng.randint(0, 1))
    return club, members


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_figure_equals_a_naive_recomputation_from_the_rows(seed: int) -> None:
    club, members = _random_history(seed)
    rows = list(MemberResult.objects.filter(club=club).order_by("finished_at", "game_id"))
    by_game = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    for member in members:
        mine = [row for row in rows if row.member_id == member.pk]
        stats = member_stats(member)
        holes = sum(r.holes_played for r in mine)
        best = min((r.best_hole_score for r in mine), default=None)
        low = sum(r.low_hole_score for r in mine)
        expected = (
            len(mine),
            sum(r.place == 1 for r in mine),
            holes,
            sum(r.total_points for r in mine),
            low,
            best,
        )
        got = stats.record
        assert (
            got.games,
            got.wins,
            got.holes_played,
            got.total_points,
            got.low_hole_score,
            got.best_hole_score,
        ) == expected
        meetings = defaultdict(lambda: [0, 0, 0, 0])
        for row in mine:
            for other in by_game[row.game_id]:
                if other.member_id != member.pk:
                    tally = meetings[other.member_id]
                    tally[0] += 1
                    tally[1 + (0 if row.place < other.place else 1 if row.place > other.place else 2)] += 1
        assert {h.member_id: [h.games, h.ahead, h.behind, h.tied] for h in stats.head_to_head} == dict(
            meetings
        )
    season = Season.objects.create(club=club, name="Part", start=date(2027, 3, 4), end=date(2027, 3, 12))
    inside = [r for r in rows if season.start <= r.finished_at.date() <= season.end]
    for row in season_leaderboard(season):
        mine = [r for r in inside if r.member_id == row.member_id]
        assert row.record.games == len(mine)
        assert row.record.total_points == sum(r.total_points for r in mine)
        change = (mine[-1].mu_after - 3 * mine[-1].sigma_after) - (
            mine[0].mu_before - 3 * mine[0].sigma_before
        )
        assert row.rating_change == pytest.approx(change, abs=1e-4)
    assert season_games(season)[0] == len({r.game_id for r in inside})


def test_the_turn_timer_slot_adds_the_members_seconds_per_turn(four_games) -> None:
    _club, ann, *_rest = four_games
    games = list(MemberResult.objects.filter(member=ann).values_list("game_id", flat=True))
    SeatMember.objects.bulk_create(SeatMember(game_id=game_id, seat=2, member=ann) for game_id in games)
    asked: list[list[int]] = []

    def turn_times(game_ids):
        asked.append(list(game_ids))
        return {(game_id, 2): (90_000, 3) for game_id in game_ids[:2]} | {(games[0], 1): (1, 1)}

    assert member_stats(ann, turn_times=turn_times).average_turn_seconds == 30.0
    assert asked == [sorted(games)]
