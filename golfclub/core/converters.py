"""Path converters of the URL files: a link token, a small whole number, a database id.

Anything else in those places matches no route, so it is a 404 before any view or query runs:
`/games/e/abc%00def/` or `/api/v1/games/<65 characters>/` never reach the database, and a hole
number of 5,000 digits never reaches `int()`.
"""

from __future__ import annotations

from django.urls import register_converter

from golfclub.core.inputs import TOKEN_PATTERN


class TokenConverter:
    """A game's edit or view token: URL-safe base64, 1 to 64 characters."""

    regex = TOKEN_PATTERN
    #: A secret: whoever reads the link may use it. Every route with a secret converter is masked in
    #: the logs (golfclub/log_filters.py derives its patterns from the URLconf), with no list to keep.
    secret = True

    def to_python(self, value: str) -> str:
        """As it is."""
        return value

    def to_url(self, value: str) -> str:
        """As it is."""
        return value


class NumberConverter:
    """A hole number or a seat index: at most 9 ASCII digits (fits every integer column)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        """The number."""
        return int(value)

    def to_url(self, value: int) -> str:
        """The number as digits."""
        return str(value)


class IdConverter(NumberConverter):
    """A database id (a 64-bit big integer): at most 18 ASCII digits."""

    regex = "[0-9]{1,18}"


register_converter(TokenConverter, "token")
register_converter(NumberConverter, "number")
register_converter(IdConverter, "id")
