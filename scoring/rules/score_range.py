"""The lowest and highest score a grid can have under a ruleset, each with a grid that scores it.

A typed hole total stands for a grid's score (SPEC "Matches, standings and tiebreaks"), so a total
outside this range is one no grid of the ruleset can score: the hole page, the correction form,
the paper slip and the API refuse it with the range (`typed_total_problem`, called by score_hole).

How the range is found without trying every grid (14^10 of them for 2x5): the engine's score of
a grid is, for a fixed pattern of equal cards, the lowest of its maximal match sets, each a sum in
which a card counts its value (unmatched), the points it keeps (matched: min(value, 0) or 0) or a
share of a block's points, all non-decreasing in the card's value. So replacing every card of one
rank by an unused rank of higher value never lowers the score: the highest score is reached with
the `cells` highest-valued ranks (plus the joker, which is a rank of its own), the lowest with the
lowest-valued ones. A depth-first search fills the grid cell by cell over those ranks, treats ranks
of equal value as one (only the first unused one of a value is tried), keeps to the packs' card
limits, scores every full grid with the engine itself (nothing here re-implements a rule) and
skips a branch when even its best possible cards could not beat the best grid found so far.
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from itertools import groupby

from golfclub.core.limits import RANGE_SEARCH_LIMIT, RANGE_SEARCH_SECONDS

from .cards import JOKER
from .grid import _engine
from .presets import PRESETS
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class GridScoreRange:
    """The lowest and highest grid score of a ruleset for a number of packs, with a grid for each."""

    low: int
    high: int
    low_grid: tuple[tuple[str, ...], ...]
    high_grid: tuple[tuple[str, ...], ...]
    #: True when the grids score exactly `low` and `high` (the search finished). Otherwise the
    #: search gave up after RANGE_SEARCH_LIMIT grids and the bound that was left open is the sum of each
    #: cell's most extreme possible points: still no grid scores outside, but some totals just
    #: inside may have no grid.
    exact: bool = True

    def holds(self, total: int) -> bool:
        """True when some grid scores `total`'s side of the range (low <= total <= high)."""
        return self.low <= total <= self.high


def grid_score_range(ruleset: Ruleset, decks: int) -> GridScoreRange:
    """The lowest and highest score any grid of `ruleset` can have with `decks` packs in play
    (a grid holds at most 4 x decks cards of one rank and jokers x decks jokers). Memoised per
    ruleset and pack count for the process (rulesets are compared by their parameters, so every
    game under the same rules shares it): the search takes milliseconds to a second, once."""
    return _cached_range(ruleset, decks)


@functools.lru_cache(maxsize=512)
def _cached_range(ruleset: Ruleset, decks: int) -> GridScoreRange:
    # A preset's search is known to end within RANGE_SEARCH_LIMIT steps in milliseconds (1-41 ms
    # each), so its range is always exact and the same on every machine. A house ruleset's search is
    # also bounded in time: a grid of some rules (2x5, columns and rows, wild jokers) costs the
    # engine 0.3 ms, and anyone may send new rules to the calculator API, each a search of its own
    # (4-7 s each, measured, before this bound). Past RANGE_SEARCH_SECONDS the sound bound is used.
    seconds = None if ruleset in _preset_rulesets() else RANGE_SEARCH_SECONDS
    low, low_grid, low_exact = _extreme(ruleset, decks, highest=False, seconds=seconds)
    high, high_grid, high_exact = _extreme(ruleset, decks, highest=True, seconds=seconds)
    return GridScoreRange(
        low, high, _rows(ruleset, low_grid), _rows(ruleset, high_grid), low_exact and high_exact
    )


@functools.cache
def _preset_rulesets() -> frozenset[Ruleset]:
    return frozenset(PRESETS.values())


def _rows(ruleset: Ruleset, ranks: list[str]) -> tuple[tuple[str, ...], ...]:
    cols = ruleset.cols
    return tuple(tuple(ranks[r * cols : (r + 1) * cols]) for r in range(ruleset.rows))


