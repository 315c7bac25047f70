"""Tiebreakers as registered metrics (rule 4.2), usable over any set of holes.

Each metric is a small class registered under the SPEC's name (`countback`, `most_holes_won`,
`sudden_death`, `shared`). A metric splits a group of tied players (best first), gives the value it
shows in a standings column, and says in a short phrase why one player ranks above a tied neighbour.
`TieSettler` applies a chain of metrics to tied groups; `rank_players` (one match) and `rank_event`
(holes of several games) both use it, so a tie is settled the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .citations import cite
from .holes import PlayedHole, holes_won, low_scorers

Group = tuple[str, ...]

# How a group that a metric keeps together is held: joint winners, or waiting for playoff holes.
SHARED = "shared"
PLAYOFF = "playoff"


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
class TiebreakData:
    """What the metrics read: each player's regular scores (hole order), holes won, playoff holes."""

    regular: Mapping[str, tuple[int, ...]]
    won: Mapping[str, int]
    playoff_holes: tuple[PlayedHole, ...]  # by number, then table

    @classmethod
    def from_holes(cls, players: Iterable[str], holes: Sequence[PlayedHole]) -> TiebreakData:
        """The data for `players` over `holes` (regular and playoff; each hole won at its own table)."""
        names = list(players)
        regular: dict[str, list[int]] = {name: [] for name in names}
        for hole in holes:
            if not hole.playoff:
                for name, score in hole.scores.items():
                    regular.setdefault(name, []).append(score)
        playoff = sorted((h for h in holes if h.playoff), key=lambda h: (h.number, str(h.table)))
        return cls(
            regular={name: tuple(scores) for name, scores in regular.items()},
            won=holes_won(holes, names),
            playoff_holes=tuple(playoff),
        )


@dataclass(frozen=True, slots=True)
class MetricSplit:
    """A metric applied to one tied group: the parts best first and the step to record."""

    parts: tuple[Group, ...]
    step: TiebreakStep
    holds: str = ""  # SHARED or PLAYOFF when the metric keeps the whole group together


class TiebreakMetric:
    """A tiebreak method. Subclasses set `name` and `label`, and implement the three methods."""

    name: ClassVar[str]
    label: ClassVar[str]
    # Only settles a tie for first place (in a match); below first the chain skips it.
    first_place_only: ClassVar[bool] = False

    def split(self, group: Group, data: TiebreakData, *, first: bool) -> MetricSplit:
        """Split a tied group into parts, best first."""
        raise NotImplementedError

    def column(self, player: str, group: Group, data: TiebreakData) -> str:
        """The value shown in this metric's standings column for `player` (tied with `group`)."""
        raise NotImplementedError

    def why_above(self, above: str, below: str, group: Group, data: TiebreakData) -> str:
        """A short phrase: why `above` ranks ahead of `below` by this metric."""
        raise NotImplementedError


METRICS: dict[str, TiebreakMetric] = {}


def register_metric(cls: type[TiebreakMetric]) -> type[TiebreakMetric]:
    """Class decorator: register one instance of a metric under its `name`."""
    METRICS[cls.name] = cls()
    return cls


def joined_names(names: Sequence[str]) -> str:
    """ "ann", "ann and bob", "ann, bob and cy"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def split_by_key(group: Group, key: Mapping[str, Any]) -> list[Group]:
    """Split a group into subgroups by ascending key, keeping the given order within a subgroup."""
    parts: list[list[str]] = []
    for name in sorted(group, key=lambda name: key[name]):
        if parts and key[parts[-1][0]] == key[name]:
            parts[-1].append(name)
        else:
            parts.append([name])
    return [tuple(part) for part in parts]


class _KeyMetric(TiebreakMetric):
    """A metric that orders players by a key (lower first) computed for each player alone."""

    def key(self, player: str, data: TiebreakData) -> Any:
        """The sort key; lower ranks first."""
        raise NotImplementedError

    def describe(self, names: str, values: tuple[tuple[str, str], ...]) -> str:
        """The explanation line's start, before the outcome."""
        raise NotImplementedError

    def split(self, group: Group, data: TiebreakData, *, first: bool) -> MetricSplit:
        """Split by the key; the step says who ranks ahead, or who stays level."""
        values = tuple((name, self.column(name, group, data)) for name in group)
        parts = split_by_key(group, {name: self.key(name, data) for name in group})
        text = self.describe(joined_names(group), values)
        decided = len(parts[0]) == 1
        if decided:
            text += f": {parts[0][0]} ranks ahead"
        elif len(parts) == 1:
            text += ": still level"
        else:
            text += f": {joined_names(parts[0])} stay level ahead"
        step = TiebreakStep(self.name, group, values, decided, f"{text} ({cite('4.2')}).")
        return MetricSplit(tuple(parts), step)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register_metric
class Countback(_KeyMetric):
    """Rule 4.2 "Lowest Single Hole": hole scores sorted from the lowest, the first difference wins."""

    name = "countback"
    label = "Countback"

    def key(self, player: str, data: TiebreakData) -> Any:
        return tuple(sorted(data.regular.get(player, ())))

    def column(self, player: str, group: Group, data: TiebreakData) -> str:
        return ", ".join(map(str, self.key(player, data)))

    def describe(self, names: str, values: tuple[tuple[str, str], ...]) -> str:
        shown = "; ".join(f"{name}: {value}" for name, value in values)
        return f"{names} tie; countback compares their hole scores from the lowest ({shown})"

    def why_above(self, above: str, below: str, group: Group, data: TiebreakData) -> str:
        mine, theirs = self.key(above, data), self.key(below, data)
        for index, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            if a != b:
                which = "best hole" if index == 0 else f"{_ordinal(index + 1)} best hole"
                return f"countback: {a} on their {which} against {b}"
        level = min(len(mine), len(theirs))
        return f"countback: level on {level} holes, {len(mine)} holes against {len(theirs)}"


