"""When each game's phone was last heard from, and the writes it said it still held
(`scoring.phone_contact` records it), for the apps that show it (a tournament's dashboard)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.models import Game, PhoneContact

#: What a query of games (or of rows with a `game`) selects to read `phone_contact_of` at no cost.
PHONE_CONTACT_RELATION = "phone_contact"


@dataclass(frozen=True, slots=True)
class PhoneContactState:
    """A game's last contact with a phone holding its edit link."""

    game_id: int
    last_heard_at: datetime.datetime
    pending_writes: int | None  # None: the phone never reported a count
    pending_reported_at: datetime.datetime | None


def _state(contact: PhoneContact) -> PhoneContactState:
    return PhoneContactState(
        contact.game_id, contact.last_heard_at, contact.pending_writes, contact.pending_reported_at
    )


def phone_contact_of(game: Game) -> PhoneContactState | None:
    """`game`'s last contact, None when never heard. No query when the game was read with
    `select_related(PHONE_CONTACT_RELATION)` (e.g. `"game__phone_contact"`); one otherwise."""
    try:
        contact = game.phone_contact
    except PhoneContact.DoesNotExist:
        return None
    return _state(contact)


def phone_contacts(game_ids: Iterable[int]) -> dict[int, PhoneContactState]:
    """The last contact of each of `game_ids` heard at least once, by game id (one query)."""
    rows = PhoneContact.objects.filter(game_id__in=list(game_ids)).order_by()
    return {row.game_id: _state(row) for row in rows}
