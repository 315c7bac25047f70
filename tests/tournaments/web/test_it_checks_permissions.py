"""Every tournament page for every persona: director, co-director, official, another logged-in user,
anonymous, and the holders of a table link (anonymous with the link: the link opens only its own
table's page, nothing of the event). GET only: the writes' permissions are in the other tests."""

from __future__ import annotations

import pytest

from tests.tournaments.web.conftest import as_user, staffed_event

pytestmark = pytest.mark.django_db

OK, LOGIN, FORBIDDEN, MISSING, REDIRECT = 200, "login", 403, 404, 302

# page -> expected status for (dora, cora, olive, sam, anonymous); on a public event.
MATRIX = {
    "": (OK, OK, OK, REDIRECT, REDIRECT),
    "live/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "settings/": (OK, OK, FORBIDDEN, FORBIDDEN, LOGIN),
    "players/": (OK, OK, OK, OK, OK),
    "rounds/1/": (OK, OK, OK, OK, OK),
    "rounds/1/cards/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "standings/": (OK, OK, OK, OK, OK),
    "log/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "player/": (OK, OK, OK, OK, OK),
    "player/status/?action=drop": (OK, OK, FORBIDDEN, FORBIDDEN, LOGIN),
    "officiating/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "officiating/calls/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "officiating/ruling/?situation=stock_exhausted": (OK, OK, OK, FORBIDDEN, LOGIN),
    "rulings/": (OK, OK, OK, FORBIDDEN, LOGIN),  # the log is private unless the director opens it
    "public/": (OK, OK, OK, OK, OK),
    "public/leaderboard/": (OK, OK, OK, OK, OK),
    "projector/": (OK, OK, OK, OK, OK),
    "projector/panels/": (OK, OK, OK, OK, OK),
    "export/standings.csv": (OK, OK, OK, OK, OK),
    "export/scores.json": (OK, OK, OK, OK, OK),
    "rounds/1/print/seating/": (OK, OK, OK, OK, OK),
    "rounds/1/print/slips/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "rounds/1/print/pack.pdf": (OK, OK, OK, FORBIDDEN, LOGIN),
    "table/paper-slip/": (OK, OK, OK, FORBIDDEN, LOGIN),
    "print/results/": (OK, OK, OK, OK, OK),
    "print/players/": (OK, OK, FORBIDDEN, FORBIDDEN, LOGIN),  # the players' personal QR codes
}
PERSONAS = ("dora", "cora", "olive", "sam", None)


def _url(ev, page: str) -> str:
    entrant = ev.tournament.entrants.first()
    page = page.replace("player/", f"players/{entrant.pk}/")
    page = page.replace("table/paper-slip/", f"tables/{ev.table.pk}/paper-slip/")
    return f"/tournaments/{ev.tournament.pk}/{page}"


@pytest.mark.parametrize("public", [True, False])
def test_every_page_answers_each_persona_as_the_policy_says(public: bool) -> None:
    ev = staffed_event(public=public)
    clients = {persona: as_user(persona) for persona in PERSONAS}  # one log-in each: these are GETs
    for page, expected in MATRIX.items():
        for persona, wanted in zip(PERSONAS, expected, strict=True):
            if not public and persona in ("sam", None):
                wanted = MISSING  # a private event does not exist for them
            answer = clients[persona].get(_url(ev, page))
            if wanted == LOGIN:
                assert answer.status_code == 302 and "/accounts/login/" in answer["Location"], (page, persona)
            else:
                assert answer.status_code == wanted, (page, persona, public)


def test_a_table_link_opens_its_own_table_page_and_nothing_else_of_the_event() -> None:
    ev = staffed_event(public=False)
    anonymous = as_user(None)
    assert anonymous.get(f"/tournaments/table/{ev.table.game.edit_token}/").status_code == 200
    assert anonymous.get(f"/tournaments/table/{ev.other_table.game.edit_token}/").status_code == 200
    for page in MATRIX:
        assert anonymous.get(_url(ev, page)).status_code == 404
    for token in (ev.table.game.view_token, "no-such-link"):
        assert anonymous.get(f"/tournaments/table/{token}/").status_code == 404


@pytest.mark.parametrize(
    ("path", "persona", "status"),
    [
        ("rounds/seat/", "olive", 403),
        ("rounds/seat/", "sam", 403),
        ("rounds/1/publish/", "olive", 403),
        ("rounds/1/finalize/", "sam", 403),
        ("players/add/", "olive", 403),
        ("staff/", "cora", 403),
        ("rounds/seat/", None, 302),
        ("officiating/ruling/", "sam", 403),
        ("officiating/calls/1/close/", "sam", 403),
        ("officiating/drafts/1/", "sam", 403),
        ("penalties/1/rescind/", "olive", 403),
        ("tables/1/extend/", "olive", 403),
        ("tables/1/paper-slip/", "sam", 403),
        ("tables/1/paper-slip/", None, 302),
    ],
)
def test_writes_are_refused_to_those_who_may_not_run_the_event(
    path: str, persona: str | None, status: int
) -> None:
    ev = staffed_event(publish=False)
    answer = as_user(persona).post(f"/tournaments/{ev.tournament.pk}/{path}", {"name": "Zed"})
    assert answer.status_code == status
    ev.round.refresh_from_db()
    assert ev.round.status == "seated" and not ev.tournament.entrants.filter(name="Zed").exists()
