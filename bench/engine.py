"""Benchmark of the rules engine: grids per second with the full breakdown, worst-case latency, and
grid_total against a minimal hand-written scorer of the official preset.

Run from the repository root:  .venv/bin/python bench/engine.py  [--grids N] [--seed S]
Figures are recorded in docs/performance.md ("Engine").
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.rules import PRESETS, RANKS, SUITS, Ruleset, grid_total, resolve_ruleset, score_grid

TARGET_RATE = 20_000  # grids per second with the full breakdown, on one core
TARGET_RATIO = 5.0  # grid_total at most this many times slower than the minimal scorer
PLAYERS = 4  # grids are dealt as at a table of 4: decks_for(4) packs

HARD_CASES: dict[str, dict[str, Any]] = {
    "2x5 rows+columns": {"preset": "ten-card", "match_lines": ["columns", "rows"]},
    "3x3 rows/columns/diagonals": {"preset": "nine-card", "match_lines": ["columns", "rows", "diagonals"]},
    "2x5 anywhere": {"preset": "ten-card", "match_lines": ["anywhere"]},
    "2x3 jokers_wild": {"preset": "official-jokers", "jokers_wild": True},
    "2x5 rows+columns, jokers_wild": {
        "preset": "ten-card",
        "match_lines": ["columns", "rows"],
        "jokers": 2,
        "jokers_wild": True,
    },
    "3x3 all lines, jokers_wild": {
        "preset": "nine-card",
        "match_lines": ["columns", "rows", "diagonals"],
        "jokers": 2,
        "jokers_wild": True,
    },
    "2x5 anywhere, jokers_wild, zero": {
        "preset": "ten-card",
        "match_lines": ["anywhere"],
        "jokers": 2,
        "jokers_wild": True,
        "negative_matches": "zero",
    },
    "2x4 blocks + ender": {
        "preset": "eight-card",
        "four_of_a_kind_block": {"points": -20, "others_add": 10},
        "ender_penalty": {"kind": "fixed", "points": 10},
    },
}

WORST_CASES: dict[str, tuple[dict[str, Any], list[list[str]]]] = {
    "2x5 anywhere, jokers wild, ten Queens": (
        {"preset": "ten-card", "match_lines": ["anywhere"], "jokers": 2, "jokers_wild": True, "decks": 3},
        [["Q"] * 5, ["Q"] * 5],
    ),
    "2x5 anywhere, jokers wild, 5 jokers + 5 Queens": (
        {"preset": "ten-card", "match_lines": ["anywhere"], "jokers": 2, "jokers_wild": True, "decks": 3},
        [["X", "Q", "X", "Q", "X"], ["Q", "X", "Q", "X", "Q"]],
    ),
    "2x5 rows+columns, jokers wild, zero, Q -3": (
        {
            "preset": "ten-card",
            "match_lines": ["columns", "rows"],
            "jokers": 2,
            "jokers_wild": True,
            "negative_matches": "zero",
            "values": {"Q": -3},
            "decks": 3,
        },
        [["X", "Q", "X", "Q", "X"], ["Q", "X", "Q", "X", "Q"]],
    ),
    "3x3 all lines, jokers wild": (
        {
            "preset": "nine-card",
            "match_lines": ["columns", "rows", "diagonals"],
            "jokers": 2,
            "jokers_wild": True,
        },
        [["X", "Q", "X"], ["Q", "X", "Q"], ["X", "Q", "X"]],
    ),
}

_MINIMAL_VALUES = {"A": 1, "2": -2, "J": 10, "Q": 10, "K": 0} | {str(n): n for n in range(3, 11)}


def minimal_official_total(grid: Sequence[Sequence[str]]) -> int:
    """The official preset by hand: three columns of a 2x3 grid, a pair scores 0, a pair of 2s -4.

    No parsing, no checks, no breakdown: the floor any general engine is measured against."""
    top, bottom = grid
    total = 0
    for a, b in zip(top, bottom, strict=True):
        if a == b:
            if a == "2":
                total -= 4
        else:
            total += _MINIMAL_VALUES[a] + _MINIMAL_VALUES[b]
    return total


def deal_grids(ruleset: Ruleset, count: int, rng: random.Random, suits: bool) -> list[list[list[str]]]:
    """`count` legal grids dealt from the packs a table of PLAYERS uses, as the tokens a phone sends."""
    decks = ruleset.decks_for(PLAYERS)
    ranks = [rank for rank in RANKS if rank != "X"]
    pack = [(rank, suit) for rank in ranks for suit in SUITS] + [("X", None)] * ruleset.jokers
    shoe = pack * decks
    size = ruleset.rows * ruleset.cols
    grids = []
    for _ in range(count):
        cards = rng.sample(shoe, size)
        tokens = [rank + (suit or "") if suits else rank for rank, suit in cards]
        grids.append([tokens[r * ruleset.cols : (r + 1) * ruleset.cols] for r in range(ruleset.rows)])
    return grids


# CPU time of this process: on a machine shared with other work, wall-clock time would count the
# moments the benchmark waits for a core; CPU time measures what one core does.
clock = time.process_time


def rate(function: Callable[[Any], Any], items: list[Any], repeats: int = 3) -> float:
    """Best of `repeats` runs over `items`, in items per second of CPU time."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = clock()
        for item in items:
            function(item)
        best = min(best, clock() - start)
    return len(items) / best


