"""Keep edit tokens out of logs and error reports.

A game's edit link (/games/e/<token>/, /api/v1/games/<token>/) is its only key: whoever reads it can
change the scores. Django's logging (the `django.request` lines, the error e-mails to ADMINS) would
otherwise carry it in the path, the Referer, the request's META and the view's local variables.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

from django.http import HttpRequest
from django.views.debug import ExceptionReporter, SafeExceptionReporterFilter

MASK = "<token>"

# The secret path segment of every tokened URL: pages (/games/e/..., /games/v/...) and the API
# (/api/v1/games/...; "games/" alone, the collection, has no token after it).
_TOKEN_PATH = re.compile(r"(/games/(?:e/|v/)?)(?!e/|v/|new/)([^/?#\s\"']+)")


def mask_tokens(text: str) -> str:
    """`text` with every link token in a game URL replaced by "<token>"."""
    return _TOKEN_PATH.sub(lambda m: m.group(1) + MASK, text)


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
