"""Keep secret links out of logs and error reports.

A game's edit link (/games/e/<token>/, /api/v1/games/<token>/), a tournament table's link
(/tournaments/table/<token>/) or a player's page (/tournaments/player/<token>/) is its only key:
whoever reads it can act with it. Every route with a secret path converter is masked (the patterns
are derived from the URLconf, so a new secret route is masked with no list to update), and so are
secrets in query strings and Authorization headers. Django's logging (the `django.request` lines,
the error e-mails to ADMINS) would otherwise carry them in the path, the Referer, the request's
META and the view's local variables.
"""

from __future__ import annotations

import copy
import functools
import logging
import re
from typing import Any

from django.http import HttpRequest
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

MASK = "<token>"

# Used until the URLconf can be read (gunicorn's master before the app loads, a broken URLconf):
# the secret routes known when this was written. Once Django is set up, `_secret_paths()` derives
# the patterns from every route with a secret path converter instead.
_FALLBACK_PATHS = re.compile(
    r"(/(?:games/(?:e/|v/)|api/v1/games/|tournaments/(?:table|player)/|clubs/(?:p|invitations)/))"
    r"(?!e/|v/|new/)([A-Za-z0-9_-]{1,64})"
)
# A secret in a query string (?token=..., &key=...) or an Authorization header's credentials.
_QUERY_SECRET = re.compile(r"([?&](?:[A-Za-z_]*token|[A-Za-z_]*key|password)=)([^&\s\"'#]+)", re.IGNORECASE)
_AUTH_SECRET = re.compile(r"\b((?:Token|Bearer|Basic)\s+)([A-Za-z0-9._~+/=-]{8,})")


def secret_routes() -> list[tuple[str, str]]:
    """(route, converter name) of every URL pattern that carries a secret path converter (one whose
    class says `secret = True`), routes written as in the URLconf ("tournaments/table/<token:token>/")."""
    from django.urls import get_resolver
    from django.urls.resolvers import URLResolver

    found: list[tuple[str, str]] = []

    def walk(resolver: URLResolver, prefix: str) -> None:
        for entry in resolver.url_patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry, route)
                continue
            for name, converter in _route_converters(route).items():
                if getattr(converter, "secret", False):
                    found.append((route, name))

    walk(get_resolver(), "")
    return found


def _route_converters(route: str) -> dict[str, Any]:
    """The converters named in a route ("<token:token>" -> {"token": TokenConverter()})."""
    from django.urls.converters import get_converters

    known = get_converters()
    return {
        match.group(2): known[match.group(1)]
        for match in re.finditer(r"<([A-Za-z_]\w*):([A-Za-z_]\w*)>", route)
        if match.group(1) in known
    }


def _secret_prefix_regex(route: str) -> str | None:
    """The regex of a route up to its first secret segment ("tournaments/table/"), other converters
    replaced by their own regex, or None for a regex route (re_path)."""
    from django.urls.converters import get_converters

    known = get_converters()
    pieces: list[str] = []
    position = 0
    for match in re.finditer(r"<(?:([A-Za-z_]\w*):)?([A-Za-z_]\w*)>", route):
        pieces.append(re.escape(route[position : match.start()]))
        converter = known.get(match.group(1) or "str")
        if converter is None:
            return None
        if getattr(converter, "secret", False):
            return "".join(pieces)
        pieces.append(f"(?:{converter.regex})")
        position = match.end()
    return None


@functools.cache
def _secret_paths() -> re.Pattern[str] | None:
    """One regex whose group 1 is a secret route's prefix and group 2 its secret (None: no URLconf)."""
    from django.conf import settings

    from golfclub.core.inputs import TOKEN_PATTERN

    if not settings.configured:
        raise LookupError("settings not configured")
    prefixes = sorted(
        {prefix for route, _ in secret_routes() if (prefix := _secret_prefix_regex(route)) is not None},
        key=len,
        reverse=True,
    )
    if not prefixes:
        return None
    # A link inside a query string may come percent-encoded (`?next=%2Fclubs%2Finvitations%2F...`,
    # the login page a logged-out visitor of a secret link is sent to): its slashes match too.
    routes = f"/(?:{'|'.join(prefixes)})".replace("/", "(?:/|%2[Ff])")
    return re.compile(f"({routes})({TOKEN_PATTERN})")


def _path_pattern() -> re.Pattern[str] | None:
    try:
        return _secret_paths()
    except Exception:  # logging must never fail: fall back to the known routes
        return _FALLBACK_PATHS


def mask_tokens(text: str) -> str:
    """`text` with every secret in it masked as "<token>": the secret segment of every route with a
    secret converter, secrets in query strings and the credentials of Authorization headers."""
    pattern = _path_pattern()
    if pattern is not None:
        text = pattern.sub(lambda m: m.group(1) + MASK, text)
    text = _QUERY_SECRET.sub(lambda m: m.group(1) + MASK, text)
    return _AUTH_SECRET.sub(lambda m: m.group(1) + MASK, text)


def _mask(value: Any) -> Any:
    """Mask strings, and strings inside tuples, lists and dicts; leave anything else as it is."""
    if isinstance(value, str):
        return mask_tokens(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_mask(item) for item in value)
    if isinstance(value, dict):
        return {key: _mask(item) for key, item in value.items()}
    return value


def masked_request(request: HttpRequest) -> HttpRequest:
    """A shallow copy of `request` whose path, META and GET show no token (for error reports)."""
    clone = copy.copy(request)
    clone.path = mask_tokens(request.path)
    clone.path_info = mask_tokens(request.path_info)
    clone.META = {key: _mask(value) for key, value in request.META.items()}
    if hasattr(clone, "environ"):
        clone.environ = clone.META
    return clone


class MaskTokensFilter(logging.Filter):
    """Logging filter: masks tokens in the message, its arguments and the attached request."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = mask_tokens(record.msg)
        if record.args:
            record.args = _mask(record.args) if isinstance(record.args, (tuple, dict)) else record.args
        request = getattr(record, "request", None)
        if isinstance(request, HttpRequest) and not getattr(request, "_tokens_masked", False):
            record.request = masked_request(request)
            record.request._tokens_masked = True  # type: ignore[attr-defined]
        return True


class TokenMaskingReporterFilter(SafeExceptionReporterFilter):
    """Django's error-report filter, also masking tokens in request META and frame variables."""

    def get_safe_request_meta(self, request: HttpRequest) -> dict[str, Any]:
        """META with secrets cleansed as usual, and tokens masked in what is left."""
        return {key: _mask(value) for key, value in super().get_safe_request_meta(request).items()}

    def get_traceback_frame_variables(self, request: HttpRequest, tb_frame: Any) -> Any:
        """Frame variables with tokens masked: a variable named like a secret ("token") is hidden."""
        cleansed = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            if self.hidden_settings.search(name):
                value = self.cleansed_substitute
            elif isinstance(value, (str, list, tuple, dict)):
                value = _mask(value)
            cleansed.append((name, value))
        return cleansed


class TokenMaskingExceptionReporter(ExceptionReporter):
    """Django's error report (the ADMINS e-mail, text and HTML) with tokens masked everywhere in it.

    The reporter filter above cleans the parts Django lets it; an exception's own message or a
    source line can still quote a URL, so the finished report is masked as a whole too.
    """

    def get_traceback_text(self) -> str:
        """The plain-text report, masked."""
        return mask_tokens(super().get_traceback_text())

    def get_traceback_html(self) -> str:
        """The HTML report, masked (tokens appear there unescaped, or with / as-is)."""
        return mask_tokens(super().get_traceback_html())
