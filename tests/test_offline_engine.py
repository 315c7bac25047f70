"""The phone's rules engine (static/js/engine/golf-engine.js) gives exactly the Python engine's answers.

At test time (never from a committed fixture, so a rule changed in Python alone fails here):
1. the Python engine answers 100,000+ random cases (tests/engine_conformance/cases.py; seed printed,
   GOLF_ENGINE_SEED chooses another, GOLF_ENGINE_CASE_COUNT another count);
2. the engine's own tests (tests/rules/, those with fixed answers) run with a recorder around the
   engine's public functions (tests/engine_conformance/recorder.py), in a second process meanwhile;
3. node runs tests/js/engine.test.js on both sets of cases and compares every answer exactly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.engine_conformance.cases import DEFAULT_SEED, generate

ROOT = Path(__file__).resolve().parent.parent
NODE_TEST = ROOT / "tests" / "js" / "engine.test.js"
# The engine's tests whose answers are fixed: property tests (random input, checked properties) and
# the brute-force and random-ruleset range tests are left out of the harvest.
HARVEST = [
    "tests/rules",
    "--ignore=tests/rules/test_grid_properties.py",
    "--ignore=tests/rules/test_standings_properties.py",
    "-k",
    "not random_rulesets and not brute_force",
    "--hypothesis-seed=0",
]


def _harvest(out: Path) -> subprocess.Popen[str]:
    """Start the engine's own tests with the recorder; they write `out` when they end."""
    env = os.environ | {"ENGINE_RECORD_FILE": str(out), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    command += ["-p", "tests.engine_conformance.recorder", *HARVEST]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def test_the_phones_engine_answers_every_case_as_the_python_engine(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the phone engine's conformance test needs it")
    seed = int(os.environ.get("GOLF_ENGINE_SEED", DEFAULT_SEED))
    count = int(os.environ.get("GOLF_ENGINE_CASE_COUNT", 100_000))
    print(f"phone engine conformance: seed {seed} (set GOLF_ENGINE_SEED to choose another)")
    harvested = tmp_path / "rules-tests.jsonl"
    harvest = _harvest(harvested)
    try:
        made = generate(tmp_path, seed, count)
    finally:
        output, _ = harvest.communicate(timeout=180)
    assert harvest.returncode == 0, output[-3000:]
    left_out = json.loads((tmp_path / "rules-tests.jsonl.left-out.json").read_text())
    print(f"generated {made['cases']} cases in {made['seconds']} s, {made['skipped']} unanswered")
    print(f"harvested {left_out['recorded']} calls of tests/rules; not recorded: {left_out['left_out']}")
    print(f"recorded with their keys in JavaScript's order: {left_out['reordered']}")
    assert made["cases"] >= count and left_out["recorded"] > 500
    started = time.perf_counter()
    run = subprocess.run(
        [node, "--test", str(NODE_TEST)],
        env=os.environ | {"GOLF_ENGINE_CASES": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    print(f"node checked them in {time.perf_counter() - started:.1f} s")
    print("\n".join(line for line in run.stdout.splitlines() if "engine cases" in line))
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout
