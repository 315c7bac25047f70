"""The landing page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring import selectors

DEMO_VIEW_TOKEN = "demo-friday-view"  # made by `manage.py load_demo` (make run)


def home(request: HttpRequest) -> HttpResponse:
    """Show what the app does and the ways in: start a game, score a grid, the rules, a demo."""
    demo = selectors.game_for_token(DEMO_VIEW_TOKEN)
    demo_url = f"/games/v/{DEMO_VIEW_TOKEN}/" if demo is not None else ""
    return render(request, "home.html", {"demo_url": demo_url})
