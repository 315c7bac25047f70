"""Write the turn times a table's phone measured (the turn timer, static/js/turn-timer.js).

A phone reports, per hole and seat, the running totals of its clock (milliseconds, turns). They only
grow while the hole is timed, so each stored value is the larger of what the row holds and what
arrives: a report sent twice, a report sent again by the offline queue after the page already sent
it, or an older report arriving after a newer one changes nothing. That makes the write idempotent
and the order of reports irrelevant, so it needs neither an Idempotency-Key nor an If-Match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.game_errors import GameError
from scoring.models import Game, TurnTime
from scoring.rules.errors import Problem


@dataclass(frozen=True)
class SeatTime:
    """One seat's clock in one hole: total milliseconds of its turns and how many turns it had."""

    seat: int
    milliseconds: int
    turns: int


@dataclass(frozen=True)
class HoleTimes:
    """A hole's clocks as the phone measured them (`number` from 1; a playoff hole numbered apart)."""

    number: int
    playoff: bool
    seats: Sequence[SeatTime]


def _check_seats(holes: Sequence[HoleTimes], seat_count: int) -> None:
    """Refuse (400, naming the field) a seat the game does not have, or a seat twice in a hole."""
    problems = []
    for h, hole in enumerate(holes, start=1):
        seen: set[int] = set()
        for s, one in enumerate(hole.seats, start=1):
            where = f"holes[{h}].seats[{s}].seat"
            if one.seat >= seat_count:
                message = _("This game has no seat %(seat)s (seats are numbered from 0).") % {
                    "seat": one.seat
                }
                problems.append(Problem(where, message))
            elif one.seat in seen:
                problems.append(Problem(where, _("This seat is already listed for this hole.")))
            seen.add(one.seat)
    if problems:
        raise GameError(problems)


def record_turn_times(game: Game, holes: Sequence[HoleTimes]) -> int:
    """Merge a phone's report into the game's turn times (each value: the larger of stored and
    reported); answers how many rows were created or changed. One transaction, the game row locked
    first (the one lock order of a game's writes), so two reports at once cannot lose either."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        _check_seats(holes, locked.seats.count())
        stored = {
            (row.hole_number, row.is_playoff, row.seat): row for row in TurnTime.objects.filter(game=locked)
        }
        new: list[TurnTime] = []
        changed: list[TurnTime] = []
        for hole in holes:
            for one in hole.seats:
                row = stored.get((hole.number, hole.playoff, one.seat))
                if row is None:
                    new.append(
                        TurnTime(
                            game=locked, hole_number=hole.number, is_playoff=hole.playoff,
                            seat=one.seat, milliseconds=one.milliseconds, turns=one.turns,
                        )
                    )  # fmt: skip
                elif one.milliseconds > row.milliseconds or one.turns > row.turns:
                    row.milliseconds = max(row.milliseconds, one.milliseconds)
                    row.turns = max(row.turns, one.turns)
                    changed.append(row)
        TurnTime.objects.bulk_create(new)
        TurnTime.objects.bulk_update(changed, ["milliseconds", "turns", "updated_at"])
        return len(new) + len(changed)
