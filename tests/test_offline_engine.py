"""The phone's rules engine (static/js/engine/golf-engine.js) gives exactly the Python engine's answers.

At test time (never from a committed fixture, so a rule changed in Python alone fails here):
1. the Python engine answers 100,000+ random cases (tests/engine_conformance/cases.py; seed printed,
   GOLF_ENGINE_SEED chooses another, GOLF_ENGINE_CASE_COUNT another count);
2. the engine's own tests (tests/rules/, those with fixed answers) run with a recorder around the
   engine's public functions (tests/engine_conformance/recorder.py), in a second process meanwhile;
3. node runs tests/js/engine.test.js on both sets of cases and compares every answer exactly.
The engine is split into parts (static/js/engine/*.js, golf-engine.js loading the others): a rule
broken in any one of them, in a copy of the folder named by GOLF_ENGINE_SCRIPT, fails the check.
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


# --- the check runs the engine's split files (static/js/engine/*.js, loaded by golf-engine.js) -------
ENGINE_FOLDER = ROOT / "static" / "js" / "engine"
# One change of rule in each file of the engine: in a copy of the folder that GOLF_ENGINE_SCRIPT names,
# any one of them makes the check fail, so the check runs every part, loaded from the copy's own folder.
BREAKS = {
    "python-ways.js": ("cmp(a[0], b[0]) || a[1] - b[1]", "cmp(a[0], b[0]) || b[1] - a[1]"),
    "cards.js": ('optionally followed by a suit S, H, D, C";', 'optionally followed by a suit";'),
    "ruleset.js": ("holes: 9, target_score", "holes: 10, target_score"),
    "decks.js": ("limit = decks !== null ? 4 * decks", "limit = decks !== null ? 5 * decks"),
    "matching.js": ('line("column", [c, cols + c], "2.3")', 'line("column", [c, cols + c], "2.2")'),
    "grid.js": ('"Grid score: "', '"Grid total: "'),
    "score-range.js": ("[sign * best[0], best[1], true]", "[sign * best[0] + 1, best[1], true]"),
    "hole.js": ("ended the hole and", "ended the round and"),
    "tiebreak.js": ("most holes won (", "most holes taken ("),
    "match.js": ("mod(firstDealer + holeNumber - 1", "mod(firstDealer + holeNumber"),
    "golf-engine.js": ("firstPlayerForHole: firstPlayerForHole,", "firstPlayerForHole: dealerForHole,"),
}
SMALL_CASE_COUNT = 1_500
RANGE_CASES_KEPT = 12  # score_range cases are the slow ones: a few suffice to catch a broken range


@pytest.fixture(scope="module")
def small_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small set of the Python engine's answers (the full check above runs 100,000)."""
    folder = tmp_path_factory.mktemp("engine-cases")
    generate(folder, DEFAULT_SEED, SMALL_CASE_COUNT)
    for path in folder.glob("*.jsonl"):
        kept, ranges = [], 0
        for line in path.read_text().splitlines():
            is_range = json.loads(line)["fn"] == "score_range"
            ranges += is_range
            if not is_range or ranges <= RANGE_CASES_KEPT:
                kept.append(line)
        path.write_text("\n".join(kept) + "\n")
    return folder


def test_every_file_of_the_engine_has_a_break_to_catch() -> None:
    assert sorted(BREAKS) == sorted(path.name for path in ENGINE_FOLDER.glob("*.js"))


@pytest.mark.parametrize("part", [None, *BREAKS])
def test_a_rule_broken_in_any_part_of_the_engine_fails_the_check(
    part: str | None, small_cases: Path, tmp_path: Path
) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the phone engine's conformance test needs it")
    copy = tmp_path / "engine"
    shutil.copytree(ENGINE_FOLDER, copy)
    if part is not None:
        before, after = BREAKS[part]
        text = (copy / part).read_text()
        assert before in text, f"{part} no longer holds {before!r}: choose another break"
        (copy / part).write_text(text.replace(before, after, 1))
    script = str(copy / "golf-engine.js")
    env = os.environ | {"GOLF_ENGINE_CASES": str(small_cases), "GOLF_ENGINE_SCRIPT": script}
    run = subprocess.run(
        [node, "--test", str(NODE_TEST)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    if part is None:  # the copy as it is passes: the failures below are the breaks'
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    else:
        assert run.returncode != 0 and "cases differ" in run.stdout, run.stdout[-3000:]
