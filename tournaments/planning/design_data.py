"""Stored base rounds for `designs.develop`, found by `tools/design_search.py` (seeded, offline).

CYCLIC[players] = (modulus, base round): developing the base round mod `modulus` gives `modulus`
rounds with no repeated meeting (tests/planning/test_designs.py checks every one).
"""

from __future__ import annotations

CYCLIC: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
