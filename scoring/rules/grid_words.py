"""The words of a grid's breakdown (SPEC "How a grid scores"): where a match lies, the joker that
stands in, a block's sentence, a term of the sum, and which source gives a card its value."""

from __future__ import annotations

from .cards import JOKER
from .citations import cite
from .grid_results import Block, Position, position_label
from .presets import PRESETS
from .ruleset import Ruleset

_OFFICIAL_VALUES = {"A": 1, "2": -2, "J": 10, "Q": 10, "K": 0} | {str(n): n for n in range(3, 11)}


def term(points: int) -> str:
    """A number as a term of the explanation's sum: negatives in brackets."""
    return str(points) if points >= 0 else f"({points})"


def _article(rank: str) -> str:
    return f"an {rank}" if rank in ("A", "8") else f"a {rank}"


def value_rule(ruleset: Ruleset, rank: str) -> str:
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


def match_place(kind: str, positions: tuple[Position, ...]) -> str:
    """Where a match of `kind` on these cells lies: "Column 2", "Row 1, columns 1 and 2"..."""
    if kind == "column":
        return f"Column {positions[0][1] + 1}"
    if kind == "row" and len(positions) == 2:
        return f"Row {positions[0][0] + 1}, columns {positions[0][1] + 1} and {positions[1][1] + 1}"
    if kind == "row":
        return f"Row {positions[0][0] + 1}"
    if kind == "diagonal":
        return "Diagonal from " + position_label(positions[0])
    return "Cards at " + " and ".join(position_label(p) for p in positions)


def joker_clause(wild: tuple[Position, ...], rank: str) -> str:
    """The clause saying which joker stands in for which rank."""
    jokers = " and ".join(position_label(p) for p in wild)
    return f"; the joker at {jokers} stands in for {_article(rank)} ({cite('seed 002')})"


def block_sentence(block: Block) -> str:
    """The line explaining a block of four equal cards."""
    first, second = block.positions[0], block.positions[1]
    return (
        f"Columns {first[1] + 1} and {second[1] + 1}: "
        f"four {block.rank}s form a block scoring {block.points} in all, "
        f"and every other player adds {block.others_add} ({cite('seed 001')})."
    )
