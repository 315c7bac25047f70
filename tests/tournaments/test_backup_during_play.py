"""A backup taken while tables score is consistent and restorable (issue 31, item 1), on PostgreSQL.

Eight tables record holes through the API of a live server (real HTTP requests, each on its own
connection) while the event is exported in a loop. Every file must be internally consistent
(every hole with every player's entry, totals that are the sum of the entries), import into a
fresh state of the database with nothing to rebuild, give standings equal to a recomputation from
its entries, and let a restored table record its next hole (201). The separate-query export of old
(each query its own READ COMMITTED snapshot) fails this: a hole committed between the seats' query
and the entries' query gave totals behind their holes, one committed between the entries' and the
holes' query a hole with no entries. A second test makes that interleaving happen on purpose.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from scoring.models import Game, HoleEntry, Seat
from tests.tournaments.helpers import event_in_play
from tournaments import services
from tournaments.backup import export_event
from tournaments.models import Table, TableSeat, Tournament
from tournaments.restore import import_event
from tournaments.standings import compute_standings

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL: concurrent connections"),
]

TABLES = 8
_READS_SLOWED = (Seat._meta.db_table, HoleEntry._meta.db_table)


@pytest.fixture
def no_rate_limits(settings: Any) -> None:
    """Eight phones scoring as fast as they can are no abuse: the per-link hole limit is lifted."""
    settings.RATELIMIT_ENABLE = False


def _event_in_play() -> Tournament:
    """32 players at 8 tables of 4, a long round in play (its holes never end the match here)."""
    return event_in_play(TABLES * 4, rounds=1, holes=60)


def _tables(tournament: Tournament) -> list[tuple[str, list[str]]]:
    """Each table's edit token and its players' names in seat order."""
    return [
        (table.game.edit_token, list(table.game.seats.order_by("seat").values_list("name", flat=True)))
        for table in Table.objects.filter(round__tournament=tournament)
        .select_related("game")
        .order_by("number")
    ]


def _score(hole: int, seat: int) -> int:
    return (hole * 7 + seat * 3) % 9 - 2  # small scores, some below zero: no total ends the match


def _score_holes(base: str, token: str, names: list[str], stop: threading.Event, codes: list[int]) -> None:
    """One table's phone: record holes through the API until told to stop."""
    with httpx.Client(base_url=base, timeout=30) as phone:
        hole = 0
        while not stop.is_set() and hole < 55:
            hole += 1
            answer = phone.post(
                f"/api/v1/games/{token}/holes/",
                json={"entries": {name: _score(hole, seat) for seat, name in enumerate(names)}},
            )
            codes.append(answer.status_code)
            if answer.status_code != 201:
                return


@contextmanager
def scoring_tables(base: str, tables: list[tuple[str, list[str]]]) -> Iterator[list[int]]:
    """The tables score through the live server while the block runs; the answers' status codes."""
    stop, codes = threading.Event(), []
    phones = [threading.Thread(target=_score_holes, args=(base, t, n, stop, codes)) for t, n in tables]
    for phone in phones:
        phone.start()
    try:
        yield codes
    finally:
        stop.set()
        for phone in phones:
            phone.join(timeout=60)


def _wait_for_play(codes: list[int]) -> None:
    """Until every table has recorded a hole or so (the server and the phones are warmed up)."""
    for _ in range(300):
        if len(codes) >= TABLES:
            return
        threading.Event().wait(0.1)
    raise AssertionError(f"the tables did not start scoring: {codes}")


def _slowed_reads(pause: float) -> Callable[..., Any]:
    """A query wrapper that pauses after each read of the seats or entries: the export's queries then
    take as long as on a busy server, where a hole is committed between two of them."""

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        if sql.startswith("SELECT") and any(f'FROM "{table}"' in sql for table in _READS_SLOWED):
            threading.Event().wait(pause)
        return result

    return wrapper


def _entry_sums(game_ids: list[int], *, up_to: int | None = None) -> dict[int, tuple[int, int]]:
    """Each seat's (total, regular holes) recomputed from the entries, by seat id (over the holes
    numbered up to `up_to` when given)."""
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    entries = HoleEntry.objects.filter(hole__game_id__in=game_ids, hole__is_playoff=False)
    if up_to is not None:
        entries = entries.filter(hole__number__lte=up_to)
    for seat_id, score in entries.values_list("seat_id", "score"):
        sums[seat_id][0] += score
        sums[seat_id][1] += 1
    return {seat_id: (total, played) for seat_id, (total, played) in sums.items()}


