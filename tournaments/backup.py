"""One event as a backup file (`manage.py export_event`): every row of it, as JSON.

The file (format `golfclub-event`, version `FORMAT_VERSION`) is one object:

    {"format": "golfclub-event", "version": 1, "exported_at": "...", "checksum": "sha256:...",
     "event": {"tournament": {...}, "staff": [...], "entrants": [...],
               "rounds": [{..., "tables": [{..., "seats": [...], "game": {...}}]}],
               "penalties": [...], "rulings": [...], "calls": [...], "log": [...]}}

Every row keeps its id, and users are named by username. Each table's game is the dict of
`scoring.selectors.games_backup` (its seats, holes, entries, history and link tokens). The
checksum covers `event`, so that a damaged or edited file is refused (`checked_event`, which
`tournaments.restore` calls with `parse_backup`). The export reads from one snapshot of the
database (`read_snapshot`), so a file written while tables score is consistent.
The tables' link tokens are in the file: it is as secret as the database.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.backup import BackupError, Record, dump_datetime, read_snapshot
from scoring import selectors
from tournaments.backup_plan import plan_of
from tournaments.models import (
    Entrant,
    EventLogEntry,
    OfficialCall,
    Penalty,
    Round,
    Ruling,
    Staff,
    Table,
    TableSeat,
    Tournament,
)

#: What the file says it is, and the version of its layout this code writes and reads.
FORMAT = "golfclub-event"
FORMAT_VERSION = 1


def checksum(event: Any) -> str:
    """The checksum of the `event` part: SHA-256 of its canonical JSON (sorted keys, no spaces)."""
    canonical = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def export_event(tournament_id: int) -> dict[str, Any]:
    """The backup file of the tournament `tournament_id` as a JSON-ready dict (Tournament.DoesNotExist
    when there is none). It reads in a fixed number of queries, whatever the size of the event, all
    from one snapshot of the database (`read_snapshot`): a file written while tables score holds
    each table as it stood at one moment, every hole with its entries and the totals they make."""
    with read_snapshot():
        event = _event(tournament_id)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": dump_datetime(timezone.now()),
        "checksum": checksum(event),
        "event": event,
    }


def _event(tournament_id: int) -> dict[str, Any]:
    """The `event` part of the file: every row of the tournament, read by the caller's transaction."""
    tournament = Tournament.objects.select_related("director").get(pk=tournament_id)
    return {
        "tournament": _tournament(tournament),
        "staff": [
            {"id": s.pk, "user": _username(s.user), "role": s.role, "added_at": dump_datetime(s.added_at)}
            for s in Staff.objects.filter(tournament=tournament).select_related("user").order_by("pk")
        ],
        "entrants": [_entrant(e) for e in Entrant.objects.filter(tournament=tournament).order_by("pk")],
        "rounds": _rounds(tournament),
        "seating_plan": plan_of(tournament),
        "penalties": [
            _penalty(p)
            for p in Penalty.objects.filter(tournament=tournament).select_related("given_by").order_by("pk")
        ],
        "rulings": [
            _ruling(r)
            for r in Ruling.objects.filter(tournament=tournament).select_related("official").order_by("pk")
        ],
        "calls": [
            _call(c)
            for c in OfficialCall.objects.filter(tournament=tournament)
            .select_related("answered_by")
            .order_by("pk")
        ],
        "log": [
            _log_entry(e)
            for e in EventLogEntry.objects.filter(tournament=tournament)
            .select_related("actor")
            .order_by("pk")
        ],
    }


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def _tournament(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "date": dump_datetime(t.date),
        "venue": t.venue,
        "director": _username(t.director),
        "ruleset": t.ruleset,
        "rounds": t.rounds,
        "seating": t.seating,
        "seed": t.seed,
        "tiebreakers": t.tiebreakers,
        "time_limit_minutes": t.time_limit_minutes,
        "hole_time_limit_minutes": t.hole_time_limit_minutes,
        "standings_release": t.standings_release,
        "public": t.public,
        "public_table_links": t.public_table_links,
        "rulings_public": t.rulings_public,
        "version": t.version,
        "created_at": dump_datetime(t.created_at),
        "updated_at": dump_datetime(t.updated_at),
    }


def _entrant(e: Entrant) -> dict[str, Any]:
    return {
        "id": e.pk,
        "name": e.name,
        "club": e.club,
        "rating": e.rating,
        "status": e.status,
        "checked_in": e.checked_in,
        "entered_before_round": e.entered_before_round,
        "left_after_round": e.left_after_round,
        "registered_at": dump_datetime(e.registered_at),
        "token": e.token,
        "bulk_action": e.bulk_action,
    }


