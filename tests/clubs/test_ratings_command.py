"""manage.py recompute_ratings rebuilds every result and rating and changes no digit."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Member, MemberResult
from tests.clubs.factories import make_club, make_members
from tests.clubs.ratings_games import play_random_game

pytestmark = pytest.mark.django_db


def everything() -> tuple[list, list]:
    """Every result (but its row id, rewritten by the rebuild) and every member row."""
    fields = [f.attname for f in MemberResult._meta.concrete_fields if f.attname != "id"]
    return (
        sorted(MemberResult.objects.values_list(*fields)),
        list(Member.objects.order_by("pk").values_list()),
    )


def test_recompute_ratings_gives_identical_numbers_for_every_club_or_one():
    rnd = random.Random(4)
    for name in ("Friday Golf", "Sunday Golf"):
        club = make_club(name)
        members = make_members(club, *[f"{name[:3]} {i}" for i in range(5)])
        for _ in range(12):
            play_random_game(club, rnd, members, rnd.choice(["home", "official"]))
    before = everything()
    assert any(row[-1] != 25.0 for row in before[0])  # the floats compared are real ratings
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert everything() == before
    assert out.getvalue().count("games rated") == 2
    MemberResult.objects.update(mu_after=0.0, sigma_after=0.0, place=9)  # a database edited by hand
    Member.objects.update(mu=None, rated_games=0)
    call_command("recompute_ratings", "--club", str(club.pk), stdout=out)
    call_command("recompute_ratings", "--club", str(club.pk - 1), stdout=out)
    assert everything() == before


def test_an_unknown_club_is_an_error():
    with pytest.raises(CommandError, match="No club"):
        call_command("recompute_ratings", "--club", "999999")
