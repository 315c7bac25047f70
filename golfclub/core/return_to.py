"""Where a login sends a visitor back: the page they were on, not the address a form posted to."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def page_to_return_to(request: HttpRequest) -> str:
    """The page to come back to after logging in: this one for a page's GET; for a form's POST or a
    part of a page (htmx), the page it was sent from (a POST-only address answers a GET with 405),
    when it is of this site; else the home page."""
    if request.method in ("GET", "HEAD") and not request.headers.get("HX-Request"):
        return request.get_full_path()
    shown = request.headers.get("HX-Current-URL") or request.headers.get("Referer") or ""
    if shown and url_has_allowed_host_and_scheme(shown, {request.get_host()}, request.is_secure()):
        parts = urlsplit(shown)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return "/"
