"""Site-wide error pages: JSON under /api/ (the API's error shape), HTML elsewhere."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: the request holds a value the app cannot take; says which when it knows (`InputError`)."""
    from scoring.inputs import InputError

    if isinstance(exception, InputError):
        where, message = exception.where, exception.message
    else:
        where, message = "request", _("The request could not be read: check what was sent.")
    if _wants_json(request):
        return JsonResponse({"detail": message, "errors": [{"where": where, "message": message}]}, status=400)
    return render(request, "400.html", {"message": message}, status=400)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404: what was not found, in the API's JSON shape or as a page."""
    message = _("Nothing is at %(path)s.") % {"path": request.path}
    if _wants_json(request):
        return JsonResponse({"detail": message, "errors": [{"where": "url", "message": message}]}, status=404)
    return render(request, "404.html", {"message": message}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """500: never expected; says so plainly without leaking details."""
    message = _("Something went wrong on our side. Nothing you entered was half-saved; please try again.")
    if _wants_json(request):
        body = {"detail": message, "errors": [{"where": "server", "message": message}]}
        return JsonResponse(body, status=500)
    return render(request, "500.html", {"message": message}, status=500)
