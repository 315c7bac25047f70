"""The "Score a grid" page (/score/): one grid, or a whole hole of 2-8 grids, scored as you tap."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from django_htmx.http import replace_url

from golfclub.core.limits import CALCULATOR_PAGE_MAX_PLAYERS, MIN_PLAYERS
from scoring.rules import PRESETS
from scoring.web.grid_entry import build_grid_entry

from .forms import adjusted_parameters
from .page_input import ScoreInput, page_query, read_score_input
from .results import ScoreResult, grid_totals, grid_where, score_grid_page, score_hole_page

# htmx asks for a part of the page by naming the element it swaps.
PARTIAL_FOR_TARGET = {"score-result": "result", "score-grids": "grids", "score-app": "app"}


@require_http_methods(["GET", "HEAD", "POST"])
def score_page(request: HttpRequest) -> HttpResponse:
    """Score a grid (or a hole) from the form's fields; htmx requests get only the part they swap.

    GET and POST read the same fields, so the page works as a plain form with JavaScript off.
    """
    data = request.POST if request.method == "POST" else request.GET
    page = read_score_input(data)
    address = f"{request.path}?{page_query(page).urlencode()}"
    if data.get("action") and not request.htmx:
        # Add/remove a player or reset the rules without JavaScript: show the new state at an address
        # that does not repeat the action when reloaded.
        return redirect(address)
    result = score_grid_page(page) if page.mode == "grid" else score_hole_page(page)
    template = "scoring/score.html"
    partial = PARTIAL_FOR_TARGET.get(request.htmx.target or "") if request.htmx else None
    if partial:
        template = f"{template}#{partial}"
    response = render(request, template, _context(page, result))
    if request.htmx:
        # The address bar follows the grid, so a reload (or a shared link) shows the same cards.
        replace_url(response, address)
    return response


def _context(page: ScoreInput, result: ScoreResult) -> dict[str, object]:
    """The template context: the form, one grid-entry per player, the result."""
    players = [
        {
            "input": player,
            "total": total,
            "grid": build_grid_entry(
                player.prefix,
                page.rows,
                page.cols,
                player.tokens,
                result.problems,
                where=grid_where(page, player),
                label=player.display_name if page.mode == "hole" else "",
                show_label=False,
                label_input_id=f"id-name-{player.number}" if page.mode == "hole" else "",
            ),
        }
        for player, total in zip(page.players, grid_totals(page, result), strict=True)
    ]
    ruleset = page.ruleset
    preset = PRESETS.get(str(page.rules["preset"].value()))
    return {
        "page": page,
        "form": page.rules,
        "ruleset": ruleset,
        "preset": preset,
        "players": players,
        "result": result,
        "can_add_player": len(page.players) < CALCULATOR_PAGE_MAX_PLAYERS,
        "can_remove_player": len(page.players) > MIN_PLAYERS,
        "rules_open": bool(page.rules.errors) or bool(ruleset and ruleset.overrides),
        "adjusted": adjusted_parameters(ruleset),
    }
