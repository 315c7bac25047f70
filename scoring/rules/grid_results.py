"""What scoring a grid answers: the matches, blocks and card scores found, and the grid's total
with its cited explanation (frozen, JSON-able with `to_dict()`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card

Position = tuple[int, int]


def _pos_dict(position: Position) -> dict[str, int]:
    return {"row": position[0] + 1, "col": position[1] + 1}


def position_label(position: Position) -> str:
    """ "row 1, column 2": where a card sits, as the explanations say it."""
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
