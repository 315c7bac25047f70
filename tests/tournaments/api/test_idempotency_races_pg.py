"""Issue 20, finding 3: identical officiating writes sent at the same moment, with real concurrent
requests on PostgreSQL (each in its own thread, on its own connection, released together by a
barrier); the database is checked afterwards, not only the answers. Skipped on SQLite."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from scoring.models import IdempotentRequest
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.api.conftest import client_of, with_staff
from tests.tournaments.helpers import event
from tournaments import services
from tournaments.models import EventLogEntry, Penalty, Ruling, Tournament
from tournaments.officiating.ladder import next_rung

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _posts(who: str, url: str, body: dict[str, Any], copies: int, key: str | None) -> list[Callable[[], Any]]:
    """`copies` POSTs of `body`, each from its own client logged in as `who` (logged in beforehand)."""
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}

    def post(client: APIClient) -> Callable[[], Any]:
        return lambda: client.post(url, json.dumps(body), content_type="application/json", **headers)

    return [post(client_of(who)) for _ in range(copies)]


def _event() -> Tournament:
    tournament = with_staff(event(8, rounds=3, holes=1))
    services.seat_next_round(tournament)
    services.publish_round(tournament, 1)
    return tournament


def _answers(results: list[Any]) -> list[tuple[int, bytes]]:
    return [
        (r.status_code, r.content) if hasattr(r, "status_code") else (0, repr(r).encode()) for r in results
    ]


def test_it_gives_one_penalty_for_twenty_identical_posts_with_the_same_key_at_once() -> None:
    tournament = _event()
    player = tournament.entrants.get(name="P02")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": player.pk, "round": 1, "offence": "illegal_move", "note": "drew two cards"}
    results = at_once(*_posts("olive", url, body, 20, "penalty-key-1"))
    answers = _answers(results)
    assert {status for status, _ in answers} == {201}, answers
    assert len({content for _, content in answers}) == 1  # every copy got the first answer
    assert sum(r.has_header("Idempotent-Replayed") for r in results) == 19
    # The database: one penalty, one log line, the ladder's first step; one key.
    penalties = list(Penalty.objects.filter(tournament=tournament).values_list("step", "points"))
    assert penalties == [("warning", 0)]
    assert EventLogEntry.objects.filter(tournament=tournament, action="penalty_given").count() == 1
    assert json.loads(answers[0][1])["id"] == Penalty.objects.get().pk
    assert IdempotentRequest.objects.filter(key="penalty-key-1").count() == 1


def test_it_records_one_ruling_for_ten_identical_posts_with_the_same_key_at_once() -> None:
    tournament = _event()
    player = tournament.entrants.get(name="P03")
    table = tournament.round_set.get(number=1).tables.get(seats__entrant=player)
    url = f"/api/v1/tournaments/{tournament.pk}/rulings/"
    body = {
        "situation": "swapped_two_grid_cards",
        "facts": {"next_turn_begun": True},
        "player": player.pk,
        "round": 1,
        "table": table.number,
        "hole": 1,
        "note": "seen by the table",
    }
    results = at_once(*_posts("olive", url, body, 10, "ruling-key-1"))
    answers = _answers(results)
    assert {status for status, _ in answers} == {201}, answers
    assert len({content for _, content in answers}) == 1
    assert Ruling.objects.filter(tournament=tournament).count() == 1
    # The ruling's penalty is given once: the ladder did not climb.
    assert list(Penalty.objects.filter(tournament=tournament).values_list("step", flat=True)) == ["warning"]
    assert Ruling.objects.get().penalty_id == Penalty.objects.get().pk


def test_it_keeps_the_ladder_consistent_for_twenty_identical_posts_without_a_key_at_once() -> None:
    # Without a key each POST is a request of its own: twenty penalties are expected, given one
    # after the other (the tournament lock), so the ladder climbs one step per penalty, never
    # twice the same step from a stale count; and nothing answers 500.
    tournament = _event()
    player = tournament.entrants.get(name="P04")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    body = {"player": player.pk, "round": 1, "offence": "illegal_move", "note": ""}
    results = at_once(*_posts("olive", url, body, 20, None))
    answers = _answers(results)
    assert all(status in (201, 409) for status, _ in answers), answers
    given = [status for status, _ in answers].count(201)
    steps = list(
        Penalty.objects.filter(tournament=tournament, entrant=player)
        .order_by("pk")
        .values_list("step", "points")
    )
    assert len(steps) == given >= 3
    expected = [next_rung("illegal_move", n) for n in range(len(steps))]
    assert steps == [(str(r.step), r.points) for r in expected]
    assert EventLogEntry.objects.filter(tournament=tournament, action="penalty_given").count() == given
    standings = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    assert next(s for s in standings if s["player"]["name"] == "P04")["penalty_points"] == 5


def test_it_answers_every_copy_of_a_refused_write_and_keeps_no_key() -> None:
    # The first copy is refused (a 409): it wrote nothing and stored nothing, so each waiting copy
    # runs in turn and is refused the same way; none is told a made-up success.
    tournament = _event()
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/"
    results = at_once(*_posts("dora", url, {}, 5, "seat-key-1"))
    assert [status for status, _ in _answers(results)] == [409] * 5
    assert tournament.round_set.count() == 1
    assert not IdempotentRequest.objects.exists()
