"""Numbers and grid sizes as shown to people: a true minus sign (U+2212) and a times sign (U+00D7).

Machine-readable places (API JSON, CSV, form values, input fields) keep "-2" and "2x3"."""

from __future__ import annotations

import re
from typing import Any

MINUS = "\u2212"
TIMES = "\u00d7"

# A hyphen that is a minus: at the start or after a space, "(", "=" or ":", and right before a digit.
_HYPHEN_MINUS = re.compile(r"(?:^|(?<=[\s(=:,/]))-(?=\d)")


def minus_sign(value: Any) -> str:
    """-4 → "\u22124"; any other value as str() shows it (a non-number is returned unchanged)."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return f"{MINUS}{-value}" if value < 0 else str(value)
    return str(value)


def signed_points(value: Any) -> str:
    """Adjustment points: "+10", "\u22122", "0"."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return f"+{value}"
    return minus_sign(value)


def minus_text(text: str) -> str:
    """Each negative number's hyphen made a minus sign ("2 = -2" reads "2 = \u22122")."""
    return _HYPHEN_MINUS.sub(MINUS, str(text))


def grid_size(rows: int, cols: int) -> str:
    """ "2\u00d73"."""
    return f"{rows}{TIMES}{cols}"
