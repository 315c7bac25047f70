"""Generate the phone engine's conformance cases from the Python engine, at test time.

`generate(out_dir, seed, total)` writes JSON-lines files (10,000 cases each) of
{"id", "fn", "args", "expect"}: `expect` is what `scoring.rules` answers for `fn(args)`
(tests/engine_conformance/reference.py). Random rulesets (every preset and random overrides), grids
(with their matches, blocks and explanations), holes (typed totals and grids, blocks marked, enders,
deck refusals), whole matches (ties, playoffs, ended early), and refusals of every kind. Run alone:
`python -m tests.engine_conformance OUT_DIR [SEED] [TOTAL]`.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any
from unittest.mock import patch

from scoring.rules import PRESETS, Ruleset, grid_total, resolve_ruleset, score_range
from scoring.rules.score_range import grid_score_range

from .grids import NAMES, broken_grid, contenders_playoff, random_grid, random_match, token
from .reference import answer, js_order, js_order_text
from .rulesets import bad_spec, ruleset_pool

DEFAULT_SEED = 20261127
PER_FILE = 10_000
# House rulesets whose score range typed totals need: few, and quick ones (a range search of some
# house rules takes the engine 0.4 s, and more without its clock), plus a few slow ones whose range
# is checked alone.
QUICK_RANGES = 12
SLOW_RANGES = 3
PROBE_STEPS = 4000


class CaseWriter:
    """Runs each case through the Python engine and writes it with the answer."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.count = 0
        self.skipped = 0
        self.by_kind: Counter[str] = Counter()
        self.lines: list[str] = []
        self.files = 0

    def add(self, fn: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Answer `fn(args)` with the Python engine and keep the case; None when it has no answer."""
        args, text = js_order_text(args)
        expect = answer(fn, args)
        if expect is None:
            self.skipped += 1
            return None
        self.by_kind[f"{fn}:{'ok' if 'ok' in expect else expect['error']['kind']}"] += 1
        done = json.dumps(expect, ensure_ascii=False)
        self.lines.append(f'{{"id":{self.count},"fn":"{fn}","args":{text},"expect":{done}}}')
        self.count += 1
        if len(self.lines) >= PER_FILE:
            self.flush()
        return expect

    def flush(self) -> None:
        """Write the cases kept so far to the next file."""
        if self.lines:
            path = self.out_dir / f"cases-{self.files:03d}.jsonl"
            path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
            self.files += 1
            self.lines = []


class Generator:
    """The random cases of one seed."""

    def __init__(self, writer: CaseWriter, seed: int) -> None:
        self.rng = random.Random(seed)
        self.out = writer
        self.pool, self.refused = ruleset_pool(self.rng, 400)
        self.rulesets = [resolve_ruleset(spec) for spec in self.pool]
        quick, slow = _range_speeds(self.rulesets[len(PRESETS) :])
        self.typed_pool = list(range(len(PRESETS))) + [len(PRESETS) + i for i in quick[:QUICK_RANGES]]
        self.slow_pool = [len(PRESETS) + i for i in slow[:SLOW_RANGES]]

    def pick(self, typed: bool = False) -> tuple[Any, Any]:
        """A ruleset of the pool: (what the case sends, the resolved ruleset). Sometimes the resolved
        to_dict() itself, as the phone keeps it."""
        index = self.rng.choice(self.typed_pool) if typed else self.rng.randrange(len(self.pool))
        ruleset = self.rulesets[index]
        return (ruleset.to_dict() if self.rng.random() < 0.1 else self.pool[index]), ruleset

    def grid_case(self) -> None:
        spec, ruleset = self.pick()
        grid = random_grid(self.rng, ruleset)
        if self.rng.random() < 0.06:
            self.out.add("grid_total", {"ruleset": spec, "grid": grid})
            return
        players = self.rng.choice([None, None, 2, 3, 4, 5, 8, 12])
        self.out.add("score_grid", {"ruleset": spec, "grid": grid, "players": players})

    def typed_totals(self, ruleset: Any, decks: int) -> list[int]:
        """The totals one hole's typed entries draw from: two or three, so that the ender often ties
        with the lowest; anywhere around the range when it is exact (refusals too), else real scores
        (then the range is the per-cell bound, where a typed total would be refused for its own reason)."""
        span = grid_score_range(ruleset, decks)
        if span.exact:
            return [self.rng.randint(span.low - 2, span.high + 2) for _ in range(self.rng.choice([2, 3]))]
        return [grid_total(span.low_grid, ruleset), grid_total(span.high_grid, ruleset)]

    def hole_entry(self, name: str, ruleset: Any, totals: list[int]) -> dict[str, Any]:
        rng = self.rng
        if totals and rng.random() < 0.5:
            item: dict[str, Any] = {"name": name, "total": rng.choice(totals)}
            if ruleset.four_of_a_kind_block is not None and rng.random() < 0.4:
                item["blocks_marked"] = rng.choice([0, 1, 1, ruleset.cols // 2, ruleset.cols // 2 + 1])
            return item
        grid = random_grid(rng, ruleset, rng.choice([3, 4, 5, 6, 8, 13]))
        return {"name": name, "grid": grid}

    def hole_case(self) -> None:
        rng = self.rng
        typed_ok = rng.random() < 0.5
        spec, ruleset = self.pick(typed=typed_ok)
        names = rng.sample(NAMES, rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6, 8]))
        check_decks = rng.random() < 0.9
        totals = (
            self.typed_totals(ruleset, ruleset.decks_for(len(names) if check_decks else 32))
            if typed_ok
            else []
        )
        entries = [self.hole_entry(name, ruleset, totals) for name in names]
        ender = rng.choice([*names, *names, None, "nobody"])
        args = {"ruleset": spec, "entries": entries, "ender": ender, "check_decks": check_decks}
        if rng.random() < 0.3:  # the phone's other form: name -> grid or total, and blocks marked apart
            args["entries"] = {e["name"]: e.get("grid", e.get("total")) for e in entries}
            marked = {e["name"]: e["blocks_marked"] for e in entries if "blocks_marked" in e}
            if marked:
                args["blocks_marked"] = marked
        self.out.add("score_hole", args)

    def broken_hole_case(self) -> None:
        rng = self.rng
        spec, ruleset = self.pick()
        names = rng.sample(NAMES, rng.choice([1, 2, 3, 4]))
        originals = [{"name": name, "grid": random_grid(rng, ruleset, 6)} for name in names]
        entries: list[Any] = list(originals)
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(entries))
            name, grid = originals[i]["name"], originals[i]["grid"]
            entries[i] = rng.choice(
                [
                    {"name": name, "grid": broken_grid(rng, ruleset)},
                    {"name": names[0], "total": 3},
                    {"name": rng.choice(["", "  ", None, 5]), "total": 1},
                    {"name": name, "total": rng.choice([1001, -1001, 2.5, "5", True, None])},
                    {"name": name, "grid": grid, "total": 2},
                    {"name": name, "total": 4, "blocks_marked": rng.choice([-1, 1, 3, 1.5, "1", None])},
                    {"name": name, "grid": grid, "blocks_marked": 1},
                    "ann",
                ]
            )
        if rng.random() < 0.05:
            entries = []
        ender = rng.choice([names[0], None, "nobody", 5])
        self.out.add("score_hole", {"ruleset": spec, "entries": entries, "ender": ender, "check_decks": True})

    def match_case(self) -> None:
        rng = self.rng
        spec, ruleset = self.pick()
        match = random_match(rng, ruleset)
        args = {"ruleset": spec, **match, "ended_early": rng.random() < 0.15}
        if rng.random() < 0.5:
            regular = [h for h in match["holes"] if not h.get("playoff")]
            first = answer("compute_match_state", js_order(args | {"holes": regular}))
            if first and "ok" in first and first["ok"]["status"] == "sudden_death":
                playoff = contenders_playoff(rng, first["ok"]["contenders"], rng.choice([0, 1, 1, 2, 3]))
                args["holes"] = regular + playoff
        self.out.add("match_state", args)

    def ranking_case(self) -> None:
        rng = self.rng
        names = rng.sample(NAMES, rng.randint(1, 5))
        choices = rng.sample(range(-3, 12), rng.randint(1, 3))
        holes = rng.randint(0, 9)
        scores: dict[str, Any] = {
            n: [rng.choice(choices) for _ in range(holes - rng.choice([0, 0, 1]))] for n in names
        }
        args: dict[str, Any] = {
            "hole_scores": scores,
            "tiebreakers": rng.sample([*PRESETS["official"].tiebreakers, "shared"], rng.randint(0, 4)),
        }
        if rng.random() < 0.4:
            args["playoff_scores"] = {
                n: [rng.choice([2, 3]) for _ in range(rng.randint(0, 3))] for n in names if rng.random() < 0.8
            }
        if rng.random() < 0.3:
            args["penalties"] = {n: rng.choice([1, 2, 5, -1]) for n in names if rng.random() < 0.5}
        if rng.random() < 0.1:
            bad = rng.choice(["score", "method", "playoff", "penalty", "empty"])
            if bad == "score":
                scores[names[0]] = [1, rng.choice([2.5, "3", True, None])]
            elif bad == "method":
                args["tiebreakers"] = [*args["tiebreakers"], rng.choice(["coin", "COUNTBACK"])]
            elif bad == "playoff":
                args["playoff_scores"] = {"stranger": [1], names[0]: ["x"]}
            elif bad == "penalty":
                args["penalties"] = {"stranger": 2, names[0]: 1.5}
            else:
                args["hole_scores"] = {}
        self.out.add("rank_players", args)

    def small_cases(self) -> None:
        """One each of the rarer calls: resolve, refusals, cards, deck checks, match end, dealing."""
        rng = self.rng
        self.out.add("resolve_ruleset", {"spec": rng.choice(self.pool)})
        self.out.add("resolve_ruleset", {"spec": bad_spec(rng)})
        spec, ruleset = self.pick()
        self.out.add("score_grid", {"ruleset": spec, "grid": broken_grid(rng, ruleset), "players": None})
        self.out.add(
            "parse_grid",
            {
                "rows": broken_grid(rng, ruleset),
                "where": rng.choice(["grid", "grids.ann"]),
                "jokers": rng.random() < 0.5,
            },
        )
        self.out.add(
            "parse_card",
            {
                "token": rng.choice(
                    [
                        token(rng, rng.choice(list(ruleset.to_dict()["values"]))),
                        "1Z",
                        "xh",
                        "JK♣",
                        " ",
                        7,
                        None,
                        "q s",
                    ]
                ),
                "where": rng.choice(["card", "grid[1][2]", "grids.bob[2][3]"]),
                "jokers": rng.random() < 0.5,
            },
        )
        grid = random_grid(rng, ruleset)
        self.out.add(
            "check_grid_cards", {"ruleset": spec, "grid": grid, "players": rng.choice([None, 2, 5, 9])}
        )
        grids = {
            n: random_grid(rng, ruleset, rng.choice([2, 4, 8])) for n in rng.sample(NAMES, rng.randint(1, 5))
        }
        self.out.add(
            "check_table_cards", {"ruleset": spec, "grids": grids, "players": rng.choice([None, None, 2, 6])}
        )
        totals = {n: rng.randint(-5, 150) for n in rng.sample(NAMES, rng.randint(1, 4))}
        self.out.add("match_over", {"ruleset": spec, "holes_played": rng.randint(0, 20), "totals": totals})
        self.out.add(
            "deal",
            {
                "first_dealer": rng.randint(-1, 6),
                "hole_number": rng.randint(0, 30),
                "players": rng.choice([0, 1, 2, 3, 4, 6, 2.5]),
            },
        )
        self.ranking_case()

    def ranges(self) -> None:
        """The score range of every preset and of the house rulesets typed totals use, for 1-3 packs."""
        for index in self.typed_pool:
            for decks in (1, 2, 3):
                self.out.add("score_range", {"ruleset": self.pool[index], "decks": decks})
        for index in self.slow_pool:
            self.out.add("score_range", {"ruleset": self.pool[index], "decks": 1})


def _range_speeds(rulesets: list[Ruleset]) -> tuple[list[int], list[int]]:
    """The indexes of the rulesets whose range search (1 pack) ends within PROBE_STEPS steps, and of
    the others: counted in steps, not seconds, so that every machine picks the same ones."""
    quick: list[int] = []
    slow: list[int] = []
    with patch.object(score_range, "RANGE_SEARCH_LIMIT", PROBE_STEPS):
        for index, ruleset in enumerate(rulesets):
            if len(quick) >= QUICK_RANGES and len(slow) >= SLOW_RANGES:
                break
            ends = all(score_range._extreme(ruleset, 1, highest)[2] for highest in (False, True))
            (quick if ends else slow).append(index)
    return quick, slow


def generate(out_dir: Path, seed: int = DEFAULT_SEED, total: int = 100_000) -> dict[str, Any]:
    """Write about `total` cases (at least) into `out_dir`; returns counts and seconds.

    House rulesets' score ranges are searched without the server's clock (RANGE_SEARCH_SECONDS),
    as the phone searches them, so that the cases are the same on a loaded machine as on an idle one
    (the clock's bound is the one difference by design: docs/engine.md "The phone's copy")."""
    started, cpu = time.perf_counter(), time.process_time()
    writer = CaseWriter(out_dir)
    score_range._cached_range.cache_clear()
    try:
        with patch.object(score_range, "RANGE_SEARCH_SECONDS", None):
            _write_cases(Generator(writer, seed), writer, total)
    finally:
        score_range._cached_range.cache_clear()
    writer.flush()
    return {
        "seed": seed,
        "cases": writer.count,
        "skipped": writer.skipped,
        "files": writer.files,
        "seconds": round(time.perf_counter() - started, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "by_kind": dict(sorted(writer.by_kind.items())),
    }


def _write_cases(gen: Generator, writer: CaseWriter, total: int) -> None:
    gen.ranges()
    while writer.count < total:
        for _ in range(50):
            gen.grid_case()
        for _ in range(18):
            gen.hole_case()
        for _ in range(2):
            gen.broken_hole_case()
        for _ in range(14):
            gen.match_case()
        gen.small_cases()
