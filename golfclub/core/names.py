"""Player names as people mean them: the one place a typed name is cleaned and compared.

Two names are the same player when people reading them would say so: "José" typed precomposed
or with a combining accent, full-width "ann" and "ann", "ANN" and "ann". So a name is kept in
NFKC form, without invisible characters, with its spaces collapsed (`clean_name`), and compared
by its key: Unicode's compatibility caseless match (D145), NFKC(casefold(NFKC(casefold(NFD(x)))))
(`name_key`). The key is stored next to the name (`Player.name_key`, `Seat.name_key`) and the
database's unique constraints hold on it, so uniqueness ignoring case holds for every writer.

Pure functions, no database: the services, the forms and the migration that filled the keys of
existing rows all call these. The rules a list of player names must meet (readable, visible, not
too long, all different, as many as a table seats) are checked in one place, `check_player_names`,
with one catalogue of messages (`NameProblem.message`); the start page, the API serializers and the
services all call it. The limits themselves are in `golfclub.core.limits`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from golfclub.core.inputs import text_problem
from golfclub.core.limits import KEY_MAX_LENGTH, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS

__all__ = [
    "KEY_MAX_LENGTH",
    "MAX_NAME_LENGTH",
    "CheckedNames",
    "InvalidName",
    "NameProblem",
    "check_player_names",
    "clean_name",
    "is_invisible",
    "name_key",
    "search_key",
    "too_long_message",
]


def too_long_message(limit: int, length: int) -> str:
    """How every over-long name is refused, with the limit and the length: never cut silently."""
    return _("at most %(limit)s characters; this one has %(length)s") % {"limit": limit, "length": length}


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
    if raw.isascii() and raw.isprintable():
        # The usual name, and on every recorded hole's path: printable ASCII holds no invisible
        # character and NFKC leaves it as it is (the same answer, about 10 us less per name).
        return " ".join(raw.split())
    return _normalise_unicode(raw)


def _normalise_unicode(raw: str) -> str:
    """`_normalise` for any text, step by step."""
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
    if text.isascii():
        return text.casefold()  # NFD and NFKC leave ASCII as it is: the same answer
    return _caseless_key(text)


def _caseless_key(text: str) -> str:
    """`name_key` of a normalised name, for any text."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFD", text).casefold())
    return unicodedata.normalize("NFKC", folded.casefold())


