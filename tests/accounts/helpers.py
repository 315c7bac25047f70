"""What the accounts tests share: the personas' passwords, and a page's text."""

from __future__ import annotations

import re

DANA_PASSWORD = "spring-open-director-2026"
FRAN_PASSWORD = "friday-night-golf-77"


def text(response) -> str:
    """The page as a person reads it: tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
