"""The answers every API operation may give before its view runs, written into the OpenAPI schema
(a drf-spectacular postprocessing hook, `SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]`):

- 413 (`golfclub.middleware.RequestBodyLimitMiddleware`): a body over 256 KB, refused unread, on
  every operation that takes a body;
- 414 (the same middleware): an address over 2,048 characters, on every operation (gunicorn itself
  refuses a request line over 4,094 bytes, with its own small HTML 414 (not JSON));
- 429 with `Retry-After` (`golfclub.core.rate_limits`): the writes of the views wrapped by a rate
  limit (creating a game or a tournament, a game's hole writes, undo and redo).

Each in the API's one error shape (`#/components/schemas/Error`), with the body it actually sends.
tests/api/test_limit_answers.py ties these to the answers given.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from golfclub.core.errors import too_large, too_long_url
from golfclub.core.limits import MAX_API_URL_LENGTH
from golfclub.core.parsers import MAX_BODY_BYTES
from golfclub.core.rate_limits import WRITE_METHODS, too_many_requests

_ERROR = {"$ref": "#/components/schemas/Error"}
_BODY_METHODS = {"post", "put", "patch", "delete"}


def _answer(description: str, sent: HttpResponse, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": _ERROR, "example": json.loads(sent.content)}},
    }
    if headers:
        answer["headers"] = headers
    return answer


def _limit_answers() -> dict[str, dict]:
    """The 413, 414 and 429 answers, their examples the very bodies the API sends."""
    request = HttpRequest()
    request.path = "/api/v1/"
    return {
        "413": _answer(
            _("The body is over %(kb)s KB: refused before it is read; nothing is written.")
            % {"kb": MAX_BODY_BYTES // 1024},
            too_large(request, MAX_BODY_BYTES),
        ),
        "414": _answer(
            _("The address (query string included) is over %(n)s characters.") % {"n": MAX_API_URL_LENGTH},
            too_long_url(MAX_API_URL_LENGTH),
        ),
        "429": _answer(
            _("Over the rate limit: nothing is written; wait the seconds of Retry-After."),
            too_many_requests(request, 42),
            {"Retry-After": {"description": _("Seconds to wait."), "schema": {"type": "integer"}}},
        ),
    }


def document_limit_answers(result: dict[str, Any], generator: Any, **_kwargs: Any) -> dict[str, Any]:
    """Postprocessing hook: add 413, 414 and 429 where the API gives them (see the module)."""
    answers = _limit_answers()
    limited = {
        (path, method.lower())
        for path, _regex, method, callback in generator.endpoints or ()
        if method in WRITE_METHODS and getattr(callback, "rate_limited", None)
    }
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.setdefault("414", answers["414"])
            if method in _BODY_METHODS:
                responses.setdefault("413", answers["413"])
            if (path, method) in limited:
                responses.setdefault("429", answers["429"])
    return result