def search_key(text: str) -> str:
    """`text` as people read a name when they look it up: accents, case and width ignored.

    "Zoé", "ZOE" and "zoe" have one search key. The event day's "find my table" matches on it, and
    the players of one tournament must differ by it (`tournaments.services.entrants`): two players
    a search cannot tell apart would each find the other's table. Games keep `name_key` (case and
    width only): there "Zoé" and "Zoe" may be two people at one family table. The rules reference's
    search reads its words the same way ("Règle" finds "regle").
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# -- The rules a list of player names must meet -------------------------------------------------


@dataclass(frozen=True)
class NameProblem:
    """One thing wrong with the names given for a table.

    `code` is "unreadable" (a NUL, a lone surrogate or a control character: `detail` says which),
    "empty" (nothing typed), "invisible" (only characters that show nothing), "too_long" (`name`
    is the cleaned name), "duplicate" (`name` reads as the name at position `other`), "too_few" or
    "too_many" (`count` names given; `minimum`/`maximum` the bounds). `position` is the name's
    1-based place in the list as given (blank seats counted), None for the list as a whole.
    """

    code: str
    position: int | None
    name: str = ""
    other: int | None = None
    detail: str = ""
    count: int = 0
    minimum: int = MIN_PLAYERS
    maximum: int = MAX_PLAYERS

    def message(self, *, numbered: bool = False) -> str:
        """The message people read: as the services and the API say it, or `numbered` as the start page does.

        The start page lists the seats typed, so its messages start with "Player N:" and point at
        the other player of a duplicate; the services and the API name the seat or the name, and the
        problem's `where` points at it. Both sets live here; tests pin both.
        """
        seat = self.position
        if self.code == "unreadable":
            if numbered:
                return _("Player %(seat)s: the name %(problem)s.") % {"seat": seat, "problem": self.detail}
            return _("Seat %(n)s: the name %(problem)s.") % {"n": seat, "problem": self.detail}
        if self.code == "empty":
            return _("Seat %(n)s needs a name.") % {"n": seat}
        if self.code == "invisible":
            if numbered:
                return _("Player %(seat)s: the name has no visible characters.") % {"seat": seat}
            return _("Seat %(n)s needs a name: this one has no visible characters.") % {"n": seat}
        if self.code == "too_long":
            if numbered:
                return _("Player %(seat)s: the name is too long: %(limit)s.") % {
                    "seat": seat,
                    "limit": too_long_message(MAX_NAME_LENGTH, len(self.name)),
                }
            return _("The name %(name)s is too long: %(limit)s.") % {
                "name": self.name[:MAX_NAME_LENGTH] + "\u2026",
                "limit": too_long_message(MAX_NAME_LENGTH, len(self.name)),
            }
        if self.code == "duplicate":
            if numbered:
                return _('Player %(seat)s: "%(name)s" is already player %(other)s; names must differ.') % {
                    "seat": seat,
                    "name": self.name,
                    "other": self.other,
                }
            return _("%(name)s is already at the table: names must differ.") % {"name": self.name}
        if self.code == "too_few" and numbered:
            return _("Enter at least %(min)s player names.") % {"min": self.minimum}
        if self.code == "too_many" and numbered:
            return _("At most %(max)s players can sit at one table.") % {"max": self.maximum}
        return _("A game needs %(min)s to %(max)s players; %(n)s given.") % {
            "min": self.minimum,
            "max": self.maximum,
            "n": self.count,
        }


@dataclass(frozen=True)
class CheckedNames:
    """The clean names in seat order (blank seats left out when allowed) and what is wrong, if anything."""

    names: list[str] = field(default_factory=list)
    problems: list[NameProblem] = field(default_factory=list)


def _problem_of(raw: object, position: int) -> NameProblem | str:
    """The clean name for one typed name, or the problem with it."""
    if isinstance(raw, str):
        unreadable = text_problem(raw)
        if unreadable:  # say so rather than drop it silently: people did not mean to type it
            return NameProblem("unreadable", position, detail=unreadable)
    try:
        return clean_name(raw)
    except InvalidName as bad:
        if bad.reason == "too_long":
            return NameProblem("too_long", position, name=bad.name)
        return NameProblem("invisible" if bad.typed else "empty", position)


def check_player_names(
    raw: Iterable[object],
    *,
    minimum: int = MIN_PLAYERS,
    maximum: int = MAX_PLAYERS,
    skip_blank: bool = False,
) -> CheckedNames:
    """Clean and check the names for a table: readable, visible, not too long, all different, a table's worth.

    The one check of player names: the start page, the API serializers and the services call it,
    so they accept and refuse the same names. Two names are the same player when their `name_key`s
    are equal. With `skip_blank` (the start page's empty rows) a seat left blank is left out rather
    than refused. "too_few" is reported only when every name is fine (the count is then certain);
    "too_many" always. Pass `minimum=maximum=1` to check one name.
    """
    names: list[str] = []
    problems: list[NameProblem] = []
    seen: dict[str, int] = {}
    for position, value in enumerate(raw, start=1):
        result = _problem_of(value, position)
        if isinstance(result, NameProblem):
            if not (skip_blank and result.code == "empty"):
                problems.append(result)
            continue
        key = name_key(result)
        if key in seen:
            problems.append(NameProblem("duplicate", position, name=result, other=seen[key]))
            continue
        seen[key] = position
        names.append(result)
    counted = {"count": len(names), "minimum": minimum, "maximum": maximum}
    if not problems and len(names) < minimum:
        problems.append(NameProblem("too_few", None, **counted))
    if len(names) > maximum:
        problems.append(NameProblem("too_many", None, **counted))
    return CheckedNames(names, problems)
