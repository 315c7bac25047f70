"""Where the development server answers, for the links the demo commands print.

`make run PORT=8001` serves on another port than 8000: the Makefile passes the address it serves
as `--base-url` (or the `GOLFCLUB_BASE_URL` environment variable), so every printed link opens.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from django.core.management.base import CommandError, CommandParser

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
BASE_URL_VARIABLE = "GOLFCLUB_BASE_URL"


def add_base_url_argument(parser: CommandParser) -> None:
    """Add `--base-url` to a demo command (default: $GOLFCLUB_BASE_URL, else 127.0.0.1:8000)."""
    parser.add_argument(
        "--base-url",
        default=None,
        help=(
            "Where the server answers, for the printed links (e.g. http://127.0.0.1:8001). "
            f"Default: ${BASE_URL_VARIABLE}, else {DEFAULT_BASE_URL}."
        ),
    )


def demo_base_url(option: str | None) -> str:
    """The base of the printed links: the option, else the environment variable, else the default;
    without a trailing slash. A value that is not an http(s) address stops the command, naming it."""
    value = (option or os.environ.get(BASE_URL_VARIABLE) or DEFAULT_BASE_URL).strip()
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise CommandError(
            f"--base-url must be an http(s) address such as http://127.0.0.1:8001, not {value!r}."
        )
    return value.rstrip("/")
