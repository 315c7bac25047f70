"""Matches: dealer rotation, when a match is over, and standings with tiebreakers (rule 4.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .citations import cite
from .errors import Problem, RulesError
from .holes import holes_from_sequences, sum_totals
from .ruleset import Ruleset
from .tiebreak import (
    METRICS,
    PLAYOFF,
    SHARED,
    TiebreakData,
    TiebreakStep,
    TieSettler,
    joined_names,
    split_by_key,
)

__all__ = [
    "MatchOutcome",
    "TiebreakStep",
    "dealer_for_hole",
    "first_player_for_hole",
    "match_over",
    "rank_players",
]


def _check_seats(first_dealer: int, hole_number: int, players: int) -> None:
    problems = []
    if not isinstance(players, int) or players < 1:
        problems.append(Problem("players", "A match needs at least one player."))
    elif not isinstance(first_dealer, int) or not 0 <= first_dealer < players:
        problems.append(Problem("first_dealer", f"The first dealer must be a seat from 0 to {players - 1}."))
    if not isinstance(hole_number, int) or hole_number < 1:
        problems.append(Problem("hole_number", "Holes are numbered from 1."))
    if problems:
        raise RulesError(problems)


def dealer_for_hole(first_dealer: int, hole_number: int, players: int) -> int:
    """The seat index (0-based, clockwise) of the dealer of hole `hole_number` (1-based): the deal passes
    clockwise each hole (seed 001)."""
    _check_seats(first_dealer, hole_number, players)
    return (first_dealer + hole_number - 1) % players


def first_player_for_hole(first_dealer: int, hole_number: int, players: int) -> int:
    """The seat index of the player who plays first in the hole: the dealer's left, the next seat
    clockwise (seeds 001, 002, 004)."""
    return (dealer_for_hole(first_dealer, hole_number, players) + 1) % players


def match_over(ruleset: Ruleset, holes_played: int, totals: Mapping[str, int]) -> tuple[bool, str]:
    """Whether the match is over after `holes_played` holes with these totals, and why (or why not).

    Over when the ruleset's holes are played, or when anyone's total reached `target_score` (seed 001)."""
    if ruleset.target_score is not None:
        reached = sorted((name for name, total in totals.items() if total >= ruleset.target_score), key=str)
        if reached:
            names = " and ".join(f"{name} ({totals[name]})" for name in reached)
            verb = "reach" if len(reached) > 1 else "reaches"
            return True, f"{names} {verb} the target score of {ruleset.target_score} (seed 001)."
    if ruleset.holes is not None:
        if holes_played >= ruleset.holes:
            return True, f"All {ruleset.holes} holes are played ({cite('2.5')})."
        left = ruleset.holes - holes_played
        return False, f"{left} hole{'s' if left != 1 else ''} to play."
    if ruleset.target_score is not None:
        return False, f"The match ends after a hole in which anyone reaches {ruleset.target_score}."
    return False, "The match has no set length: it ends when the players decide."


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """Standings: the whole field best first (a tuple groups players still level), and how ties went."""

    order: tuple[tuple[str, ...], ...]
    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    status: str  # "won" | "sudden_death" | "shared" | "tied"
    contenders: tuple[str, ...]
    steps: tuple[TiebreakStep, ...]
    explanation: tuple[str, ...]

    def places(self) -> list[tuple[int, str]]:
        """(place, name) for every player; players still level share a place (1, 2, 2, 4)."""
        result: list[tuple[int, str]] = []
        place = 1
        for group in self.order:
            result += [(place, name) for name in group]
            place += len(group)
        return result

    def to_dict(self) -> dict[str, Any]:
        """JSON."""
        return {
            "order": [list(group) for group in self.order],
            "totals": dict(self.totals),
            "winners": list(self.winners),
            "status": self.status,
            "contenders": list(self.contenders),
            "steps": [step.to_dict() for step in self.steps],
            "explanation": list(self.explanation),
        }


def _validate(
    hole_scores: Mapping[str, Sequence[int]],
    tiebreakers: Sequence[str],
    playoff_scores: Mapping[str, Sequence[int]] | None,
    penalties: Mapping[str, int] | None = None,
) -> None:
    problems: list[Problem] = []
    if not hole_scores:
        problems.append(Problem("hole_scores", "Standings need at least one player."))
    for name, scores in hole_scores.items():
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            problems.append(Problem(f"hole_scores.{name}", f"{name}'s hole scores must be whole numbers."))
    for method in tiebreakers:
        if method not in METRICS:
            problems.append(Problem("tiebreakers", f'Unknown tiebreaker "{method}".'))
    for name, scores in (playoff_scores or {}).items():
        if name not in hole_scores:
            problems.append(Problem(f"playoff_scores.{name}", f'"{name}" is not a player of this match.'))
        elif not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            problems.append(
                Problem(f"playoff_scores.{name}", f"{name}'s playoff scores must be whole numbers.")
            )
    problems += penalty_problems(penalties, hole_scores)
    if problems:
        raise RulesError(problems)


def penalty_problems(penalties: Mapping[str, int] | None, players: Iterable[str]) -> list[Problem]:
    """What is wrong with penalty points by player: unknown players or points that are not whole numbers."""
    known = set(players)
    problems = []
    for name, points in (penalties or {}).items():
        if name not in known:
            problems.append(Problem(f"penalties.{name}", f'"{name}" is not a player here.'))
        elif not isinstance(points, int) or isinstance(points, bool):
            problems.append(Problem(f"penalties.{name}", f"{name}'s penalty points must be a whole number."))
    return problems


def rank_players(
    hole_scores: Mapping[str, Sequence[int]],
    tiebreakers: Sequence[str],
    playoff_scores: Mapping[str, Sequence[int]] | None = None,
    penalties: Mapping[str, int] | None = None,
) -> MatchOutcome:
    """Rank the whole field by total (lowest first), breaking ties with `tiebreakers` in order (rule 4.2).

    `hole_scores` are the regular holes in order (playoff holes never change totals). `countback` and
    `most_holes_won` separate tied players at any place; `sudden_death` (decided by `playoff_scores`:
    the first playoff hole where one contender is strictly lowest) and `shared` settle first place.
    `penalties` (points by player, outside the cards) are added to the totals."""
    _validate(hole_scores, tiebreakers, playoff_scores, penalties)
    names = tuple(hole_scores)
    holes = holes_from_sequences(hole_scores, playoff_scores)
    totals = {name: line.total for name, line in sum_totals(names, holes, penalties).items()}
    settler = TieSettler(TiebreakData.from_holes(names, holes))
    explanation = [
        "Totals, lowest wins (rule 2.5): "
        + ", ".join(f"{n} {totals[n]}" for n in sorted(names, key=totals.__getitem__))
        + "."
    ]
    order: list[tuple[str, ...]] = []
    for place, group in enumerate(split_by_key(names, totals)):
        steps_before = len(settler.steps)
        order += settler.settle(group, tuple(tiebreakers), first=place == 0)
        explanation += [step.explanation for step in settler.steps[steps_before:]]
    leaders = order[0]
    held = settler.held.get(leaders)
    if held == SHARED:
        status = "shared"
    elif held == PLAYOFF:
        status = "sudden_death"
    else:
        status = "won" if len(leaders) == 1 else "tied"
    winners = leaders if status in ("won", "shared") else ()
    contenders = leaders if status in ("sudden_death", "tied") else ()
    if status == "won":
        ending = f"{joined_names(winners)} wins."
    elif status == "shared":
        ending = f"{joined_names(winners)} share the victory ({cite('4.2')})."
    elif status == "sudden_death":
        ending = (
            f"{joined_names(contenders)} play sudden-death holes until one scores lowest ({cite('4.2')})."
        )
    else:
        ending = f"{joined_names(contenders)} remain tied: no tiebreaker separates them."
    explanation.append(ending)
    return MatchOutcome(
        order=tuple(order),
        totals=tuple((name, totals[name]) for name in names),
        winners=tuple(winners),
        status=status,
        contenders=tuple(contenders),
        steps=tuple(settler.steps),
        explanation=tuple(explanation),
    )
