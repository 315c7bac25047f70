"""One JSON error shape for the whole API: {"errors": [{"where": ..., "message": ...}], "detail": ...}."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def _flatten(detail: Any, where: str = "") -> list[dict[str, str]]:
    """Turn DRF's nested error detail into a flat list of {where, message}."""
    if isinstance(detail, dict):
        out: list[dict[str, str]] = []
        for key, value in detail.items():
            if key in ("non_field_errors", "detail"):
                child = where
            else:
                child = f"{where}.{key}" if where else str(key)
            out.extend(_flatten(value, child))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out.extend(_flatten(value, f"{where}[{index}]"))
            else:
                out.extend(_flatten(value, where))
        return out
    return [{"where": where or "body", "message": str(detail)}]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, then reshape every error body to {"errors": [...], "detail": "..."}."""
    from scoring.rules.errors import RulesError

    if isinstance(exc, RulesError):
        return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(response.data)
    else:
        errors = [{"where": "request", "message": str(getattr(exc, "detail", exc))}]
    response.data = {"detail": errors[0]["message"] if errors else "", "errors": errors}
    return response
