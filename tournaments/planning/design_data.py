"""Stored base rounds for `designs.develop`, found by `tools/design_search.py` (seeded, offline).

CYCLIC[players] = (modulus, base round): developing the base round mod `modulus` gives `modulus`
rounds with no repeated meeting (tests/planning/test_designs.py checks every one).
"""

from __future__ import annotations

# fmt: off
CYCLIC: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {
    20: (
        5,
        (
            (0, 3, 6, 18), (1, 2, 11, 13), (4, 12, 15, 16), (5, 7, 10, 14), (8, 9, 17, 19),
        ),
    ),
    24: (
        7,
        (
            (0, 2, 3, 11), (1, 13, 19, 23), (4, 14, 16, 17), (5, 8, 20, 21), (6, 12, 15, 22),
            (7, 9, 10, 18),
        ),
    ),
    28: (
        9,
        (
            (0, 6, 7, 23), (1, 5, 12, 20), (2, 11, 14, 15), (3, 17, 21, 27), (4, 10, 25, 26),
            (8, 9, 16, 19), (13, 18, 22, 24),
        ),
    ),
    36: (
        11,
        (
            (0, 9, 12, 15), (1, 4, 22, 31), (2, 18, 25, 35), (3, 13, 29, 33), (5, 6, 10, 30),
            (7, 14, 24, 34), (8, 16, 17, 21), (11, 20, 23, 26), (19, 27, 28, 32),
        ),
    ),
    52: (
        17,
        (
            (0, 17, 34, 51), (1, 23, 26, 30), (2, 38, 49, 50), (3, 12, 22, 45), (4, 15, 16, 19),
            (5, 28, 37, 46), (6, 9, 13, 35), (7, 31, 42, 44), (8, 10, 24, 48), (11, 20, 29, 39),
            (14, 25, 27, 41), (18, 40, 43, 47), (21, 32, 33, 36),
        ),
    ),
}
# fmt: on
