"""The parser of a CSV player list sent as the body (`Content-Type: text/csv`)."""

from __future__ import annotations

from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from golfclub.core.parsers import MAX_BODY_BYTES, AnyTypeJSONParser, BoundedJSONParser


class CsvText(str):
    """A body read as CSV text (so a view tells it apart from a JSON string)."""

    __slots__ = ()


class CSVTextParser(BaseParser):
    """Reads a `text/csv` body as text (UTF-8, a BOM allowed), at most `MAX_BODY_BYTES`; the
    services check its lines (`tournaments.csv_import`)."""

    media_type = "text/csv"

    def parse(
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        """The body as `CsvText`, or a 400 naming the body."""
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise ParseError(
                _("The request body is larger than %(limit)d KB.") % {"limit": MAX_BODY_BYTES // 1024}
            )
        try:
            return CsvText(raw.decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise ParseError(_("The CSV file is not UTF-8 text: save it as CSV UTF-8.")) from None


#: JSON first (the default), CSV for the player import, then JSON whatever the Content-Type (curl -d).
TOURNAMENT_PARSERS = [BoundedJSONParser, CSVTextParser, AnyTypeJSONParser]
