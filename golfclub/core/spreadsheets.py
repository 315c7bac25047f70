"""Cells of exported CSV files made safe for spreadsheets (OWASP's "CSV injection").

A text cell a spreadsheet would run as a formula gets a leading `'`, which shows as nothing and
makes the cell text. Spreadsheets fold compatibility characters (a full-width equals sign, U+FF1D, is run
as `=`), so the check reads the cell in NFKC form. Numbers stay numbers: a score of -2, a signed
number or a list of numbers ("-2, -2, 0", the tiebreak columns) is not a formula anyone can abuse,
and quoting it would spoil the column (issue 19).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

#: What a formula starts with (after NFKC): =, +, -, @; a tab or carriage return before any of them.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Plain ASCII numbers, signed or decimal, alone or in a list split by commas, semicolons, slashes
# or spaces: "-2", "+44", "1.5", "-2, -2, 0".
_NUMBERS = re.compile(r"[+-]?\d+(?:\.\d+)?(?:\s*[,;/ ]\s*[+-]?\d+(?:\.\d+)?)*", re.ASCII)


def formula_safe(value: Any) -> Any:
    """`value`, with a text cell a spreadsheet would evaluate made inert by a leading quote."""
    if not isinstance(value, str) or not value:
        return value
    if _NUMBERS.fullmatch(value):
        return value
    folded = unicodedata.normalize("NFKC", value)
    # Leading spaces (also full-width or no-break ones) do not stop a spreadsheet reading "=".
    if folded.startswith(FORMULA_STARTS) or folded.lstrip().startswith(FORMULA_STARTS):
        return "'" + value
    return value
