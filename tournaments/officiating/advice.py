"""A situation and its facts in, the official answer out: ruling, citations, correction, offence.

Facts are checked before anything is answered: every fact the situation asks for must be given,
with its type (yes/no as a JSON boolean, a number as a whole number from 0), and no other; each
problem names where it is (`facts.next_turn_begun`). The penalty step is not decided here: it
depends on the player's earlier offences in the event (`tournaments.services.penalties`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.rules.errors import Problem
from tournaments.errors import TournamentError
from tournaments.models import Offence
from tournaments.officiating.catalogue import BY_ID, Outcome, Situation

#: The largest number a fact takes (a day's worth of seconds over a limit is already absurd).
MAX_FACT_NUMBER = 86_400


@dataclass(frozen=True)
class Advice:
    """The official answer to a situation with its facts."""

    situation: Situation
    facts: dict[str, bool | int]
    ruling: str
    citations: tuple[str, ...]
    correction: str | None
    offence: Offence | None

    @property
    def seconds_over(self) -> int:
        """The time over the limit, for a time violation (0 otherwise)."""
        value = self.facts.get("seconds_over", 0)
        return int(value) if not isinstance(value, bool) else 0


def situation_of(situation_id: Any) -> Situation:
    """The catalogue's situation of that id; `TournamentError` naming `situation` otherwise."""
    found = BY_ID.get(situation_id) if isinstance(situation_id, str) else None
    if found is None:
        raise TournamentError(
            Problem(
                "situation",
                _("Unknown situation %(id)s: GET /api/v1/rulings/situations/ lists them.")
                % {"id": repr(situation_id)[:60]},
            )
        )
    return found


def clean_facts(situation: Situation, facts: Any) -> dict[str, bool | int]:
    """The facts checked against what `situation` asks; `TournamentError` naming each problem."""
    if facts is None:
        facts = {}
    if not isinstance(facts, Mapping):
        raise TournamentError(Problem("facts", _('Facts are an object: {"name": value, ...}.')))
    problems: list[Problem] = []
    clean: dict[str, bool | int] = {}
    asked = {fact.name: fact for fact in situation.facts}
    for name in facts:
        if name not in asked:
            known = ", ".join(asked) or _("none")
            problems.append(
                Problem(
                    f"facts.{str(name)[:40]}",
                    _("Unknown fact for %(situation)s (it asks: %(known)s).")
                    % {"situation": situation.id, "known": known},
                )
            )
    for name, fact in asked.items():
        where = f"facts.{name}"
        if name not in facts:
            problems.append(Problem(where, _("Missing: %(question)s") % {"question": fact.question}))
            continue
        value = facts[name]
        if fact.type == "boolean":
            if not isinstance(value, bool):
                problems.append(Problem(where, _("Answer with true or false.")))
            else:
                clean[name] = value
        elif isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FACT_NUMBER:
            problems.append(
                Problem(where, _("A whole number from 0 to %(max)s.") % {"max": f"{MAX_FACT_NUMBER:,}"})
            )
        else:
            clean[name] = value
    if problems:
        raise TournamentError(problems)
    return clean


def outcome_for(situation: Situation, facts: Mapping[str, bool | int]) -> Outcome:
    """The first outcome of `situation` whose conditions the facts meet."""
    for outcome in situation.outcomes:
        if all(facts.get(name) == value for name, value in outcome.when.items()):
            return outcome
    raise LookupError(f"{situation.id}: no outcome for {dict(facts)}")  # a catalogue defect (tested)


def advise(situation_id: Any, facts: Any) -> Advice:
    """The official answer to `situation_id` with `facts` (checked; `TournamentError` if not)."""
    situation = situation_of(situation_id)
    clean = clean_facts(situation, facts)
    outcome = outcome_for(situation, clean)
    return Advice(
        situation=situation,
        facts=clean,
        ruling=str(outcome.ruling),
        citations=outcome.citations,
        correction=str(outcome.correction) if outcome.correction is not None else None,
        offence=outcome.offence,
    )
