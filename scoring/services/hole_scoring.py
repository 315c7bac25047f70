"""The one scoring pipeline of a hole, shared by the save and the page's live preview (no writes).

`score_hole_entries` turns each player's entry (card tokens or a typed total, blocks marked by hand)
into the engine's input, checks the cards against the packs of the whole table (a playoff hole is
dealt from the table's packs, not its contenders'; a half-filled preview counts the packs of the
table too), and scores the hole with the rules engine. The save scores every entry of the hole and
stores what this answers; the preview scores the entries filled in so far, so both show the same
scores for the same cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scoring.game_errors import GameError
from scoring.rules import (
    HoleScore,
    PlayerEntry,
    Ruleset,
    check_table_cards,
    format_grid,
    parse_grid,
    score_hole,
)
from scoring.rules.errors import Problem, RulesError

__all__ = ["EntryToScore", "ScoredHole", "score_hole_entries"]


@dataclass(frozen=True)
class EntryToScore:
    """One player's entry for a hole: card tokens (rows, top row first) or a typed total.

    `refused` holds the problems already found in the player's input (it could not be read as a
    grid or a total): they are reported in seat order with every other player's.
    """

    name: str
    cards: Sequence[Sequence[str]] | None = None
    total: int | None = None
    blocks_marked: int = 0
    refused: Sequence[Problem] = field(default=())


@dataclass(frozen=True)
class ScoredHole:
    """The engine's scores of a hole, and each player's grid as stored (None for a typed total)."""

    score: HoleScore
    cards: dict[str, list[list[str]] | None]


def score_hole_entries(
    entries: Sequence[EntryToScore], ruleset: Ruleset, *, ender: str | None, table_size: int
) -> ScoredHole:
    """Score a hole's entries with the engine, the cards checked against the packs of `table_size`
    players (the whole table, whoever plays this hole).

    Raises one error naming every entry that cannot be read (`where` is "entries.<name>..."): the
    engine's (`CardError`, `GridError`) when only cards are unreadable, else a `GameError`; then the
    engine's `RulesError` (bad grid shape, the joker rule, more cards than the packs hold),
    its paths named as in the input ("entries.ann[1][2]", not the engine's "grids.ann[1][2]").
    """
    problems: list[Problem] = []
    engine_entries: list[PlayerEntry] = []
    cards: dict[str, list[list[str]] | None] = {}
    refused_input = False
    unreadable_cards: type[RulesError] | None = None
    for entry in entries:
        if entry.refused:
            problems.extend(entry.refused)
            refused_input = True
            continue
        grid = None
        if entry.cards is not None:
            try:
                grid = parse_grid(entry.cards, where=f"entries.{entry.name}", jokers=ruleset.jokers > 0)
            except RulesError as error:
                problems.extend(error.problems)
                unreadable_cards = unreadable_cards or type(error)
                continue
        cards[entry.name] = format_grid(grid) if grid is not None else None
        engine_entries.append(
            PlayerEntry(name=entry.name, grid=grid, total=entry.total, blocks_marked=entry.blocks_marked)
        )
    if problems:
        # Only bad cards: the engine's error (a `CardError`...); any other unreadable input with them
        # makes it the game's.
        raise GameError(problems) if refused_input or unreadable_cards is None else unreadable_cards(problems)
    try:
        whole_table = len(engine_entries) == table_size
        if not whole_table:
            grids = {e.name: e.grid for e in engine_entries if e.grid is not None}
            check_table_cards(grids, ruleset, players=table_size)
        score = score_hole(engine_entries, ruleset, ender=ender, check_decks=whole_table)
    except RulesError as error:
        raise type(error)(_named_as_entries(error.problems)) from None
    return ScoredHole(score=score, cards=cards)


def _named_as_entries(problems: Iterable[Problem]) -> list[Problem]:
    """The engine's paths ("grids.ann[1][2]") named as in our input ("entries.ann[1][2]")."""
    return [
        Problem("entries" + p.where[len("grids") :], p.message) if p.where.startswith("grids") else p
        for p in problems
    ]
