"""Resolving a ruleset: a preset's name, or a preset with overrides, checked and turned into a
`Ruleset` (every problem named with where it is); resolved rulesets are interned."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from golfclub.core.limits import MAX_DECKS, VALUE_LIMIT

from .cards import RANKS, parse_rank
from .errors import Problem, RulesetError
from .presets import PRESETS
from .ruleset import (
    ENDER_PENALTY_KINDS,
    HOLE_ENDS,
    MATCH_LINES,
    NEGATIVE_MATCHES,
    SHAPES,
    TIEBREAKERS,
    BlockRule,
    EnderPenalty,
    Ruleset,
)

_SETTABLE = tuple(
    f.name for f in fields(Ruleset) if f.name not in ("preset", "source", "overrides") and f.init
)
_IGNORED_KEYS = ("source", "overrides")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    """How a wrong value reads in a message: the value itself where short, else its JSON type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return repr(value) if abs(value) < 10**9 else "a number"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "a list"
    return type(value).__name__


class _Checker:
    """Collects every problem of one override dict, converting the good values as it goes."""

    def __init__(self, base: Ruleset) -> None:
        self.base = base
        self.problems: list[Problem] = []

    def fail(self, name: str, message: str) -> None:
        self.problems.append(Problem(f"ruleset.{name}", message))

    def integer(self, name: str, value: Any, low: int, high: int, nullable: bool = False) -> Any:
        if value is None and nullable:
            return None
        if not _is_int(value):
            extra = " or null" if nullable else ""
            self.fail(name, f"{name} must be a whole number{extra}, not {_type_name(value)}.")
            return getattr(self.base, name)
        if not low <= value <= high:
            self.fail(name, f"{name} must be between {low} and {high}; got {value}.")
            return getattr(self.base, name)
        return value

    def boolean(self, name: str, value: Any) -> bool:
        if not isinstance(value, bool):
            self.fail(name, f"{name} must be true or false, not {_type_name(value)}.")
            return getattr(self.base, name)
        return value

    def choice(self, name: str, value: Any, choices: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in choices:
            options = ", ".join(f'"{c}"' for c in choices)
            self.fail(name, f"{name} must be one of {options}; got {_type_name(value)}.")
            return getattr(self.base, name)
        return value

    def decks(self, value: Any) -> int | str:
        if value == "auto" and isinstance(value, str):
            return "auto"
        if not _is_int(value) or not 1 <= value <= MAX_DECKS:
            self.fail(
                "decks",
                f'decks must be a whole number from 1 to {MAX_DECKS} or "auto"; got {_type_name(value)}.',
            )
            return self.base.decks
        return value

    def jokers(self, value: Any) -> int:
        if not _is_int(value) or value not in (0, 2):
            self.fail("jokers", f"jokers must be 0 or 2 (jokers per pack); got {_type_name(value)}.")
            return self.base.jokers
        return value

    def values(self, value: Any) -> tuple[tuple[str, int], ...]:
        if not isinstance(value, Mapping):
            self.fail("values", f"values must be an object of rank → points, not {_type_name(value)}.")
            return self.base.values
        merged = dict(self.base.values)
        for key, points in value.items():
            rank = parse_rank(key) if isinstance(key, str) else None
            if rank is None:
                self.fail(
                    f"values.{key}",
                    f'"{key}" in values is not a rank: use A, 2-10, J, Q, K or X (the joker).',
                )
                continue
            if not _is_int(points):
                self.fail(
                    f"values.{rank}", f"The value of {rank} must be a whole number, not {_type_name(points)}."
                )
                continue
            if not -VALUE_LIMIT <= points <= VALUE_LIMIT:
                self.fail(
                    f"values.{rank}",
                    f"The value of {rank} must be between -{VALUE_LIMIT} and {VALUE_LIMIT}; got {points}.",
                )
                continue
            merged[rank] = points
        return tuple((rank, merged[rank]) for rank in RANKS)

    def match_lines(self, value: Any) -> frozenset[str]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple, set, frozenset)):
            self.fail("match_lines", f"match_lines must be a list of line kinds, not {_type_name(value)}.")
            return self.base.match_lines
        lines = set(
            self.known_words(
                "match_lines",
                items,
                MATCH_LINES,
                'Unknown match line {}: use "columns", "rows", "diagonals" or "anywhere".',
                repeats_allowed=True,
            )
        )
        if "anywhere" in lines and len(lines) > 1:
            self.fail(
                "match_lines", '"anywhere" already covers every line: it cannot be combined with others.'
            )
            return self.base.match_lines
        return frozenset(lines)

    def block(self, value: Any) -> BlockRule | None:
        if value is None:
            return None
        if isinstance(value, BlockRule):
            return value
        if not isinstance(value, Mapping):
            self.fail(
                "four_of_a_kind_block",
                'four_of_a_kind_block must be null or {"points": N, "others_add": N}, '
                f"not {_type_name(value)}.",
            )
            return self.base.four_of_a_kind_block
        ok = True
        for key in value:
            if key not in ("points", "others_add"):
                self.fail(
                    f"four_of_a_kind_block.{key}", f'Unknown key "{key}": use "points" and "others_add".'
                )
                ok = False
        numbers: dict[str, int] = {}
        for key in ("points", "others_add"):
            number = value.get(key)
            if not _is_int(number) or not -VALUE_LIMIT <= number <= VALUE_LIMIT:
                self.fail(
                    f"four_of_a_kind_block.{key}",
                    f"four_of_a_kind_block.{key} must be a whole number "
                    f"from -{VALUE_LIMIT} to {VALUE_LIMIT}; "
                    f"got {_type_name(number)}.",
                )
                ok = False
            else:
                numbers[key] = number
        return BlockRule(numbers["points"], numbers["others_add"]) if ok else self.base.four_of_a_kind_block

    def ender(self, value: Any) -> EnderPenalty | None:
        if value is None:
            return None
        if isinstance(value, EnderPenalty):
            return value
        name = "ender_penalty"
        shapes = 'null, {"kind": "fixed", "points": N} or {"kind": "lowest_score"}'
        if not isinstance(value, Mapping):
            self.fail(name, f"ender_penalty must be {shapes}, not {_type_name(value)}.")
            return self.base.ender_penalty
        kind = value.get("kind")
        if kind not in ENDER_PENALTY_KINDS:
            self.fail(
                f"{name}.kind",
                f'ender_penalty.kind must be "fixed" or "lowest_score"; got {_type_name(kind)}.',
            )
            return self.base.ender_penalty
        extra = [key for key in value if key not in ("kind", "points")]
        for key in extra:
            self.fail(f"{name}.{key}", f'Unknown key "{key}" in ender_penalty: use {shapes}.')
        points = value.get("points")
        if kind == "fixed":
            if not _is_int(points) or not 0 <= points <= VALUE_LIMIT:
                self.fail(
                    f"{name}.points",
                    f"A fixed ender penalty needs points, a whole number from 0 to {VALUE_LIMIT}; "
                    f"got {_type_name(points)}.",
                )
                return self.base.ender_penalty
            return None if extra else EnderPenalty("fixed", points)
        if points is not None:
            self.fail(
                f"{name}.points", "A lowest_score ender penalty takes no points: it adds the lowest score."
            )
            return self.base.ender_penalty
        return None if extra else EnderPenalty("lowest_score")

    def tiebreakers(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            self.fail("tiebreakers", f"tiebreakers must be a list, not {_type_name(value)}.")
            return self.base.tiebreakers
        return tuple(
            self.known_words(
                "tiebreakers",
                value,
                TIEBREAKERS,
                'Unknown tiebreaker {}: use "countback", "most_holes_won", "sudden_death" or "shared".',
                repeated='Tiebreaker "{}" is listed twice.',
            )
        )

    def known_words(
        self,
        where: str,
        items: Any,
        allowed: tuple[str, ...],
        unknown: str,
        *,
        repeated: str = "",
        repeats_allowed: bool = False,
    ) -> list[str]:
        """The items that are allowed words, in order and once each; every other item named as a
        problem at `where` (`unknown` and `repeated` take the item in their `{}`)."""
        known: list[str] = []
        for item in items:
            if not isinstance(item, str) or item not in allowed:
                self.fail(where, unknown.format(_type_name(item)))
            elif item in known:
                if not repeats_allowed:
                    self.fail(where, repeated.format(item))
            else:
                known.append(item)
        return known


def _apply(base: Ruleset, overrides: Mapping[str, Any]) -> Ruleset:
    checker = _Checker(base)
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name in _IGNORED_KEYS:
            continue
        if name not in _SETTABLE:
            known = ", ".join(_SETTABLE)
            checker.problems.append(
                Problem(f"ruleset.{name}", f'Unknown ruleset parameter "{name}". Known parameters: {known}.')
            )
            continue
        match name:
            case "rows":
                changes[name] = checker.integer(name, value, 2, 3)
            case "cols":
                changes[name] = checker.integer(name, value, 2, 5)
            case "face_up_at_start":
                changes[name] = checker.integer(name, value, 0, 9)
            case "decks":
                changes[name] = checker.decks(value)
            case "min_decks":
                changes[name] = checker.integer(name, value, 1, MAX_DECKS)
            case "jokers":
                changes[name] = checker.jokers(value)
            case "values":
                changes[name] = checker.values(value)
            case "match_lines":
                changes[name] = checker.match_lines(value)
            case "negative_matches":
                changes[name] = checker.choice(name, value, NEGATIVE_MATCHES)
            case "jokers_wild" | "ender_penalty_on_tie":
                changes[name] = checker.boolean(name, value)
            case "four_of_a_kind_block":
                changes[name] = checker.block(value)
            case "ender_penalty":
                changes[name] = checker.ender(value)
            case "hole_end":
                changes[name] = checker.choice(name, value, HOLE_ENDS)
            case "holes":
                changes[name] = checker.integer(name, value, 1, 99, nullable=True)
            case "target_score":
                changes[name] = checker.integer(name, value, 1, 10000, nullable=True)
            case "tiebreakers":
                changes[name] = checker.tiebreakers(value)
    result = replace(base, **changes)
    _check_combination(result, changes, checker)
    if checker.problems:
        raise RulesetError(checker.problems)
    differing = tuple(name for name in _SETTABLE if getattr(result, name) != getattr(base, name))
    return replace(result, overrides=differing)


def _check_combination(ruleset: Ruleset, changes: Mapping[str, Any], checker: _Checker) -> None:
    """Checks across parameters: the shape, diagonals, blocks and face-up count must fit together."""
    if (ruleset.rows, ruleset.cols) not in SHAPES:
        name = "cols" if "cols" in changes else "rows"
        checker.fail(
            name,
            f"Grid shape {ruleset.shape} is not supported: use 2x2, 2x3, 2x4, 2x5 or 3x3 (rows x columns).",
        )
        return
    if "diagonals" in ruleset.match_lines and ruleset.shape not in ("2x2", "3x3"):
        checker.fail(
            "match_lines", f"Diagonal matches exist only on 2x2 and 3x3 grids, not on {ruleset.shape}."
        )
    if ruleset.four_of_a_kind_block is not None and ruleset.rows != 2:
        checker.fail(
            "four_of_a_kind_block", "A four-of-a-kind block fills two columns of a 2-row grid: not on 3x3."
        )
    if ruleset.face_up_at_start > ruleset.rows * ruleset.cols:
        checker.fail(
            "face_up_at_start",
            f"face_up_at_start ({ruleset.face_up_at_start}) is more than the {ruleset.rows * ruleset.cols} "
            f"cards of a {ruleset.shape} grid.",
        )


def resolve_ruleset(spec: str | Mapping[str, Any] | Ruleset) -> Ruleset:
    """A Ruleset from a preset name, {"preset": name, ...overrides}, a to_dict() output or a Ruleset.

    Raises RulesetError naming every bad parameter (where="ruleset.<parameter>")."""
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        return _preset(spec.strip(), "ruleset")
    if not isinstance(spec, Mapping):
        raise RulesetError(
            Problem(
                "ruleset",
                f'A ruleset is a preset name or an object {{"preset": ...}}, not {_type_name(spec)}.',
            )
        )
    name = spec.get("preset", "official")
    if not isinstance(name, str):
        raise RulesetError(
            Problem("ruleset.preset", f"preset must be a preset name, not {_type_name(name)}.")
        )
    base = _preset(name.strip(), "ruleset.preset")
    overrides = {key: value for key, value in spec.items() if key != "preset"}
    return _intern(_apply(base, overrides)) if overrides else base


# Equal rulesets resolved again and again (a game's frozen ruleset, read back on every request) share
# one instance, and with it the engine compiled for it.
_INTERNED: dict[Ruleset, Ruleset] = {ruleset: ruleset for ruleset in PRESETS.values()}
_INTERN_LIMIT = 512


def _intern(ruleset: Ruleset) -> Ruleset:
    known = _INTERNED.get(ruleset)  # equality covers preset, source and overrides too
    if known is not None:
        return known
    if len(_INTERNED) >= _INTERN_LIMIT:
        _INTERNED.clear()
        _INTERNED.update({preset: preset for preset in PRESETS.values()})
    _INTERNED[ruleset] = ruleset
    return ruleset


def _preset(name: str, where: str) -> Ruleset:
    try:
        return PRESETS[name.lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise RulesetError(Problem(where, f'Unknown ruleset preset "{name}". Presets: {known}.')) from None
