"""What the dashboard says of each table's phone: when it was last heard from, the holes it said it
still holds (its offline queue's `X-Golf-Pending`, `scoring.phone_contact`), and whether the
director should chase it: a table still playing whose phone has been silent for more than
`SILENT_AFTER_SECONDS` may hold holes it could not send.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from scoring.selectors import PhoneContactState, phone_contact_of
from tournaments.models import RoundStatus
from tournaments.web.selectors import TableLine

#: A table still playing whose phone is silent for longer than this is flagged (the phone's queue
#: asks for the scoreboard every half minute while it holds writes it cannot send).
SILENT_AFTER_SECONDS = 5 * 60


@dataclass(frozen=True)
class PhoneStatus:
    """One table's phone as the director sees it."""

    heard_at: datetime.datetime | None  # None: never heard from
    minutes_ago: int | None  # whole minutes since then
    pending: int  # holes (writes) the phone last said it still holds; 0 when none or never said
    pending_at: datetime.datetime | None
    silent: bool  # still playing, and not heard from for longer than SILENT_AFTER_SECONDS

    @property
    def to_chase(self) -> bool:
        """True when the director should find this table's phone before finalizing."""
        return self.silent or self.pending > 0


def phone_status(contact: PhoneContactState | None, *, playing: bool, now: datetime.datetime) -> PhoneStatus:
    """The status of one table's phone from its last contact (`playing`: the round is open and the
    table's game not over)."""
    if contact is None:
        return PhoneStatus(heard_at=None, minutes_ago=None, pending=0, pending_at=None, silent=False)
    seconds = max(0.0, (now - contact.last_heard_at).total_seconds())
    return PhoneStatus(
        heard_at=contact.last_heard_at,
        minutes_ago=int(seconds // 60),
        pending=contact.pending_writes or 0,
        pending_at=contact.pending_reported_at,
        silent=playing and seconds > SILENT_AFTER_SECONDS,
    )


def attach_phone_statuses(lines: Sequence[TableLine], round_status: str) -> list[TableLine]:
    """Set `line.phone` on each line (no query: `table_lines` read the contacts along); the lines
    to chase, in order."""
    now = timezone.now()
    open_round = round_status == RoundStatus.PUBLISHED
    for line in lines:
        line.phone = phone_status(
            phone_contact_of(line.game), playing=open_round and not line.finished, now=now
        )
    return [line for line in lines if line.phone.to_chase]
