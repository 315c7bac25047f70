"""The JavaScript unit tests (`node --test tests/js/`), run as part of the suite: each file tests the
pure part of a script under static/js/ (e.g. call-alert.js, the dashboard's alert for a call)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


def test_the_javascript_unit_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the JavaScript unit tests need it")
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.js"))
    assert files, "no JavaScript test found"
    run = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
