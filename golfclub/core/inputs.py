"""The one input-cleaning layer of pages and API: text, whole numbers and link tokens from requests.

Everything a request carries (form fields, query parameters, JSON values, path segments) is checked
here before a view, a service or the database sees it; the forms (`golfclub.core.form_fields`) and
the serializers (`golfclub.core.input_fields`) are thin wrappers over these helpers, so a page and the
API refuse the same input with the same words.

Decisions:

- **Text** is a `str` (a JSON number, list or object is refused, never turned into text) without
  NUL, without half a UTF-16 surrogate pair, and without control characters (Unicode category Cc)
  other than tab, line feed and carriage return, which the app already treats as spaces.
- **Whole numbers** are written with the ASCII digits 0-9 and an optional sign, at most
  `MAX_DIGITS` digits: "²", "٣" or full-width digits are refused rather than guessed at (a superscript two is
  not a 2 on a score card, and normalising would hide typos). JSON numbers must be JSON integers
  (not true/false, not 2.0, not "2").
- **Link tokens** are URL-safe base64, 1 to 64 characters (`secrets.token_urlsafe`): anything else
  names no game, and is answered 404 without asking the database.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

# Defined in golfclub.core.limits with every other limit; importers of this module find them here.
from golfclub.core.limits import INT_MAX as INT_MAX
from golfclub.core.limits import MAX_DIGITS as MAX_DIGITS
from golfclub.core.limits import SMALL_INT_MAX as SMALL_INT_MAX

TOKEN_PATTERN = r"[A-Za-z0-9_-]{1,64}"
_TOKEN = re.compile(TOKEN_PATTERN)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_WHITESPACE_CONTROLS = frozenset("\t\n\r")
_PREVIEW_LENGTH = 24


class InputError(ValueError):
    """A value a request sent that the app cannot take: `where` it is and what is wrong with it.

    The API answers it as a 400 in its JSON error shape (`scoring.api.errors`); pages as a 400 page
    (`golfclub.middleware.InputGuardMiddleware`); forms and serializers turn it into a field error.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages ("a number", "a list", "null")."""
    if value is None:
        return _("null")
    if isinstance(value, bool):
        return _("true/false")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, Mapping):
        return _("an object")
    if isinstance(value, (list, tuple)):
        return _("a list")
    return type(value).__name__


def preview(value: Any) -> str:
    """A short, printable rendering of a refused value for a message: controls and surrogates escaped."""
    text = value if isinstance(value, str) else repr(value)
    shown = text[:_PREVIEW_LENGTH]
    escaped = "".join(
        char if char.isprintable() and not _is_surrogate(char) else f"\\u{ord(char):04x}" for char in shown
    )
    return escaped + ("\u2026" if len(text) > _PREVIEW_LENGTH else "")


def _is_surrogate(char: str) -> bool:
    return 0xD800 <= ord(char) <= 0xDFFF


def text_problem(value: str) -> str | None:
    """What makes `value` unusable as text (a NUL, a lone surrogate, a control character), or None."""
    for char in value:
        if char == "\x00":
            return _("contains a NUL character (\\0), which text cannot hold")
        if _is_surrogate(char):
            return _("contains half of a UTF-16 surrogate pair (U+%(code)04X), which is not a character") % {
                "code": ord(char)
            }
        if char not in _WHITESPACE_CONTROLS and unicodedata.category(char) == "Cc":
            return _("contains the control character U+%(code)04X, which text cannot hold") % {
                "code": ord(char)
            }
    return None


def clean_text(value: Any, where: str, *, max_length: int | None = None) -> str:
    """`value` as text, or `InputError` naming `where`: a string, no NUL, surrogate or control character.

    The text is returned as given (no stripping, no case folding): normalising names is the services'
    job. `max_length` (characters) is checked when given.
    """
    if not isinstance(value, str):
        raise InputError(
            where,
            _("%(where)s must be text, not %(type)s.") % {"where": where, "type": json_type(value)},
        )
    problem = text_problem(value)
    if problem:
        raise InputError(where, _("%(where)s %(problem)s.") % {"where": where, "problem": problem})
    if max_length is not None and len(value) > max_length:
        raise InputError(
            where,
            _("%(where)s is longer than %(max)d characters.") % {"where": where, "max": max_length},
        )
    return value


def parse_int(
    value: Any, where: str, *, minimum: int | None = None, maximum: int | None = None, allow_text: bool = True
) -> int:
    """`value` as a whole number within [minimum, maximum], or `InputError` saying what and where.

    A JSON integer is taken as it is (true/false and 2.0 are refused). Text (a form field, a query
    parameter; only when `allow_text`) must be ASCII digits with an optional sign, surrounding spaces
    ignored, at most `MAX_DIGITS` digits.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and allow_text:
        text = value.strip(" \t\r\n")
        if not _INTEGER.fullmatch(text):
            raise InputError(
                where,
                _('%(where)s must be a whole number written with the digits 0-9, not "%(value)s".')
                % {"where": where, "value": preview(value)},
            )
        if len(text.lstrip("+-")) > MAX_DIGITS:
            raise InputError(
                where,
                _("%(where)s has more than %(max)d digits: no such number is used here.")
                % {"where": where, "max": MAX_DIGITS},
            )
        number = int(text)
    else:
        raise InputError(
            where,
            _("%(where)s must be a whole number, not %(type)s.") % {"where": where, "type": json_type(value)},
        )
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise InputError(where, _range_message(where, number, minimum, maximum))
    return number


