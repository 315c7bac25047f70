"""`manage.py score`: the line-by-line breakdown on stdout, problems on stderr with a non-zero exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]


def score(*args: str) -> str:
    """Run the command in process; answer what it printed."""
    out = StringIO()
    call_command("score", *args, stdout=out)
    return out.getvalue()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command as a user would, in a separate process."""
    python = ROOT / ".venv" / "bin" / "python"
    return subprocess.run(
        [str(python if python.exists() else sys.executable), "manage.py", "score", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_prints_the_breakdown_and_the_total() -> None:
    out = score("official", "Q", "7", "K", "/", "Q", "7", "3")
    lines = out.splitlines()
    assert lines[0].startswith("Ruleset: official")
    assert any("Column 1" in line and "Q" in line and "2.3" in line for line in lines)
    assert any("Column 2" in line and "7" in line for line in lines)
    assert any("column 3" in line and "3" in line for line in lines)
    assert lines[-1] == "Total: 3"


@pytest.mark.parametrize(
    "cards",
    [
        ["Q", "7", "K", "/", "Q", "7", "3"],
        ["Q", "7", "K/Q", "7", "3"],
        ["Q 7 K / Q 7 3"],
        ["q,7,k/q,7,3"],
        ["QS", "7h", "K", "/", "qd", "7♣", "3"],
    ],
)
def test_it_reads_rows_however_they_are_split(cards: list[str]) -> None:
    assert score("official", *cards).splitlines()[-1] == "Total: 3"


def test_it_applies_overrides_given_as_json_or_bare_words() -> None:
    out = score(
        "official",
        "2",
        "K",
        "4",
        "/",
        "2",
        "5",
        "4",
        "--set",
        "negative_matches=zero",
        "--set",
        'values={"K": -1}',
    )
    assert "Overrides: " in out and "negative_matches" in out and "values" in out
    assert out.splitlines()[-1] == "Total: 4"


def test_it_prints_the_api_answer_as_json() -> None:
    answer = json.loads(score("four-card", "Q", "Q", "/", "7", "3", "--json"))
    assert answer["total"] == 10
    assert answer["ruleset"] == PRESETS["four-card"].to_dict()
    assert [m["kind"] for m in answer["matches"]] == ["row"]
    assert len(answer["cards"]) == 4 and answer["explanation"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["official", "Q", "7", "ZZ", "/", "Q", "7", "3"], ["grid[1][3]", "ZZ"]),
        (["offical", "Q", "7", "K", "/", "Q", "7", "3"], ["offical", "official"]),
        (["official", "Q", "7", "K", "/", "Q", "7"], ["same number"]),
        (["official", "Q", "7", "/", "Q", "7"], ["2x3"]),
        (["official", "K", "K", "K", "/", "K", "K", "3"], ["5 Kings"]),
        (["official", "Q", "7", "K", "/", "Q", "7", "3", "--set", "colour=red"], ["ruleset.colour"]),
        (["official", "Q", "7", "K", "/", "Q", "7", "3", "--set", "rows"], ["key=value"]),
        (["official", "Q", "7", "K", "/", "Q", "7", "3", "--set", "preset=basic"], ["first argument"]),
        (["official", "Q", "7", "K", "/", "Q", "7", "3", "--players", "0"], ["--players"]),
    ],
)
def test_it_raises_a_command_error_naming_the_problem(args: list[str], words: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        score(*args)
    for word in words:
        assert word in str(caught.value)


def test_it_exits_non_zero_with_the_problem_on_stderr() -> None:
    result = run("official", "Q", "7", "1Z", "/", "Q", "7", "3")
    assert result.returncode != 0
    assert "1Z" in result.stderr and "row 1, column 3" in result.stderr
    assert result.stdout == ""


def test_it_exits_zero_with_the_total_on_stdout() -> None:
    result = run("official", "Q", "7", "K", "/", "Q", "7", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "Total: 3"