@register_metric
class MostHolesWon(_KeyMetric):
    """Holes where the player had the lowest score of the hole's own table (shared lows for each)."""

    name = "most_holes_won"
    label = "Most holes won"

    def key(self, player: str, data: TiebreakData) -> Any:
        return -data.won.get(player, 0)

    def column(self, player: str, group: Group, data: TiebreakData) -> str:
        return str(data.won.get(player, 0))

    def describe(self, names: str, values: tuple[tuple[str, str], ...]) -> str:
        shown = ", ".join(f"{name} {value}" for name, value in values)
        return f"{names} tie; most holes won ({shown})"

    def why_above(self, above: str, below: str, group: Group, data: TiebreakData) -> str:
        return f"most holes won: {data.won.get(above, 0)} against {data.won.get(below, 0)}"


@register_metric
class SuddenDeath(TiebreakMetric):
    """Playoff holes among the tied players until one scores strictly lower than the rest.

    Only playoff holes every tied player has a score in count. Until one decides, the group is held
    together as a playoff."""

    name = "sudden_death"
    label = "Sudden death"
    first_place_only = True

    @staticmethod
    def _common(group: Group, data: TiebreakData) -> list[PlayedHole]:
        return [hole for hole in data.playoff_holes if all(name in hole.scores for name in group)]

    def _winner(self, group: Group, data: TiebreakData) -> tuple[str | None, int]:
        """(winner, playoff holes played to decide it), or (None, common holes so far)."""
        common = self._common(group, data)
        for index, hole in enumerate(common):
            lows = low_scorers({name: hole.scores[name] for name in group})
            if len(lows) == 1:
                return next(iter(lows)), index + 1
        return None, len(common)

    def split(self, group: Group, data: TiebreakData, *, first: bool) -> MetricSplit:
        winner, played = self._winner(group, data)
        common = self._common(group, data)[:played]
        values = tuple((name, ", ".join(str(hole.scores[name]) for hole in common)) for name in group)
        names = joined_names(group)
        if winner is None:
            shown = f" ({'; '.join(f'{n}: {v}' for n, v in values)})" if played else ""
            text = f"{names} tie; sudden death: no playoff hole has a single lowest score yet{shown}"
            step = TiebreakStep(self.name, group, values, False, f"{text} ({cite('4.2')}).")
            return MetricSplit((group,), step, holds=PLAYOFF)
        rest = tuple(name for name in group if name != winner)
        text = f"{names} tie; sudden death: {winner} scores lowest on playoff hole {played}"
        step = TiebreakStep(self.name, group, values, True, f"{text} ({cite('4.2')}).")
        return MetricSplit(((winner,), rest), step)

    def column(self, player: str, group: Group, data: TiebreakData) -> str:
        return ", ".join(str(hole.scores[player]) for hole in self._common(group, data))

    def why_above(self, above: str, below: str, group: Group, data: TiebreakData) -> str:
        winner, played = self._winner(group, data)
        if winner != above:
            return ""
        hole = self._common(group, data)[played - 1]
        return f"sudden death: {hole.scores[above]} on playoff hole {played} against {hole.scores[below]}"


@register_metric
class Shared(TiebreakMetric):
    """The tied players share the place (joint winners)."""

    name = "shared"
    label = "Shared"
    first_place_only = True

    def split(self, group: Group, data: TiebreakData, *, first: bool) -> MetricSplit:
        what = "the victory" if first else "their place"
        text = f"{joined_names(group)} tie and share {what} ({cite('4.2')})."
        return MetricSplit((group,), TiebreakStep(self.name, group, (), True, text), holds=SHARED)

    def column(self, player: str, group: Group, data: TiebreakData) -> str:
        return ""

    def why_above(self, above: str, below: str, group: Group, data: TiebreakData) -> str:
        return ""


class TieSettler:
    """Applies a tiebreak chain to tied groups, recording the steps, held groups and separations."""

    def __init__(self, data: TiebreakData, *, every_place: bool = False) -> None:
        self.data = data
        self.every_place = every_place  # first-place-only metrics apply to ties at any place
        self.steps: list[TiebreakStep] = []
        self.held: dict[Group, str] = {}  # a final group kept together: SHARED or PLAYOFF
        # (above, below) neighbours in the final order that a metric separated: (metric, tied group)
        self.separated: dict[tuple[str, str], tuple[TiebreakMetric, Group]] = {}

    def settle(self, group: Group, methods: Sequence[str], *, first: bool) -> list[Group]:
        """Split a tied group with the first method, then each part with the rest; best first."""
        if len(group) == 1 or not methods:
            return [group]
        metric, rest = METRICS[methods[0]], methods[1:]
        if metric.first_place_only and not (first or self.every_place):
            return self.settle(group, rest, first=first)
        result = metric.split(group, self.data, first=first)
        self.steps.append(result.step)
        if result.holds:
            self.held[group] = result.holds
            return [group]
        settled: list[Group] = []
        for index, part in enumerate(result.parts):
            groups = self.settle(part, rest, first=first and index == 0)
            if settled:
                self.separated[(settled[-1][-1], groups[0][0])] = (metric, group)
            settled += groups
        return settled

    def why_above(self, above: str, below: str) -> str:
        """Why `above` ranks ahead of the next player `below` (tied on total), or "" if not separated."""
        found = self.separated.get((above, below))
        if found is None:
            return ""
        metric, group = found
        return metric.why_above(above, below, group, self.data)
