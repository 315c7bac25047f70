"""A slow, obviously-correct scorer written straight from SPEC "How a grid scores", for the property tests.

It enumerates every set of non-overlapping matches, keeps the maximal ones and takes the lowest score.
Blocks are left out: the property tests that use it run without four_of_a_kind_block."""

from __future__ import annotations

from itertools import combinations

from scoring.rules import Grid, Ruleset

Cell = tuple[int, int]


def candidate_lines(ruleset: Ruleset) -> list[tuple[Cell, ...]]:
    """Groups of cells that cancel when their ranks agree, read from the SPEC's wording."""
    rows, cols, lines = ruleset.rows, ruleset.cols, ruleset.match_lines
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if "anywhere" in lines:
        return list(combinations(cells, 2))
    found: list[tuple[Cell, ...]] = []
    if rows == 2:
        if "columns" in lines:
            found += [((0, c), (1, c)) for c in range(cols)]
        if "rows" in lines:
            found += [((r, a), (r, b)) for r in range(2) for a, b in combinations(range(cols), 2)]
        if "diagonals" in lines and cols == 2:
            found += [((0, 0), (1, 1)), ((0, 1), (1, 0))]
    else:
        if "columns" in lines:
            found += [tuple((r, c) for r in range(rows)) for c in range(cols)]
        if "rows" in lines:
            found += [tuple((r, c) for c in range(cols)) for r in range(rows)]
        if "diagonals" in lines:
            found += [tuple((i, i) for i in range(3)), tuple((i, 2 - i) for i in range(3))]
    return found


def is_match(ranks: list[str], wild: bool) -> bool:
    """Equal ranks; with wild jokers, jokers stand in for any rank."""
    naturals = {rank for rank in ranks if not (wild and rank == "X")}
    return len(naturals) <= 1


def present_matches(grid: Grid, ruleset: Ruleset) -> list[tuple[Cell, ...]]:
    """Every candidate line whose cards match in this grid."""
    return [
        line
        for line in candidate_lines(ruleset)
        if is_match([grid[r][c].rank for r, c in line], ruleset.jokers_wild)
    ]


def score_of(grid: Grid, ruleset: Ruleset, chosen: list[tuple[Cell, ...]]) -> int:
    """Matched cards score 0 (or keep a negative value under "keep"); the others their value."""
    matched = {cell for line in chosen for cell in line}
    total = 0
    for r, row in enumerate(grid):
        for c, card in enumerate(row):
            value = ruleset.value_of(card.rank)
            if (r, c) not in matched or (ruleset.negative_matches == "keep" and value < 0):
                total += value
    return total


def is_maximal(present: list[tuple[Cell, ...]], chosen: list[tuple[Cell, ...]]) -> bool:
    """No present match fits entirely in the cards left unmatched."""
    matched = {cell for line in chosen for cell in line}
    return all(any(cell in matched for cell in line) for line in present)


def disjoint_sets(present: list[tuple[Cell, ...]]) -> list[list[tuple[Cell, ...]]]:
    """Every set of pairwise disjoint matches (include or skip each match in turn)."""
    sets: list[list[tuple[Cell, ...]]] = []

    def walk(index: int, used: set[Cell], chosen: list[tuple[Cell, ...]]) -> None:
        if index == len(present):
            sets.append(list(chosen))
            return
        line = present[index]
        if not used.intersection(line):
            walk(index + 1, used | set(line), [*chosen, line])
        walk(index + 1, used, chosen)

    walk(0, set(), [])
    return sets


def lowest_maximal_score(grid: Grid, ruleset: Ruleset) -> int:
    """The SPEC's grid score, by brute force."""
    present = present_matches(grid, ruleset)
    return min(score_of(grid, ruleset, s) for s in disjoint_sets(present) if is_maximal(present, s))
