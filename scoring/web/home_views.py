"""The landing page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Show what the app does and the ways in: score a grid, start a game, your games."""
    return render(request, "home.html")
