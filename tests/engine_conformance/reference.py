"""The Python side of the phone engine's conformance test: a case (a function name and JSON arguments)
run through the real engine `scoring.rules`, answered as JSON the way the API serialises it.

A case's answer is {"ok": <result>} or {"error": {"kind": <RulesError class>, "problems": [...]}}; the
node test (tests/js/engine.test.js) makes the same call on `GolfEngine` and compares. `js_order` puts
an object's keys in the order JavaScript keeps them (whole-number keys first), so that Python sees the
arguments exactly as the phone will after JSON.parse.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict
from types import SimpleNamespace
from typing import Any

from scoring.rules import (
    PlayedHole,
    PlayerEntry,
    RulesError,
    Ruleset,
    check_grid_cards,
    check_table_cards,
    compute_match_state,
    dealer_for_hole,
    first_player_for_hole,
    format_grid,
    grid_total,
    holes_won,
    low_scorers,
    match_over,
    parse_card,
    parse_grid,
    rank_players,
    resolve_ruleset,
    score_grid,
    score_hole,
)
from scoring.rules.match_state import MatchProgress
from scoring.rules.score_range import grid_score_range

_INDEX_KEY = re.compile(r"0|[1-9][0-9]*")


def _is_index(key: str) -> bool:
    """True for a key JavaScript treats as an array index (its objects list those first, ascending)."""
    return bool(_INDEX_KEY.fullmatch(key)) and int(key) < 2**32 - 1


def _js_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    index = sorted(((k, v) for k, v in pairs if _is_index(k)), key=lambda kv: int(kv[0]))
    return dict(index + [(k, v) for k, v in pairs if not _is_index(k)]) if index else dict(pairs)


_INDEX_KEY_IN_JSON = re.compile(r'"(?:0|[1-9][0-9]*)":')


def js_order_text(value: Any) -> tuple[Any, str]:
    """`value` as the phone gets it from JSON.parse (a JSON copy with every object's keys in
    JavaScript's order: whole-number keys first, ascending), and its JSON text."""
    text = json.dumps(value, ensure_ascii=False)
    if not _INDEX_KEY_IN_JSON.search(text):
        return json.loads(text), text
    ordered = json.loads(text, object_pairs_hook=_js_pairs)
    return ordered, json.dumps(ordered, ensure_ascii=False)


def js_order(value: Any) -> Any:
    """`value` as the phone gets it from JSON.parse (see js_order_text)."""
    return js_order_text(value)[0]


_RESOLVED: dict[str, Ruleset] = {}


def ruleset(spec: Any) -> Ruleset:
    """resolve_ruleset(spec), resolved once per spec (the resolve_ruleset cases call it each time)."""
    key = json.dumps(spec)
    found = _RESOLVED.get(key)
    if found is None:
        found = _RESOLVED[key] = resolve_ruleset(spec)
    return found


def entry(value: Any) -> Any:
    """A list entry {name, grid?, total?, blocks_marked?} as the engine's PlayerEntry (others as given)."""
    if not isinstance(value, Mapping):
        return value
    return PlayerEntry(
        name=value.get("name"),
        grid=value.get("grid"),
        total=value.get("total"),
        blocks_marked=value.get("blocks_marked", 0),
    )


def _score_hole(a: Mapping[str, Any]) -> Any:
    """score_hole; a mapping with `blocks_marked` {name: n} (the phone's scoreHole takes both) is the
    list of PlayerEntry it stands for."""
    entries, marked = a["entries"], a.get("blocks_marked")
    if isinstance(entries, list):
        entries = [entry(item) for item in entries]
    elif marked:
        entries = [
            PlayerEntry(name, total=value, blocks_marked=marked.get(name, 0))
            if isinstance(value, int) and not isinstance(value, bool)
            else PlayerEntry(name, grid=value, blocks_marked=marked.get(name, 0))
            for name, value in entries.items()
        ]
    hole = score_hole(entries, ruleset(a["ruleset"]), a.get("ender"), a.get("check_decks", True))
    return hole.to_dict()


def _range(a: Mapping[str, Any]) -> Any:
    span = grid_score_range(ruleset(a["ruleset"]), a["decks"])
    return {
        "low": span.low,
        "high": span.high,
        "low_grid": span.low_grid,
        "high_grid": span.high_grid,
        "exact": span.exact,
    }


def played_holes(holes: list[Mapping[str, Any]]) -> list[PlayedHole]:
    """JSON holes {number, scores, playoff?} as the engine's PlayedHole."""
    return [PlayedHole(h["number"], h["scores"], bool(h.get("playoff", False))) for h in holes]


def progress(state: MatchProgress) -> dict[str, Any]:
    """compute_match_state's answer as JSON, under the names the phone's matchState uses."""
    return {
        "player_totals": {name: asdict(line) for name, line in state.totals.items()},
        "regular_holes": state.regular_holes,
        "playoff_holes": state.playoff_holes,
        "match_over": state.over,
        "reason": state.reason,
        "outcome": state.outcome.to_dict() if state.outcome else None,
        "status": state.status,
        "winners": list(state.winners),
        "contenders": list(state.contenders),
        "hole_scores": {name: list(s) for name, s in state.hole_scores.items()},
        "playoff_scores": {name: list(s) for name, s in state.playoff_scores.items()},
        "playoff_stale": state.playoff_stale,
        "ended_early": state.ended_early,
    }


def _match_state(a: Mapping[str, Any]) -> Any:
    """compute_match_state plus what the scoreboard derives from it (selectors/scoreboard_lines.py)."""
    from scoring.selectors.scoreboard_lines import _next_hole, _ranks  # Django's: imported when set up

    rules, names, first_dealer = ruleset(a["ruleset"]), list(a["players"]), a["first_dealer"]
    holes = played_holes(a["holes"])
    state = compute_match_state(rules, names, holes, ended_early=a.get("ended_early", False))
    answer = progress(state)
    totals = {name: state.totals[name].total for name in names}
    played = state.regular_holes > 0
    best = min(totals.values()) if totals and played else None
    ranks = _ranks(totals, state.outcome)
    seats = [SimpleNamespace(seat=i, name=name) for i, name in enumerate(names)]
    nxt = _next_hole(SimpleNamespace(first_dealer=first_dealer), seats, state)  # type: ignore[arg-type]

    def deal(h: PlayedHole) -> dict[str, Any]:
        number = state.regular_holes + h.number if h.playoff else h.number
        lows = low_scorers(h.scores)
        return {
            "number": h.number,
            "playoff": h.playoff,
            "low": [name for name in names if name in lows],
            "dealer_seat": dealer_for_hole(first_dealer, number, len(names)),
            "first_player_seat": first_player_for_hole(first_dealer, number, len(names)),
        }

    cumulative = {}
    for name in names:
        running, series = 0, []
        for score in state.hole_scores.get(name, ()):
            running += score
            series.append(running)
        cumulative[name] = series
    return answer | {
        "totals": totals,
        "leaders": [name for name, total in totals.items() if best is not None and total == best],
        "ranks": {name: ranks[name] if played else 1 for name in names},
        "cumulative": cumulative,
        "holes_won": holes_won(holes, names),
        "shared_victory": state.status == "finished" and len(state.winners) > 1,
        "holes_left": max(rules.holes - state.regular_holes, 0) if rules.holes else None,
        "holes": [deal(h) for h in sorted(holes, key=lambda h: (h.playoff, h.number))],
        "next_hole": asdict(nxt) if nxt else None,
    }


def _compute_match_state(a: Mapping[str, Any]) -> Any:
    state = compute_match_state(
        ruleset(a["ruleset"]), a["players"], played_holes(a["holes"]), ended_early=a.get("ended_early", False)
    )
    return progress(state)


CALLS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "resolve_ruleset": lambda a: resolve_ruleset(a["spec"]).to_dict(),
    "parse_card": lambda a: str(parse_card(a["token"], a.get("where", "card"), a.get("jokers", True))),
    "parse_grid": lambda a: format_grid(parse_grid(a["rows"], a.get("where", "grid"), a.get("jokers", True))),
    "score_grid": lambda a: score_grid(a["grid"], ruleset(a["ruleset"]), a.get("players")).to_dict(),
    "grid_total": lambda a: grid_total(a["grid"], ruleset(a["ruleset"])),
    "score_hole": _score_hole,
    "check_grid_cards": lambda a: check_grid_cards(
        parse_grid(a["grid"]), ruleset(a["ruleset"]), a.get("players"), a.get("where", "grid")
    ),
    "check_table_cards": lambda a: check_table_cards(
        {name: parse_grid(grid) for name, grid in a["grids"].items()},
        ruleset(a["ruleset"]),
        a.get("players"),
        a.get("where", "grids"),
    ),
    "match_state": _match_state,
    "compute_match_state": _compute_match_state,
    "rank_players": lambda a: rank_players(
        a["hole_scores"], a["tiebreakers"], a.get("playoff_scores"), a.get("penalties")
    ).to_dict(),
    "match_over": lambda a: list(match_over(ruleset(a["ruleset"]), a["holes_played"], a["totals"])),
    "deal": lambda a: [
        dealer_for_hole(a["first_dealer"], a["hole_number"], a["players"]),
        first_player_for_hole(a["first_dealer"], a["hole_number"], a["players"]),
    ],
    "score_range": _range,
}


def answer(fn: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
    """The Python engine's answer to one case; None when it raised something other than a RulesError
    (a Python-only failure such as a TypeError: no answer to compare)."""
    try:
        return {"ok": CALLS[fn](args)}
    except RulesError as error:
        return {"error": {"kind": type(error).__name__, "problems": [p.as_dict() for p in error.problems]}}
    except (TypeError, AttributeError, KeyError, IndexError):
        return None
