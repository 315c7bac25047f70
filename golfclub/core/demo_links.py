"""Where the development server answers, for the links the demo commands print.

`make run PORT=8001` serves on another port than 8000: the Makefile passes the address it serves
as `--base-url` (or the `GOLFCLUB_BASE_URL` environment variable), so every printed link opens.
The demo account (`demo_user`) is shared by the demo tournament and the demo club.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
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


#: The demo account that directs the demo tournament and owns the demo club (development only:
#: the commands that create it refuse without DEBUG=true, its password being in the README).
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-director"


def demo_user() -> Any:
    """The demo account, created with its known password if missing (left as it is otherwise)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    if user is None:
        user = user_model.objects.create_user(DEMO_USERNAME, password=DEMO_PASSWORD)
    return user
