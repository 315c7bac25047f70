"""manage.py load_demo_club: the demo club with months of games, loaded once however often it runs,
its ratings those a recompute gives, and only in development."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.utils import timezone

from clubs.models import Club, ClubGame, Member, MemberResult, Season
from clubs.services.ratings import recompute_club
from clubs.services.results import recount_club
from golfclub.core.demo_links import DEMO_PASSWORD, DEMO_USERNAME
from scoring.models import Game, GameStatus, Hole

pytestmark = pytest.mark.django_db


def _load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo_club", "--base-url", "http://127.0.0.1:8765", *args, stdout=out)
    return out.getvalue()


def _ratings(club: Club) -> tuple[list[tuple], list[tuple]]:
    """Every member's current rating and every result's rating columns, exactly."""
    members = list(
        Member.objects.filter(club=club)
        .order_by("name")
        .values_list("name", "mu", "sigma", "ordinal", "rated_games")
    )
    results = list(
        MemberResult.objects.filter(club=club)
        .order_by("finished_at", "game_id", "member_id")
        .values_list("member__name", "place", "mu_before", "sigma_before", "mu_after", "sigma_after")
    )
    return members, results


@pytest.fixture(autouse=True)
def development(settings) -> None:
    """The demo commands run only in development; the test runner turns DEBUG off."""
    settings.DEBUG = True


def test_it_loads_the_club_once_with_its_history_and_prints_its_links() -> None:
    out = _load()
    club = Club.objects.get(name="Friday Golf")
    assert f"http://127.0.0.1:8765/clubs/{club.pk}/" in out
    assert "game in play: http://127.0.0.1:8765/games/e/" in out
    owner = club.owners.get().user
    assert owner.username == DEMO_USERNAME and owner.check_password(DEMO_PASSWORD)

    members = Member.objects.filter(club=club)
    assert members.count() == 7 and members.filter(retired_at__isnull=False).count() == 1
    assert Season.objects.filter(club=club).count() == 2
    statuses = list(Game.objects.filter(club_link__club=club).values_list("status", flat=True))
    assert len(statuses) == 31 and statuses.count(GameStatus.IN_PROGRESS) == 1
    counted = MemberResult.objects.filter(club=club)
    assert counted.values("game").distinct().count() == 30
    # Some games had a guest (fewer members than players), some ended in a shared first place.
    assert counted.filter(players__gt=1).values("game").annotate(n=Count("id")).count() == 30
    guests = {r.game_id for r in counted if r.players > counted.filter(game_id=r.game_id).count()}
    assert len(guests) >= 5
    assert counted.filter(place=1).values("game").annotate(n=Count("id")).filter(n__gt=1).exists()
    # Spread over the past months, into both seasons, in the order they were played.
    for season in Season.objects.filter(club=club):
        assert counted.filter(finished_at__date__range=(season.start, season.end)).exists(), season.name
    assert len({at.strftime("%Y-%m") for at in counted.values_list("finished_at", flat=True)}) >= 3
    assert members.filter(rated_games__gt=0).count() == 7
    # The games and their holes were moved to their evenings too (the exports and pages show them).
    days_ago = timezone.now() - datetime.timedelta(days=2)
    finished = Game.objects.filter(club_link__club=club, status=GameStatus.FINISHED)
    assert not finished.filter(created_at__gt=days_ago).exists()
    assert not Hole.objects.filter(game__in=finished, created_at__gt=days_ago).exists()

    ratings = _ratings(club)
    games = Game.objects.count()
    again = _load()
    assert "already there" in again and f"/clubs/{club.pk}/" in again
    assert Club.objects.filter(name="Friday Golf").count() == 1 and Game.objects.count() == games
    assert _ratings(club) == ratings


def test_its_ratings_are_those_a_recompute_and_a_recount_give() -> None:
    _load()
    club = Club.objects.get(name="Friday Golf")
    loaded = _ratings(club)
    assert recompute_club(club) == 30
    assert _ratings(club) == loaded
    recount_club(club)  # rewrites the results from the games: the back-dated times are kept
    assert _ratings(club) == loaded


def test_reset_rebuilds_the_same_club_and_leaves_no_old_game() -> None:
    _load()
    old = Club.objects.get(name="Friday Golf")
    before = _ratings(old)
    games = Game.objects.count()
    old_games = set(ClubGame.objects.filter(club=old).values_list("game_id", flat=True))
    out = _load("--reset")
    assert "is ready" in out
    club = Club.objects.get(name="Friday Golf")
    assert club.pk != old.pk and Game.objects.count() == games
    assert not Game.objects.filter(pk__in=old_games).exists()
    assert _ratings(club)[0] == before[0]  # the same seed plays the same games


def test_it_refuses_outside_development(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG=true"):
        _load()
    assert not Club.objects.exists()
