"""The stats read what the ratings service wrote for real club games (finished through scoring)."""

from __future__ import annotations

import pytest

from clubs.models import Member, MemberResult
from clubs.selectors.leaderboard import club_leaderboard
from clubs.selectors.member_stats import member_stats
from tests.clubs.factories import club_game, make_club, make_members

pytestmark = pytest.mark.django_db


def test_the_leaderboard_and_a_members_stats_follow_finished_club_games() -> None:
    club = make_club()
    ann, bob, cy = make_members(club, "Ann", "Bob", "Cy")
    ruleset = {"preset": "official", "holes": 2}
    club_game(club, [ann, bob, cy], [{"Ann": 3, "Bob": 10, "Cy": 20}] * 2, ruleset=ruleset)
    club_game(club, [bob, ann, "Guest"], [{"Bob": 1, "Ann": 5, "Guest": 9}] * 2, ruleset=ruleset)
    assert MemberResult.objects.filter(club=club).count() == 5
    board = club_leaderboard(club)
    ordinals = {m.pk: m.ordinal for m in Member.objects.filter(club=club)}
    assert [row.member_id for row in board] == sorted(ordinals, key=lambda pk: -ordinals[pk])
    assert {row.name: row.games for row in board} == {"Ann": 2, "Bob": 2, "Cy": 1}
    stats = member_stats(Member.objects.get(pk=ann.pk))
    assert (stats.record.games, stats.record.wins, stats.record.total_points) == (2, 1, 16)
    assert stats.history[-1].ordinal == pytest.approx(ordinals[ann.pk])
    assert [(h.name, h.games, h.ahead, h.behind) for h in stats.head_to_head] == [
        ("Bob", 2, 1, 1),
        ("Cy", 1, 1, 0),
    ]
