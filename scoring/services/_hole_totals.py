"""The stored totals and status of a game after a new hole is written (in the hole's transaction,
under the game lock): added to the totals for the next hole of a game in play, else recomputed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from scoring import db_statements
from scoring.game_managers import manager_of
from scoring.models import Game, GameStatus, Seat
from scoring.rules import Ruleset, match_over
from scoring.services._entry_scoring import ScoredEntry
from scoring.services._hole_writing import match_state_from_entries, refresh_totals_and_status
from scoring.services._manager_changes import status_changed


def settle_totals_after_hole(
    locked: Game,
    seats: list[Seat],
    scored: Sequence[ScoredEntry],
    ruleset: Ruleset,
    number: int,
    incremental: bool,
    writes: db_statements.Writes,
) -> None:
    """The stored totals and status after the new hole: added to the stored totals where the hole
    is the next one of a game in play (`incremental`), else recomputed from every hole once the
    hole's statements are sent (the first hole freezing the ruleset)."""
    if incremental:
        add_hole_to_totals_and_settle(locked, seats, scored, ruleset, number, writes)
        return
    writes.send()
    if not locked.is_frozen:
        locked.ruleset_frozen_at = timezone.now()
        locked.save(update_fields=["ruleset_frozen_at", "updated_at"])
    refresh_totals_and_status(locked, seats=seats)  # read with the lock: current


def add_hole_to_totals_and_settle(
    game: Game,
    seats: Sequence[Seat],
    scored: Sequence[ScoredEntry],
    ruleset: Ruleset,
    number: int,
    writes: db_statements.Writes,
) -> None:
    """Add a new regular hole's scores to the stored totals (two UPDATEs) and settle the match.

    Under the game lock the seats read are current, so the totals in memory are those stored. Only
    when the match may end with this hole are every hole's scores read, for the tiebreaks.
    """
    scores = {entry.seat.pk: entry.score for entry in scored}
    for seat in seats:
        seat.total += scores[seat.pk]
        seat.holes_played += 1
    previous_status = game.status
    over, _reason = match_over(ruleset, number, {seat.name: seat.total for seat in seats})
    status, winners = GameStatus.IN_PROGRESS, ()
    if over:
        writes.send()  # the new hole's entries, read back with every other hole
        state = match_state_from_entries(game, seats, ruleset)
        status, winners = state.status, state.winners
    db_statements.add_hole_scores_to_seat_totals(game.pk, scores, writes=writes)
    now = timezone.now()
    changes: dict[str, Any] = {"status": status, "winners": list(winners), "updated_at": now}
    if not game.is_frozen:
        changes["ruleset_frozen_at"] = now  # the first hole freezes the rules
    db_statements.update_game_after_hole(game.pk, changes, writes=writes)
    for name, value in changes.items():
        setattr(game, name, value)
    game.version += 1  # read under the lock: exactly the stored value now
    if (crossed := status_changed(game, previous_status)) is not None:
        manager_of(game).after_change(crossed)  # up into the manager, in this transaction
