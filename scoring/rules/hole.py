"""How a hole scores (SPEC "How a hole scores"): grid scores, block adjustments, the ender penalty."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The engine's limits are defined with every other one in golfclub.core.limits (pure Python too).
from golfclub.core.limits import CALCULATOR_API_MAX_PLAYERS
from golfclub.core.limits import TOTAL_LIMIT as TOTAL_LIMIT

from .cards import Card, Grid
from .citations import cite
from .decks import grid_card_problems, table_card_problems
from .errors import DeckError, GridError, Problem, RulesError
from .grid import GridScore, prepare_grid, score_checked_grid
from .ruleset import Ruleset
from .score_range import grid_score_range


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    """One player's hole as entered: the final grid, or a typed hole total (then `blocks_marked` counts
    four-of-a-kind blocks the scorer marked by hand)."""

    name: str
    grid: Grid | Sequence[Sequence[str | Card]] | None = None
    total: int | None = None
    blocks_marked: int = 0


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points added to a player's hole after the grid score: kind "block_others_add" or "ender_penalty"."""

    kind: str
    reason: str
    points: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """{"kind", "reason", "points", "rule"}."""
        return {"kind": self.kind, "reason": self.reason, "points": self.points, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class PlayerHoleScore:
    """One player's hole: grid score (computed or typed), adjustments, final score."""

    name: str
    grid_score: int
    typed: bool
    grid: GridScore | None
    adjustments: tuple[Adjustment, ...]
    score: int

    def to_dict(self) -> dict[str, Any]:
        """{"name", "grid_score", "typed", "adjustments", "score"} and "grid" when entered as cards."""
        data: dict[str, Any] = {
            "name": self.name,
            "grid_score": self.grid_score,
            "typed": self.typed,
            "adjustments": [a.to_dict() for a in self.adjustments],
            "score": self.score,
        }
        if self.grid is not None:
            data["grid"] = self.grid.to_dict()
        return data


@dataclass(frozen=True, slots=True)
class HoleScore:
    """Every player's score for one hole, in seat order."""

    players: tuple[PlayerHoleScore, ...]
    ender: str | None
    decks: int

    def score_of(self, name: str) -> int:
        """The named player's hole score."""
        return next(p.score for p in self.players if p.name == name)

    def to_dict(self) -> dict[str, Any]:
        """{"players": [...], "ender", "decks"}."""
        return {"players": [p.to_dict() for p in self.players], "ender": self.ender, "decks": self.decks}


def _entries(entries: Sequence[PlayerEntry] | Mapping[str, Any]) -> list[PlayerEntry]:
    """Normalise a mapping name → grid tokens / int total into PlayerEntry objects, in order."""
    if isinstance(entries, Mapping):
        result = []
        for name, value in entries.items():
            if isinstance(value, PlayerEntry):
                result.append(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                result.append(PlayerEntry(str(name), total=value))
            else:
                result.append(PlayerEntry(str(name), grid=value))
        return result
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Sequence):
        raise GridError(Problem("grids", "Players' grids must be given as a list or a mapping name → grid."))
    return list(entries)


def _check_entry(entry: Any, ruleset: Ruleset, seen: set[str]) -> list[Problem]:
    """Problems with one entry other than its cards."""
    if not isinstance(entry, PlayerEntry):
        return [Problem("grids", f"Expected a player entry, got {type(entry).__name__}.")]
    where = f"grids.{entry.name}"
    problems: list[Problem] = []
    if not isinstance(entry.name, str) or not entry.name.strip():
        problems.append(Problem("grids", "Every player needs a name."))
    elif entry.name in seen:
        problems.append(Problem(where, f'Player "{entry.name}" is listed twice.'))
    seen.add(entry.name)
    if entry.grid is None and entry.total is None:
        problems.append(Problem(where, f"Enter {entry.name}'s grid or hole total."))
    elif entry.grid is not None and entry.total is not None:
        problems.append(Problem(where, f"Enter {entry.name}'s grid or hole total, not both."))
    elif entry.total is not None and (
        not isinstance(entry.total, int) or isinstance(entry.total, bool) or abs(entry.total) > TOTAL_LIMIT
    ):
        problems.append(
            Problem(
                where,
                f"{entry.name}'s hole total must be a whole number from -{TOTAL_LIMIT} to {TOTAL_LIMIT}.",
            )
        )
    marked = entry.blocks_marked
    if not isinstance(marked, int) or isinstance(marked, bool) or marked < 0:
        problems.append(Problem(f"{where}.blocks_marked", "Blocks marked must be a whole number, 0 or more."))
    elif marked:
        if ruleset.four_of_a_kind_block is None:
            problems.append(
                Problem(
                    f"{where}.blocks_marked",
                    "This ruleset has no four-of-a-kind block rule: no block to mark.",
                )
            )
        elif entry.grid is not None:
            problems.append(
                Problem(f"{where}.blocks_marked", "Blocks are found from the cards when the grid is entered.")
            )
        elif marked > ruleset.cols // 2:
            problems.append(
                Problem(
                    f"{where}.blocks_marked",
                    f"A {ruleset.shape} grid holds at most {ruleset.cols // 2} "
                    f"block{'s' if ruleset.cols // 2 != 1 else ''}.",
                )
            )
    return problems


def score_hole(
    entries: Sequence[PlayerEntry] | Mapping[str, Any],
    ruleset: Ruleset,
    ender: str | None = None,
    check_decks: bool = True,
) -> HoleScore:
    """Score one hole for every player, in seat order (SPEC "How a hole scores").

    Each player's grid score (or typed total), then `others_add` for every opponent block (found in
    the cards or marked by hand), then the ender penalty. Raises a RulesError naming every problem."""
    players = _entries(entries)
    problems: list[Problem] = []
    seen: set[str] = set()
    for entry in players:
        problems += _check_entry(entry, ruleset, seen)
    if not players:
        problems.append(Problem("grids", "A hole needs at least one player."))
    if ender is not None and ender not in seen:
        names = ", ".join(entry.name for entry in players if isinstance(entry, PlayerEntry))
        problems.append(Problem("ender", f'The ender "{ender}" is not one of the players ({names}).'))
    # The error raised is of the first kind of problem found: entries, then cards and shapes, then decks.
    error_class: type[RulesError] | None = GridError if problems else None
    decks = ruleset.decks_for(len(players))
    grids: dict[str, Grid] = {}
    deck_problems: list[Problem] = []
    for entry in players:
        if not isinstance(entry, PlayerEntry) or entry.grid is None or entry.total is not None:
            continue
        where = f"grids.{entry.name}"
        try:
            grids[entry.name] = prepare_grid(entry.grid, ruleset, where)
        except RulesError as error:
            problems += error.problems
            error_class = error_class or type(error)
            continue
        if check_decks:
            deck_problems += grid_card_problems(grids[entry.name], ruleset, decks, where)
    if check_decks and not deck_problems and not problems:
        deck_problems = table_card_problems(grids, ruleset, decks)
    if deck_problems:
        problems += deck_problems
        error_class = error_class or DeckError
    if not problems:
        # A partial table (a playoff among the tied players) may hold more packs than its players need.
        range_decks = decks if check_decks else ruleset.decks_for(CALCULATOR_API_MAX_PLAYERS)
        problems += [
            problem
            for entry in players
            if (problem := typed_total_problem(entry, ruleset, range_decks)) is not None
        ]
        error_class = GridError if problems else None
    if problems:
        raise (error_class or RulesError)(problems)
    return _score(players, grids, ruleset, ender, decks)


def typed_total_problem(entry: PlayerEntry, ruleset: Ruleset, decks: int) -> Problem | None:
    """The problem with a typed total that no grid of the ruleset can score, naming the range.

    A typed total stands for the grid's score, blocks included (SPEC): the ender's penalty and the
    opponents' block points are added by the engine after it, so they are not part of the range."""
    if entry.total is None or entry.grid is not None:
        return None
    span = grid_score_range(ruleset, decks)
    if span.holds(entry.total):
        return None
    added = []
    if ruleset.ender_penalty is not None:
        added.append("the ender's penalty")
    if ruleset.four_of_a_kind_block is not None:
        added.append("the points of other players' blocks")
    after = f" (type the grid's score: the app adds {' and '.join(added)})" if added else ""
    return Problem(
        f"grids.{entry.name}",
        f"{entry.name}'s hole total {entry.total} is impossible: a hole scores between {span.low} and "
        f"{span.high} under these rules{after}.",
    )


def _score(
    players: list[PlayerEntry], grids: dict[str, Grid], ruleset: Ruleset, ender: str | None, decks: int
) -> HoleScore:
    """Score checked entries: grid scores, then block additions, then the ender penalty."""
    results: dict[str, GridScore] = {name: score_checked_grid(grid, ruleset) for name, grid in grids.items()}
    base: dict[str, int] = {}
    blocks: dict[str, int] = {}
    for entry in players:
        if entry.name in results:
            base[entry.name] = results[entry.name].total
            blocks[entry.name] = len(results[entry.name].blocks)
        else:
            assert entry.total is not None
            base[entry.name] = entry.total
            blocks[entry.name] = entry.blocks_marked
    adjustments = _block_additions(blocks, ruleset)
    so_far = {name: base[name] + sum(a.points for a in adjustments[name]) for name in base}
    if ender is not None:
        penalty = _ender_penalty(ender, so_far, ruleset)
        if penalty is not None:
            adjustments[ender].append(penalty)
    scores = tuple(
        PlayerHoleScore(
            name=entry.name,
            grid_score=base[entry.name],
            typed=entry.name not in results,
            grid=results.get(entry.name),
            adjustments=tuple(adjustments[entry.name]),
            score=base[entry.name] + sum(a.points for a in adjustments[entry.name]),
        )
        for entry in players
    )
    return HoleScore(scores, ender, decks)


def _block_additions(blocks: Mapping[str, int], ruleset: Ruleset) -> dict[str, list[Adjustment]]:
    """For each player, one `others_add` per block of every other player (seed 001)."""
    additions: dict[str, list[Adjustment]] = {name: [] for name in blocks}
    rule = ruleset.four_of_a_kind_block
    if rule is None:
        return additions
    for owner, count in blocks.items():
        reason = f"{owner} has a four-of-a-kind block: +{rule.others_add} to every other player"
        reason += f" ({cite('seed 001')})."
        for _ in range(count):
            for other, adjustments in additions.items():
                if other != owner:
                    adjustments.append(Adjustment("block_others_add", reason, rule.others_add, "seed 001"))
    return additions


def _ender_penalty(ender: str, so_far: Mapping[str, int], ruleset: Ruleset) -> Adjustment | None:
    """The ender's penalty when another player scored lower (or tied, with ender_penalty_on_tie).

    `lowest_score` adds the lowest score only when it is above zero (SPEC, project decision)."""
    penalty = ruleset.ender_penalty
    others = {name: score for name, score in so_far.items() if name != ender}
    if penalty is None or not others:
        return None
    lowest, mine = min(others.values()), so_far[ender]
    if not (lowest < mine or (ruleset.ender_penalty_on_tie and lowest == mine)):
        return None
    if lowest == mine:
        how = "tied for the lowest score"
    else:
        holders = " and ".join(name for name, score in others.items() if score == lowest)
        how = f"did not have the lowest score ({holders}: {lowest})"
    if penalty.kind == "fixed":
        assert penalty.points is not None
        reason = f"{ender} ended the hole and {how}: +{penalty.points} ({cite('seed 001')})."
        return Adjustment("ender_penalty", reason, penalty.points, "seed 001")
    if lowest <= 0:
        return None
    reason = f"{ender} ended the hole and {how}: adds the lowest score, +{lowest} ({cite('seed 001')})."
    return Adjustment("ender_penalty", reason, lowest, "seed 001")
