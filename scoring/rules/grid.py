"""How a grid scores (SPEC "How a grid scores"): matches, blocks, card points and a cited breakdown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from .cards import JOKER, KNOWN_TOKENS, PLAIN_RANKS, Card, Grid, parse_grid
from .citations import cite
from .decks import grid_card_problems
from .errors import DeckError, GridError, Problem
from .grid_results import Block, CardScore, GridScore, Match, Position
from .grid_words import block_sentence, joker_clause, match_place, term, value_rule
from .lines import block_cells
from .matching import Found, MatchFinder
from .ruleset import Ruleset

_ROW_TYPES = (list, tuple)


class _Engine:
    """One ruleset compiled for speed: the match finder, card weights, checks and caches of the
    immutable pieces of a breakdown (card scores, match descriptions) keyed by what determines them."""

    CACHE_LIMIT = 4096

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rows, self.cols = ruleset.rows, ruleset.cols
        self.size = ruleset.rows * ruleset.cols
        self.positions: tuple[Position, ...] = tuple(
            (i // self.cols, i % self.cols) for i in range(self.size)
        )
        self.finder = MatchFinder(ruleset)
        self.value = dict(ruleset.values)
        self.value_rule = {rank: value_rule(ruleset, rank) for rank in self.value}
        self.keep = ruleset.negative_matches == "keep"
        self.zero_rule = "seed 004" if ruleset.preset == "jokers-54" else "seed 001"
        self.block = ruleset.four_of_a_kind_block
        self.block_cells = block_cells(ruleset.rows, ruleset.cols) if self.block else ()
        self.card_cache: list[dict[Any, tuple[CardScore, str, str]]] = [{} for _ in range(self.size)]
        self.matched_cache: list[dict[Any, CardScore]] = [{} for _ in range(self.size)]
        self.match_cache: dict[tuple[int, str, tuple[int, ...]], tuple[Match, str]] = {}
        # Packs the ruleset fixes (None with "auto": they depend on the player count).
        self.fixed_decks = ruleset.decks if isinstance(ruleset.decks, int) else None
        # Columns of a 2-row grid that never overlap (no rows, diagonals, anywhere, wild jokers, blocks):
        # the total is a sum over columns, looked up by the pair of ranks.
        self.column_sum = (
            self.rows == 2
            and self.finder.disjoint
            and self.block is None
            and all(line.kind == "column" for line in self.finder.lines)
            and len(self.finder.lines) in (0, self.cols)
        )
        matched = bool(self.finder.lines)
        self.column_points = {
            (a, b): (2 * self.finder.kept[a] if matched and a == b else self.value[a] + self.value[b])
            for a in self.value
            for b in self.value
        }

    # --- input -----------------------------------------------------------------------------------
    def known_cards(self, grid: Any) -> list[Card] | None:
        """The cards row by row when the grid has the right shape and every token was seen before;
        None sends the grid down the checked path (parse_grid), which reports what is wrong."""
        if grid.__class__ not in _ROW_TYPES or len(grid) != self.rows:
            return None
        cards: list[Card] = []
        known = KNOWN_TOKENS
        for row in grid:
            if row.__class__ not in _ROW_TYPES or len(row) != self.cols:
                return None
            for token in row:
                if token.__class__ is str:
                    card = known.get(token)
                    if card is None:
                        return None
                    cards.append(card)
                elif token.__class__ is Card:
                    cards.append(token)
                else:
                    return None
        return cards

    def cards_fit(self, ranks: list[str], cards: list[Card] | None, decks: int | None) -> bool:
        """True when `decks` packs surely hold these cards (None: only the no-jokers rule applies).
        False means "count them" (the checked path), not "too many". Without counting: a grid showing
        at least size - 4 x packs + 1 different ranks cannot hold more than 4 x packs of one."""
        if decks is None:
            return self.ruleset.jokers > 0 or JOKER not in ranks
        if len(set(ranks)) <= self.size - 4 * decks:
            return False
        if JOKER in ranks and ranks.count(JOKER) > self.ruleset.jokers * decks:
            return False
        if cards is not None and decks < self.size:
            suited = [(card.rank, card.suit) for card in cards if card.suit is not None]
            if len(suited) > decks and len(set(suited)) < len(suited):
                return decks > 1 and max(Counter(suited).values()) <= decks
        return True

    def decks_for(self, players: int | None) -> int | None:
        """Packs to check a grid against: fixed by the ruleset, or from the player count, or unknown."""
        if self.fixed_decks is not None:
            return self.fixed_decks
        return self.ruleset.decks_for(players) if players is not None else None

    def checked_cards(self, grid: Any, players: int | None) -> list[Card]:
        """The grid's cards row by row, after every check (raises CardError, GridError, DeckError)."""
        decks = self.decks_for(players)
        cards = self.known_cards(grid)
        if cards is not None and self.cards_fit([card.rank for card in cards], cards, decks):
            return cards
        parsed = prepare_grid(grid, self.ruleset)
        problems = grid_card_problems(parsed, self.ruleset, decks)
        if problems:
            raise DeckError(problems)
        return [card for row in parsed for card in row]

    # --- totals ----------------------------------------------------------------------------------
    def total(self, grid: Any) -> int:
        """The grid's total, no breakdown: the column sum when it applies, else the general path."""
        if self.column_sum:
            try:
                top, bottom = grid
                if (
                    top.__class__ is str
                    or bottom.__class__ is str
                    or len(top) != self.cols
                    or len(bottom) != self.cols
                ):
                    raise ValueError
                ranks = [PLAIN_RANKS[token] for token in top] + [PLAIN_RANKS[token] for token in bottom]
            except (KeyError, TypeError, ValueError):
                pass
            else:
                if self.cards_fit(ranks, None, self.fixed_decks):
                    points = self.column_points
                    cols = self.cols
                    return sum([points[ranks[c], ranks[c + cols]] for c in range(cols)])
        ranks = [card.rank for card in self.checked_cards(grid, None)]
        return self.total_of_ranks(ranks)

    def total_of_ranks(self, ranks: list[str]) -> int:
        """The total of a checked grid given as ranks row by row."""
        value = self.value
        total = sum([value[rank] for rank in ranks])
        if self.block is not None:
            chosen, blocks, _ = self.with_blocks(ranks)
            for cells in blocks:
                total += self.block.points - sum(value[ranks[c]] for c in cells)
        else:
            chosen, _ = self.finder.choose(ranks, (1 << self.size) - 1)
        for found in chosen:
            total -= found.gain
        return total

    def with_blocks(self, ranks: list[str]) -> tuple[list[Found], list[tuple[int, ...]], bool]:
        """Blocks first (the most non-overlapping ones; among equals the lowest score), then matches."""
        everything = (1 << self.size) - 1
        candidates = [
            cells
            for cells in self.block_cells
            if ranks[cells[0]] != JOKER
            and ranks[cells[0]] == ranks[cells[1]] == ranks[cells[2]] == ranks[cells[3]]
        ]
        if not candidates:
            chosen, choice = self.finder.choose(ranks, everything)
            return chosen, [], choice
        assert self.block is not None
        layouts = _largest_disjoint(candidates)
        best: tuple[int, list[Found], list[tuple[int, ...]], bool] | None = None
        for layout in layouts:
            free = everything
            for cells in layout:
                for c in cells:
                    free &= ~(1 << c)
            chosen, choice = self.finder.choose(ranks, free)
            rest = sum(self.value[ranks[c]] for c in range(self.size) if free >> c & 1)
            score = len(layout) * self.block.points + rest - sum(f.gain for f in chosen)
            if best is None or score < best[0]:
                best = (score, chosen, list(layout), choice or len(layouts) > 1)
        assert best is not None
        return best[1], best[2], best[3]

    # --- the breakdown ---------------------------------------------------------------------------
    def unmatched_card(self, index: int, card: Card) -> tuple[CardScore, str, str]:
        """An unmatched card's score, its explanation line and its term in the sum."""
        key = card.rank if card.suit is None else (card.rank, card.suit)
        cache = self.card_cache[index]
        cached = cache.get(key)
        if cached is None:
            if len(cache) > self.CACHE_LIMIT:
                cache.clear()
            position = self.positions[index]
            points = self.value[card.rank]
            rule = self.value_rule[card.rank]
            cached = cache[key] = (
                CardScore(position, card, points, False, rule),
                f"Row {position[0] + 1}, column {position[1] + 1}: {card} scores {points} ({cite(rule)}).",
                term(points),
            )
        return cached

    def matched_card(self, index: int, card: Card, rule: str) -> CardScore:
        """A matched card's score: 0, or its negative value under `keep` (rule 2.3)."""
        key = (card.rank, card.suit, rule)
        cache = self.matched_cache[index]
        cached = cache.get(key)
        if cached is None:
            if len(cache) > self.CACHE_LIMIT:
                cache.clear()
            points = self.finder.kept[card.rank]
            cached = cache[key] = CardScore(
                self.positions[index], card, points, True, "2.3" if points else rule
            )
        return cached

    def match(self, found: Found, ranks: list[str]) -> tuple[Match, str]:
        """The Match and its explanation line; both depend only on the line, rank and wild cells."""
        key = (id(found.line), found.rank, found.wild)
        cached = self.match_cache.get(key)
        if cached is None:
            if len(self.match_cache) > self.CACHE_LIMIT:
                self.match_cache.clear()
            cached = self.match_cache[key] = self._describe(found, ranks)
        return cached

    def _describe(self, found: Found, ranks: list[str]) -> tuple[Match, str]:
        line = found.line
        positions = tuple(self.positions[c] for c in line.cells)
        wild = tuple(self.positions[c] for c in found.wild)
        match = Match(line.kind, positions, found.rank, found.points, wild, "seed 002" if wild else line.rule)
        shown = [ranks[c] for c in line.cells]
        cards = " and ".join(shown) if len(shown) == 2 else ", ".join(shown)
        text = f"{match_place(line.kind, positions)}: {cards} match ({cite(line.rule)})"
        if wild:
            text += joker_clause(wild, found.rank)
        if any(self.value[rank] < 0 for rank in shown):
            if self.keep:
                text += f"; matched negative cards keep their points: {found.points} ({cite('2.3')})."
            else:
                text += f"; negative cards score 0 when matched ({cite(self.zero_rule)})."
        else:
            text += ": 0 points."
        return match, text

    def score(self, cards: list[Card]) -> GridScore:
        """The full breakdown of a checked grid given as its cards row by row."""
        ranks = [card.rank for card in cards]
        blocks: list[tuple[int, ...]] = []
        if self.block is not None:
            chosen, blocks, choice = self.with_blocks(ranks)
        else:
            chosen, choice = self.finder.choose(ranks, (1 << self.size) - 1)
        lines: list[str] = []
        terms: list[str] = []
        matches: list[Match] = []
        rule_of: dict[int, str] = {}
        for found in chosen:
            match, text = self.match(found, ranks)
            matches.append(match)
            lines.append(text)
            terms.append(term(found.points))
            for cell in found.line.cells:
                rule_of[cell] = match.rule
        block_results = [self._block(cells, ranks, lines, terms) for cells in blocks]
        in_block = {cell for cells in blocks for cell in cells}
        if choice:
            lines.append(
                "Some cards could match in more than one way; the matches that give the lowest score count, "
                f"and each card takes part in one match at most ({cite('seed 001')})."
            )
        scores: list[CardScore] = []
        total = 0
        card_cache = self.card_cache
        for index, card in enumerate(cards):
            if index in rule_of:
                score = self.matched_card(index, card, rule_of[index])
            elif index in in_block:
                score = CardScore(self.positions[index], card, 0, True, "seed 001")
            else:
                cached = card_cache[index].get(card.rank if card.suit is None else (card.rank, card.suit))
                if cached is None:
                    cached = self.unmatched_card(index, card)
                score = cached[0]
                lines.append(cached[1])
                terms.append(cached[2])
            scores.append(score)
            total += score.points
        for block in block_results:
            total += block.points
        lines.append(f"Grid score: {' + '.join(terms) if terms else '0'} = {total} ({cite('2.4')}).")
        return GridScore(total, tuple(matches), tuple(block_results), tuple(scores), tuple(lines))

    def _block(self, cells: tuple[int, ...], ranks: list[str], lines: list[str], terms: list[str]) -> Block:
        assert self.block is not None
        positions = tuple(self.positions[c] for c in cells)
        block = Block(positions, ranks[cells[0]], self.block.points, self.block.others_add, "seed 001")
        terms.append(term(block.points))
        lines.append(block_sentence(block))
        return block


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


def _engine(ruleset: Ruleset) -> _Engine:
    """The compiled engine of a ruleset, built once and kept in the ruleset's private memo."""
    engine = ruleset._memo.get("engine")
    if engine is None:
        engine = ruleset._memo["engine"] = _Engine(ruleset)
    return engine


def prepare_grid(grid: Grid | Sequence[Sequence[str | Card]], ruleset: Ruleset, where: str = "grid") -> Grid:
    """Parse `grid` and check it has the ruleset's shape (raises CardError or GridError)."""
    parsed = parse_grid(grid, where, jokers=ruleset.jokers > 0)
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
    engine = _engine(ruleset)
    return engine.score(engine.checked_cards(grid, players))


def score_checked_grid(grid: Grid, ruleset: Ruleset) -> GridScore:
    """Score a grid already parsed and checked (score_hole checks a whole table first)."""
    return _engine(ruleset).score([card for row in grid for card in row])


def grid_total(grid: Grid | Sequence[Sequence[str | Card]], ruleset: Ruleset) -> int:
    """The same total as score_grid(grid, ruleset).total, without the breakdown (the fast path).

    Checks the grid like score_grid without a player count."""
    return _engine(ruleset).total(grid)
