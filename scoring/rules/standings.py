"""Ranking players over the holes of several games (an event's standings), with penalty points.

`rank_event` ranks players over every hole they played (each with its game/table, number and
playoff flag), with the event's tiebreak chain and penalty points by player. It sums totals with
`sum_totals`, counts holes won against each hole's own table and breaks ties with the registered
metrics, exactly as a single match does. `rank_records` ranks the same way from records the caller
has already gathered (each player's hole scores and holes won): what a large tournament's
standings use, read from the database in one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Problem, RulesError
from .holes import PlayedHole, PlayerTotals, sum_totals
from .match import penalty_problems
from .tiebreak import METRICS, PLAYOFF, SHARED, TiebreakData, TiebreakStep, TieSettler, split_by_key


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One player's line in the standings, best first."""

    rank: int  # players still level after the chain share a rank (1, 2, 2, 4)
    player: str
    total: int  # regular hole scores plus penalty points
    penalty_points: int
    holes_played: int
    holes_won: int
    columns: tuple[tuple[str, str], ...]  # (metric name, value shown) in the chain's order
    playoff: bool  # tied, waiting for sudden-death playoff holes
    shared: bool  # tied, sharing the place by the chain's `shared`
    why_above: str  # why this player ranks above the next one, tied on total; else ""

    def to_dict(self) -> dict[str, Any]:
        """JSON."""
        return {
            "rank": self.rank,
            "player": self.player,
            "total": self.total,
            "penalty_points": self.penalty_points,
            "holes_played": self.holes_played,
            "holes_won": self.holes_won,
            "columns": dict(self.columns),
            "playoff": self.playoff,
            "shared": self.shared,
            "why_above": self.why_above,
        }


