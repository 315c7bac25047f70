"""Matches: dealer rotation, when a match is over, and standings with tiebreakers (rule 4.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .citations import cite
from .errors import Problem, RulesError
from .ruleset import TIEBREAKERS, Ruleset


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
class TiebreakStep:
    """One tiebreak method applied to a group of tied players."""

    method: str
    players: tuple[str, ...]
    values: tuple[tuple[str, str], ...]
    decided: bool  # the method settled who of the group ranks first
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        """JSON."""
        return {
            "method": self.method,
            "players": list(self.players),
            "values": dict(self.values),
            "decided": self.decided,
            "explanation": self.explanation,
        }


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


def _split(group: tuple[str, ...], key: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """Split a group into subgroups by ascending key, keeping seat order within a subgroup."""
    ordered = sorted(group, key=lambda name: key[name])
    parts: list[list[str]] = []
    for name in ordered:
        if parts and key[parts[-1][0]] == key[name]:
            parts[-1].append(name)
        else:
            parts.append([name])
    return [tuple(part) for part in parts]


def _validate(
    hole_scores: Mapping[str, Sequence[int]],
    tiebreakers: Sequence[str],
    playoff_scores: Mapping[str, Sequence[int]] | None,
) -> None:
    problems: list[Problem] = []
    if not hole_scores:
        problems.append(Problem("hole_scores", "Standings need at least one player."))
    for name, scores in hole_scores.items():
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            problems.append(Problem(f"hole_scores.{name}", f"{name}'s hole scores must be whole numbers."))
    for method in tiebreakers:
        if method not in TIEBREAKERS:
            problems.append(Problem("tiebreakers", f'Unknown tiebreaker "{method}".'))
    for name, scores in (playoff_scores or {}).items():
        if name not in hole_scores:
            problems.append(Problem(f"playoff_scores.{name}", f'"{name}" is not a player of this match.'))
        elif not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            problems.append(
                Problem(f"playoff_scores.{name}", f"{name}'s playoff scores must be whole numbers.")
            )
    if problems:
        raise RulesError(problems)


def rank_players(
    hole_scores: Mapping[str, Sequence[int]],
    tiebreakers: Sequence[str],
    playoff_scores: Mapping[str, Sequence[int]] | None = None,
) -> MatchOutcome:
    """Rank the whole field by total (lowest first), breaking ties with `tiebreakers` in order (rule 4.2).

    `hole_scores` are the regular holes in order (playoff holes never change totals). `countback` and
    `most_holes_won` separate tied players at any place; `sudden_death` (decided by `playoff_scores`:
    the first playoff hole where one contender is strictly lowest) and `shared` settle first place."""
    _validate(hole_scores, tiebreakers, playoff_scores)
    names = tuple(hole_scores)
    totals = {name: sum(hole_scores[name]) for name in names}
    ties = _Tiebreak(hole_scores, playoff_scores or {})
    ties.explanation.append(
        "Totals, lowest wins (rule 2.5): "
        + ", ".join(f"{n} {totals[n]}" for n in sorted(names, key=totals.get))
        + "."
    )
    order: list[tuple[str, ...]] = []
    for place, group in enumerate(_split(names, totals)):
        order += ties.settle(group, tuple(tiebreakers), for_first=place == 0)
    leaders = order[0]
    if ties.status is None:
        ties.status = "won" if len(leaders) == 1 else "tied"
    winners = leaders if ties.status in ("won", "shared") else ()
    contenders = leaders if ties.status in ("sudden_death", "tied") else ()
    if ties.status == "won":
        ending = f"{_joined(winners)} wins."
    elif ties.status == "shared":
        ending = f"{_joined(winners)} share the victory ({cite('4.2')})."
    elif ties.status == "sudden_death":
        ending = f"{_joined(contenders)} play sudden-death holes until one scores lowest ({cite('4.2')})."
    else:
        ending = f"{_joined(contenders)} remain tied: no tiebreaker separates them."
    ties.explanation.append(ending)
    return MatchOutcome(
        order=tuple(order),
        totals=tuple((name, totals[name]) for name in names),
        winners=tuple(winners),
        status=ties.status,
        contenders=tuple(contenders),
        steps=tuple(ties.steps),
        explanation=tuple(ties.explanation),
    )


class _Tiebreak:
    """Applies tiebreak methods to tied groups, recording the steps and how first place was settled."""

    def __init__(
        self, hole_scores: Mapping[str, Sequence[int]], playoff: Mapping[str, Sequence[int]]
    ) -> None:
        self.hole_scores = hole_scores
        self.playoff = playoff
        self.won = _holes_won(hole_scores)
        self.steps: list[TiebreakStep] = []
        self.explanation: list[str] = []
        self.status: str | None = (
            None  # "shared" or "sudden_death" once a method settles first place that way
        )

    def settle(
        self, group: tuple[str, ...], methods: tuple[str, ...], for_first: bool
    ) -> list[tuple[str, ...]]:
        """Split a tied group with the first method, then each part with the rest; best first."""
        if len(group) == 1 or not methods:
            return [group]
        method, rest = methods[0], methods[1:]
        if method in ("sudden_death", "shared") and not for_first:
            return self.settle(group, rest, for_first)
        parts, step = _apply(method, group, self.hole_scores, self.won, self.playoff)
        self.steps.append(step)
        self.explanation.append(step.explanation)
        if method == "shared":
            self.status = "shared"
            return [group]
        if method == "sudden_death" and not step.decided:
            self.status = "sudden_death"
            return [group]
        settled: list[tuple[str, ...]] = []
        for index, part in enumerate(parts):
            settled += self.settle(part, rest, for_first and index == 0)
        return settled


def _holes_won(hole_scores: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """Holes where each player had the lowest score of the whole table; a shared lowest counts for each."""
    won = {name: 0 for name in hole_scores}
    holes = max((len(scores) for scores in hole_scores.values()), default=0)
    for index in range(holes):
        played = {name: scores[index] for name, scores in hole_scores.items() if index < len(scores)}
        lowest = min(played.values())
        for name, score in played.items():
            if score == lowest:
                won[name] += 1
    return won


def _joined(names: Sequence[str]) -> str:
    """ "ann", "ann and bob", "ann, bob and cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _apply(
    method: str,
    tied: tuple[str, ...],
    hole_scores: Mapping[str, Sequence[int]],
    won: Mapping[str, int],
    playoff: Mapping[str, Sequence[int]],
) -> tuple[list[tuple[str, ...]], TiebreakStep]:
    """Apply one method to one tied group: the subgroups best first, and the step taken."""
    names = _joined(tied)
    if method == "sudden_death":
        winner, played = _playoff_winner(tied, playoff)
        values = tuple((name, ", ".join(map(str, playoff.get(name, ())[:played]))) for name in tied)
        if winner is None:
            shown = f" ({'; '.join(f'{n}: {v}' for n, v in values)})" if played else ""
            text = f"{names} tie; sudden death: no playoff hole has a single lowest score yet{shown}"
            return [tied], TiebreakStep(method, tied, values, False, f"{text} ({cite('4.2')}).")
        rest = tuple(name for name in tied if name != winner)
        text = f"{names} tie; sudden death: {winner} scores lowest on playoff hole {played}"
        return [(winner,), rest], TiebreakStep(method, tied, values, True, f"{text} ({cite('4.2')}).")
    if method == "shared":
        return [tied], TiebreakStep(
            method, tied, (), True, f"{names} tie and share the victory ({cite('4.2')})."
        )
    if method == "countback":
        key: dict[str, Any] = {name: tuple(sorted(hole_scores[name])) for name in tied}
        values = tuple((name, ", ".join(map(str, key[name]))) for name in tied)
        shown = "; ".join(f"{name}: {value}" for name, value in values)
        text = f"{names} tie; countback compares their hole scores from the lowest ({shown})"
    else:  # most_holes_won
        key = {name: -won[name] for name in tied}
        values = tuple((name, str(won[name])) for name in tied)
        shown = ", ".join(f"{name} {value}" for name, value in values)
        text = f"{names} tie; most holes won ({shown})"
    parts = _split(tied, key)
    decided = len(parts[0]) == 1
    if decided:
        text += f": {parts[0][0]} ranks ahead"
    elif len(parts) == 1:
        text += ": still level"
    else:
        text += f": {_joined(parts[0])} stay level ahead"
    return parts, TiebreakStep(method, tied, values, decided, f"{text} ({cite('4.2')}).")


def _playoff_winner(tied: tuple[str, ...], playoff: Mapping[str, Sequence[int]]) -> tuple[str | None, int]:
    """The first playoff hole where one contender is strictly lowest: (winner, holes played to decide it).

    Only holes every contender has a score for count; without a winner, (None, holes so far)."""
    played = min((len(playoff.get(name, ())) for name in tied), default=0)
    for index in range(played):
        scores = {name: playoff[name][index] for name in tied}
        lowest = min(scores.values())
        leaders = [name for name, score in scores.items() if score == lowest]
        if len(leaders) == 1:
            return leaders[0], index + 1
    return None, played