def latency_ms(function: Callable[[], Any], repeats: int = 50) -> tuple[float, float]:
    """(first call, median of later calls) in milliseconds of CPU time."""
    start = clock()
    function()
    first = (clock() - start) * 1000
    times = []
    for _ in range(repeats):
        start = clock()
        function()
        times.append((clock() - start) * 1000)
    return first, statistics.median(times)


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement, print tables, and return 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=20_000, help="random grids per case (default 20000)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{args.grids} random legal grids per case"
    )
    print(f"seed {args.seed}; grids dealt as at a table of {PLAYERS}; score_grid with the full breakdown;")
    print("rates in grids per second of CPU time (one core), best of 3 runs\n")
    missed = measure_rates(args.grids, rng)
    missed += measure_worst_cases()
    missed += compare_with_minimal_scorer(args.grids, rng)

    print()
    if missed:
        print("TARGETS MISSED:\n  " + "\n  ".join(missed))
        return 1
    print(f"All targets met: >= {TARGET_RATE:,} grids/s with the full breakdown in every case, worst case in")
    print(f"milliseconds, grid_total within {TARGET_RATIO:.0f}x of the minimal scorer.")
    return 0


def _print_header(header: str) -> None:
    print(header)
    print("-" * len(header))


def measure_rates(grids: int, rng: random.Random) -> list[str]:
    """Print each preset's and hard case's scoring rates; return the targets missed."""
    missed = []
    cases: list[tuple[str, Ruleset]] = [(name, ruleset) for name, ruleset in PRESETS.items()]
    cases += [(name, resolve_ruleset(spec)) for name, spec in HARD_CASES.items()]
    _print_header(f"{'case':<34} {'shape':>5} {'ranks only':>12} {'with suits':>12} {'grid_total':>12}")
    for name, ruleset in cases:
        plain = deal_grids(ruleset, grids, rng, suits=False)
        suited = deal_grids(ruleset, grids, rng, suits=True)
        full_plain = rate(lambda grid, rs=ruleset: score_grid(grid, rs, PLAYERS), plain)
        full_suited = rate(lambda grid, rs=ruleset: score_grid(grid, rs, PLAYERS), suited)
        total_only = rate(lambda grid, rs=ruleset: grid_total(grid, rs), plain)
        print(
            f"{name:<34} {ruleset.shape:>5} {full_plain:>10,.0f}/s {full_suited:>10,.0f}/s "
            f"{total_only:>10,.0f}/s"
        )
        if min(full_plain, full_suited) < TARGET_RATE:
            missed.append(f"{name}: {min(full_plain, full_suited):,.0f} grids/s < {TARGET_RATE:,}")
    return missed


def measure_worst_cases() -> list[str]:
    """Print the latency of the worst-case grids; return the targets missed."""
    missed = []
    print("\nWorst-case grids (first call includes compiling the ruleset)")
    _print_header(f"{'grid':<48} {'first ms':>9} {'median ms':>10} {'total':>6}")
    for name, (spec, grid) in WORST_CASES.items():
        ruleset = resolve_ruleset(spec)
        first, median = latency_ms(lambda rs=ruleset, g=grid: score_grid(g, rs))
        print(f"{name:<48} {first:>9.3f} {median:>10.3f} {score_grid(grid, ruleset).total:>6}")
        if first > 10:
            missed.append(f"worst case {name}: {first:.1f} ms")
    return missed


def compare_with_minimal_scorer(grids: int, rng: random.Random) -> list[str]:
    """Print grid_total's and score_grid's rates against a minimal hand-written scorer of the
    official preset on the same grids; return the targets missed."""
    missed = []
    print("\ngrid_total against a minimal hand-written scorer (official preset, same ranks-only grids)")
    official = PRESETS["official"]
    dealt = deal_grids(official, grids, rng, suits=False)
    mismatches = sum(grid_total(grid, official) != minimal_official_total(grid) for grid in dealt)
    minimal = rate(minimal_official_total, dealt, repeats=5)
    engine = rate(lambda grid: grid_total(grid, official), dealt, repeats=5)
    full = rate(lambda grid: score_grid(grid, official), dealt, repeats=5)
    print(f"{'minimal scorer':<34} {minimal:>12,.0f}/s   1.0x")
    print(f"{'grid_total (checks + engine)':<34} {engine:>12,.0f}/s {minimal / engine:>5.1f}x slower")
    print(f"{'score_grid (full breakdown)':<34} {full:>12,.0f}/s {minimal / full:>5.1f}x slower")
    print(f"totals that differ from the minimal scorer: {mismatches}")
    if mismatches:
        missed.append(f"{mismatches} totals differ from the minimal scorer")
    if minimal / engine > TARGET_RATIO:
        missed.append(f"grid_total is {minimal / engine:.1f}x the minimal scorer (> {TARGET_RATIO}x)")
    return missed


if __name__ == "__main__":
    sys.exit(main())
