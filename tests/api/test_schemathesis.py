"""schemathesis against the OpenAPI schema drf-spectacular serves (/api/schema/): every operation,
with bounded, derandomized examples, as a tournament's director (an API token) and as a stranger
(anonymous). No answer is a 500, and every answer matches the schema (its status is documented
with a body of that shape, its content type is the one documented).

Path parameters point at a real event (round 1 published and played, a penalty, a co-director)
and a real game, so the examples reach the code behind the 404s. Requests go in-process through
Django's WSGI handler, in the test's transaction (rolled back after), as Django's test client does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from clubs.services.clubs import create_club
from clubs.services.members import add_members
from clubs.services.seasons import create_season
from scoring import services as scoring_services
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.models import Staff

pytestmark = pytest.mark.django_db

#: Examples per operation, for the director and for a stranger (whose writes stop at the 401):
#: the whole file stays within about half a minute. SCHEMATHESIS_EXAMPLES raises both.
EXAMPLES = {
    "director": int(os.environ.get("SCHEMATHESIS_EXAMPLES", "2")),
    "stranger": int(os.environ.get("SCHEMATHESIS_EXAMPLES", "2")),
}
LOG: list = []
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def in_process() -> Iterator[None]:
    """Keep Django from closing the test's connection at each request's end (it is in a transaction
    the test rolls back), as `django.test.Client` does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def world(in_process: None) -> dict[str, Any]:
    """The real objects the path parameters name, and the director's token."""
    tournament = event(8, rounds=3, holes=2)
    services.add_staff(tournament, user("cora").username, "co_director")
    play_round(tournament)
    entrant = tournament.entrants.order_by("pk").first()
    penalty = services.give_penalty(tournament, player=entrant.pk, offence="illegal_move", round_number=1)
    return {
        "tournament_id": tournament.pk,
        "entrant": entrant.pk,
        "staff_id": Staff.objects.get(tournament=tournament).pk,
        "penalty_id": penalty.pk,
        "key": Token.objects.create(user=user("dora")).key,
        **_game(),
        **_club(),
    }


def _path_parameters(case: Any, world: dict[str, Any]) -> None:
    """Point the case's path parameters at the real event and game."""
    path = case.operation.path
    real = {
        "tournament_id": world["tournament_id"],
        "player_id": world["entrant"] if path.startswith("/api/v1/tournaments/") else world["player"],
        "staff_id": world["staff_id"],
        "penalty_id": world["penalty_id"],
        "token": world["token"],
        "number": 1,
        "table": 1,
        "seat": 0,
        "name": "official",
        "club_id": world["club_id"],
        "member_id": world["member_id"],
        "season_id": world["season_id"],
    }
    for name in list(case.path_parameters or {}):
        if name in real:
            case.path_parameters[name] = real[name]


def _restore(world: dict[str, Any]) -> None:
    """Bring back what an earlier example deleted (the game, its roster player), so every
    operation runs against something real."""
    from scoring.models import Game, Player

    game_there = Game.objects.filter(edit_token=world["token"]).exists()
    if not game_there or not Player.objects.filter(pk=world["player"]).exists():
        world.update(_game())
    from clubs.models import Club, Season

    if not Season.objects.filter(pk=world["season_id"]).exists():
        club = Club.objects.get(pk=world["club_id"])
        world["season_id"] = create_season(
            club, name=f"Again {world['season_id']}", start="2028-01-01", end="2028-12-31"
        ).pk


def _game() -> dict[str, Any]:
    """A game of Dora's with a hole played: its edit token and its first seat's roster player."""
    game = scoring_services.create_game(players=["Ann", "Bob"], ruleset="official", owner=user("dora"))
    entries = {"Ann": 3, "Bob": 5}
    scoring_services.hole_record(game, entries=entries, ender=None, capabilities={"view", "score"})
    return {"token": game.edit_token, "player": game.seats.order_by("seat").first().player_id}


def _club() -> dict[str, Any]:
    """A club of Dora's with two members and a season."""
    club = create_club(user=user("dora"), name="Friday Golf")
    member, _bob = add_members(club, ["Ann", "Bob"])
    season = create_season(club, name="2027", start="2027-01-01", end="2027-12-31")
    return {"club_id": club.pk, "member_id": member.pk, "season_id": season.pk}


def _check(operation: Any, world: dict[str, Any], headers: dict[str, str], examples: int) -> None:
    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def run(case: Any) -> None:
        _restore(world)
        _path_parameters(case, world)
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        LOG.append((case.operation.label, response.status_code))

    run()


def _schema() -> Any:
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


def _operations() -> list[Any]:
    return [result.ok() for result in _schema().get_all_operations()]


@pytest.mark.parametrize("persona", ["director", "stranger"])
def test_it_answers_every_operation_as_the_schema_says(world: dict[str, Any], persona: str) -> None:
    headers = {"Authorization": f"Token {world['key']}"} if persona == "director" else {}
    started = time.monotonic()
    failures = []
    for operation in _operations():
        try:
            _check(operation, world, headers, EXAMPLES[persona])
        except Exception as error:  # collect every operation's failure, then report them all
            failures.append(f"{operation.label}: {error}"[:3000])
    assert not failures, "\n\n".join(failures)
    assert time.monotonic() - started < 120


def test_it_documents_a_csv_imports_answer(world: dict[str, Any]) -> None:
    """The CSV import answers `{"created": [...]}`, not one player: the schema says both 201s."""
    operation = _schema().find_operation_by_label("POST /api/v1/tournaments/{tournament_id}/players/")
    case = operation.Case(
        path_parameters={"tournament_id": world["tournament_id"]},
        body="name,club\nZed,North\nYan,\n",
        media_type="text/csv",
    )
    response = case.call_and_validate(headers={"Authorization": f"Token {world['key']}"}, checks=CHECKS)
    assert response.status_code == 201
    assert [p["name"] for p in response.json()["created"]] == ["Zed", "Yan"]


def test_it_documents_a_pasted_member_lists_answer(world: dict[str, Any]) -> None:
    """A pasted list answers `{"members": [...]}`, one name `{"id", "name"}`: the schema says both."""
    operation = _schema().find_operation_by_label("POST /api/v1/clubs/{club_id}/members/")
    headers = {"Authorization": f"Token {world['key']}"}
    for body, added in (({"names": ["Zed", "Yan"]}, 2), ({"name": "Xia"}, 1)):
        case = operation.Case(
            path_parameters={"club_id": world["club_id"]}, body=body, media_type="application/json"
        )
        response = case.call_and_validate(headers=headers, checks=CHECKS)
        assert response.status_code == 201
        assert len(response.json().get("members", [response.json()])) == added
