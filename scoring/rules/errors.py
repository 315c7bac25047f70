"""Errors raised by the rules engine: every one carries the full list of problems found."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input: where it is (a path into the input) and what is wrong."""

    where: str
    message: str

    def as_dict(self) -> dict[str, str]:
        """The problem as JSON: {"where": ..., "message": ...}."""
        return {"where": self.where, "message": self.message}


class RulesError(ValueError):
    """Bad input to the rules engine. `problems` names every problem found, not only the first."""

    def __init__(self, problems: Iterable[Problem] | Problem | str, where: str = "input") -> None:
        if isinstance(problems, str):
            problems = (Problem(where, problems),)
        elif isinstance(problems, Problem):
            problems = (problems,)
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a RulesError needs at least one problem")
        super().__init__(self.problems[0].message)

    @property
    def message(self) -> str:
        """The first problem's message."""
        return self.problems[0].message

    def as_dict(self) -> dict:
        """The API error shape: {"detail": first message, "errors": [{"where", "message"}, ...]}."""
        return {"detail": self.message, "errors": [p.as_dict() for p in self.problems]}

    def __str__(self) -> str:
        return "; ".join(p.message for p in self.problems)


class CardError(RulesError):
    """A card token that is not a card."""


class GridError(RulesError):
    """A grid of the wrong shape, ragged rows or otherwise unusable."""


class RulesetError(RulesError):
    """An unknown preset, an unknown parameter or a parameter with a bad value."""


class DeckError(RulesError):
    """More cards of a rank (or exact card, or jokers) than the packs in play hold."""