def _rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """The rounds, each with its tables, each with its seats and its game (five queries)."""
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("round__number", "number"))
    seats: dict[int, list[dict[str, Any]]] = {}
    for seat in TableSeat.objects.filter(round__tournament=tournament).order_by("table_id", "seat"):
        seats.setdefault(seat.table_id, []).append(
            {"id": seat.pk, "entrant": seat.entrant_id, "seat": seat.seat}
        )
    games = selectors.games_backup(t.game_id for t in tables)
    by_round: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(
            {
                "id": table.pk,
                "number": table.number,
                "confirmed_by": table.confirmed_by_id,
                "confirmed_at": dump_datetime(table.confirmed_at),
                "confirmed_game_version": table.confirmed_game_version,
                "disputed_by": table.disputed_by_id,
                "dispute_note": table.dispute_note,
                "disputed_at": dump_datetime(table.disputed_at),
                "extra_minutes": table.extra_minutes,
                "override_reason": table.override_reason,
                "seats": seats.get(table.pk, []),
                "game": games[table.game_id],
            }
        )
    return [
        {
            "id": r.pk,
            "number": r.number,
            "status": r.status,
            "seating_mode": r.seating_mode,
            "seed": r.seed,
            "repeat_pairs": r.repeat_pairs,
            "seated_at": dump_datetime(r.seated_at),
            "published_at": dump_datetime(r.published_at),
            "finalized_at": dump_datetime(r.finalized_at),
            "version": r.version,
            "tables": by_round.get(r.pk, []),
        }
        for r in rounds
    ]


def _penalty(p: Penalty) -> dict[str, Any]:
    return {
        "id": p.pk,
        "entrant": p.entrant_id,
        "round_number": p.round_number,
        "offence": p.offence,
        "step": p.step,
        "points": p.points,
        "seconds_over": p.seconds_over,
        "step_decided": p.step_decided,
        "note": p.note,
        "given_by": _username(p.given_by),
        "created_at": dump_datetime(p.created_at),
        "rescinded_at": dump_datetime(p.rescinded_at),
        "rescind_reason": p.rescind_reason,
    }


def _ruling(r: Ruling) -> dict[str, Any]:
    return {
        "id": r.pk,
        "situation": r.situation,
        "facts": r.facts,
        "ruling": r.ruling,
        "citations": r.citations,
        "correction": r.correction,
        "offence": r.offence,
        "entrant": r.entrant_id,
        "penalty": r.penalty_id,
        "round_number": r.round_number,
        "table_number": r.table_number,
        "hole_number": r.hole_number,
        "note": r.note,
        "official": _username(r.official),
        "created_at": dump_datetime(r.created_at),
    }


def _call(c: OfficialCall) -> dict[str, Any]:
    return {
        "id": c.pk,
        "table": c.table_id,
        "called_by": c.called_by,
        "note": c.note,
        "created_at": dump_datetime(c.created_at),
        "answered_at": dump_datetime(c.answered_at),
        "answered_by": _username(c.answered_by),
        "ruling": c.ruling_id,
    }


def _log_entry(e: EventLogEntry) -> dict[str, Any]:
    return {
        "id": e.pk,
        "round_number": e.round_number,
        "action": e.action,
        "actor": _username(e.actor),
        "reason": e.reason,
        "details": e.details,
        "created_at": dump_datetime(e.created_at),
    }


def parse_backup(text: str) -> Any:
    """The JSON of a backup file, or `BackupError` saying where it stops making sense."""
    try:
        return json.loads(text)
    except RecursionError:
        raise BackupError("", _("The file nests its values too deeply: it is not a backup file.")) from None
    except json.JSONDecodeError as bad:
        raise BackupError(
            "",
            _(
                "The file is not a complete JSON document (%(problem)s at line %(line)s, column %(column)s): "
                "it is cut short or damaged."
            )
            % {"problem": bad.msg, "line": bad.lineno, "column": bad.colno},
        ) from None


def checked_event(document: Any) -> Record:
    """The `event` of a document whose format, version and checksum are this code's."""
    top = Record(document, "")
    if top.value("format") != FORMAT:
        raise BackupError("format", _("This is not a Golf club event backup (format %(f)s).") % {"f": FORMAT})
    version = top.value("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise BackupError(
            "version",
            _("This file has format version %(found)r; this version of the app reads version %(known)s only.")
            % {"found": version, "known": FORMAT_VERSION},
        )
    event = top.record("event")
    if top.value("checksum") != checksum(event.data):
        raise BackupError(
            "checksum", _("The checksum does not match the event: the file was changed or damaged.")
        )
    return event
