"""The official rules reference in the app (/rules/official/): every section of seed 000 in the
project's words under its number (anchors `#2.3`), a search, and how each preset differs from
`official`, with its source."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from golfclub.core.limits import MAX_RULES_SEARCH
from golfclub.core.names import search_key
from scoring.rules import PARAMETERS, PRESETS, RANKS
from scoring.rules.reference import CHAPTERS, SECTIONS, Section


def matching_sections(query: str) -> list[Section]:
    """The sections whose number, title or text hold every word of `query` (all when empty)."""
    words = search_key(query).split()
    if not words:
        return list(SECTIONS)
    return [s for s in SECTIONS if all(w in search_key(f"{s.number} {s.title} {s.text}") for w in words)]


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def preset_differences() -> list[dict[str, Any]]:
    """Each preset's parameters that differ from `official`, with its source (seeds 000-004)."""
    official = PRESETS["official"].to_dict()
    result = []
    for name, ruleset in PRESETS.items():
        if name == "official":
            continue
        data = ruleset.to_dict()
        changes = []
        for key in PARAMETERS:
            if key in ("min_decks",) or key not in data or data[key] == official.get(key):
                continue
            if key == "values":
                ranks = [r for r in RANKS if data["values"].get(r) != official["values"].get(r)]
                changes.append(
                    (key, ", ".join(f"{r} {official['values'].get(r)}" for r in ranks),
                     ", ".join(f"{r} {data['values'].get(r)}" for r in ranks))
                )  # fmt: skip
            else:
                changes.append((key, _shown(official.get(key)), _shown(data[key])))
        result.append({"name": name, "source": data["source"], "changes": changes})
    return result


@require_GET
def rules_official(request: HttpRequest) -> HttpResponse:
    """The reference, searchable; with htmx, the search answers the list alone as one types."""
    query = request.GET.get("q", "")
    too_long = len(query) > MAX_RULES_SEARCH or "\x00" in query
    sections = [] if too_long else matching_sections(query)
    context = {
        "query": query[:MAX_RULES_SEARCH],
        "too_long": too_long,
        "sections": sections,
        "chapters": CHAPTERS,
        "total": len(SECTIONS),
        "presets": preset_differences(),
    }
    status = 400 if too_long else 200
    if request.htmx and request.GET.get("partial") == "1":
        return render(request, "scoring/rules_official.html#sections", context, status=status)
    return render(request, "scoring/rules_official.html", context, status=status)
