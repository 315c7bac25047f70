"""The rules reference page (/rules/): every preset and parameter, read from the rules engine."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.rules import PARAMETERS, PRESETS, RANKS

SOURCES = {
    "000": "Official Golf Card Game Rules: The Complete Reference (2026)",
    "001": "wikiHow: 6-card, 4-card and variant rules, scoring guide",
    "002": "Six-card Golf guide with 4, 8 and 9-card variants",
    "003": "Golf rules summary with rating-site result fields",
    "004": "Golf with 54 cards (jokers -2), knock variant",
}


def _describe(value: Any) -> str:
    """A parameter value as a person reads it."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{key} {val}" for key, val in value.items())
    return str(value)


def _points(points: int) -> str:
    """Card points as printed: a negative number with a minus sign (U+2212), not a hyphen."""
    return f"\u2212{-points}" if points < 0 else str(points)


@require_GET
def rules_reference(request: HttpRequest) -> HttpResponse:
    """List the presets (with source and every resolved parameter) and what each parameter means."""
    presets = []
    for name, ruleset in PRESETS.items():
        data = ruleset.to_dict()
        values = data["values"]
        presets.append(
            {
                "name": name,
                "source": data["source"],
                "shape": f"{data['rows']}\u00d7{data['cols']}",
                # Jokers only where the preset plays with them; negative points with a true minus sign.
                "values": " · ".join(
                    f"{rank if rank != 'X' else 'Joker'} {_points(values[rank])}"
                    for rank in RANKS
                    if rank != "X" or data["jokers"]
                ),
                "parameters": [
                    (key, _describe(data[key]))
                    for key in PARAMETERS
                    if key in data and key not in ("values", "rows", "cols")
                ],
            }
        )
    return render(
        request,
        "scoring/rules.html",
        {"presets": presets, "parameters": list(PARAMETERS.values()), "sources": SOURCES},
    )
