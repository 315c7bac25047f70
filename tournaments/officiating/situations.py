"""The shapes of the rulings catalogue (`tournaments.officiating.catalogue`): a situation, the facts
that decide it, and its outcomes, the first whose `when` matches being the answer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from django.utils.functional import Promise

from tournaments.models import Offence

FactType = Literal["boolean", "integer"]


@dataclass(frozen=True)
class Fact:
    """A fact that decides a situation, asked as a question."""

    name: str
    question: str | Promise
    type: FactType = "boolean"


@dataclass(frozen=True)
class Outcome:
    """One answer of a situation: it applies when every fact in `when` has that value."""

    ruling: str | Promise
    citations: tuple[str, ...]
    correction: str | Promise | None = None
    offence: Offence | None = None
    when: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Situation:
    """A dispute at a table: its id, title, sections, facts and outcomes (first match answers)."""

    id: str
    title: str | Promise
    rules: tuple[str, ...]
    facts: tuple[Fact, ...]
    outcomes: tuple[Outcome, ...]
