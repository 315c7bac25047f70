"""Deck checks: no grid, and no table of grids, holds more cards than the packs in play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .cards import JOKER, RANK_NAMES, RANKS, Card, Grid
from .errors import DeckError, Problem
from .ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class _Excess:
    """Too many of one rank (card None) or of one exact card."""

    rank: str
    card: Card | None
    count: int
    limit: int


def _plural(rank: str, count: int) -> str:
    """ "5 Queens", "1 Queen", "3 2s", "2 Jokers"."""
    name = RANK_NAMES[rank]
    return f"1 {name}" if count == 1 else f"{count} {name}s"


def _packs(decks: int) -> str:
    return "1 pack holds" if decks == 1 else f"{decks} packs hold"


def _count(grid: Grid, counts: Counter[str], exact: Counter[Card]) -> None:
    for row in grid:
        for card in row:
            counts[card.rank] += 1
            if card.suit is not None:
                exact[card] += 1


def _excesses(
    counts: Counter[str], exact: Counter[Card], ruleset: Ruleset, decks: int | None
) -> list[_Excess]:
    """Every rank or exact card over its limit; `decks` None checks only jokers in a joker-less ruleset."""
    found: list[_Excess] = []
    for rank in RANKS:
        count = counts.get(rank, 0)
        if not count:
            continue
        if rank == JOKER:
            limit = ruleset.jokers * decks if decks is not None else (None if ruleset.jokers else 0)
        else:
            limit = 4 * decks if decks is not None else None
        if limit is not None and count > limit:
            found.append(_Excess(rank, None, count, limit))
    if decks is not None:
        found += [_Excess(card.rank, card, n, decks) for card, n in exact.items() if n > decks]
    return found


def _message(excess: _Excess, ruleset: Ruleset, decks: int | None, scope: str) -> str:
    if excess.card is not None:
        return (
            f"The {excess.card.name} ({excess.card}) is entered {excess.count} times{scope}, "
            f"but {_packs(excess.limit)} only {excess.limit}."
        )
    if excess.rank == JOKER and ruleset.jokers == 0:
        return (
            f"{_plural(JOKER, excess.count)} entered{scope}, "
            f"but the {ruleset.preset} ruleset plays without jokers."
        )
    return (
        f"{_plural(excess.rank, excess.count)} entered{scope}, but {_packs(decks or 1)} only {excess.limit}."
    )


def _first_position(grid: Grid, where: str, test: Callable[[Card], bool]) -> str:
    for r, row in enumerate(grid, start=1):
        for c, card in enumerate(row, start=1):
            if test(card):
                return f"{where}[{r}][{c}]"
    return where


def _matches(excess: _Excess) -> Callable[[Card], bool]:
    if excess.card is not None:
        return lambda card: card == excess.card
    return lambda card: card.rank == excess.rank


def grid_card_problems(grid: Grid, ruleset: Ruleset, decks: int | None, where: str = "grid") -> list[Problem]:
    """The problems of one grid against `decks` packs (None: only the no-jokers rule applies).

    Each problem points at the first card of the offending rank."""
    counts: Counter[str] = Counter()
    exact: Counter[Card] = Counter()
    _count(grid, counts, exact)
    return [
        Problem(_first_position(grid, where, _matches(excess)), _message(excess, ruleset, decks, ""))
        for excess in _excesses(counts, exact, ruleset, decks)
    ]


def table_card_problems(
    grids: Mapping[str, Grid], ruleset: Ruleset, decks: int, where: str = "grids"
) -> list[Problem]:
    """The problems of a whole table's grids in one hole taken together, naming who holds the cards."""
    counts: Counter[str] = Counter()
    exact: Counter[Card] = Counter()
    for grid in grids.values():
        _count(grid, counts, exact)
    problems: list[Problem] = []
    for excess in _excesses(counts, exact, ruleset, decks):
        test = _matches(excess)
        held = {name: sum(test(card) for row in grid for card in row) for name, grid in grids.items()}
        holders = ", ".join(f"{name} {n}" for name, n in held.items() if n)
        message = _message(excess, ruleset, decks, " across the table")
        problems.append(Problem(where, f"{message[:-1]} ({holders})."))
    return problems


def grid_decks(ruleset: Ruleset, players: int | None) -> int | None:
    """Packs to check one grid against: known when the ruleset fixes them or the player count is known."""
    if isinstance(ruleset.decks, int):
        return ruleset.decks
    return ruleset.decks_for(players) if players is not None else None


def check_grid_cards(grid: Grid, ruleset: Ruleset, players: int | None = None, where: str = "grid") -> None:
    """Raise DeckError when one grid holds more of a rank (or exact card, or jokers) than the packs allow.

    The packs are `ruleset.decks_for(players)`; with `decks: "auto"` and no player count only the
    joker rule applies (no jokers in a ruleset without them)."""
    problems = grid_card_problems(grid, ruleset, grid_decks(ruleset, players), where)
    if problems:
        raise DeckError(problems)


def check_table_cards(
    grids: Mapping[str, Grid], ruleset: Ruleset, players: int | None = None, where: str = "grids"
) -> None:
    """Raise DeckError when the grids of one hole hold more cards than the packs in play.

    `players` is the number of players at the table (default: the number of grids); each grid is
    checked alone first (problems at "grids.<name>[r][c]"), then the table as a whole."""
    decks = ruleset.decks_for(players if players is not None else len(grids))
    problems: list[Problem] = []
    for name, grid in grids.items():
        problems += grid_card_problems(grid, ruleset, decks, f"{where}.{name}")
    if not problems:
        problems = table_card_problems(grids, ruleset, decks, where)
    if problems:
        raise DeckError(problems)
