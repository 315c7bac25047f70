"""A pytest plugin that records every call the engine's own tests (tests/rules/) make to the engine's
public functions, with its answer, as phone engine conformance cases.

`pytest tests/rules -p tests.engine_conformance.recorder` with ENGINE_RECORD_FILE=<path.jsonl>: the
public functions of `scoring.rules` (and of the modules the tests import them from) are wrapped
before the test modules are imported; each outermost call whose arguments are plain JSON once
converted (grids of `Card`s as tokens, `Ruleset`s as `to_dict()`, `PlayerEntry`s and `PlayedHole`s
as objects) is written as {"id", "fn", "args", "expect"} like tests/engine_conformance/cases.py.
Calls made with arguments JSON cannot carry the same way (whole floats such as 2.0, numbers beyond
2**53, non-JSON objects) and repeated calls are counted, not recorded; a test's calls past
PER_TEST_LIMIT are not looked at. Objects are recorded with their keys in JavaScript's order
(whole-number keys such as "2" first), the order the phone reads them in, and the Python answers
that input.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from scoring.rules import Card, PlayedHole, PlayerEntry, Ruleset
from scoring.rules import match as match_module
from scoring.rules import score_range as range_module

_RECORDED: list[dict[str, Any]] = []
_LEFT_OUT: Counter[str] = Counter()
_REORDERED: Counter[str] = Counter()  # recorded with the keys in JavaScript's order
_DEPTH = [0]
_SEEN: set[str] = set()
_PER_TEST = [0]
#: Calls recorded per test at most (a property test may make thousands; a fixed case makes a few).
PER_TEST_LIMIT = 200


class _NotJson(Exception):
    """An argument JSON cannot carry to the phone unchanged."""


def _json(value: Any) -> Any:
    """`value` as the JSON the phone would get, or _NotJson."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        if abs(value) > 2**53:
            raise _NotJson
        return value
    if isinstance(value, float):
        if value.is_integer() or value != value or value in (float("inf"), float("-inf")):
            raise _NotJson
        return value
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Ruleset):
        return value.to_dict()
    if isinstance(value, PlayerEntry):
        return {
            "name": _json(value.name),
            "grid": _json(value.grid),
            "total": _json(value.total),
            "blocks_marked": _json(value.blocks_marked),
        }
    if isinstance(value, PlayedHole):
        if value.table != "":
            raise _NotJson
        return {"number": _json(value.number), "scores": _json(value.scores), "playoff": value.playoff}
    if isinstance(value, Mapping):
        if not all(isinstance(k, str) for k in value):
            raise _NotJson
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    raise _NotJson