def _climb(
    engine: object,
    size: int,
    sign: int,
    groups: list[list[str]],
    limit: dict[str, int],
    deadline: float | None,
) -> tuple[int, list[str]]:
    """A good grid to start from, so that the search can skip most branches at once: from a grid of
    the best ranks and from one of alternating ranks, change one cell at a time while that helps."""
    alphabet = [rank for ranks in groups for rank in ranks]
    best_score, best_grid = float("-inf"), list[str]()
    for start in range(min(2, len(alphabet))):
        grid = [alphabet[(start + i) % len(alphabet)] for i in range(size)]
        if any(grid.count(rank) > limit[rank] for rank in grid):
            grid = [alphabet[i % len(alphabet)] for i in range(size)]
        score = sign * engine.total_of_ranks(grid)  # type: ignore[attr-defined]
        improved, passes = True, 0
        while improved and passes < 3:
            improved, passes = False, passes + 1
            for cell in range(size):
                if deadline is not None and time.perf_counter() > deadline:
                    raise _GaveUp(grid)
                for rank in alphabet:
                    if rank == grid[cell] or grid.count(rank) >= limit[rank]:
                        continue
                    trial = [*grid[:cell], rank, *grid[cell + 1 :]]
                    trial_score = sign * engine.total_of_ranks(trial)  # type: ignore[attr-defined]
                    if trial_score > score:
                        grid, score, improved = trial, trial_score, True
        if score > best_score:
            best_score, best_grid = score, grid
    return int(best_score), best_grid


class _GaveUp(Exception):
    """The search took RANGE_SEARCH_LIMIT steps (or its time) without closing every branch; its
    argument is the best grid found so far, when the climb gave up before the search began."""


def _rank_groups(
    ruleset: Ruleset, decks: int, size: int, sign: int
) -> tuple[list[list[str]], dict[str, int]]:
    """The ranks worth trying, best first, in groups of one value (the joker always alone), and how
    many cards of each the packs hold."""
    naturals = sorted(
        (rank for rank, _ in ruleset.values if rank != JOKER),
        key=lambda rank: -sign * ruleset.value_of(rank),
    )[:size]
    # Ranks of one value are interchangeable: groups of them, the joker always alone.
    groups = [list(ranks) for _, ranks in groupby(naturals, key=ruleset.value_of)]
    limit = {rank: 4 * decks for rank in naturals}
    if ruleset.jokers > 0:
        groups.append([JOKER])
        limit[JOKER] = ruleset.jokers * decks
    return groups, limit


def _reach(ruleset: Ruleset, engine: object, groups: list[list[str]], sign: int) -> dict[str, float]:
    """The most (sign-adjusted) a card of each rank can add to a grid's score, whatever it is part of."""
    block = ruleset.four_of_a_kind_block
    kept = engine.finder.kept  # type: ignore[attr-defined]
    reach: dict[str, float] = {}
    for ranks in groups:
        for rank in ranks:
            options = [sign * ruleset.value_of(rank), sign * kept[rank]]
            if block is not None and rank != JOKER:
                options.append(sign * block.points / 4)
            reach[rank] = max(options)
    return reach


def _extreme(
    ruleset: Ruleset, decks: int, highest: bool, seconds: float | None = None
) -> tuple[int, list[str], bool]:
    """The highest (or lowest) engine score of any grid, a grid that scores it and whether that is
    exact (else the score is the sound per-cell bound and the grid the best one found). `seconds`:
    the time the search may take (None: RANGE_SEARCH_LIMIT steps only)."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    engine = _engine(ruleset)
    size = ruleset.rows * ruleset.cols
    sign = 1 if highest else -1
    groups, limit = _rank_groups(ruleset, decks, size, sign)
    reach = _reach(ruleset, engine, groups, sign)
    best_any = max(reach.values())
    try:
        best: list[float | list[str]] = list(_climb(engine, size, sign, groups, limit, deadline))
    except _GaveUp as gave_up:
        return sign * math.floor(size * best_any), gave_up.args[0], False
    ranks_so_far: list[str] = []
    count = dict.fromkeys(limit, 0)
    opened = [0] * len(groups)

    def search(cell: int, reached: float) -> None:
        scored[0] += 1
        if scored[0] > RANGE_SEARCH_LIMIT or (
            deadline is not None and not scored[0] % 64 and time.perf_counter() > deadline
        ):
            raise _GaveUp
        if reached + (size - cell) * best_any <= best[0]:
            return
        if cell == size:
            score = sign * engine.total_of_ranks(ranks_so_far)
            if score > best[0]:
                best[0], best[1] = score, list(ranks_so_far)
            return
        for g, ranks in enumerate(groups):
            for i in range(min(opened[g] + 1, len(ranks))):
                rank = ranks[i]
                if count[rank] >= limit[rank]:
                    continue
                count[rank] += 1
                ranks_so_far.append(rank)
                was_opened = opened[g]
                opened[g] = max(was_opened, i + 1)
                search(cell + 1, reached + reach[rank])
                opened[g] = was_opened
                ranks_so_far.pop()
                count[rank] -= 1

    scored = [0]
    try:
        search(0, 0.0)
    except _GaveUp:
        # No grid beats every cell at its most extreme points (a sound bound, maybe not reached).
        grid = best[1]
        assert isinstance(grid, list)
        return sign * math.floor(size * best_any), grid, False
    score, grid = best
    assert isinstance(score, float | int) and isinstance(grid, list)
    return sign * int(score), grid, True
