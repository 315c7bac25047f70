"""Benchmark: whole-event seating plans against the round-by-round seater (issue 34).

    .venv/bin/python bench/seating.py [--cases 16x5,28x9,...] [--seeds 1] [--no-baseline]
    .venv/bin/python bench/seating.py --frontier 40-100[:STEP]

For each case (players x rounds) it plans a fresh event with `tournaments.planning.plan_rounds`
(seed 1, 2, ... up to `--seeds`) and prints the repeated meetings (the SPEC's measure, recounted
here from the plan), the least possible (`least_possible`), how many rounds came from a known
schedule (`known_rounds`: the designs helper's schedules, ghosts taken out for fields that are not
a multiple of 4), and the time of the plan; then, in the same run, the present round-by-round
seater (`tournaments.seating.seat_round`, mode `fewest_repeats`, each round seated after the ones
before) as the baseline: its repeats and its time for the whole event. Pure Python, no database.
Times are wall-clock of one call on this machine (2 cores shared with other work: rerun for a
quiet reading). `--frontier` prints, per field, the most rounds planned with no repeat against
the most that could have none (3 x rounds <= players - 1, at most 21 rounds). Exits with status 1
when 1,000 players x 8 rounds take more than 1 s or repeat.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.planning import least_possible, plan_rounds, table_sizes
from tournaments.planning.known import known_rounds
from tournaments.seating import seat_round

CASES = (
    "13x3,13x5,16x5,16x6,20x5,20x6,21x6,24x7,27x8,28x9,30x9,32x8,32x10,36x11,40x13,41x13,"
    "43x13,44x14,45x14,48x8,48x15,50x16,60x19,64x21,70x21,100x10,100x21,250x8,1000x8"
)
TARGET_S = 1.0


def recount(rounds: tuple[tuple[tuple[int, ...], ...], ...] | list[list[list[int]]]) -> int:
    """Repeats by the SPEC's words, counted afresh: over pairs, (times met - 1) where positive."""
    met = Counter(frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2))
    return sum(times - 1 for times in met.values() if times > 1)


def baseline(players: int, rounds: int, seed: int) -> tuple[int, float]:
    """The round-by-round seater's repeats and time over the whole event."""
    ids = list(range(1, players + 1))
    seated: list[tuple[tuple[int, ...], ...]] = []
    start = time.perf_counter()
    for number in range(1, rounds + 1):
        seating = seat_round(
            ids, seed=seed, round_number=number, mode="fewest_repeats", earlier_rounds=seated
        )
        seated.append(seating.tables)
    return recount(seated), time.perf_counter() - start


def measure(players: int, rounds: int, seed: int, with_baseline: bool) -> dict[str, object]:
    """One case: the plan's figures, and the baseline's when asked."""
    start = time.perf_counter()
    plan = plan_rounds(list(range(1, players + 1)), rounds=rounds, seed=seed)
    elapsed = time.perf_counter() - start
    repeats = recount(plan.rounds)
    assert repeats == plan.repeats, (players, rounds, repeats, plan.repeats)
    row: dict[str, object] = {
        "case": f"{players} x {rounds}",
        "threes": table_sizes(players).count(3),
        "known": len(known_rounds(players, rounds)),
        "repeats": repeats,
        "least": least_possible(range(players), rounds=rounds),
        "seconds": elapsed,
    }
    if with_baseline:
        row["base_repeats"], row["base_seconds"] = baseline(players, rounds, seed)
    return row


def frontier(low: int, high: int, step: int) -> None:
    """For fields of `low` to `high` players: the most rounds (at most 21, and 3 x rounds <=
    players - 1) planned with no repeat at seed 1, against that limit."""
    print("| players | tables of 3 | rounds allowed | most rounds with 0 repeats | repeats at the limit |")
    print("|---:|---:|---:|---:|---:|")
    for players in range(low, high + 1, step):
        limit = min(21, (players - 1) // 3)
        at_limit = plan_rounds(list(range(players)), rounds=limit, seed=1).repeats
        most = limit
        while most and plan_rounds(list(range(players)), rounds=most, seed=1).repeats:
            most -= 1
        threes = table_sizes(players).count(3)
        print(f"| {players} | {threes} | {limit} | {most} | {at_limit} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=CASES, help="players x rounds, comma-separated: 16x5,28x9")
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--frontier", help="LOW-HIGH[:STEP]: the most rounds with no repeat per field")
    args = parser.parse_args()
    if args.frontier:
        span, _, step = args.frontier.partition(":")
        low, high = (int(part) for part in span.split("-"))
        frontier(low, high, int(step or 1))
        return 0
    print("| players x rounds | tables of 3 | known rounds | repeats | least possible | plan s |", end="")
    print("" if args.no_baseline else " round by round: repeats | round by round s |")
    print("|---|---:|---:|---:|---:|---:|" + ("" if args.no_baseline else "---:|---:|"))
    failed = False
    for case in args.cases.split(","):
        players, rounds = (int(part) for part in case.lower().split("x"))
        for seed in range(1, args.seeds + 1):
            row = measure(players, rounds, seed, not args.no_baseline)
            line = (
                f"| {row['case']} | {row['threes']} | {row['known']} | {row['repeats']} | {row['least']} "
                f"| {row['seconds']:.3f} |"
            )
            if not args.no_baseline:
                line += f" {row['base_repeats']} | {row['base_seconds']:.3f} |"
            print(line, flush=True)
            if (players, rounds) == (1000, 8) and (row["repeats"] or row["seconds"] > TARGET_S):  # type: ignore[operator]
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
