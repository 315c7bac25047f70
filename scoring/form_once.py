"""The one-time keys of page forms that write, for apps that cannot reach the store themselves.

A form that writes carries a hidden one-time key (`{% one_time_key %}`); a double tap or a browser
sending the form again must write once and land where the first did. The store that does this is
the tournament pages' (`tournaments.web.one_time_forms.write_once`, on the API's keys table). Apps
below tournaments in the layers (clubs) may not import it, so tournaments plugs it in at start-up
(`register_form_once`, from its `ready()`), as it plugs in `scoring.api.write_once`'s store.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse


class FormOnceRunner(Protocol):
    """Carries out `write()` once per the request's form key and answers its answer."""

    def __call__(self, request: HttpRequest, write: Callable[[], HttpResponse]) -> HttpResponse: ...


_runner: FormOnceRunner | None = None


def register_form_once(runner: FormOnceRunner) -> None:
    """Plug in the store that carries out a keyed form once (tournaments' `ready()` does)."""
    global _runner
    _runner = runner


def form_once(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a page view so that its POSTs are carried out once per form key."""

    @functools.wraps(view)
    def once(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        if _runner is None:
            raise ImproperlyConfigured("No form key store is registered (the tournaments app).")
        return _runner(request, lambda: view(request, *args, **kwargs))

    return once
