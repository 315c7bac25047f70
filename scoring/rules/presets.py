"""The twelve presets of the SPEC, each with the source document it follows."""

from __future__ import annotations

from dataclasses import replace

from .cards import RANKS
from .ruleset import Ruleset


def _values(**changes: int) -> tuple[tuple[str, int], ...]:
    base = {"A": 1} | {str(n): n for n in range(2, 11)} | {"J": 10, "Q": 10, "K": 0, "X": -2}
    base |= changes
    return tuple((rank, base[rank]) for rank in RANKS)


_OFFICIAL_TIEBREAKERS = ("countback", "most_holes_won", "sudden_death")
_HOME_TIEBREAKERS = ("countback", "shared")

_OFFICIAL = Ruleset(
    preset="official",
    source="000 §2, §5.1",
    rows=2,
    cols=3,
    face_up_at_start=2,
    decks=1,
    min_decks=1,
    jokers=0,
    values=_values(**{"2": -2}),
    match_lines=frozenset({"columns"}),
    negative_matches="keep",
    jokers_wild=False,
    four_of_a_kind_block=None,
    ender_penalty=None,
    ender_penalty_on_tie=False,
    hole_end="all_face_up",
    holes=9,
    target_score=None,
    tiebreakers=_OFFICIAL_TIEBREAKERS,
)
_BASIC = replace(
    _OFFICIAL,
    preset="basic",
    source="001, 002",
    decks="auto",
    values=_values(),
    tiebreakers=_HOME_TIEBREAKERS,
)

PRESETS: dict[str, Ruleset] = {
    ruleset.preset: ruleset
    for ruleset in (
        _OFFICIAL,
        replace(_OFFICIAL, preset="official-quick", source="000 §5.2", cols=2, holes=6),
        replace(_OFFICIAL, preset="official-extended", source="000 §5.3", holes=18),
        replace(_OFFICIAL, preset="official-jokers", source="000 §5.4", values=_values(), jokers=2),
        replace(
            _BASIC,
            preset="jokers-54",
            source="004",
            jokers=2,
            negative_matches="zero",
            tiebreakers=("countback", "sudden_death"),
        ),
        _BASIC,
        replace(_BASIC, preset="harder", source="001 scoring guide", values=_values(J=11, Q=12, K=13)),
        replace(
            _BASIC,
            preset="four-card",
            source="001 part 2",
            cols=2,
            match_lines=frozenset({"columns", "rows"}),
            hole_end="knock",
        ),
        replace(_BASIC, preset="eight-card", source="001 part 4, 002", cols=4, min_decks=2),
        replace(_BASIC, preset="ten-card", source="001 part 4", cols=5, min_decks=2),
        replace(
            _BASIC,
            preset="nine-card",
            source="001 part 4, 002",
            rows=3,
            cols=3,
            face_up_at_start=3,
            min_decks=2,
            match_lines=frozenset({"columns", "rows"}),
        ),
        replace(_BASIC, preset="anywhere-pairs", source="001 part 4", match_lines=frozenset({"anywhere"})),
    )
}
