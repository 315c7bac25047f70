"""The usual hole body, checked without DRF's serializer machinery (the hot path of a live game).

A phone recording a hole sends `{"entries": {name: grid, ...}, "ender": name, "number": n}`.
Checking that with `HoleWriteSerializer` costs about 0.5 ms of CPU per hole (the serializer
deep-copies its fields for every request), a tenth of the whole request (bench/hole_profile.py).
`plain_hole_body` accepts only bodies of that usual shape that the serializer would accept, and
returns exactly what the serializer's fields would return for them; for anything else (another key,
a typed total as an object, a bad name, a wrong type) it returns None and the fields check the body
and word any error, so the API's answers do not change. Its one caller is
`HoleWriteSerializer.run_validation`: the serializer stays the one validator (and the schema) of the
body, this is its fast path. tests/api/test_hole_body.py checks the two agree on generated bodies.
"""

from __future__ import annotations

from typing import Any

from golfclub.core.inputs import text_problem
from golfclub.core.limits import SMALL_INT_MAX
from scoring.api.calculator.request_serializers import normalise_grid

_KEYS = frozenset({"entries", "ender", "number"})


def plain_hole_body(data: Any) -> dict[str, Any] | None:
    """`HoleWriteSerializer`'s validated data for a body of the usual shape, or None: its fields check it."""
    if type(data) is not dict or not _KEYS.issuperset(data):
        return None
    entries = _plain_entries(data.get("entries"))
    if entries is None:
        return None
    checked: dict[str, Any] = {"entries": entries, "ender": None}
    if "ender" in data:
        ender = data["ender"]
        if ender is not None:
            if type(ender) is not str:
                return None
            # DRF's CharField: blank (after trimming) is "" before any other check, else trimmed.
            stripped = ender.strip()
            if stripped and text_problem(ender):
                return None
            ender = stripped
        checked["ender"] = ender
    if "number" in data:
        number = data["number"]
        if type(number) is not int or not 1 <= number <= SMALL_INT_MAX:
            return None
        checked["number"] = number
    return checked


def _plain_entries(entries: Any) -> dict[str, Any] | None:
    """Name → grid (rows of text or whole-number tokens, numbers made text) or typed whole number."""
    if type(entries) is not dict or not entries:
        return None
    plain: dict[str, Any] = {}
    for name, value in entries.items():
        if type(name) is not str or text_problem(name):
            return None
        if type(value) is int:
            plain[name] = value
            continue
        if type(value) is not list:
            return None  # an object ({"cards"/"total"}), text, null...: the serializer's to take
        if any(type(row) is not list for row in value):
            return None
        plain[name] = normalise_grid(value)
    return plain
