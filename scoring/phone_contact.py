"""When a phone holding a game's edit link was last heard from, and what it said it still holds.

A tournament table's phone that lost its Wi-Fi keeps its writes in its queue (static/js/offline/
sync.js) and sends every request of that game with `X-Golf-Pending: <n>`, the writes still waiting
on it for that game besides the request carrying the header; while it holds writes it cannot send
it asks for the scoreboard every half minute or so. The director's dashboard reads what this module
records (`PhoneContact`) to say when each table's phone was last heard and which tables still have
holes on a phone, so a director knows whom to chase before finalizing.

One function writes it, `record_phone_contact`, called from one place: the middleware
`golfclub.middleware.PhoneContactMiddleware`, after the view answered, for requests made by an
edit link. Why there and not in the services' transactions (the project's rule for side effects the
data depends on): no score, total, standing or answer depends on it; it is a note about the
connection. So it is a light statement of its own, after the request's transaction committed, that
never holds the game row's lock nor rolls a hole back when it fails.

Cheap: this process remembers what it last wrote for each link and writes again only when the
phone's count changed or `HEARD_EVERY_SECONDS` passed, so a busy table costs one small write per
half minute, not one per request. Several app servers each keep their own memory: at most one
write per server per period, and a count another server wrote stays at most that long.
"""

from __future__ import annotations

import logging
import re
import threading
from datetime import datetime

from django.db import DatabaseError, connection
from django.utils import timezone

from golfclub.core.limits import MAX_PHONE_PENDING

logger = logging.getLogger(__name__)

#: Last-heard is written at most once in this many seconds per game link (and process).
HEARD_EVERY_SECONDS = 30
#: Links remembered by this process before the memory starts afresh (a bound, not a cache policy).
MAX_REMEMBERED = 20_000

_PENDING = re.compile(r"[0-9]{1,4}")
_remembered: dict[str, tuple[datetime, int | None]] = {}
_lock = threading.Lock()

# One statement: the game found by its edit token (a view token finds none, so nothing is written),
# its row made or brought up to date; a count not sent keeps the last one reported. The WHERE keeps
# a slower server's older time from overwriting a newer one.
_UPSERT = """
INSERT INTO scoring_phonecontact (game_id, last_heard_at, pending_writes, pending_reported_at)
SELECT id, %s, %s, %s FROM scoring_game {also} WHERE edit_token = %s
ON CONFLICT (game_id) DO UPDATE SET
    last_heard_at = excluded.last_heard_at,
    pending_writes = COALESCE(excluded.pending_writes, scoring_phonecontact.pending_writes),
    pending_reported_at = COALESCE(excluded.pending_reported_at, scoring_phonecontact.pending_reported_at)
WHERE scoring_phonecontact.last_heard_at <= excluded.last_heard_at
"""
# PostgreSQL: this statement's own transaction commits without waiting for its WAL to reach the disk
# (`synchronous_commit` off for it alone, `set_config(..., true)`). A crash may lose the last few
# contacts, which the next request writes again; a hole's commit still waits, as it must.
_UPSERTS = {
    "postgresql": _UPSERT.format(also=", (SELECT set_config('synchronous_commit', 'off', true)) AS no_wait"),
    "other": _UPSERT.format(also=""),
}


def parse_pending(value: str | None) -> int | None:
    """The count an `X-Golf-Pending` header reports, or None when absent or unusable (ignored)."""
    if value is None:
        return None
    value = value.strip()
    if not _PENDING.fullmatch(value):
        return None
    count = int(value)
    return count if count <= MAX_PHONE_PENDING else None


def _due(edit_token: str, pending: int | None, now: datetime) -> bool:
    """True when this contact must be written (see the module docstring); remembers it if so."""
    with _lock:
        last = _remembered.get(edit_token)
        if last is not None:
            written_at, written_pending = last
            fresh = 0 <= (now - written_at).total_seconds() < HEARD_EVERY_SECONDS
            if fresh and (pending is None or pending == written_pending):
                return False
            if pending is None:
                pending = written_pending
        if len(_remembered) >= MAX_REMEMBERED:
            _remembered.clear()
        _remembered[edit_token] = (now, pending)
        return True


def record_phone_contact(edit_token: str, pending: int | None, *, now: datetime | None = None) -> bool:
    """Note that a phone holding `edit_token` was heard now, with the count it reported (None: it
    sent none, the last count stays). True when a statement was sent (False: nothing changed).

    Only an edit token finds a game: any other string writes nothing. A database error is logged
    and swallowed: the request it follows has been answered already and must not fail for this.
    """
    now = now or timezone.now()
    if not _due(edit_token, pending, now):
        return False
    stamp = connection.ops.adapt_datetimefield_value(now)
    # The middleware runs outside any transaction (ATOMIC_REQUESTS wraps views only): the statement
    # commits alone, one round trip, and a failure has nothing to break.
    try:
        with connection.cursor() as cursor:
            # Never inside a transaction: its own commit (a hole's) would stop waiting too.
            alone = not connection.in_atomic_block
            sql = _UPSERTS.get(connection.vendor if alone else "other", _UPSERTS["other"])
            cursor.execute(sql, [stamp, pending, stamp if pending is not None else None, edit_token])
    except DatabaseError:
        logger.warning("The phone's last contact could not be recorded.", exc_info=True)
        forget(edit_token)
    return True


def forget(edit_token: str | None = None) -> None:
    """Drop this process's memory of a link (its next contact is written); of every link for None."""
    with _lock:
        if edit_token is None:
            _remembered.clear()
        else:
            _remembered.pop(edit_token, None)
