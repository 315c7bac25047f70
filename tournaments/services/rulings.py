"""Record an official's ruling in the event's rulings log, with the penalty it carries.

The answer itself comes from the catalogue (`tournaments.officiating.advice`), never typed by hand:
the official records the situation and its facts, and where it happened. When the situation is an
offence, the player is named and the penalty is given as `POST .../penalties/` would give it (the
ladder's next step, or the step the official decides), in the same transaction: a ruling and its
penalty are written together or not at all.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments.errors import TournamentError
from tournaments.models import Ruling, Table, Tournament
from tournaments.officiating.advice import advise
from tournaments.services.events import lock_tournament
from tournaments.services.penalties import clean_note, give_penalty, player_of

#: The highest hole number a ruling may name (the longest preset plays 18).
MAX_HOLE = 99


def record_ruling(
    tournament: Tournament,
    *,
    situation: Any,
    facts: Any = None,
    player: Any = None,
    round_number: Any = None,
    table: Any = None,
    hole: Any = None,
    step: Any = None,
    note: Any = "",
    actor: Any = None,
) -> Ruling:
    """Record the catalogue's answer to `situation` with `facts` at `round_number`, `table`, `hole`,
    and for an offence the penalty of `player`. Bad input raises `TournamentError` naming it."""
    advice = advise(situation, facts)
    problems: list[Problem] = []
    text = clean_note(note, problems)
    hole_number = _small(hole, "hole", MAX_HOLE, problems)
    offence = advice.offence
    if offence and player is None:
        problems.append(
            Problem(
                "player", _("This situation is an offence (%(o)s): name the player.") % {"o": advice.offence}
            )
        )
    if problems:
        raise TournamentError(problems)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = player_of(locked, player) if player is not None else None
        number = _small(round_number, "round", locked.round_set.count(), problems)
        table_number = _small(table, "table", 10_000, problems)
        if table_number is not None and (
            number is None
            or not Table.objects.filter(
                round__tournament=locked, round__number=number, number=table_number
            ).exists()
        ):
            problems.append(Problem("table", _("No table %(t)s in that round.") % {"t": table_number}))
        if problems:
            raise TournamentError(problems)
        penalty = None
        if advice.offence and entrant is not None:
            penalty = give_penalty(
                locked,
                player=entrant.pk,
                offence=advice.offence,
                round_number=number,
                step=step,
                seconds_over=advice.seconds_over or None,
                note=text,
                actor=actor,
            )
        return Ruling.objects.create(
            tournament=locked,
            situation=advice.situation.id,
            facts=advice.facts,
            ruling=advice.ruling,
            citations=list(advice.citations),
            correction=advice.correction or "",
            offence=advice.offence or "",
            entrant=entrant,
            penalty=penalty,
            round_number=number,
            table_number=table_number,
            hole_number=hole_number,
            note=text,
            official=actor if getattr(actor, "is_authenticated", False) else None,
        )


def _small(value: Any, where: str, high: int, problems: list[Problem]) -> int | None:
    """An optional whole number from 1 to `high`, or a problem naming `where`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= max(high, 0):
        problems.append(
            Problem(where, _("A whole number from 1 to %(max)s.") % {"max": high})
            if high
            else Problem(where, _("No round is seated yet: leave it out."))
        )
        return None
    return value
