"""The landing page, and the site icon browsers ask for."""

from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from scoring import selectors

DEMO_VIEW_TOKEN = "demo-friday-view"  # made by `manage.py load_demo` (make run)


def home(request: HttpRequest) -> HttpResponse:
    """Show what the app does and the ways in: start a game, score a grid, the rules, a demo."""
    demo = selectors.game_for_token(DEMO_VIEW_TOKEN)
    demo_url = f"/games/v/{DEMO_VIEW_TOKEN}/" if demo is not None else ""
    return render(request, "home.html", {"demo_url": demo_url})


FAVICON = Path(__file__).resolve().parents[2] / "static" / "favicon.ico"


@require_http_methods(["GET", "HEAD"])
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for on their own: the flag of the page header, cached a day."""
    response = HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response
