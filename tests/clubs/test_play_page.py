"""The page that starts a club's game (`/clubs/<id>/games/new/`): owners only; members tapped into
seats in order, guests typed; bad input shown again; one game per start key."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubGame, SeatMember
from scoring.models import Game
from tests.clubs.factories import make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    owner = make_owner("olga")
    club = make_club("Friday Golf", owner)
    members = make_members(club, "Ann", "Bob", "Cy")
    client = Client()
    client.force_login(owner)
    return client, club, members


def _url(club) -> str:
    return reverse("clubs:new-game", args=[club.pk])


def test_only_owners_see_it_and_a_private_club_is_a_404(setup):
    _client, club, _members = setup
    stranger = Client()
    stranger.force_login(make_owner("mallory"))
    assert stranger.get(_url(club)).status_code == 404
    assert Client().get(_url(club)).status_code == 404
    club.is_public = True
    club.save()
    assert stranger.get(_url(club)).status_code == 403
    assert stranger.post(_url(club), {"seat": ["g:A", "g:B"]}).status_code == 403
    assert not Game.objects.exists()


def test_taps_add_move_and_remove_seats(setup):
    client, club, (ann, bob, cy) = setup
    page = client.get(_url(club))
    assert page.status_code == 200 and "Ann" in page.content.decode()
    page = client.post(_url(club), {"seat": [f"m:{bob.pk}"], "action": f"add:m:{ann.pk}"})
    assert page.context["seats"] == [
        {"value": f"m:{bob.pk}", "name": "Bob", "guest": False},
        {"value": f"m:{ann.pk}", "name": "Ann", "guest": False},
    ]
    assert ann not in page.context["available"] and cy in page.context["available"]
    page = client.post(_url(club), {"seat": [f"m:{bob.pk}", f"m:{ann.pk}"], "action": "up:1"})
    assert [seat["name"] for seat in page.context["seats"]] == ["Ann", "Bob"]
    page = client.post(
        _url(club), {"seat": [f"m:{bob.pk}", f"m:{ann.pk}"], "action": "guest", "guest": " Zoe "}
    )
    assert [seat["name"] for seat in page.context["seats"]] == ["Bob", "Ann", "Zoe"]
    page = client.post(_url(club), {"seat": [f"m:{bob.pk}", "g:Zoe"], "action": "remove:0"})
    assert [seat["name"] for seat in page.context["seats"]] == ["Zoe"]
    assert not Game.objects.exists()


def test_start_links_members_in_seat_order_and_opens_the_board(setup):
    client, club, (ann, bob, _cy) = setup
    data = {
        "seat": [f"m:{bob.pk}", "g:Zoe", f"m:{ann.pk}"],
        "ruleset": "official",
        "holes": "6",
        "first_dealer": "2",
        "start_key": "a" * 32,
        "action": "start",
    }
    answer = client.post(_url(club), data)
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == reverse("games:edit", args=[game.edit_token])
    assert game.first_dealer == 2 and game.ruleset["holes"] == 6 and game.followed_by == "clubs.game"
    assert list(game.seats.order_by("seat").values_list("name", flat=True)) == ["Bob", "Zoe", "Ann"]
    assert ClubGame.objects.get(game=game).club == club
    assert dict(SeatMember.objects.values_list("seat", "member")) == {0: bob.pk, 2: ann.pk}
    again = client.post(_url(club), data)  # a double submit: the same game
    assert again["Location"] == answer["Location"] and Game.objects.count() == 1


@pytest.mark.parametrize(
    "seats",
    [
        ["g:Solo"],  # too few players
        ["g:Ann", "g:ann"],  # the same name twice
    ],
)
def test_bad_input_is_shown_again_with_what_was_chosen(setup, seats):
    client, club, _members = setup
    answer = client.post(_url(club), {"seat": seats, "ruleset": "official", "action": "start"})
    assert answer.status_code == 400
    assert answer.context["form"].non_field_errors()
    assert len(answer.context["seats"]) == len(seats)
    assert not Game.objects.exists()


def test_a_retired_or_foreign_member_cannot_be_seated(setup):
    client, club, (ann, bob, _cy) = setup
    bob.retired_at = timezone.now()
    bob.save()
    (stranger,) = make_members(make_club("Other", make_owner("other")), "Stranger")
    data = {"seat": [f"m:{ann.pk}", f"m:{bob.pk}", f"m:{stranger.pk}", "g:Zoe"], "action": "start"}
    answer = client.post(_url(club), {**data, "ruleset": "official"})
    assert answer.status_code == 400
    assert [seat["name"] for seat in answer.context["seats"]] == ["Ann", "Zoe"]
    assert "Bob" not in [m.name for m in answer.context["available"]]
    assert not Game.objects.exists()


def test_the_page_takes_a_bounded_number_of_queries(setup, django_assert_max_num_queries):
    client, club, members = setup
    make_members(club, *(f"M{n:03d}" for n in range(60)))
    client.get(_url(club))  # the session's first load
    seats = [f"m:{member.pk}" for member in members]
    with django_assert_max_num_queries(12):
        page = client.post(_url(club), {"seat": seats, "action": "guest", "guest": "Zoe"})
    assert page.status_code == 200 and len(page.context["available"]) == 60


def test_a_first_dealer_off_the_table_is_shown_again(setup):
    client, club, _members = setup
    data = {"seat": ["g:Ann", "g:Bob"], "ruleset": "official", "first_dealer": "5", "action": "start"}
    answer = client.post(_url(club), data)
    assert answer.status_code == 400 and answer.context["form"].errors["first_dealer"]
    assert "field-error" in answer.content.decode()
    assert not Game.objects.exists()
