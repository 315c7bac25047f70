"""Errors raised by the rules engine: every one carries the full list of problems found, as data.

The engine knows nothing of HTTP: what an error is answered with (the API's body, a page's form
errors, the status) is built from its `problems` by `golfclub.core.errors`, the one error path.
"""

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


class ProblemsMixin:
    """What every error naming a list of problems shares (the engine's `RulesError`, the games'
    `GameError`): built from problems, a Problem or a message; its `problems` are the answer.

    A mixin, not a common root: the two families stay apart (`except RulesError` never catches a
    game error); each root names itself in `root_name` for the "needs at least one problem" bug.
    """

    root_name = "ProblemsMixin"

    def __init__(self, problems: Iterable[Problem] | Problem | str, where: str = "input") -> None:
        if isinstance(problems, str):
            problems = (Problem(where, problems),)
        elif isinstance(problems, Problem):
            problems = (problems,)
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError(f"a {self.root_name} needs at least one problem")
        super().__init__(self.problems[0].message)

    @property
    def message(self) -> str:
        """The first problem's message."""
        return self.problems[0].message

    def __str__(self) -> str:
        return "; ".join(p.message for p in self.problems)


class RulesError(ProblemsMixin, ValueError):
    """Bad input to the rules engine. `problems` names every problem found, not only the first."""

    root_name = "RulesError"


class CardError(RulesError):
    """A card token that is not a card."""


class GridError(RulesError):
    """A grid of the wrong shape, ragged rows or otherwise unusable."""


class RulesetError(RulesError):
    """An unknown preset, an unknown parameter or a parameter with a bad value."""


class DeckError(RulesError):
    """More cards of a rank (or exact card, or jokers) than the packs in play hold."""
