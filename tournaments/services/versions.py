"""Optimistic concurrency of the tournament writes: the version a client read, checked under the lock.

A client names the version it read (the API's `If-Match` ETag, a page form's hidden `version`);
the write compares it with the row's version only after locking the row, so two writes sent
against the same version are taken one after the other and the second is refused (`StaleEdit`,
412): nothing is overwritten unseen. Checking before the lock would let both through.

What each ETag's version is (`tournaments.api.versions`, read by `tournaments.live_versions`):
- a tournament's and its players': `event_version`, `Tournament.version` (moved by every change
  of the event: settings, players, seating, penalties, staff) plus its tables' games' versions
  (moved by each hole change, in its own transaction);
- a round's: `round_version`, `Round.version` (its seating, state and confirmations) plus its
  tables' games' versions.
A write compares the one the client read with the one read under its lock.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments.errors import StaleEdit
from tournaments.models import Tournament


def check_version(what: str, current: int, expected: int | None) -> None:
    """Refuse (`StaleEdit`, 412) when the client read another version than `current` (the locked
    row's); `expected=None` (no If-Match, or `*`) changes whatever is current."""
    if expected is not None and expected != current:
        raise StaleEdit(
            Problem(
                "If-Match",
                _(
                    "%(what)s was changed by someone else since you read it (your version %(yours)s, "
                    "now %(now)s): nothing was changed. Read it again and make your change again."
                )
                % {"what": what, "yours": expected, "now": current},
            )
        )


def settings_digest(tournament: Tournament) -> str:
    """A fingerprint of a tournament's settings as stored: a page form carries the one it was read
    with, so a submit against a newer version is refused only when a setting itself changed."""
    from tournaments.services.event_settings import SETTINGS

    values: dict[str, Any] = {key: getattr(tournament, key) for key in SETTINGS}
    text = json.dumps(values, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
