"""The CPU budget bench/live_games.py prints for the throughput target (docs/performance.md)."""

from __future__ import annotations

import pytest

from bench.live_games import print_cpu_budget


def test_it_gives_the_app_what_the_target_leaves_after_the_other_sides(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bare = {"client": 0.8, "app": 1.0, "database": 0.2, "cache": 0.0}  # 2.0 ms in all
    hole = {"client": 1.0, "app": 3.5, "database": 0.9, "cache": 0.1}
    print_cpu_budget(bare, hole, 0.5)
    line = capsys.readouterr().out
    # 2.0 / 0.5 = 4.0 ms for a hole in all; 2.0 taken by the client, database and cache.
    assert line.startswith("CPU budget for 0.50: a hole may cost 4.00 ms in all;")
    assert "took 2.00, leaving the app 2.00 ms a hole (it took 3.50; the bare insert's app 1.00)" in line
