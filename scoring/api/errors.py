"""The one way an error becomes an answer of the API (`exception_handler`, DRF's EXCEPTION_HANDLER:
every view raises, none answers an error itself), and the schema of its one JSON error shape,
{"detail": ..., "errors": [{"where": ..., "message": ...}]}, whose body `golfclub.core.errors` builds.

`where` is a path into the request ("grid[1][3]", "ruleset.values.Q", "grids.ann", "ender"), or
"body" for a body that is not usable JSON at all, or "request" for problems with the request itself
(method, URL, Content-Type). `detail` repeats the first message so simple clients can show one line.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from golfclub.core.errors import answered_body, error_body, is_answered, status_for
from golfclub.core.inputs import InputError

# Where to point a problem that DRF raises about the request as a whole.
_WHERE_BY_EXCEPTION: tuple[tuple[type[exceptions.APIException], str], ...] = (
    (exceptions.ParseError, "body"),
    (exceptions.UnsupportedMediaType, "request"),
    (exceptions.MethodNotAllowed, "request"),
    (exceptions.NotFound, "request"),
)


def _join(where: str, key: str) -> str:
    """Extend a path: "grid" + "[2][1]" -> "grid[2][1]", "ruleset" + "rows" -> "ruleset.rows"."""
    if not where:
        return key
    return f"{where}{key}" if key.startswith("[") else f"{where}.{key}"


def flatten_errors(detail: Any, where: str = "") -> list[dict[str, str]]:
    """Turn DRF's nested error detail into a flat list of {where, message}; no path at all means "body"."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            if key in ("non_field_errors", "detail"):
                child = where
            elif isinstance(key, int):  # DRF's ListField reports items by 0-based index
                child = f"{where}[{key + 1}]"
            else:
                child = _join(where, str(key))
            out.extend(flatten_errors(value, child))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                # DRF's ListField reports children by 0-based index; the API speaks 1-based.
                out.extend(flatten_errors(value, f"{where}[{index + 1}]"))
            else:
                out.extend(flatten_errors(value, where))
        return out
    return [{"where": where or "body", "message": str(detail)}]


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request body checked by `serializer_class`: its validated data, or a 400 naming each
    problem (raised, and answered by `exception_handler` like every other error of the API).

    A serializer on a hot path may define `validated_quickly(data)`: the same validated data for
    the usual body without building the serializer, None to let the serializer check it."""
    quickly = getattr(serializer_class, "validated_quickly", None)
    if quickly is not None and (data := quickly(request.data)) is not None:
        return data
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, then reshape every error body to {"detail": "...", "errors": [...]}, built by
    `golfclub.core.errors.error_body` like every error answer of the site.

    Answered errors (the rules engine's `RulesError`, `GameError` and the kinds built on it) are
    answered with their own problem list, whose `where` paths already point into the request, and
    their kind's status; `golfclub.core.inputs.InputError` (a query parameter that is not usable
    text or number) a 400 naming it.
    """
    if is_answered(exc):
        return Response(answered_body(exc), status=status_for(exc))
    if isinstance(exc, InputError):  # a query parameter or header refused by golfclub.core.inputs
        return Response(error_body([exc]), status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.AuthenticationFailed):
        # Credentials sent but wrong (a revoked or mistyped token): 401 with the scheme to use, as
        # HTTP says, on every endpoint alike. DRF answers 403 where the session authenticates first
        # (it has no WWW-Authenticate); a CSRF refusal is a PermissionDenied and stays a 403.
        response.status_code = status.HTTP_401_UNAUTHORIZED
        response["WWW-Authenticate"] = "Token"
    detail = getattr(exc, "detail", None)
    if isinstance(exc, exceptions.ValidationError) or isinstance(detail, (dict, list)):
        errors = flatten_errors(response.data)
    else:
        where = next((w for kind, w in _WHERE_BY_EXCEPTION if isinstance(exc, kind)), "request")
        errors = [{"where": where, "message": str(detail if detail is not None else exc)}]
    response.data = error_body(errors)
    return response


class ProblemSerializer(serializers.Serializer):
    """One problem: where in the request, and what is wrong there."""

    where = serializers.CharField(
        help_text=gettext_lazy(
            'A path into the request: "grid[1][3]" (row 1, column 3), "ruleset.values.Q", "ender".'
        )
    )
    message = serializers.CharField(
        help_text=gettext_lazy("What is wrong, in a sentence a player understands.")
    )


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer of the API."""

    detail = serializers.CharField(help_text=gettext_lazy("The first problem's message."))
    errors = ProblemSerializer(many=True, help_text=gettext_lazy("Every problem found, not only the first."))
