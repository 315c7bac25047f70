"""Rulesets: the SPEC's parameters, the twelve presets and validation of overrides."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

# The engine's limits are defined with every other one in golfclub.core.limits (pure Python too).
from golfclub.core.limits import MAX_DECKS as MAX_DECKS
from golfclub.core.limits import VALUE_LIMIT as VALUE_LIMIT

SHAPES: tuple[tuple[int, int], ...] = ((2, 2), (2, 3), (2, 4), (2, 5), (3, 3))
MATCH_LINES: tuple[str, ...] = ("columns", "rows", "diagonals", "anywhere")
NEGATIVE_MATCHES: tuple[str, ...] = ("keep", "zero")
HOLE_ENDS: tuple[str, ...] = ("all_face_up", "knock", "either")
TIEBREAKERS: tuple[str, ...] = ("countback", "most_holes_won", "sudden_death", "shared")
ENDER_PENALTY_KINDS: tuple[str, ...] = ("fixed", "lowest_score")


@dataclass(frozen=True, slots=True)
class BlockRule:
    """Four equal ranks filling two adjacent columns of a 2-row grid (seed 001)."""

    points: int
    others_add: int

    def to_dict(self) -> dict[str, int]:
        """{"points": ..., "others_add": ...}."""
        return {"points": self.points, "others_add": self.others_add}


@dataclass(frozen=True, slots=True)
class EnderPenalty:
    """Penalty for the player who ended the hole: "fixed" adds `points`, "lowest_score" the lowest score."""

    kind: str
    points: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """{"kind": "fixed", "points": N} or {"kind": "lowest_score"}."""
        if self.kind == "fixed":
            return {"kind": self.kind, "points": self.points}
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A named preset plus overrides, every parameter resolved. Frozen and hashable."""

    preset: str
    source: str
    rows: int
    cols: int
    face_up_at_start: int
    decks: int | str
    min_decks: int
    jokers: int
    values: tuple[tuple[str, int], ...]
    match_lines: frozenset[str]
    negative_matches: str
    jokers_wild: bool
    four_of_a_kind_block: BlockRule | None
    ender_penalty: EnderPenalty | None
    ender_penalty_on_tie: bool
    hole_end: str
    holes: int | None
    target_score: int | None
    tiebreakers: tuple[str, ...]
    overrides: tuple[str, ...] = ()
    _value_map: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # Per-ruleset memo for the engine (compiled lines, caches): not a parameter, never compared.
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_value_map", dict(self.values))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickle and copy by parameters only: the engine's memo is rebuilt when next needed."""
        return (Ruleset, tuple(getattr(self, f.name) for f in fields(self) if f.init))

    def value_of(self, rank: str) -> int:
        """Points of one card of `rank` ("X" is the joker)."""
        return self._value_map[rank]

    @property
    def shape(self) -> str:
        """The grid shape as "2x3"."""
        return f"{self.rows}x{self.cols}"

    def decks_for(self, players: int) -> int:
        """Packs in play for `players` players: a number, or "auto" = one pack per 4 players started
        (2-3 → 1, 4-7 → 2, 8-11 → 3, seed 002), never fewer than `min_decks`."""
        if isinstance(self.decks, int):
            return self.decks
        return max(self.min_decks, max(players, 0) // 4 + 1)

    def to_dict(self) -> dict[str, Any]:
        """Every parameter resolved, JSON-able, plus preset, source and overrides.

        resolve_ruleset() reads it back to an equal Ruleset."""
        return {
            "preset": self.preset,
            "source": self.source,
            "rows": self.rows,
            "cols": self.cols,
            "face_up_at_start": self.face_up_at_start,
            "decks": self.decks,
            "min_decks": self.min_decks,
            "jokers": self.jokers,
            "values": dict(self.values),
            "match_lines": [line for line in MATCH_LINES if line in self.match_lines],
            "negative_matches": self.negative_matches,
            "jokers_wild": self.jokers_wild,
            "four_of_a_kind_block": self.four_of_a_kind_block.to_dict()
            if self.four_of_a_kind_block
            else None,
            "ender_penalty": self.ender_penalty.to_dict() if self.ender_penalty else None,
            "ender_penalty_on_tie": self.ender_penalty_on_tie,
            "hole_end": self.hole_end,
            "holes": self.holes,
            "target_score": self.target_score,
            "tiebreakers": list(self.tiebreakers),
            "overrides": list(self.overrides),
        }


@dataclass(frozen=True, slots=True)
class ParameterInfo:
    """One ruleset parameter for forms and docs: its name, the values it takes and what it means."""

    name: str
    values: str
    meaning: str
    choices: tuple[str, ...] = ()


PARAMETERS: dict[str, ParameterInfo] = {
    info.name: info
    for info in (
        ParameterInfo("rows", "2 or 3", "rows of the grid (with cols: 2x2, 2x3, 2x4, 2x5 or 3x3)"),
        ParameterInfo("cols", "2 to 5", "columns of the grid"),
        ParameterInfo("face_up_at_start", "0 to the grid size", "cards flipped (or peeked) before play"),
        ParameterInfo(
            "decks",
            '1 to 8, or "auto"',
            "packs shuffled together; auto = one per 4 players (2-3 → 1, 4-7 → 2)",
        ),
        ParameterInfo("min_decks", "1 to 8", 'fewest packs when decks is "auto" (2 for the 2-pack presets)'),
        ParameterInfo("jokers", "0 or 2", "jokers added to each pack", ("0", "2")),
        ParameterInfo("values", "rank → points", "card points; ranks not listed keep the preset's"),
        ParameterInfo(
            "match_lines",
            'any of "columns", "rows", "diagonals"; or "anywhere" alone; or none',
            "which lines of equal rank cancel",
            MATCH_LINES,
        ),
        ParameterInfo(
            "negative_matches",
            '"keep" or "zero"',
            "matched negative cards keep their points (pair of 2s = -4) or score 0",
            NEGATIVE_MATCHES,
        ),
        ParameterInfo("jokers_wild", "true or false", "a joker completes any match in its line"),
        ParameterInfo(
            "four_of_a_kind_block",
            'null or {"points": N, "others_add": N}',
            "four equal ranks in two adjacent columns score points and add others_add to every opponent",
        ),
        ParameterInfo(
            "ender_penalty",
            'null, {"kind": "fixed", "points": N} or {"kind": "lowest_score"}',
            "penalty for the player who ended the hole when another player scored lower",
        ),
        ParameterInfo(
            "ender_penalty_on_tie", "true or false", "also penalise an ender who only ties for lowest"
        ),
        ParameterInfo("hole_end", '"all_face_up", "knock" or "either"', "how a hole may end", HOLE_ENDS),
        ParameterInfo("holes", "1 to 99, or null", "match length in holes"),
        ParameterInfo(
            "target_score", "1 to 10000, or null", "the match ends after a hole in which anyone reaches it"
        ),
        ParameterInfo(
            "tiebreakers",
            'ordered list of "countback", "most_holes_won", "sudden_death", "shared"',
            "how a tie for first place is broken (rule 4.2)",
            TIEBREAKERS,
        ),
    )
}
