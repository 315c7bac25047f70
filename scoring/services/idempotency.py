"""Writes safe to repeat: a write sent with a one-time key is carried out once; a copy of it (a
retry, a double tap, a browser resend, two copies at the same moment) is answered with the first
answer and writes nothing; the same key with another request is refused (422).

The one store of every write sent with a key, games', clubs' and tournaments' alike: the APIs'
`Idempotency-Key` header (`scoring.api.write_once`) and the pages' one-time form keys
(`scoring.form_once`) are two thin readers of the request around the one function `run_once`.
How it holds on PostgreSQL, in one transaction:

1. `INSERT ... ON CONFLICT (scope, key) DO NOTHING` claims the key first. A copy in flight holds
   the same index entry uncommitted, so this insert waits for it: if it commits, the insert does
   nothing and the stored answer is read and replayed; if it rolls back, this one claims the key.
2. The write runs (its service's own transaction nests as a savepoint).
3. The answer is stored on the key's row, in the same transaction as the write: a crash leaves
   neither. An error raised by the write rolls the key back with it, so a retry runs again.

A game's own keys (a hole's POST, ending or resuming a game; scope `game:<id>`) are kept in the
same table but taken under the game's row lock, which those writes hold anyway: the hole POST, the
hot path, finds its key in the query that locks the game (`db_statements.lock_game_for_hole`) and
queues the key's row with the hole's other writes (`queue_hole_key`), one transaction, no claim
first. Two copies of one request wait on the game lock; a copy that looked before the first
committed is stopped by the unique `(scope, key)` and answered as a replay. Their replay is built
from the hole as it stands now (the key keeps the `hole` and `hole_number`), not from a stored answer.

Old keys are purged by `manage.py purge_idempotency_keys` (`purge_idempotent_requests`), a game's
with the others; the keys about something deleted go with it (`forget_keys_about`; a game's keys
go with the game, their foreign key).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import db_statements
from scoring.game_errors import ConcurrentWrite, IdempotencyConflict
from scoring.idempotent_request_model import IdempotentRequest, game_scope
from scoring.models import Game, Hole
from scoring.rules.errors import Problem

#: Keys older than this are purged by `manage.py purge_idempotency_keys` (its default).
KEEP_DAYS = 7


@dataclass(frozen=True)
class Claim:
    """A key and the request it came with: who may replay it (`scope`), the method, the route
    (for the record), the hash of the whole request (method, path and body) and what it is about
    ("tournament:12": its keys go when it is deleted, `forget_keys_about`)."""

    scope: str
    key: str
    method: str
    route: str
    request_hash: str
    about: str = ""


@dataclass(frozen=True)
class Answer:
    """What a first request was answered: status, body (the text sent) and headers."""

    status: int
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Replayed:
    """`run_once`'s result when the key was used before for the same request: its first answer."""

    answer: Answer


def scope_for(user: Any, path: str) -> str:
    """Who may replay a key: the logged-in `user`, else the link of `path` (a table's link is the
    credential; only its hash is kept)."""
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "link:" + hashlib.sha256(path.encode()).hexdigest()


def stored_answer(scope: str, key: str) -> Answer | None:
    """The answer stored for `key` in `scope`, if any."""
    stored = IdempotentRequest.objects.filter(scope=scope, key=key).first()
    return None if stored is None else _answer(stored)


def run_once[T](
    claim: Claim, write: Callable[[], T], answer_of: Callable[[T], Answer | None]
) -> T | Replayed:
    """Carry out `write` once for `claim`'s key: its result the first time; `Replayed` with the
    stored answer for a copy of the same request; `IdempotencyConflict` (422) for the key sent
    with another request. `answer_of(result)` is what to store (None: nothing worth replaying,
    such as a form shown again with its errors; the key stays free)."""
    with transaction.atomic():
        for _attempt in range(3):
            claimed = _claim(claim)
            if claimed is not None:
                break
            stored = IdempotentRequest.objects.filter(scope=claim.scope, key=claim.key).first()
            if stored is not None:
                return _replay_or_refuse(stored, claim)
            # Purged between the two statements: claim it again.
        else:  # pragma: no cover  (three purges in a row)
            raise ConcurrentWrite(
                Problem("Idempotency-Key", _("The request could not be handled: try again."))
            )
        result = write()
        answer = answer_of(result)
        rows = IdempotentRequest.objects.filter(pk=claimed)
        if answer is None:
            rows.delete()
        else:
            rows.update(
                status=answer.status, body=answer.body, headers=answer.headers, about=claim.about[:64]
            )
    return result


def _claim(claim: Claim) -> int | None:
    """Insert the key's row (waiting for a copy in flight to finish); its id, or None when the key
    is already stored."""
    table = IdempotentRequest._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} "
            "(scope, key, method, route, request_hash, about, body, headers, created_at) "
            "VALUES (%s, %s, %s, %s, %s, '', '', '{}', %s) ON CONFLICT (scope, key) DO NOTHING RETURNING id",
            [claim.scope, claim.key, claim.method, claim.route[:200], claim.request_hash, timezone.now()],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def _replay_or_refuse(stored: IdempotentRequest, claim: Claim) -> Replayed:
    if stored.request_hash != claim.request_hash:
        raise IdempotencyConflict(
            Problem(
                "Idempotency-Key",
                _(
                    "This Idempotency-Key was already used for another request (another body or "
                    "address), so nothing was done: send a new key for a new request."
                ),
            )
        )
    return Replayed(_answer(stored))


def _answer(stored: IdempotentRequest) -> Answer:
    return Answer(stored.status or 200, stored.body, dict(stored.headers or {}))


def purge_idempotent_requests(*, older_than: timedelta = timedelta(days=KEEP_DAYS)) -> int:
    """Delete the keys stored more than `older_than` ago (their requests can no longer be replayed:
    the same key is then a new request); answers how many."""
    deleted, _by_model = IdempotentRequest.objects.filter(created_at__lt=timezone.now() - older_than).delete()
    return deleted


def forget_keys_about(about: str) -> int:
    """Delete the keys of the writes about `about` ("tournament:12", being deleted); answers how many."""
    if not about:
        return 0
    deleted, _by_model = IdempotentRequest.objects.filter(about=about).delete()
    return deleted


# A game's own keys: taken under the game's row lock (see the module's docstring).

#: The `route` of a game's keys: what the write did (the same key may come from the API or a page).
GAME_HOLE = db_statements.GAME_HOLE_ROUTE
GAME_ENDING = "game: end or resume"


def game_key(game_id: int, key: str | None) -> IdempotentRequest | None:
    """The key `key` of the game `game_id` if it is stored (None for no key)."""
    if not key:
        return None
    return IdempotentRequest.objects.filter(scope=game_scope(game_id), key=key).first()


def queue_hole_key(hole: Hole, key: str, request_hash: str, *, writes: db_statements.Writes) -> None:
    """Queue with the hole's writes the row of the key that recorded `hole` (its id and number
    kept for a replay); a second use of the key in the game fails when the writes are sent."""
    db_statements.insert_hole_key(
        hole.game_id, game_scope(hole.game_id), key, request_hash, hole.pk, hole.number, writes=writes
    )


def store_ending_key(game: Game, key: str, request_hash: str) -> None:
    """Store the key of a game's ending (or resuming), in the caller's transaction."""
    IdempotentRequest.objects.create(
        scope=game_scope(game.pk),
        key=key,
        method="POST",
        route=GAME_ENDING,
        request_hash=request_hash,
        status=200,
        game=game,
    )
