"""A club game and its seats' members are written in the game's creating transaction."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from clubs.models import ClubGame, SeatMember
from scoring import services
from scoring.models import Game
from tests.clubs.factories import club_game, make_club, make_members

pytestmark = pytest.mark.django_db


def test_a_club_game_links_its_members_and_leaves_guests_unlinked():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, "Guest", bob], [{"Ann": 3, "Bob": 5, "Guest": 7}] * 9)
    assert game.is_finished and game.followed_by == "clubs.game"
    assert ClubGame.objects.get(game=game).club == club
    linked = SeatMember.objects.filter(game=game).values_list("seat", "member__name")
    assert dict(linked) == {0: "Ann", 2: "Bob"}


def test_a_failing_link_writer_leaves_no_game_behind():
    club = make_club()
    (ann,) = make_members(club, "Ann")

    def link_twice(game: Game) -> None:
        SeatMember.objects.create(game=game, seat=0, member=ann)
        SeatMember.objects.create(game=game, seat=1, member=ann)  # one member, two seats: refused

    before = Game.objects.count()
    with pytest.raises(IntegrityError):
        services.create_game(players=["Ann", "Bob"], followed_by="clubs.game", after_create=[link_twice])
    assert Game.objects.count() == before
    assert not SeatMember.objects.exists()
