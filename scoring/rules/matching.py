"""Which matches count in a grid (SPEC "How a grid scores" 1-3): find the matches present, then among
the maximal sets of non-overlapping matches take the one with the lowest score.

Every match saves the sum of its cards' weights, where a card's weight is what matching it saves:
its value minus the points it keeps when matched (`keep`: a negative card keeps its value, so the
weight is max(value, 0); `zero`: the weight is the value). The lowest score is therefore the maximal
set with the largest total weight of matched cards; weights below zero (negatives under `zero`) make
some matches cost points, which maximality still forces."""

from __future__ import annotations

from typing import NamedTuple

from .cards import JOKER
from .lines import Line, candidate_lines
from .ruleset import Ruleset


class Found(NamedTuple):
    """A match present in one grid: its line, rank, the wild joker cells, its points and its saving."""

    line: Line
    rank: str
    wild: tuple[int, ...]
    points: int
    gain: int


class MatchFinder:
    """One ruleset's match rules, compiled: candidate lines and card weights."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.size = ruleset.rows * ruleset.cols
        self.lines = candidate_lines(ruleset.rows, ruleset.cols, ruleset.match_lines)
        self.wild = ruleset.jokers_wild
        keep = ruleset.negative_matches == "keep"
        values = dict(ruleset.values)
        # Points a matched card keeps, and what matching it saves.
        self.kept = {rank: (min(value, 0) if keep else 0) for rank, value in values.items()}
        self.weight = {rank: values[rank] - self.kept[rank] for rank in values}
        self.pairs = all(len(line.cells) == 2 for line in self.lines)
        self.anywhere = "anywhere" in ruleset.match_lines
        self.pair_line: dict[tuple[int, int], Line] = (
            {line.cells: line for line in self.lines} if self.pairs else {}
        )
        self.neighbours: list[list[int]] = [[] for _ in range(self.size)]
        for line in self.lines:
            if self.pairs:
                a, b = line.cells
                self.neighbours[a].append(b)
                self.neighbours[b].append(a)
        used = 0
        self.disjoint = not self.wild
        for line in self.lines:
            if used & line.mask:
                self.disjoint = False
            used |= line.mask

    # --- present matches -------------------------------------------------------------------------
    def present(self, ranks: list[str], free: int) -> list[Found]:
        """Every match that the cards in the `free` cells form, in line order."""
        if self.pairs:
            return self._present_pairs(ranks, free)
        found: list[Found] = []
        kept, weight, wild = self.kept, self.weight, self.wild
        for line in self.lines:
            if line.mask & free != line.mask:
                continue
            cells = line.cells
            line_ranks = [ranks[c] for c in cells]
            naturals = {r for r in line_ranks if r != JOKER} if wild else set(line_ranks)
            if len(naturals) > 1:
                continue
            rank = naturals.pop() if naturals else JOKER
            jokers = tuple(c for c in cells if ranks[c] == JOKER) if rank != JOKER else ()
            found.append(
                Found(
                    line, rank, jokers, sum(kept[r] for r in line_ranks), sum(weight[r] for r in line_ranks)
                )
            )
        return found

    def _present_pairs(self, ranks: list[str], free: int) -> list[Found]:
        cells_of = _free_cells_by_rank(ranks, free)
        pair_line, kept, weight = self.pair_line, self.kept, self.weight
        found: list[Found] = []
        for rank, cells in cells_of.items():
            if len(cells) < 2:
                continue
            points, gain = 2 * kept[rank], 2 * weight[rank]
            for i, a in enumerate(cells):
                for b in cells[i + 1 :]:
                    line = pair_line.get((a, b))
                    if line is not None:
                        found.append(Found(line, rank, (), points, gain))
        if self.wild and JOKER in cells_of:
            for joker in cells_of[JOKER]:
                for other in self.neighbours[joker]:
                    rank = ranks[other]
                    if rank == JOKER or not free >> other & 1:
                        continue
                    line = pair_line[(joker, other) if joker < other else (other, joker)]
                    found.append(
                        Found(line, rank, (joker,), kept[rank] + kept[JOKER], weight[rank] + weight[JOKER])
                    )
        if len(found) > 1:
            found.sort(key=lambda f: f.line.cells)
        return found

    # --- choosing --------------------------------------------------------------------------------
    def choose(self, ranks: list[str], free: int) -> tuple[list[Found], bool]:
        """The matches that count among the `free` cells, and whether several sets were possible."""
        if self.anywhere:
            return self._choose_anywhere(ranks, free)
        present = self.present(ranks, free)
        if len(present) < 2:
            return present, False
        used = 0
        for found in present:
            if used & found.line.mask:
                chosen = best_pair_matching(present, self.weight) if self.pairs else best_line_set(present)
                return chosen, True
            used |= found.line.mask
        return present, False

    def _choose_anywhere(self, ranks: list[str], free: int) -> tuple[list[Found], bool]:
        """`anywhere` needs no search: cards of one rank are interchangeable and a wild joker pairs
        with anything, so the best maximal set follows from counts.

        Every joker matched (case A): each rank keeps at most one card unmatched, and a joker given
        to a rank flips whether it has one left over; the jokers left pair with each other, so the
        number of flipped ranks has the parity of the jokers. Flip the ranks that gain most. One
        joker unmatched (case B): then every other card must be matched, which needs a joker for
        each rank with an odd count and an even number of jokers left over."""
        cells_of = _free_cells_by_rank(ranks, free)
        jokers = cells_of.pop(JOKER, []) if self.wild else []
        weight = self.weight
        joker_weight = weight[JOKER]
        counted = [(rank, len(cells)) for rank, cells in cells_of.items()]
        naturals = sum(n for _, n in counted)
        choice = any(n > 2 for _, n in counted) or (bool(jokers) and len(jokers) + naturals > 2)
        if not jokers:
            return self._anywhere_pairs(cells_of, jokers, set(), False), choice
        # Case A: every joker matched. Flipping a rank with an odd count matches its last card, with an
        # even count it leaves one unmatched; flip the ranks that gain most, as many as parity allows.
        gains = sorted(
            ((weight[rank] if n % 2 else -weight[rank], rank) for rank, n in counted),
            key=lambda item: -item[0],
        )
        base = len(jokers) * joker_weight + sum(weight[rank] * (n - n % 2) for rank, n in counted)
        best_a: tuple[int, int] | None = None  # (saving, ranks flipped)
        running = 0
        for flips in range(min(len(jokers), len(gains)) + 1):
            if flips:
                running += gains[flips - 1][0]
            if (len(jokers) - flips) % 2 == 0 and (best_a is None or base + running > best_a[0]):
                best_a = (base + running, flips)
        # Case B: one joker unmatched, every other card matched.
        odd = sum(1 for _, n in counted if n % 2)
        best_b = None
        if odd <= len(jokers) - 1 and (len(jokers) - 1 - odd) % 2 == 0:
            best_b = (len(jokers) - 1) * joker_weight + sum(weight[rank] * n for rank, n in counted)
        if best_a is None or (best_b is not None and best_b > best_a[0]):
            flipped = {rank for rank, n in counted if n % 2}
            spare_joker = True
        else:
            flipped = {rank for _, rank in gains[: best_a[1]]}
            spare_joker = False
        return self._anywhere_pairs(cells_of, jokers, flipped, spare_joker), choice

    def _anywhere_pairs(
        self, cells_of: dict[str, list[int]], jokers: list[int], flipped: set[str], spare_joker: bool
    ) -> list[Found]:
        """The matches of an `anywhere` solution: a joker for each flipped rank (its last card), pairs
        of equal cards in reading order, then jokers in pairs (the last one left if `spare_joker`)."""
        pair_line, kept, weight = self.pair_line, self.kept, self.weight
        found: list[Found] = []
        jokers = list(jokers)
        for rank, cells in cells_of.items():
            if len(cells) == 1 and rank not in flipped:
                continue
            if rank in flipped:
                cells = cells[:-1]
                natural, joker = cells_of[rank][-1], jokers.pop(0)
                line = pair_line[(joker, natural) if joker < natural else (natural, joker)]
                found.append(
                    Found(line, rank, (joker,), kept[rank] + kept[JOKER], weight[rank] + weight[JOKER])
                )
            for i in range(0, len(cells) - 1, 2):
                found.append(
                    Found(pair_line[(cells[i], cells[i + 1])], rank, (), 2 * kept[rank], 2 * weight[rank])
                )
        if spare_joker:
            jokers.pop()
        for i in range(0, len(jokers) - 1, 2):
            found.append(
                Found(pair_line[(jokers[i], jokers[i + 1])], JOKER, (), 2 * kept[JOKER], 2 * weight[JOKER])
            )
        if len(found) > 1:
            found.sort(key=lambda f: f.line.cells)
        return found


def best_pair_matching(present: list[Found], weight: dict[str, int]) -> list[Found]:
    """The maximal set of disjoint pairs with the largest saving (so the lowest score).

    Depth-first over the lowest free cell: pair it with a free partner, or leave it unmatched, which
    forbids its partners from staying unmatched too (else the set would not be maximal). Memo on
    (free cells, cells that must still be matched); at most 10 cells. Two reductions keep it small:

    - twins (same rank, same partners, partners of each other) are interchangeable: a twin is tried
      once as a partner, and once a cell is matched its later twins must be matched too (any
      solution can swap its unmatched twins to the front);
    - cells with exactly the same partners N that are more than |N| (cards only a joker can match)
      cannot all be matched: only the |N| best can, the others stay unmatched, and then every
      card of N must be matched for the set to be maximal."""
    partners, near, rank_of = _partnerships(present)
    free = 0
    for cell in near:
        free |= 1 << cell
    dropped, forced = _joker_only_cells(near, rank_of, weight)
    answer = _best_pairs(free & ~dropped, forced, partners, near, _twins(near, rank_of))
    assert answer is not None  # matching greedily always gives a maximal set
    return sorted(answer[1], key=lambda f: f.line.cells)


Partners = dict[int, list[tuple[int, Found]]]  # cell -> (partner cell, the pair) for each pair it is in
Solution = tuple[int, tuple[Found, ...]]  # (saving, the pairs)


def _partnerships(present: list[Found]) -> tuple[Partners, dict[int, int], dict[str, str]]:
    """Each cell's partners, the bit mask of its partners (`near`), and its rank (a joker's is JOKER)."""
    partners: Partners = {}
    near: dict[int, int] = {}
    rank_of: dict[int, str] = {}
    for found in present:
        a, b = found.line.cells
        for cell, partner in ((a, b), (b, a)):  # a pair is a partnership both ways
            if cell in partners:
                partners[cell].append((partner, found))
                near[cell] |= 1 << partner
            else:
                partners[cell] = [(partner, found)]
                near[cell] = 1 << partner
        if found.wild:
            rank_of[a] = JOKER if a in found.wild else found.rank
            rank_of[b] = JOKER if b in found.wild else found.rank
        else:
            rank_of[a] = rank_of[b] = found.rank
    return partners, near, rank_of


def _twins(near: dict[int, int], rank_of: dict[int, str]) -> dict[int, int]:
    """Each cell's twins as a bit mask (itself included): the cells of the same rank with the same
    partners, partners of each other."""
    groups: dict[tuple[str, int], int] = {}
    for cell, mask in near.items():
        key = (rank_of[cell], mask | 1 << cell)
        groups[key] = groups.get(key, 0) | 1 << cell
    return {cell: groups[(rank_of[cell], mask | 1 << cell)] for cell, mask in near.items()}


def _joker_only_cells(
    near: dict[int, int], rank_of: dict[int, str], weight: dict[str, int]
) -> tuple[int, int]:
    """(cells left unmatched, cells that must be matched), as bit masks: of cells sharing exactly
    the same partners N and more than |N|, only the |N| heaviest can be matched, and then every
    cell of N must be (for the set to be maximal). Neither when a shared set is itself dropped."""
    same_partners: dict[int, list[int]] = {}
    for cell, mask in near.items():
        if mask in same_partners:
            same_partners[mask].append(cell)
        else:
            same_partners[mask] = [cell]
    dropped = forced = 0
    for shared, cells in same_partners.items():
        room = shared.bit_count()
        if len(cells) > room:
            cells.sort(key=lambda c: -weight[rank_of[c]])
            for cell in cells[room:]:
                dropped |= 1 << cell
            forced |= shared
    if forced & dropped:  # a partner set that is itself dropped: keep the plain search
        return 0, 0
    return dropped, forced


def _best_pairs(
    free: int, forced: int, partners: Partners, near: dict[int, int], twins: dict[int, int]
) -> Solution | None:
    """The depth-first search of `best_pair_matching` over the `free` cells, `forced` ones matched."""
    memo: dict[int, Solution | None] = {}

    def best(free: int, must: int) -> Solution | None:
        if not free:
            return 0, ()
        key = free << 16 | must
        if key in memo:
            return memo[key]
        bit = free & -free
        cell = bit.bit_length() - 1
        result: Solution | None = None
        tried = 0
        for other, found in partners[cell]:
            other_bit = 1 << other
            if not free & other_bit or tried & twins[other]:
                continue
            tried |= other_bit
            rest_free = free & ~bit & ~other_bit
            rest = best(rest_free, (must | twins[cell]) & rest_free)
            if rest is not None and (result is None or rest[0] + found.gain > result[0]):
                result = (rest[0] + found.gain, (found, *rest[1]))
        if not must & bit:
            left_free = free & ~bit
            left_must = must | (near[cell] & left_free)
            # Every cell that must be matched needs a free partner left.
            if all(near[c] & left_free & ~(1 << c) for c in _cells(left_must)):
                rest = best(left_free, left_must)
                if rest is not None and (result is None or rest[0] > result[0]):
                    result = rest
        memo[key] = result
        return result

    return best(free, forced)


def best_line_set(present: list[Found]) -> list[Found]:
    """The maximal set of disjoint matches (lines of any length) with the largest saving.

    Depth-first over the lowest free cell with memo on (free cells, cells left unmatched); used for
    3x3 lines of three, where at most 8 lines exist."""
    by_cell: dict[int, list[Found]] = {}
    free = 0
    for found in present:
        free |= found.line.mask
        for cell in found.line.cells:
            by_cell.setdefault(cell, []).append(found)
    for options in by_cell.values():
        options.sort(key=lambda f: -f.gain)
    memo: dict[tuple[int, int], tuple[int, tuple[Found, ...]] | None] = {}

    def best(free: int, unmatched: int) -> tuple[int, tuple[Found, ...]] | None:
        if not free:
            return 0, ()
        key = (free, unmatched)
        if key in memo:
            return memo[key]
        bit = free & -free
        cell = bit.bit_length() - 1
        result: tuple[int, tuple[Found, ...]] | None = None
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
    assert answer is not None
    return sorted(answer[1], key=lambda f: f.line.cells)


def _free_cells_by_rank(ranks: list[str], free: int) -> dict[str, list[int]]:
    """The `free` cells of each rank, in cell order (ranks in the order they first appear)."""
    cells_of: dict[str, list[int]] = {}
    for cell, rank in enumerate(ranks):
        if free >> cell & 1:
            if rank in cells_of:
                cells_of[rank].append(cell)
            else:
                cells_of[rank] = [cell]
    return cells_of


def _cells(mask: int) -> list[int]:
    cells = []
    while mask:
        bit = mask & -mask
        cells.append(bit.bit_length() - 1)
        mask ^= bit
    return cells
