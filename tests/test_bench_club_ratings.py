"""bench/club_ratings.py run small on the test database: its builder writes a consistent club
history and its recompute ends where the bare openskill loop does (the timing is the bench's)."""

from __future__ import annotations

import pytest

from bench.club_data import build_club
from bench.club_ratings import measure, report
from clubs.models import ClubGame, Member, MemberResult, SeatMember
from scoring.models import Seat

pytestmark = pytest.mark.django_db


def test_the_bench_builds_a_club_history_and_its_recompute_matches_the_bare_loop(capsys):
    data = build_club(members=12, games=60, seed=5, holes=True)
    assert ClubGame.objects.filter(club=data.club).count() == 60
    assert SeatMember.objects.filter(game_id__in=data.game_ids).count() == 240
    assert MemberResult.objects.filter(club=data.club).count() == 240
    assert Seat.objects.filter(game_id__in=data.game_ids).count() == 240
    assert Member.objects.filter(club=data.club, rated_games__gt=0).count() == 12
    figures = measure(data.club, samples=1)
    assert figures["same"] and figures["games"] == 60 and figures["rated"] == 60
    report(figures, 12)
    assert "| openskill alone, bare loop |" in capsys.readouterr().out
