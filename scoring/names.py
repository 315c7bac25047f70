"""Player names as people mean them: the one place a typed name is cleaned and compared.

Two names are the same player when people reading them would say so: "José" typed precomposed
or with a combining accent, full-width "ann" and "ann", "ANN" and "ann". So a name is kept in
NFKC form, without invisible characters, with its spaces collapsed (`clean_name`), and compared
by its key: Unicode's compatibility caseless match (D145), NFKC(casefold(NFKC(casefold(NFD(x)))))
(`name_key`). The key is stored next to the name (`Player.name_key`, `Seat.name_key`) and the
database's unique constraints hold on it, so uniqueness ignoring case holds for every writer.

Pure functions, no database: the services, the forms and the migration that filled the keys of
existing rows all call these.
"""

from __future__ import annotations

import unicodedata

__all__ = ["KEY_MAX_LENGTH", "MAX_NAME_LENGTH", "InvalidName", "clean_name", "is_invisible", "name_key"]

MAX_NAME_LENGTH = 40
# The key of a clean name: casefold expands a character to three at most ("ΐ"), and NFKC of an
# already NFKC text composes rather than expands; 200 leaves room. The model columns use it.
KEY_MAX_LENGTH = 200

# Default_Ignorable_Code_Point ranges (Unicode DerivedCoreProperties) that are not category Cf:
# variation selectors, Hangul fillers, the combining grapheme joiner, Khmer inherent vowels,
# Mongolian free variation selectors. They draw nothing, so a name made of them looks empty and
# two names differing only by them look the same.
_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16 (emoji/text presentation)
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol formatting
    (0xE0000, 0xE0FFF),  # tags and variation selectors 17-256
)
# Format (Cf: zero-width space and joiners, bidi marks, soft hyphen, BOM), control characters
# that are not spaces (Cc: PostgreSQL refuses NUL in text), lone surrogates (Cs: not encodable).
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Cs"})


class InvalidName(ValueError):
    """A name that cannot be used.

    `reason` is "empty" (nothing visible; `typed` tells whether anything but spaces was there, such
    as a zero-width space alone) or "too_long" (`name` is then the cleaned name).
    """

    def __init__(self, reason: str, name: str = "", *, typed: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.name = name
        self.typed = typed


def is_invisible(char: str) -> bool:
    """True for a character that draws nothing and is not a space: it is dropped from names."""
    if char.isspace():
        return False  # spaces are collapsed, not dropped: "ann\u00a0lee" stays two words
    if unicodedata.category(char) in _INVISIBLE_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def _normalise(raw: str) -> str:
    """NFKC without invisible characters, spaces collapsed to one and trimmed (no checks)."""
    # Invisible characters go first: between a letter and its accent they would keep NFKC from
    # composing the two ("e", ZWSP, U+0301 must become "é" like "e", U+0301 does).
    text = unicodedata.normalize("NFKC", "".join(c for c in raw if not is_invisible(c)))
    # NFKC can expand into spaces ("⑴" stays, "U+FDFA" becomes words); collapse after it. It never
    # yields an invisible character from visible ones, so one pass is enough (property-tested).
    return " ".join(text.split())


def clean_name(raw: object) -> str:
    """The name to store for what was typed: NFKC, no invisible characters, single spaces.

    Raises `InvalidName("empty")` when nothing visible is left (also for a non-string) and
    `InvalidName("too_long")` beyond `MAX_NAME_LENGTH` characters once cleaned.
    """
    if not isinstance(raw, str):
        raise InvalidName("empty")
    name = _normalise(raw)
    if not name:
        raise InvalidName("empty", typed=bool(raw.strip()))
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName("too_long", name)
    return name


def name_key(name: str) -> str:
    """The comparison key of a name: equal keys are the same player (case, width, composition).

    Unicode's compatibility caseless match (D145) applied to the normalised name; "" for a name
    with nothing visible. Works on any string, cleaned or not (old rows, admin edits).
    """
    text = _normalise(name)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFD", text).casefold())
    return unicodedata.normalize("NFKC", folded.casefold())
