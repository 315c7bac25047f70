"""The offline app's timing benchmarks (issue 32, item 7) run and print their figures:
bench/offline_save.py (Save offline to the hole shown) and bench/offline_sync.py (queued holes on
the server after the connection returns), each at a small size on a database of its own, run as
their commands are (a subprocess: its own Playwright, its own gunicorn). Nothing here asserts a
time: the budgets are the benchmarks' verdicts (docs/performance.md); a verdict's arithmetic is
tested on given figures."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.offline_common import find_chromium
from bench.offline_save import report as save_report
from bench.offline_sync import report as sync_report

ROOT = Path(__file__).resolve().parent.parent
NUMBER = r"[\d.]+"


def run_bench(script: str, *args: str) -> tuple[int, str]:
    """Run a benchmark on a database of its own (dropped at the end); its status and output."""
    if find_chromium() is None:
        pytest.skip("no Chromium at /usr/bin/chromium-headless-shell or /usr/bin/chromium: benchmark not run")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("the benchmarks make a PostgreSQL database of their own (DATABASE_URL is not PostgreSQL)")
    name = os.environ["DATABASE_URL"].rsplit("/", 1)[1]
    command = [
        sys.executable,
        f"bench/{script}",
        *args,
        "--database",
        f"test_{name}_timing",
        "--drop-database",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def test_the_save_benchmark_times_each_save_offline_at_both_speeds_and_online() -> None:
    status, out = run_bench("offline_save.py", "--games", "1", "--holes", "2", "--budget-ms", "1000000")
    assert status == 0, out
    for label in (
        "offline, CPU 4x slower",
        "offline, full speed",
        "online web form, CPU 4x",
        "online web form, full",
    ):
        assert re.search(rf"^{re.escape(label)}.* n= 2  painted median +{NUMBER}", out, re.MULTILINE), out
    assert re.search(rf"golf:save-to-board median +{NUMBER}", out), out
    assert re.search(
        rf"ratios of medians: 4x / full speed {NUMBER}; online form 4x / offline 4x {NUMBER}", out
    )
    assert re.search(
        rf"CPU 4x: max {NUMBER} ms over 1 Saves \(holes 2\+\).* within budget$", out, re.MULTILINE
    )


def test_the_sync_benchmark_times_both_queues_against_python() -> None:
    status, out = run_bench("offline_sync.py", "--reps", "1", "--holes", "2", "--budget-s", "1000")
    assert status == 0, out
    assert re.search(
        rf"started offline \(create \+ holes\): holes in the database +median +{NUMBER} ms", out
    ), out
    assert re.search(rf"server game \(holes\): holes in the database +median +{NUMBER} ms", out), out
    assert len(re.findall(rf"baseline: the same requests from Python +median +{NUMBER} ms", out)) == 2, out
    assert re.search(
        rf"max {NUMBER} s over 2 reconnections, against 1000 s: within budget$", out, re.MULTILINE
    )


def saves(painted: list[float]) -> list[dict[str, float]]:
    """Saves of holes 1, 2, ... with these "painted" times (and the rest alike)."""
    return [
        {
            "hole": n,
            "painted": ms,
            "dom": ms,
            "loop": 1.0,
            "app_board": ms,
            "app_submit": 1.0,
            "app_stored": 1.0,
        }
        for n, ms in enumerate(painted, start=1)
    ]


def test_the_save_verdict_is_the_slowest_save_after_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    runs = {"offline-slow": saves([500, 60, 90]), "offline-full": saves([20, 20, 20])}
    runs |= {"online-slow": saves([300, 300, 300]), "online-full": saves([100, 100, 100])}
    assert save_report(runs, 4, 100) is True  # hole 1 (the first Save after loading) is not judged
    assert (
        "max 90.0 ms over 2 Saves (holes 2+), median 90.0 ms, against 100 ms: within budget"
        in capsys.readouterr().out
    )
    runs["offline-slow"] = saves([50, 60, 101])
    assert save_report(runs, 4, 100) is False
    assert "OVER budget" in capsys.readouterr().out


def test_the_sync_verdict_is_the_slowest_reconnection(capsys: pytest.CaptureFixture[str]) -> None:
    fast = {"create": 0.1, "first": 0.2, "holes": 0.8, "page": 1.0}
    runs = {"offline": [fast, fast], "server": [fast, {**fast, "holes": 2.9}]}
    baseline = {"offline": [0.3, 0.3], "server": [0.2, 0.2]}
    assert sync_report(runs, baseline, 3) is True
    assert "max 2.90 s over 4 reconnections, against 3 s: within budget" in capsys.readouterr().out
    runs["server"][0] = {**fast, "holes": 3.1}
    assert sync_report(runs, baseline, 3) is False
