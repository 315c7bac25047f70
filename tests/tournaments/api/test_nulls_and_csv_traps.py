"""Issue 20, findings 2 and 4: a null where a stored event always has a value is a 400 naming the
field (it was a 500), and a CSV whose lines do not read as one player each is refused by line,
all or nothing, in the API and on the page (an unclosed quote once made "Ann,X Bob,Y" of two)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user
from tournaments.models import Entrant, Tournament

from .conftest import client_of, create, csv_post

pytestmark = pytest.mark.django_db


def _settings(pk: int) -> tuple[Any, ...]:
    return tuple(
        Tournament.objects.filter(pk=pk)
        .values_list("seed", "tiebreakers", "ruleset", "rounds", "seating", "public", "version")
        .get()
    )


@pytest.mark.parametrize(
    "field",
    ["seed", "tiebreakers", "ruleset", "name", "venue", "rounds", "seating", "standings_release", "public",
     "rulings_public", "public_table_links"],
)  # fmt: skip
def test_it_refuses_clearing_a_setting_with_null_naming_it(dora: APIClient, field: str) -> None:
    tid = create(dora)["id"]
    before = _settings(tid)
    response = dora.patch(f"/api/v1/tournaments/{tid}/", {field: None}, format="json")
    assert response.status_code == 400, response.content
    assert [e["where"] for e in response.json()["errors"]] == [field]
    assert _settings(tid) == before


@pytest.mark.parametrize("field", ["date", "time_limit_minutes", "hole_time_limit_minutes"])
def test_it_clears_an_optional_setting_with_null(dora: APIClient, field: str) -> None:
    tid = create(dora, date="2026-05-01", time_limit_minutes=30, hole_time_limit_minutes=5)["id"]
    response = dora.patch(f"/api/v1/tournaments/{tid}/", {field: None}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()[field] is None


@pytest.mark.parametrize("field", ["seed", "tiebreakers"])
def test_it_takes_null_as_the_default_when_creating(dora: APIClient, field: str) -> None:
    body = create(dora, **{field: None})
    assert body[field] is not None


def test_it_refuses_clearing_the_seed_in_the_service_too() -> None:
    from tournaments import services
    from tournaments.errors import TournamentError

    tournament = event(4)
    with pytest.raises(TournamentError) as refused:
        services.update_tournament(tournament, seed=None, tiebreakers=None)
    assert [p.where for p in refused.value.problems] == ["seed", "tiebreakers"]


CSV_TRAPS = [
    # An unclosed quote: the csv module read the rest of the file as one name.
    ('name,club\n"Ann,X\nBob,Y\n', "line 2", "not closed"),
    ('name\n"Ann\n', "line 2", "not closed"),
    # A line break inside a quoted name: one player is one line.
    ('name,club\n"Ann\nLee",X\nBob,Y\n', "line 2", "not closed"),
    ('"name\n",club\nAnn\n', "line 1", "not closed"),
    # Text after a closing quote.
    ('name,club\n"Ann"x,Y\nBob,Z\n', "line 2", "quote"),
    # NUL named by its line.
    ("name\nAnn\n\x00Bob\n", "line 3", "NUL"),
    # More cells than columns: an unquoted comma in a name.
    ("name,club\nLee, Ann,North\nBob,South\n", "line 2", "more cells"),
]


@pytest.mark.parametrize(("text", "where", "says"), CSV_TRAPS)
def test_it_refuses_a_csv_trap_by_line_and_creates_nobody(
    dora: APIClient, text: str, where: str, says: str
) -> None:
    tid = create(dora)["id"]
    response = csv_post(dora, tid, text)
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert [e["where"] for e in errors] == [where], errors
    assert says in errors[0]["message"]
    assert not Entrant.objects.exists()


def test_it_reads_a_bom_crlf_and_quotes_inside_a_name(dora: APIClient) -> None:
    tid = create(dora)["id"]
    text = '\ufeffname,club\r\n"Lee, Ann",North\r\n"Ann ""Ace"" Bo",\rCy\n'
    response = csv_post(dora, tid, text)
    assert response.status_code == 201, response.content
    assert sorted(Entrant.objects.values_list("name", flat=True)) == ['Ann "Ace" Bo', "Cy", "Lee, Ann"]


def test_it_names_the_editors_line_past_a_unicode_line_separator(dora: APIClient) -> None:
    tid = create(dora)["id"]
    response = csv_post(dora, tid, "name,rating\nAnn\u2028Lee,1\nBob,x\n")
    assert response.status_code == 400
    assert [e["where"] for e in response.json()["errors"]] == ["line 3"]


def test_it_refuses_an_unclosed_quote_on_the_page_and_imports_nobody() -> None:
    tournament = event(2)
    upload = SimpleUploadedFile("players.csv", b'name,club\n"Ann,X\nBob,Y\n', content_type="text/csv")
    answer = as_user("dora").post(f"/tournaments/{tournament.pk}/players/import/", {"file": upload})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Line 2" in page and "not closed" in page
    assert tournament.entrants.count() == 2


def _null_routes() -> list[tuple[str, str, dict[str, Any], str]]:
    """(method, path, a body that would work, the field sent as null) for every field of every
    tournament write's body."""
    routes: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "", {"name": "Open"}),
        ("PATCH", "{t}/", {"venue": "Hall"}),
        ("POST", "{t}/players/", {"name": "Ann", "club": "North", "rating": 5}),
        ("POST", "{t}/players/{p}/drop/", {"reason": "ill"}),
        ("POST", "{t}/players/{p}/check-in/", {"checked_in": True}),
        ("POST", "{t}/rounds/1/swap/", {"players": ["{p}", "{q}"], "reason": "friends"}),
        ("POST", "{t}/rounds/1/finalize/", {"override": False, "reason": ""}),
        ("POST", "{t}/rounds/1/tables/1/clear-dispute/", {"note": "settled"}),
        ("POST", "{t}/staff/", {"username": "sam", "role": "official"}),
        ("POST", "{t}/penalties/", {"player": "{p}", "offence": "time", "round": 1, "step": "warning",
                                    "seconds_over": 30, "note": "slow"}),
        ("POST", "{t}/rulings/", {"situation": "stock_exhausted", "facts": {}, "round": 1, "table": 1,
                                  "hole": 1, "step": "", "note": "x", "player": "{p}"}),
    ]  # fmt: skip
    return [(method, path, body, field) for method, path, body in routes for field in body]


@pytest.mark.parametrize(("method", "path", "body", "field"), _null_routes())
def test_it_answers_a_null_in_any_tournament_body_without_a_500(
    method: str, path: str, body: dict[str, Any], field: str
) -> None:
    from tests.tournaments.api.conftest import with_staff
    from tournaments import services

    tournament = with_staff(event(8, rounds=2, holes=1))
    services.seat_next_round(tournament)
    first, second = Entrant.objects.filter(tournament=tournament).order_by("pk")[:2]
    ids = {"{p}": first.pk, "{q}": second.pk}

    def filled(value: Any) -> Any:
        if isinstance(value, list):
            return [filled(v) for v in value]
        return ids.get(value, value) if isinstance(value, str) else value

    sent = {key: filled(value) for key, value in body.items()} | {field: None}
    url = "/api/v1/tournaments/" + path.format(t=tournament.pk, p=first.pk)
    dora = client_of("dora")
    response = dora.generic(method, url, json.dumps(sent), content_type="application/json")
    assert response.status_code < 500, response.content
    if response.status_code == 400:
        assert response.json()["errors"], response.content
