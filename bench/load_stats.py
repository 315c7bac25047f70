"""The load test's figures: latencies by kind of request, and the report it prints."""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from typing import Any

HOLE_P99_TARGET_MS = 300
KNEE_MS = 1000


class Recorder:
    """Every request's latency and outcome, by kind; the first and last time of each kind."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, Counter[str]] = defaultdict(Counter)
        self.answers: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, kind: str, seconds: float, *, ok: bool, note: str) -> None:
        """One request of `kind` that took `seconds`; `note` is its status or its exception."""
        self.latencies[kind].append(seconds)
        self.answers[kind][note] += 1
        if not ok:
            self.errors[kind][note] += 1

    def merge(self, other: Recorder) -> None:
        """Add `other`'s requests (another process's) to these."""
        for kind, seconds in other.latencies.items():
            self.latencies[kind].extend(seconds)
        for kind, notes in other.answers.items():
            self.answers[kind].update(notes)
        for kind, notes in other.errors.items():
            self.errors[kind].update(notes)

    def percentile(self, kind: str, pct: float) -> float:
        """The pct-th percentile (nearest rank) of `kind`'s latencies, in milliseconds."""
        ordered = sorted(self.latencies.get(kind) or [0.0])
        index = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered)) - 1))
        return ordered[index] * 1000


def report(
    recorder: Recorder,
    *,
    args: argparse.Namespace,
    rounds: tuple[float, float],
    check: dict[str, Any],
    standings_same: bool,
    knee: list[tuple[int, float]],
    served: list[int],
) -> bool:
    """Print the figures; True when every target holds."""
    print(
        f"{args.tables} tables, {args.tables * 4} players, {args.spectators} spectators; "
        f"{args.instances} app "
        f"server(s) x {args.workers} gunicorn workers x {args.threads} threads behind nginx; PostgreSQL and "
        f"Redis on loopback; round 1 paced ({args.hole_seconds:g} s a hole) took {rounds[0]:.0f} s, "
        f"round 2's burst {rounds[1]:.0f} s"
    )
    print(f"requests served by each app server: {served}")
    print(f"{'kind':<36}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}  answers")
    for kind in sorted(recorder.latencies):
        answers = ", ".join(f"{note}: {n}" for note, n in recorder.answers[kind].most_common())
        print(
            f"{kind:<36}{len(recorder.latencies[kind]):>8}{recorder.percentile(kind, 50):>9.0f}"
            f"{recorder.percentile(kind, 95):>9.0f}{recorder.percentile(kind, 99):>9.0f}"
            f"{sum(recorder.errors[kind].values()):>8}  {answers}"
        )
    print("knee (spectators -> hole p99 ms): " + ", ".join(f"{n} -> {p99:.0f}" for n, p99 in knee))
    passed = [n for n, p99 in knee if p99 > KNEE_MS]
    print(f"knee: {'hole p99 over 1 s from ' + str(passed[0]) + ' spectators' if passed else 'not reached'}")
    problems = {key: value for key, value in check.items() if key != "holes acknowledged" and value}
    print(f"database check: {check['holes acknowledged']} holes acknowledged; " + (
        "every one there once, none extra, seat totals right" if not problems else f"PROBLEMS {problems}"
    ))  # fmt: skip
    print(f"standings answered at the end equal a recomputation: {standings_same}")
    errors = sum(sum(c.values()) for c in recorder.errors.values())
    burst_p99 = recorder.percentile("hole (round 2, burst)", 99)
    verdicts = {
        "zero errors": errors == 0,
        "nothing lost or doubled": not problems,
        "standings equal a recomputation": standings_same,
        f"burst hole p99 <= {HOLE_P99_TARGET_MS} ms ({burst_p99:.0f} ms)": burst_p99 <= HOLE_P99_TARGET_MS,
    }
    for name, ok in verdicts.items():
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return all(verdicts.values())
