"""What got in a new owner's way on a phone, fixed: a finished club game's board leads back to the
club, and a refused form far down the members' page is announced where the page opens."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.clubs.factories import club_game, make_club, make_members, make_owner

pytestmark = pytest.mark.django_db

NINE_HOLES = [{"Ann": 3, "Bob": 5, "Joe": 7}] * 9


def test_a_finished_club_games_board_leads_its_scorer_back_to_the_club():
    club = make_club("The Fridays")
    ann, bob = make_members(club, "Ann", "Bob")
    playing = club_game(club, [ann, bob, "Joe"], NINE_HOLES[:8])
    board = Client().get(f"/games/e/{playing.edit_token}/").content.decode()
    assert "Back to The Fridays" not in board  # nothing while the game is played
    game = club_game(club, [ann, bob, "Joe"], NINE_HOLES)
    assert game.is_finished
    board = Client().get(f"/games/e/{game.edit_token}/").content.decode()
    assert f'href="/clubs/{club.pk}/">Back to The Fridays</a>' in board
    watched = Client().get(f"/games/v/{game.view_token}/")
    assert watched.status_code == 200 and "Back to The Fridays" not in watched.content.decode()


def test_a_game_of_no_club_offers_no_way_to_a_club():
    from scoring import services

    game = services.create_game(players=["Ann", "Bob"], ruleset="official")
    for _ in range(9):
        services.hole_record(game, entries={"Ann": 1, "Bob": 2}, ender=None)
    assert "Back to" not in Client().get(f"/games/e/{game.edit_token}/").content.decode()


def test_a_refused_merge_is_announced_at_the_top_of_the_members_page():
    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club(owner=make_owner("owner"))
    ann, bob = make_members(club, "Ann", "Bob")
    club_game(club, [ann, bob])
    page = owner.post(f"/clubs/{club.pk}/members/merge/", {"keep": ann.pk, "duplicate": bob.pk})
    html = page.content.decode()
    assert page.status_code == 409
    summary = html.index('href="#merge-members">Nothing was merged')
    assert summary < html.index('id="members-title"') < html.index("two people, not one")


def test_a_refused_list_is_announced_at_the_top_and_a_good_page_has_no_alarm():
    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club(owner=make_owner("owner"))
    page = owner.post(f"/clubs/{club.pk}/members/paste/", {"names": "Ann\nAnn\n"})
    html = page.content.decode()
    assert page.status_code == 400
    assert html.index('href="#paste-members">Nobody was added') < html.index('id="members-title"')
    assert "refused-summary" not in owner.get(f"/clubs/{club.pk}/members/").content.decode()


def test_the_members_page_leads_to_a_game_and_dates_read_the_same_everywhere():
    from datetime import date

    from clubs.models import Season

    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club(owner=make_owner("owner"))
    make_members(club, "Ann")
    new_game = f'href="/clubs/{club.pk}/games/new/"'
    assert new_game not in owner.get(f"/clubs/{club.pk}/members/").content.decode()  # one is no game
    make_members(club, "Bob")
    assert new_game in owner.get(f"/clubs/{club.pk}/members/").content.decode()
    season = Season.objects.create(club=club, name="2027", start=date(2027, 1, 1), end=date(2027, 12, 31))
    for path in ("", "seasons/", f"seasons/{season.pk}/"):
        assert "Jan. 1, 2027 \u2013 Dec. 31, 2027" in owner.get(f"/clubs/{club.pk}/{path}").content.decode()


def test_a_public_clubs_settings_open_its_public_page():
    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club(owner=make_owner("owner"), public=True)
    html = owner.get(f"/clubs/{club.pk}/settings/").content.decode()
    assert f'href="http://testserver/clubs/p/{club.public_token}/">Open the public page' in html


def test_an_invitation_opened_logged_out_says_why_the_log_in_page_comes():
    from clubs.models import ClubOwner, OwnerInvitation

    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club("The Fridays", make_owner("owner"))
    owner.post(f"/clubs/{club.pk}/settings/invite/")
    url = f"/clubs/invitations/{OwnerInvitation.objects.get().token}/"
    visitor = Client()
    answer = visitor.get(url)
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/?next=")
    login_page = visitor.get(answer["Location"]).content.decode()
    assert "Log in, or sign up, to become a co-owner of The Fridays." in login_page
    assert visitor.post(url).status_code == 302  # a form sent logged out is not carried out
    assert ClubOwner.objects.filter(club=club).count() == 1


def test_a_seasons_games_say_who_won_and_who_played():
    from datetime import date

    from clubs.models import Season

    owner = Client()
    owner.force_login(make_owner("owner"))
    club = make_club(owner=make_owner("owner"))
    ann, bob, cy = make_members(club, "Ann", "Bob", "Cy")
    club_game(club, [ann, bob, cy, "Joe"], [{"Ann": 9, "Bob": 1, "Cy": 5, "Joe": 12}] * 9)
    season = Season.objects.create(club=club, name="All", start=date(2020, 1, 1), end=date(2099, 12, 31))
    html = owner.get(f"/clubs/{club.pk}/seasons/{season.pk}/").content.decode()
    games = html[html.index("club-games") :]
    assert "· Bob won" in games and "with Cy, Ann" in games, games[:600]  # members by place; no guest