@dataclass(frozen=True, slots=True)
class EventStandings:
    """The ordered rows and the tiebreak steps taken (each with its explanation line)."""

    rows: tuple[StandingRow, ...]
    steps: tuple[TiebreakStep, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON."""
        return {"rows": [row.to_dict() for row in self.rows], "steps": [s.to_dict() for s in self.steps]}


def _check(
    players: Sequence[str],
    holes: Sequence[PlayedHole],
    tiebreakers: Sequence[str],
    penalties: Mapping[str, int] | None,
) -> None:
    problems: list[Problem] = []
    if len(set(players)) != len(players):
        problems.append(Problem("players", "Each player may appear only once."))
    known = set(players)
    for index, hole in enumerate(holes):
        for name, score in hole.scores.items():
            if name not in known:
                problems.append(Problem(f"holes.{index}.{name}", f'"{name}" is not a player here.'))
            elif not isinstance(score, int) or isinstance(score, bool):
                problems.append(Problem(f"holes.{index}.{name}", f"{name}'s score must be a whole number."))
    for method in tiebreakers:
        if method not in METRICS:
            problems.append(Problem("tiebreakers", f'Unknown tiebreaker "{method}".'))
    problems += penalty_problems(penalties, players)
    if problems:
        raise RulesError(problems)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One player's regular holes of an event, already gathered (a caller reading them from a database
    gathers them in one pass): every hole score, in any order, and the holes won at the player's own
    table (`holes_won`'s definition: the lowest score of that hole's table, a shared lowest for each)."""

    scores: tuple[int, ...]
    won: int = 0


def rank_event(
    players: Iterable[str],
    holes: Iterable[PlayedHole],
    tiebreakers: Sequence[str],
    penalties: Mapping[str, int] | None = None,
    *,
    every_place: bool = False,
    groups: Mapping[str, int] | None = None,
) -> EventStandings:
    """Rank `players` by total over `holes` (lowest first), ties broken by `tiebreakers` in order.

    Totals are the regular holes' scores plus `penalties` (points by player); playoff holes only
    decide `sudden_death`. `countback` and `most_holes_won` separate ties at any place; `sudden_death`
    and `shared` settle a tie for first only, unless `every_place`. A tie that waits for playoff holes
    is kept, its rows marked `playoff`. Players still level share a rank; the order within a tie is
    the order of `players`. `groups` (a whole number by player, lower first, 0 when absent) ranks
    before the total: a tournament lists complete records before incomplete ones this way, while
    holes won still count against every player of a hole's table. Bad input raises `RulesError`."""
    names = tuple(players)
    recorded = list(holes)
    chain = tuple(tiebreakers)
    _check(names, recorded, chain, penalties)
    totals = sum_totals(names, recorded, penalties)
    data = TiebreakData.from_holes(names, recorded)
    return _rank(names, totals, data, chain, every_place=every_place, groups=groups)


def rank_records(
    players: Iterable[str],
    records: Mapping[str, PlayerRecord],
    tiebreakers: Sequence[str],
    penalties: Mapping[str, int] | None = None,
    *,
    groups: Mapping[str, int] | None = None,
) -> EventStandings:
    """`rank_event` over records gathered by the caller instead of holes: the same totals, tiebreaks,
    groups and rows, for events too large to pass as one `PlayedHole` each (a 1,000-player event has
    45,000 hole scores). There are no playoff holes here: `sudden_death` holds a tie as a playoff.
    A player without a record played no hole. Bad input raises `RulesError`."""
    names = tuple(players)
    chain = tuple(tiebreakers)
    _check(names, [], chain, penalties)
    problems: list[Problem] = []
    known = set(names)
    for name, record in records.items():
        if name not in known:
            problems.append(Problem(f"records.{name}", f'"{name}" is not a player here.'))
        elif not all(type(score) is int for score in record.scores) or type(record.won) is not int:
            problems.append(Problem(f"records.{name}", f"{name}'s scores must be whole numbers."))
    if problems:
        raise RulesError(problems)
    penalty = penalties or {}
    empty = PlayerRecord(())
    totals: dict[str, PlayerTotals] = {}
    for name in names:
        record = records.get(name, empty)
        points = sum(record.scores)
        totals[name] = PlayerTotals(
            total=points + penalty.get(name, 0),
            holes_played=len(record.scores),
            penalty_points=penalty.get(name, 0),
            hole_points=points,
        )
    data = TiebreakData(
        regular={name: records.get(name, empty).scores for name in names},
        won={name: records.get(name, empty).won for name in names},
        playoff_holes=(),
    )
    return _rank(names, totals, data, chain, every_place=False, groups=groups)


def _rank(
    names: tuple[str, ...],
    totals: Mapping[str, PlayerTotals],
    data: TiebreakData,
    chain: tuple[str, ...],
    *,
    every_place: bool,
    groups: Mapping[str, int] | None,
) -> EventStandings:
    """The ranking itself, shared by `rank_event` and `rank_records`."""
    settler = TieSettler(data, every_place=every_place)
    order: list[tuple[str, ...]] = []
    tied_on_total: dict[str, tuple[str, ...]] = {}
    group_of = groups or {}
    keys = {name: (group_of.get(name, 0), totals[name].total) for name in names}
    for place, group in enumerate(split_by_key(names, keys)):
        tied_on_total.update(dict.fromkeys(group, group))
        order += settler.settle(group, chain, first=place == 0)
    shown = tuple(dict.fromkeys(chain))  # each metric's column once, in the chain's order
    flat = [(name, group) for group in order for name in group]
    rows: list[StandingRow] = []
    rank = 1
    for group in order:
        for name in group:
            position = len(rows)
            below = flat[position + 1][0] if position + 1 < len(flat) else None
            why = settler.why_above(name, below) if below is not None and below not in group else ""
            rows.append(
                StandingRow(
                    rank=rank,
                    player=name,
                    total=totals[name].total,
                    penalty_points=totals[name].penalty_points,
                    holes_played=totals[name].holes_played,
                    holes_won=data.won.get(name, 0),
                    columns=tuple(
                        (method, METRICS[method].column(name, tied_on_total[name], data)) for method in shown
                    ),
                    playoff=settler.held.get(group) == PLAYOFF,
                    shared=settler.held.get(group) == SHARED,
                    why_above=why,
                )
            )
        rank += len(group)
    return EventStandings(rows=tuple(rows), steps=tuple(settler.steps))
