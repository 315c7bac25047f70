"""The lower bound (`least_possible`) and the package's purity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tournaments.planning import count_repeats, least_possible

PACKAGE = Path(__file__).resolve().parents[2] / "tournaments" / "planning"


@pytest.mark.parametrize(
    ("players", "rounds", "bound"),
    [(16, 5, 0), (16, 6, 24), (28, 10, 42), (20, 6, 0), (12, 4, 6), (9, 5, 9), (5, 3, 20), (13, 5, 0)],
)
def test_fresh_bounds(players: int, rounds: int, bound: int) -> None:
    assert least_possible(range(players), rounds=rounds) == bound


def test_12_players_in_4_rounds() -> None:
    # 12 meetings each against 11 others: one repeat per player, 6 in all.
    assert least_possible(list("abcdefghijkl"), rounds=4) == 6


def test_seated_repeats_count_and_late_entries_have_everyone_to_meet() -> None:
    seated = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 3, 4], [5, 6, 7, 8]]]
    assert count_repeats(seated) == 12
    # Nobody can meet anyone new without the late entries: 1-4 and 5-8 are closed groups.
    assert least_possible([1, 2, 3, 4, 5, 6, 7, 8], rounds=2, seated=seated) == 12
    assert least_possible([1, 2, 3, 4, 5, 6, 7, 8], rounds=3, seated=seated) >= 12
    assert least_possible([1, 2, 3, 4, 9, 10, 11, 12], rounds=3, seated=seated) == 12


def test_the_package_imports_no_django() -> None:
    for module in PACKAGE.glob("*.py"):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(name.split(".")[0] in {"django", "rest_framework"} for name in names), module
