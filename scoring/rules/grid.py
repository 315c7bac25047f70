"""How a grid scores (SPEC "How a grid scores"): matches, blocks, card points and a cited breakdown."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import JOKER, Card, Grid, parse_grid
from .citations import cite
from .decks import grid_card_problems, grid_decks
from .errors import DeckError, GridError, Problem
from .lines import Line, block_cells, candidate_lines
from .ruleset import PRESETS, Ruleset

Position = tuple[int, int]

_OFFICIAL_VALUES = {"A": 1, "2": -2, "J": 10, "Q": 10, "K": 0} | {str(n): n for n in range(3, 11)}
_KIND_NAMES = {"column": "Column", "row": "Row", "diagonal": "Diagonal", "anywhere": "Pair"}


def _pos_dict(position: Position) -> dict[str, int]:
    return {"row": position[0] + 1, "col": position[1] + 1}


def _at(position: Position) -> str:
    return f"row {position[0] + 1}, column {position[1] + 1}"


@dataclass(frozen=True, slots=True)
class Match:
    """Cards of equal rank that cancel. Positions are 0-based (row, col)."""

    kind: str
    positions: tuple[Position, ...]
    rank: str
    points: int
    wild: tuple[Position, ...]
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """JSON with 1-based positions."""
        return {
            "kind": self.kind,
            "positions": [_pos_dict(p) for p in self.positions],
            "rank": self.rank,
            "points": self.points,
            "wild": [_pos_dict(p) for p in self.wild],
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Block:
    """Four equal ranks filling two adjacent columns of a 2-row grid (seed 001). Its cards score 0 each;
    the block scores `points` in all and gives `others_add` to every opponent."""

    positions: tuple[Position, ...]
    rank: str
    points: int
    others_add: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """JSON with 1-based positions."""
        return {
            "positions": [_pos_dict(p) for p in self.positions],
            "rank": self.rank,
            "points": self.points,
            "others_add": self.others_add,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class CardScore:
    """What one card scores and under which rule."""

    position: Position
    card: Card
    points: int
    matched: bool
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """JSON with a 1-based position and the canonical card token."""
        return {
            "position": _pos_dict(self.position),
            "card": str(self.card),
            "rank": self.card.rank,
            "points": self.points,
            "matched": self.matched,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class GridScore:
    """A grid's score with its breakdown: total = sum of card points + sum of block points."""

    total: int
    matches: tuple[Match, ...]
    blocks: tuple[Block, ...]
    cards: tuple[CardScore, ...]
    explanation: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """{"total", "matches", "blocks", "cards", "explanation"}, positions 1-based."""
        return {
            "total": self.total,
            "matches": [m.to_dict() for m in self.matches],
            "blocks": [b.to_dict() for b in self.blocks],
            "cards": [c.to_dict() for c in self.cards],
            "explanation": list(self.explanation),
        }


@dataclass(frozen=True, slots=True)
class _Found:
    """A match present in one grid: the line, its rank, wild cells, points and what it saves."""

    line: Line
    rank: str
    wild: tuple[int, ...]
    points: int
    gain: int  # sum of the cards' values minus the match's points: what matching them saves


