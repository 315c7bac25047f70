"""The layering (pyproject.toml's import-linter contracts) holds and stays whole.

`make test` runs `lint-imports` too; this test keeps the rules engine's forbidden list in step with
the modules of `scoring` (a new module must be named there, or the engine could import it unseen).
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["contracts"]


def test_it_forbids_the_rules_engine_every_other_module_of_scoring():
    (engine,) = [c for c in _contracts() if c.get("source_modules") == ["scoring.rules"]]
    siblings = {f"scoring.{m.name}" for m in pkgutil.iter_modules(scoring.__path__) if m.name != "rules"}
    assert siblings - set(engine["forbidden_modules"]) == set()
    assert {"django", "rest_framework", "clubs", "tournaments"} <= set(engine["forbidden_modules"])


def test_it_layers_tournaments_above_clubs_above_scoring_above_the_shared_plumbing():
    (layers,) = [c for c in _contracts() if c["type"] == "layers"]
    assert layers["layers"][1:] == ["tournaments", "clubs", "scoring", "golfclub.core"]


def test_it_keeps_every_import_contract():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_it_keeps_tournaments_from_querying_scorings_models_but_through_its_foreign_keys():
    (seam,) = [c for c in _contracts() if c.get("source_modules") == ["tournaments"]]
    assert seam["forbidden_modules"] == ["scoring.models"]
    assert seam["ignore_imports"] == ["tournaments.models -> scoring.models"]


def test_it_keeps_clubs_from_querying_scorings_models_but_through_its_foreign_keys():
    (seam,) = [c for c in _contracts() if c.get("source_modules") == ["clubs"]]
    assert seam["forbidden_modules"] == ["scoring.models"]
    assert seam["ignore_imports"] == ["clubs.models -> scoring.models"]
