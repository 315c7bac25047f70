"""Optimistic concurrency under real concurrent requests on PostgreSQL: two writes sent with the
same If-Match at once, each in its own thread on its own connection. The version is compared under
the row's lock, so exactly one wins and the other is a 412 that wrote nothing; the database is
checked afterwards. Skipped (with the reason) on SQLite."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once
from tests.tournaments.helpers import event, user
from tournaments import services
from tournaments.live_versions import event_version, round_version
from tournaments.models import Entrant, EventLogEntry, Round, TableSeat, Tournament

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _as_dora(method: str, url: str, body: dict[str, Any], tag: str) -> Callable[[], Any]:
    def call() -> Any:
        client = APIClient()
        client.force_login(user("dora"))
        return client.generic(
            method, url, json.dumps(body), content_type="application/json", HTTP_IF_MATCH=tag
        )

    return call


def _get_etag(url: str) -> str:
    client = APIClient()
    client.force_login(user("dora"))
    return client.get(url)["ETag"]


def test_it_lets_exactly_one_of_two_settings_changes_with_the_same_if_match_win() -> None:
    tournament = event(4, rounds=2)
    url = f"/api/v1/tournaments/{tournament.pk}/"
    tag = _get_etag(url)
    version = Tournament.objects.get(pk=tournament.pk).version

    results = at_once(
        _as_dora("PATCH", url, {"venue": "Oak Hall"}, tag), _as_dora("PATCH", url, {"venue": "Elm Hall"}, tag)
    )

    codes = sorted(r.status_code for r in results)
    assert codes == [200, 412], [getattr(r, "content", r) for r in results]
    winner = next(r for r in results if r.status_code == 200)
    stored = Tournament.objects.get(pk=tournament.pk)
    assert stored.venue == winner.json()["venue"]  # the winner's change, not overwritten
    assert stored.version == version + 1
    assert winner["ETag"] == f'"tournament-{tournament.pk}-v{event_version(stored)}"'
    assert EventLogEntry.objects.filter(tournament=tournament, action="settings").count() == 1


def test_it_lets_exactly_one_of_two_player_changes_with_the_same_if_match_win() -> None:
    tournament = event(4, rounds=2)
    player = Entrant.objects.filter(tournament=tournament).first()
    base = f"/api/v1/tournaments/{tournament.pk}/players/{player.pk}/"
    tag = _get_etag(base)

    results = at_once(
        _as_dora("POST", base + "withdraw/", {}, tag), _as_dora("POST", base + "check-in/", {}, tag)
    )

    codes = sorted(r.status_code for r in results)
    assert codes == [200, 412], [getattr(r, "content", r) for r in results]
    stored = Entrant.objects.get(pk=player.pk)
    withdrew = results[0].status_code == 200
    assert (stored.status, stored.checked_in) == (("withdrawn", False) if withdrew else ("active", True))


def test_it_lets_exactly_one_of_two_swaps_with_the_same_if_match_win() -> None:
    tournament = event(8, rounds=2, holes=1)
    services.seat_next_round(tournament)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/"
    tag = _get_etag(url)
    seats = list(TableSeat.objects.filter(round__tournament=tournament).order_by("table__number", "seat"))
    first = [seats[0].entrant_id, seats[-1].entrant_id]
    second = [seats[1].entrant_id, seats[-2].entrant_id]

    results = at_once(
        _as_dora("POST", url + "swap/", {"players": first, "reason": "a"}, tag),
        _as_dora("POST", url + "swap/", {"players": second, "reason": "b"}, tag),
    )

    codes = sorted(r.status_code for r in results)
    assert codes == [200, 412], [getattr(r, "content", r) for r in results]
    assert EventLogEntry.objects.filter(tournament=tournament, action="players_swapped").count() == 1
    round_ = Round.objects.get(tournament=tournament)
    winner = next(r for r in results if r.status_code == 200)
    assert winner["ETag"] == f'"round-{round_.pk}-v{round_version(round_)}"'