def _range_message(where: str, number: int, minimum: int | None, maximum: int | None) -> str:
    shown = preview(str(number)) if abs(number) < 10**MAX_DIGITS else _("a huge number")
    if minimum is not None and maximum is not None:
        return _("%(where)s must be from %(min)d to %(max)d, not %(value)s.") % {
            "where": where,
            "min": minimum,
            "max": maximum,
            "value": shown,
        }
    if minimum is not None:
        return _("%(where)s must be at least %(min)d, not %(value)s.") % {
            "where": where,
            "min": minimum,
            "value": shown,
        }
    return _("%(where)s must be at most %(max)d, not %(value)s.") % {
        "where": where,
        "max": maximum,
        "value": shown,
    }


def optional_int(
    value: Any, where: str, *, minimum: int | None = None, maximum: int | None = None
) -> int | None:
    """Like `parse_int`, but a missing or blank value is None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return parse_int(value, where, minimum=minimum, maximum=maximum)


def int_or_none(value: Any, *, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """The whole number `value` holds, or None for anything missing or unusable (never raises).

    For values read ahead of a form's own validation (which then names the problem), and for the
    live preview, which must not complain about what is still being typed.
    """
    try:
        return optional_int(value, "value", minimum=minimum, maximum=maximum)
    except InputError:
        return None


def text_or_none(value: Any, *, max_length: int | None = None) -> str | None:
    """`value` when it is usable, non-blank text, else None (never raises); see `int_or_none`."""
    try:
        text = clean_text(value, "value", max_length=max_length)
    except InputError:
        return None
    return text or None


def is_token(value: Any) -> bool:
    """True when `value` could be a game's link token (URL-safe base64, 1 to 64 characters)."""
    return isinstance(value, str) and _TOKEN.fullmatch(value) is not None


def first_bad_field(data: Any, where: str) -> InputError | None:
    """The first key or value of a QueryDict (query string, form body) that is not usable text.

    The last line of defence for fields no form declares: a NUL anywhere is refused before any view
    runs. `where` says which part of the request ("query string", "form").
    """
    for key, values in data.lists():
        for part in (key, *values):
            if not isinstance(part, str):
                continue  # uploaded files: none of our forms take any
            problem = text_problem(part)
            if problem:
                name = preview(key)
                return InputError(
                    name,
                    _("The %(part)s field %(name)s %(problem)s.")
                    % {"part": where, "name": name, "problem": problem},
                )
    return None