def _entry_list(entries: Any) -> Any:
    """score_hole's entries: a mapping holding PlayerEntry objects becomes the list form (each entry
    keeps its own name, as the engine reads it); any other mapping or list as given."""
    if not isinstance(entries, Mapping) or not any(isinstance(v, PlayerEntry) for v in entries.values()):
        return entries
    listed: list[Any] = []
    for name, value in entries.items():
        if isinstance(value, PlayerEntry):
            listed.append(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            listed.append(PlayerEntry(str(name), total=value))
        else:
            listed.append(PlayerEntry(str(name), grid=value))
    return listed


def _args(fn: str, bound: Mapping[str, Any]) -> dict[str, Any]:
    """The case arguments of one call, under the names of tests/engine_conformance/reference.py."""
    a = {name: _json(value) for name, value in bound.items()}
    renames = {
        "resolve_ruleset": {"spec": "spec"},
        "parse_grid": {"rows": "rows", "where": "where", "jokers": "jokers"},
        "score_hole": {
            "entries": "entries",
            "ruleset": "ruleset",
            "ender": "ender",
            "check_decks": "check_decks",
        },
        "grid_score_range": {"ruleset": "ruleset", "decks": "decks"},
    }.get(fn)
    if renames is None:
        return a
    return {renames[k]: v for k, v in a.items()}


# Each public function: the case it becomes ("fn" of reference.CALLS) and how its arguments map.
_CASES: dict[str, Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "resolve_ruleset": lambda a: ("resolve_ruleset", {"spec": a["spec"]}),
    "parse_card": lambda a: ("parse_card", a),
    "parse_grid": lambda a: ("parse_grid", a),
    "score_grid": lambda a: ("score_grid", a),
    "grid_total": lambda a: ("grid_total", a),
    "score_hole": lambda a: ("score_hole", a),
    "check_grid_cards": lambda a: ("check_grid_cards", a),
    "check_table_cards": lambda a: ("check_table_cards", a),
    "dealer_for_hole": lambda a: (
        "deal",
        {"first_dealer": a["first_dealer"], "hole_number": a["hole_number"], "players": a["players"]},
    ),
    "first_player_for_hole": lambda a: (
        "deal",
        {"first_dealer": a["first_dealer"], "hole_number": a["hole_number"], "players": a["players"]},
    ),
    "match_over": lambda a: (
        "match_over",
        {"ruleset": a["ruleset"], "holes_played": a["holes_played"], "totals": a["totals"]},
    ),
    "rank_players": lambda a: ("rank_players", a),
    "compute_match_state": lambda a: ("compute_match_state", a),
    "grid_score_range": lambda a: ("score_range", a),
}


def _record(name: str, function: Callable[..., Any], call: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    from .reference import answer, js_order  # imported once the engine's functions are wrapped

    try:
        bound = inspect.signature(function).bind(*call, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        if name == "score_hole":
            arguments["entries"] = _entry_list(arguments["entries"])
        fn, args = _CASES[name](_args(name, arguments))
    except (_NotJson, TypeError, KeyError):
        _LEFT_OUT[f"{name}: not plain JSON"] += 1
        return
    text = json.dumps(args)
    phone = js_order(args)  # what the phone gets: keys such as "2" or "12" come first
    key = fn + json.dumps(phone)
    if key in _SEEN:
        _LEFT_OUT[f"{name}: seen before"] += 1
        return
    _SEEN.add(key)
    _PER_TEST[0] += 1
    if json.dumps(phone) != text:
        _REORDERED[name] += 1
    args = phone
    expect = answer(fn, args)
    if expect is None:
        _LEFT_OUT[f"{name}: no RulesError answer"] += 1
        return
    case = {"id": f"rules-{len(_RECORDED)}", "fn": fn, "args": args, "expect": expect}
    if fn == "score_range" and "ok" in expect and not expect["ok"]["exact"]:
        # The search ran out of the clock some of these tests set: the phone has none, so its range
        # need only lie within this bound.
        case["range_bound_only"] = True
    _RECORDED.append(case)


def _wrap(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def recording(*call: Any, **kwargs: Any) -> Any:
        if _DEPTH[0] or _PER_TEST[0] >= PER_TEST_LIMIT:
            return function(*call, **kwargs)
        _DEPTH[0] += 1
        try:
            _record(name, function, call, kwargs)
        finally:
            _DEPTH[0] -= 1
        return function(*call, **kwargs)

    return recording


def pytest_configure(config: pytest.Config) -> None:
    """Wrap the engine's public functions before any test module imports them."""
    import scoring.rules as rules

    from . import reference  # noqa: F401 - it keeps the engine's own functions, unwrapped

    for name in _CASES:
        if name == "grid_score_range":
            range_module.grid_score_range = _wrap(name, range_module.grid_score_range)
            continue
        wrapped = _wrap(name, getattr(rules, name))
        setattr(rules, name, wrapped)
        if name == "rank_players":
            match_module.rank_players = wrapped


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Each test records up to PER_TEST_LIMIT calls."""
    _PER_TEST[0] = 0


def pytest_unconfigure(config: pytest.Config) -> None:
    """Write the recorded cases and say how many were left out, and why."""
    path = os.environ.get("ENGINE_RECORD_FILE")
    if not path:
        return
    with open(path, "w", encoding="utf-8") as out:
        for case in _RECORDED:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    with open(path + ".left-out.json", "w", encoding="utf-8") as out:
        json.dump({"recorded": len(_RECORDED), "left_out": _LEFT_OUT, "reordered": _REORDERED}, out)
