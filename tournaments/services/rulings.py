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
from tournaments.models import Entrant, Penalty, PenaltyStep, Ruling, Table, TableSeat, Tournament
from tournaments.officiating.advice import Advice, advise
from tournaments.services.events import bump_version, lock_tournament
from tournaments.services.penalties import clean_note, give_penalty, player_of

#: The highest hole number a ruling may name (the longest preset plays 18).
MAX_HOLE = 99
#: The highest table number a ruling may name (checked against the round's tables after).
MAX_TABLE = 10_000


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
    confirmed_dq: str | None = None,
) -> Ruling:
    """Record the catalogue's answer to `situation` with `facts` at `round_number`, `table`, `hole`,
    and for an offence the penalty of `player`.

    The facts are checked against the event: the round is seated, the table is one of that round's,
    the player sat at that table in that round (or played that round), the hole is one the round
    plays. Every problem is reported at once, each naming its field, in one `TournamentError`.
    `confirmed_dq`: the pages' confirmation of a disqualification (`give_penalty`).
    """
    problems: list[Problem] = []
    advice = _advice(situation, facts, player, step, problems)
    table_number = _small(table, "table", MAX_TABLE, problems)
    hole_number = _small(hole, "hole", MAX_HOLE, problems)
    text = clean_note(note, problems)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = _entrant_named(locked, player, problems)
        number = _round(locked, round_number, problems)
        problems.extend(_against_the_event(locked, entrant, number, table_number, hole_number))
        if problems or advice is None:  # no advice only when its problems are listed
            raise TournamentError(_in_field_order(problems))
        penalty = _its_penalty(locked, advice, entrant, number, step, text, actor, confirmed_dq)
        ruling = Ruling.objects.create(
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
        bump_version(locked.pk)  # the player's page lists their rulings (its ETag moves)
    return ruling


def _advice(situation: Any, facts: Any, player: Any, step: Any, problems: list[Problem]) -> Advice | None:
    """The catalogue's answer to `situation` and `facts` (None when they are wrong: `problems` says
    why); an offence names its player, and the step an official decides is one of the ladder's."""
    advice = None
    try:
        advice = advise(situation, facts)
    except TournamentError as error:
        problems.extend(error.problems)
    offence = advice.offence if advice is not None else None
    if offence and player is None:
        problems.append(
            Problem("player", _("This situation is an offence (%(o)s): name the player.") % {"o": offence})
        )
    if offence and step not in (None, "") and step not in PenaltyStep.values:
        problems.append(
            Problem("step", _("One of: %(choices)s.") % {"choices": ", ".join(PenaltyStep.values)})
        )
    return advice


def _its_penalty(
    locked: Tournament,
    advice: Advice,
    entrant: Entrant | None,
    number: int | None,
    step: Any,
    note: str,
    actor: Any,
    confirmed_dq: str | None,
) -> Penalty | None:
    """The penalty an offence carries, given as `give_penalty` gives it (None for no offence)."""
    if not advice.offence or entrant is None:
        return None
    return give_penalty(
        locked,
        player=entrant.pk,
        offence=advice.offence,
        round_number=number,
        step=step,
        seconds_over=advice.seconds_over or None,
        note=note,
        actor=actor,
        confirmed_dq=confirmed_dq,
    )


def _entrant_named(tournament: Tournament, player: Any, problems: list[Problem]) -> Entrant | None:
    """The event's player named (None when none is, or `problems` says why not)."""
    if player is None:
        return None
    try:
        return player_of(tournament, player)
    except TournamentError as error:
        problems.extend(error.problems)
        return None


def _round(tournament: Tournament, value: Any, problems: list[Problem]) -> int | None:
    """The round named, one already seated, or a problem naming `round` (None: not named)."""
    if value is None:
        return None
    seated = tournament.round_set.count()
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seated:
        problems.append(
            Problem(
                "round",
                _("No round %(n)s: rounds 1 to %(seated)s are seated.") % {"n": value, "seated": seated},
            )
            if seated and isinstance(value, int) and not isinstance(value, bool)
            else Problem("round", _("A whole number from 1 to %(max)s.") % {"max": seated})
            if seated
            else Problem("round", _("No round is seated yet: leave it out."))
        )
        return None
    return value


def _against_the_event(
    tournament: Tournament, entrant: Entrant | None, number: int | None, table: int | None, hole: int | None
) -> list[Problem]:
    """What in the ruling's place contradicts the event: a table not in the round, a player who did
    not sit there (or did not play the round), a hole past the round's last."""
    problems: list[Problem] = []
    if number is None:
        if table is not None:
            problems.append(
                Problem("table", _("Table %(t)s of which round? Name the round too.") % {"t": table})
            )
        return problems
    if (
        table is not None
        and not Table.objects.filter(
            round__tournament=tournament, round__number=number, number=table
        ).exists()
    ):
        problems.append(Problem("table", _("No table %(t)s in round %(n)s.") % {"t": table, "n": number}))
        table = None
    if entrant is not None:
        sat = (
            TableSeat.objects.filter(round__tournament=tournament, round__number=number, entrant=entrant)
            .values_list("table__number", flat=True)
            .first()
        )
        if sat is None:
            problems.append(
                Problem(
                    "player", _("%(name)s did not play round %(n)s.") % {"name": entrant.name, "n": number}
                )
            )
        elif table is not None and sat != table:
            problems.append(
                Problem(
                    "player",
                    _("%(name)s sat at table %(sat)s in round %(n)s, not table %(t)s.")
                    % {"name": entrant.name, "sat": sat, "n": number, "t": table},
                )
            )
    holes = tournament.ruleset.get("holes") if isinstance(tournament.ruleset, dict) else None
    if hole is not None and isinstance(holes, int) and hole > holes:
        problems.append(
            Problem("hole", _("Round %(n)s plays %(holes)s holes.") % {"n": number, "holes": holes})
        )
    return problems


#: The order a ruling's body lists its fields: its problems are reported in that order.
_FIELDS = ("situation", "facts", "player", "round", "table", "hole", "step", "note")


def _in_field_order(problems: list[Problem]) -> list[Problem]:
    def rank(problem: Problem) -> int:
        head = (problem.where or "").split(".")[0].split("[")[0]
        return _FIELDS.index(head) if head in _FIELDS else len(_FIELDS)

    return sorted(problems, key=rank)


def _small(value: Any, where: str, high: int, problems: list[Problem]) -> int | None:
    """An optional whole number from 1 to `high`, or a problem naming `where`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        problems.append(Problem(where, _("A whole number from 1 to %(max)s.") % {"max": high}))
        return None
    return value