class _Engine:
    """One ruleset compiled for speed: values, candidate lines and caches of immutable results."""

    CACHE_LIMIT = 20000

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rows, self.cols = ruleset.rows, ruleset.cols
        self.size = ruleset.rows * ruleset.cols
        self.positions: tuple[Position, ...] = tuple(
            (i // self.cols, i % self.cols) for i in range(self.size)
        )
        self.value = dict(ruleset.values)
        self.value_rule = {rank: _value_rule(ruleset, rank) for rank in self.value}
        self.lines = candidate_lines(ruleset.rows, ruleset.cols, ruleset.match_lines)
        self.pair_lines = all(len(line.cells) == 2 for line in self.lines)
        self.keep = ruleset.negative_matches == "keep"
        self.wild = ruleset.jokers_wild
        self.block = ruleset.four_of_a_kind_block
        self.block_cells = block_cells(ruleset.rows, ruleset.cols) if self.block else ()
        self.card_cache: dict[tuple[int, Card], tuple[CardScore, str]] = {}
        self.match_cache: dict[tuple[Line, str, tuple[int, ...]], tuple[Match, str]] = {}

    # --- finding matches -------------------------------------------------------------------------
    def found(self, ranks: list[str], line: Line) -> _Found | None:
        """The match `line` forms in this grid, or None."""
        cells = line.cells
        if len(cells) == 2:
            a, b = ranks[cells[0]], ranks[cells[1]]
            if a == b:
                rank, wild = a, ()
            elif self.wild and a == JOKER:
                rank, wild = b, (cells[0],)
            elif self.wild and b == JOKER:
                rank, wild = a, (cells[1],)
            else:
                return None
        else:
            naturals = (
                {ranks[c] for c in cells if ranks[c] != JOKER} if self.wild else {ranks[c] for c in cells}
            )
            if len(naturals) > 1:
                return None
            rank = naturals.pop() if naturals else JOKER
            wild = tuple(c for c in cells if ranks[c] == JOKER) if rank != JOKER else ()
        value = self.value
        values = [value[ranks[c]] for c in cells]
        points = sum(v for v in values if v < 0) if self.keep else 0
        return _Found(line, rank, wild, points, sum(values) - points)

    def choose(self, ranks: list[str], free: int) -> tuple[list[_Found], bool]:
        """The counted matches among cells in `free`: a maximal set of non-overlapping matches with the
        lowest score. Returns them and whether there was a choice to make."""
        present = []
        for line in self.lines:
            if line.mask & free == line.mask:
                found = self.found(ranks, line)
                if found is not None:
                    present.append(found)
        if not present:
            return present, False
        used = 0
        for found in present:
            if used & found.line.mask:
                return _lowest_maximal(present), True
            used |= found.line.mask
        return present, False

    def blocks(self, ranks: list[str]) -> list[tuple[int, ...]]:
        """Every two adjacent columns holding four equal natural ranks."""
        return [
            cells
            for cells in self.block_cells
            if ranks[cells[0]] != JOKER
            and ranks[cells[0]] == ranks[cells[1]] == ranks[cells[2]] == ranks[cells[3]]
        ]

    # --- building the result ---------------------------------------------------------------------
    def card_score(self, index: int, card: Card) -> tuple[CardScore, str]:
        """An unmatched card's score and explanation line (cached: both are immutable)."""
        key = (index, card)
        cached = self.card_cache.get(key)
        if cached is None:
            if len(self.card_cache) > self.CACHE_LIMIT:
                self.card_cache.clear()
            position = self.positions[index]
            points = self.value[card.rank]
            rule = self.value_rule[card.rank]
            cached = (
                CardScore(position, card, points, False, rule),
                f"Row {position[0] + 1}, column {position[1] + 1}: {card} scores {points} ({cite(rule)}).",
            )
            self.card_cache[key] = cached
        return cached

    def match_result(self, found: _Found, ranks: list[str]) -> tuple[Match, str]:
        """The Match and its explanation line (cached by line and ranks)."""
        line = found.line
        key = (line, found.rank, tuple(ranks[c] for c in line.cells))
        cached = self.match_cache.get(key)
        if cached is None:
            if len(self.match_cache) > self.CACHE_LIMIT:
                self.match_cache.clear()
            cached = self._describe_match(found, ranks)
            self.match_cache[key] = cached
        return cached

    def _describe_match(self, found: _Found, ranks: list[str]) -> tuple[Match, str]:
        line = found.line
        positions = tuple(self.positions[c] for c in line.cells)
        wild = tuple(self.positions[c] for c in found.wild)
        rule = "seed 002" if wild else line.rule
        match = Match(line.kind, positions, found.rank, found.points, wild, rule)
        cards = (
            " and ".join(ranks[c] for c in line.cells)
            if len(line.cells) == 2
            else ", ".join(ranks[c] for c in line.cells)
        )
        if line.kind == "column":
            where = f"Column {positions[0][1] + 1}"
        elif line.kind == "row" and len(positions) == 2:
            where = f"Row {positions[0][0] + 1}, columns {positions[0][1] + 1} and {positions[1][1] + 1}"
        elif line.kind == "row":
            where = f"Row {positions[0][0] + 1}"
        elif line.kind == "diagonal":
            where = "Diagonal from " + _at(positions[0])
        else:
            where = "Cards at " + " and ".join(_at(p) for p in positions)
        text = f"{where}: {cards} match ({cite(line.rule)})"
        if wild:
            jokers = " and ".join(_at(p) for p in wild)
            text += f"; the joker at {jokers} stands in for {_article(found.rank)} ({cite('seed 002')})"
        negatives = [self.value[ranks[c]] for c in line.cells if self.value[ranks[c]] < 0]
        if negatives and self.keep:
            text += f"; matched negative cards keep their points: {found.points} ({cite('2.3')})."
        elif negatives:
            text += f"; negative cards score 0 when matched ({cite(_zero_rule(self.ruleset))})."
        else:
            text += ": 0 points."
        return match, text

    def score(self, grid: Grid) -> GridScore:
        """The full breakdown of a grid already checked for shape and cards."""
        cards = [card for row in grid for card in row]
        ranks = [card.rank for card in cards]
        everything = (1 << self.size) - 1
        blocks: list[tuple[int, ...]] = []
        if self.block is not None:
            chosen, blocks, choice = self._with_blocks(ranks)
        else:
            chosen, choice = self.choose(ranks, everything)
        matched: dict[int, tuple[_Found, Match]] = {}
        lines: list[str] = []
        parts: list[int] = []
        matches: list[Match] = []
        for found in chosen:
            match, text = self.match_result(found, ranks)
            matches.append(match)
            lines.append(text)
            parts.append(found.points)
            for cell in found.line.cells:
                matched[cell] = (found, match)
        block_results: list[Block] = []
        in_block: set[int] = set()
        if blocks:
            assert self.block is not None
            for cells in blocks:
                positions = tuple(self.positions[c] for c in cells)
                block = Block(
                    positions, ranks[cells[0]], self.block.points, self.block.others_add, "seed 001"
                )
                block_results.append(block)
                in_block.update(cells)
                parts.append(block.points)
                lines.append(
                    f"Columns {positions[0][1] + 1} and {positions[1][1] + 1}: "
                    f"four {ranks[cells[0]]}s form a block "
                    f"scoring {block.points} in all, and every other player adds {block.others_add} "
                    f"({cite('seed 001')})."
                )
        if choice:
            lines.append(
                "Some cards could match in more than one way; the matches that give the lowest score count, "
                f"and each card takes part in one match at most ({cite('seed 001')})."
            )
        scores: list[CardScore] = []
        total = 0
        for index, card in enumerate(cards):
            hit = matched.get(index)
            if hit is not None:
                found, match = hit
                value = self.value[card.rank]
                points = value if self.keep and value < 0 else 0
                rule = "2.3" if points else match.rule
                scores.append(CardScore(self.positions[index], card, points, True, rule))
                total += points
            elif index in in_block:
                scores.append(CardScore(self.positions[index], card, 0, True, "seed 001"))
            else:
                score, text = self.card_score(index, card)
                scores.append(score)
                lines.append(text)
                parts.append(score.points)
                total += score.points
        total += sum(block.points for block in block_results)
        sum_text = " + ".join(str(p) if p >= 0 else f"({p})" for p in parts) if parts else "0"
        lines.append(f"Grid score: {sum_text} = {total} ({cite('2.4')}).")
        return GridScore(total, tuple(matches), tuple(block_results), tuple(scores), tuple(lines))

    def total(self, grid: Grid) -> int:
        """The grid's total without a breakdown."""
        ranks = [card.rank for row in grid for card in row]
        value = self.value
        if self.block is not None:
            chosen, blocks, _ = self._with_blocks(ranks)
        else:
            chosen, _ = self.choose(ranks, (1 << self.size) - 1)
            blocks = []
        total = sum(value[rank] for rank in ranks)
        for found in chosen:
            total -= found.gain
        if blocks:
            assert self.block is not None
            for cells in blocks:
                total += self.block.points - sum(value[ranks[c]] for c in cells)
        return total

    def _with_blocks(self, ranks: list[str]) -> tuple[list[_Found], list[tuple[int, ...]], bool]:
        """Blocks first (the most non-overlapping ones; among equals the lowest score), then matches."""
        candidates = self.blocks(ranks)
        everything = (1 << self.size) - 1
        if not candidates:
            chosen, choice = self.choose(ranks, everything)
            return chosen, [], choice
        layouts = _largest_disjoint(candidates)
        best: tuple[int, list[_Found], list[tuple[int, ...]], bool] | None = None
        assert self.block is not None
        for layout in layouts:
            free = everything
            for cells in layout:
                for c in cells:
                    free &= ~(1 << c)
            chosen, choice = self.choose(ranks, free)
            rest = sum(self.value[ranks[c]] for c in range(self.size) if free >> c & 1)
            score = len(layout) * self.block.points + rest - sum(f.gain for f in chosen)
            if best is None or score < best[0]:
                best = (score, chosen, list(layout), choice or len(layouts) > 1)
        assert best is not None
        return best[1], best[2], best[3]


def _article(rank: str) -> str:
    return f"an {rank}" if rank in ("A", "8") else f"a {rank}"


def _zero_rule(ruleset: Ruleset) -> str:
    return "seed 004" if ruleset.preset == "jokers-54" else "seed 001"


def _value_rule(ruleset: Ruleset, rank: str) -> str:
    """Which source gives `rank` its value in this ruleset."""
    value = ruleset.value_of(rank)
    if "values" in ruleset.overrides and value != PRESETS[ruleset.preset].value_of(rank):
        return "ruleset"
    if rank != JOKER and value == _OFFICIAL_VALUES[rank]:
        return "2.2"
    if ruleset.preset.startswith("official"):
        return "5.4"
    source = ruleset.source.split()[0].rstrip(",")
    return f"seed {source}"


def _largest_disjoint(blocks: list[tuple[int, ...]]) -> list[tuple[tuple[int, ...], ...]]:
    """Every non-overlapping set of blocks of the largest size (at most 4 candidates on a 2x5 grid)."""
    for size in range(len(blocks), 0, -1):
        layouts = [
            combo
            for combo in combinations(blocks, size)
            if len({c for cells in combo for c in cells}) == 4 * size
        ]
        if layouts:
            return layouts
    return [()]


def _lowest_maximal(present: list[_Found]) -> list[_Found]:
    """Among the sets of non-overlapping matches to which no further match can be added, the one with
    the largest saving (so the lowest score). A depth-first search over cells with memo on the state
    (cells still free, cells left unmatched); at most 10 cells."""
    by_cell: dict[int, list[_Found]] = {}
    free = 0
    for found in present:
        free |= found.line.mask
        for cell in found.line.cells:
            by_cell.setdefault(cell, []).append(found)
    for options in by_cell.values():
        options.sort(key=lambda f: -f.gain)
    memo: dict[tuple[int, int], tuple[int, tuple[_Found, ...]] | None] = {}

    def best(free: int, unmatched: int) -> tuple[int, tuple[_Found, ...]] | None:
        if not free:
            return 0, ()
        key = (free, unmatched)
        if key in memo:
            return memo[key]
        bit = free & -free
        cell = bit.bit_length() - 1
        result: tuple[int, tuple[_Found, ...]] | None = None
        for found in by_cell[cell]:
            mask = found.line.mask
            if mask & free == mask:
                rest = best(free & ~mask, unmatched)
                if rest is not None and (result is None or rest[0] + found.gain > result[0]):
                    result = (rest[0] + found.gain, (found, *rest[1]))
        # Leave this cell unmatched, unless that completes a match among unmatched cells (not maximal).
        left = unmatched | bit
        if all(found.line.mask & ~left for found in by_cell[cell]):
            rest = best(free & ~bit, left)
            if rest is not None and (result is None or rest[0] > result[0]):
                result = rest
        memo[key] = result
        return result

    answer = best(free, 0)
    assert answer is not None  # matching every cell it can always gives a maximal set
    return sorted(answer[1], key=lambda f: f.line.cells)


def _engine(ruleset: Ruleset) -> _Engine:
    """The compiled engine of a ruleset, built once and kept in the ruleset's private memo."""
    engine = ruleset._memo.get("engine")
    if engine is None:
        engine = ruleset._memo["engine"] = _Engine(ruleset)
    return engine


def prepare_grid(grid: Grid | Sequence[Sequence[str | Card]], ruleset: Ruleset, where: str = "grid") -> Grid:
    """Parse `grid` and check it has the ruleset's shape (raises CardError or GridError)."""
    parsed = parse_grid(grid, where)
    if len(parsed) != ruleset.rows or len(parsed[0]) != ruleset.cols:
        raise GridError(
            Problem(
                where,
                f"The {ruleset.preset} ruleset plays {ruleset.shape} grids ({ruleset.rows} rows of "
                f"{ruleset.cols} cards); this grid has {len(parsed)} row{'s' if len(parsed) != 1 else ''} "
                f"of {len(parsed[0])} card{'s' if len(parsed[0]) != 1 else ''}.",
            )
        )
    return parsed


def score_grid(
    grid: Grid | Sequence[Sequence[str | Card]], ruleset: Ruleset, players: int | None = None
) -> GridScore:
    """Score one grid with its full breakdown (SPEC "How a grid scores").

    `grid` is a Grid or rows of card tokens, of the ruleset's shape. The grid is checked against
    `ruleset.decks_for(players)` packs when the player count is known or the ruleset fixes the packs;
    otherwise only the joker rule applies. Raises CardError, GridError or DeckError."""
    parsed = prepare_grid(grid, ruleset)
    problems = grid_card_problems(parsed, ruleset, grid_decks(ruleset, players))
    if problems:
        raise DeckError(problems)
    return _engine(ruleset).score(parsed)


def grid_total(grid: Grid | Sequence[Sequence[str | Card]], ruleset: Ruleset) -> int:
    """The same total as score_grid(grid, ruleset).total, without the breakdown (the fast path).

    Checks the cards like score_grid without a player count."""
    parsed = prepare_grid(grid, ruleset)
    problems = grid_card_problems(parsed, ruleset, grid_decks(ruleset, None))
    if problems:
        raise DeckError(problems)
    return _engine(ruleset).total(parsed)