def check_restores(document: dict[str, Any], tournament_id: int) -> int:
    """Import `document` into a fresh state (the event deleted, in a transaction rolled back after)
    and check the restored event; answer how many holes the file held."""
    with transaction.atomic():
        services.delete_tournament(Tournament.objects.get(pk=tournament_id))
        assert not Game.objects.exists()
        notes: list[str] = []
        restored = import_event(document, notes)
        assert notes == [], notes  # an honest snapshot needs nothing rebuilt
        game_ids = list(Game.objects.values_list("pk", flat=True))
        sums = _entry_sums(game_ids)
        seats = list(Seat.objects.filter(game_id__in=game_ids))
        assert {s.pk: (s.total, s.holes_played) for s in seats} == {
            s.pk: sums.get(s.pk, (0, 0)) for s in seats
        }
        # The standings (the round in play's column) equal the entries' sums, player by player, over
        # the holes the round's column counts: those every player of the round has played
        # (docs/running-a-tournament.md, "What a total includes").
        counted = min((s.holes_played for s in seats), default=0)
        recomputed = {
            entrant: _entry_sums(game_ids, up_to=counted).get(seat, (0, 0))[0]
            for seat, entrant in _seat_entrants(restored).items()
        }
        shown = {line.entrant_id: line.rounds[0] or 0 for line in compute_standings(restored).lines}
        assert shown == recomputed
        # Every restored table can go on scoring: its next hole is recorded through the API.
        for game in Game.objects.filter(pk__in=game_ids):
            names = list(game.seats.order_by("seat").values_list("name", flat=True))
            answer = APIClient().post(
                f"/api/v1/games/{game.edit_token}/holes/", {"entries": {n: 1 for n in names}}, format="json"
            )
            assert answer.status_code == 201, answer.content
        transaction.set_rollback(True)
    return sum(len(t["game"]["holes"]) for r in document["event"]["rounds"] for t in r["tables"])


def _seat_entrants(tournament: Tournament) -> dict[int, int]:
    """Each game seat's id -> the entrant sitting there."""
    where = {
        (game_id, seat): entrant
        for game_id, seat, entrant in TableSeat.objects.filter(round__tournament=tournament).values_list(
            "table__game_id", "seat", "entrant_id"
        )
    }
    return {
        pk: where[(game_id, seat)]
        for pk, game_id, seat in Seat.objects.filter(game_id__in={g for g, _s in where}).values_list(
            "pk", "game_id", "seat"
        )
    }


def test_every_file_exported_while_eight_tables_score_is_consistent_and_restorable(
    live_server: Any, no_rate_limits: None
) -> None:
    tournament = _event_in_play()
    tables = _tables(tournament)
    documents: list[dict[str, Any]] = []
    # The reads are slowed as on a busy server, so that holes are saved during each export.
    with scoring_tables(live_server.url, tables) as codes, connection.execute_wrapper(_slowed_reads(0.1)):
        _wait_for_play(codes)
        while len(documents) < 8:
            documents.append(export_event(tournament.pk))
    assert codes and set(codes) == {201}, sorted(set(codes))
    held = [check_restores(document, tournament.pk) for document in documents]
    # The files were written during play: the event grew from one to the next.
    assert len(set(held)) >= 6 and min(held) > 0, held


def test_a_hole_saved_between_two_of_the_exports_reads_is_in_neither_or_whole(live_server: Any) -> None:
    tournament = _event_in_play()
    token, names = _tables(tournament)[0]
    phone = httpx.Client(base_url=live_server.url, timeout=30)
    for hole in (1, 2):
        phone.post(f"/api/v1/games/{token}/holes/", json={"entries": {n: hole for n in names}})
    saved: list[int] = []

    def save_a_hole_after_the_first_read_of_seats_or_entries(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not saved and sql.startswith("SELECT") and f'FROM "{Seat._meta.db_table}"' in sql:
            # Another phone saves hole 3 while the export reads: a real request, committed.
            answer = phone.post(f"/api/v1/games/{token}/holes/", json={"entries": {n: 3 for n in names}})
            saved.append(answer.status_code)
        return result

    with connection.execute_wrapper(save_a_hole_after_the_first_read_of_seats_or_entries):
        document = export_event(tournament.pk)
    assert saved == [201]
    game = document["event"]["rounds"][0]["tables"][0]["game"]
    # The file holds the table as it stood when the export began: two holes, totals 1 + 2.
    assert [h["number"] for h in game["holes"]] == [1, 2]
    assert {s["name"]: (s["total"], s["holes_played"]) for s in game["seats"]} == {n: (3, 2) for n in names}
    check_restores(document, tournament.pk)
    phone.close()
