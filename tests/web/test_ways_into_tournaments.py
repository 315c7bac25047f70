"""The ways into tournaments (issue 19, item 1): the menu on every page, the home page, where a new
account lands, a director's own events first, and `make run` on another port."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tests.accounts.helpers import FRAN_PASSWORD
from tests.tournaments.helpers import event, user
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
MENU = re.compile(r'<nav aria-label="Main">(.*?)</nav>', re.S)


def menu_of(html: str) -> str:
    """The header's main menu of a page (fails the test when the page has none)."""
    found = MENU.search(html)
    assert found, "the page has no main menu"
    return found.group(1)


@pytest.mark.parametrize("who", [None, "dora"])
def test_it_puts_tournaments_and_run_a_tournament_in_the_menu_of_every_page(who: str | None) -> None:
    tournament = event(4)
    client = as_user(who)
    # Each page with the one status it answers (the event is public: its pages are anyone's).
    pages = [
        ("/", 200),
        ("/score/", 200),
        ("/games/", 200),
        ("/games/new/", 200),
        ("/rules/", 200),
        ("/rules/official/", 200),
        ("/tournaments/", 200),
        (f"/tournaments/{tournament.pk}/public/", 200),
        (f"/tournaments/{tournament.pk}/players/", 200),
        (f"/tournaments/{tournament.pk}/standings/", 200),
        ("/accounts/login/" if who is None else "/accounts/token/", 200),
        ("/no-such-page/", 404),  # the not-found page has the menu too
    ]
    for url, status in pages:
        answer = client.get(url)
        assert answer.status_code == status, url
        menu = menu_of(answer.content.decode())
        assert 'href="/tournaments/"' in menu and ">Tournaments<" in menu, url
        assert 'href="/tournaments/new/"' in menu and ">Run a tournament<" in menu, url


def test_the_home_page_leads_to_the_tournaments_and_to_running_one() -> None:
    main = Client().get("/").content.decode().split('<main id="main"', 1)[1]
    assert 'href="/tournaments/new/"' in main and "Run a tournament" in main
    assert 'href="/tournaments/"' in main and "See the tournaments" in main
    assert 'href="/games/new/"' in main  # the casual game is still offered beside it


def test_the_tournaments_list_offers_run_a_tournament() -> None:
    main = as_user("sam").get("/tournaments/").content.decode().split('<main id="main"', 1)[1]
    assert main.count('href="/tournaments/new/"') == 2  # the head's button and "You do not run any yet"
    assert "Run a tournament" in main


def test_a_new_account_lands_where_it_chooses_between_a_casual_game_and_a_tournament(settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    client = Client()
    signed = client.post(
        "/accounts/signup/", {"username": "fran", "password1": FRAN_PASSWORD, "password2": FRAN_PASSWORD}
    )
    assert signed.status_code == 302
    landing = client.get(signed["Location"])
    main = landing.content.decode().split('<main id="main"', 1)[1]
    assert "Welcome, fran" in main
    assert 'href="/games/new/"' in main and 'href="/tournaments/new/"' in main
    assert "Your events and the public ones" in main


def test_signing_up_from_run_a_tournament_comes_back_to_the_new_tournament(settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    client = Client()
    login = client.get("/tournaments/new/", follow=True).content.decode()
    assert 'href="/accounts/signup/?next=/tournaments/new/"' in login
    signed = client.post(
        "/accounts/signup/?next=/tournaments/new/",
        {"username": "fran", "password1": FRAN_PASSWORD, "password2": FRAN_PASSWORD},
    )
    assert signed["Location"] == "/tournaments/new/"
    assert client.get("/tournaments/new/").status_code == 200


def test_a_director_sees_the_events_they_direct_before_those_they_help_run() -> None:
    helped = event(4)
    Tournament.objects.filter(pk=helped.pk).update(
        name="Helped Cup", director=user("cora"), date="2026-12-01"
    )
    services.add_staff(helped, "dora", "co_director")
    own = event(4)
    Tournament.objects.filter(pk=own.pk).update(name="Own Open", date="2026-01-01")
    page = as_user("dora").get("/tournaments/").content.decode()
    assert page.index("Own Open") < page.index("Helped Cup")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize(
    ("arguments", "address"),
    [
        ([], "127.0.0.1:8000"),
        (["PORT=8001"], "127.0.0.1:8001"),
        (["HOST=0.0.0.0", "PORT=8002"], "0.0.0.0:8002"),
    ],
)
def test_make_run_can_be_told_another_port_and_host(arguments: list[str], address: str) -> None:
    # -n prints the commands without running them (the server is not started).
    printed = subprocess.run(
        ["make", "-n", "run", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"manage.py runserver {address}" in printed
