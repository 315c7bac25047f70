"""JSON request parsers for the scoring API: bounded in size and depth, strict about keys named
twice, and forgiving about Content-Type."""

from __future__ import annotations

import codecs
import functools
import json
from typing import IO, Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser, get_encoding

# A whole table's hole is well under 4 KB; anything far larger is a mistake or an attack.
MAX_BODY_BYTES = 256 * 1024


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, but a too-large body or absurdly deep nesting is a 400, never a 500, and
    an object naming a key twice is a 400 naming that key and where it is, never last-one-wins.

    The standard parser lets `RecursionError` (from "[[[[..." thousands deep) escape as a server error
    and reads bodies of any size into memory.
    """

    def parse(
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Any = None
    ) -> Any:
        """Parse the body as strict JSON (no NaN or Infinity)."""
        encoding = get_encoding(parser_context or {})
        raw = stream.read(MAX_BODY_BYTES + 1) if stream is not None else b""
        if len(raw) > MAX_BODY_BYTES:
            raise ParseError(
                _("The request body is larger than %(limit)d KB.") % {"limit": MAX_BODY_BYTES // 1024}
            )
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeError, LookupError) as error:
            raise ParseError(
                _("The request body is not valid %(encoding)s text: %(error)s.")
                % {
                    "encoding": encoding,
                    "error": error,
                }
            ) from error
        if not text.strip():
            return {}
        try:
            repeated: list[_Repeated] = []
            data = json.loads(
                text, parse_constant=_reject_constant, object_pairs_hook=functools.partial(_object, repeated)
            )
        except RecursionError:
            raise ParseError(_("The JSON body is nested too deeply.")) from None
        except ValueError as error:
            raise ParseError(
                _("The request body is not valid JSON: %(error)s.") % {"error": error}
            ) from error
        _reject_lone_surrogates(data)
        if repeated:  # looked for only then: the usual body costs one comparison per object
            _reject_duplicate_keys(data)
        return data


class AnyTypeJSONParser(BoundedJSONParser):
    """Reads JSON whatever Content-Type the client sent.

    `curl -d '{...}' URL` sends `application/x-www-form-urlencoded`; answering 415 to that is
    technically right and useless to a player trying the API for the first time.
    """

    media_type = "*/*"


def _reject_lone_surrogates(data: Any) -> None:
    """JSON may escape half a UTF-16 pair (a backslash, "ud800"): that is no character, and no answer
    echoing it could be encoded as UTF-8, so refuse it here rather than fail rendering the answer."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ParseError(
            _("The JSON body holds an unpaired surrogate escape (\\ud800 to \\udfff): not a character.")
        ) from None
    except RecursionError:  # json.loads accepted a depth that json.dumps does not
        raise ParseError(_("The JSON body is nested too deeply.")) from None


class _Repeated(dict):  # type: ignore[type-arg]
    """A JSON object that named a key more than once (`repeated`, in order): marked while parsing,
    refused once the whole body is read, when the object's place in it can be named."""

    repeated: list[str]


def _object(found: list[_Repeated], pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`' object hook: the object as a dict, marked (and added to `found`) when a key
    came twice. Python's default keeps the last value silently: `{"Ann": 3, "Ann": 9}` would score
    Ann 9 without a word."""
    built = dict(pairs)
    if len(built) == len(pairs):
        return built
    marked = _Repeated(built)
    seen: set[str] = set()
    marked.repeated = [key for key, _value in pairs if key in seen or seen.add(key)]
    found.append(marked)
    return marked


def _reject_duplicate_keys(data: Any, where: str = "") -> None:
    """A 400 naming the first key given twice, and where (`entries.Ann`: "Ann" twice in `entries`)."""
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, _Repeated):
            key = value.repeated[0]
            path = f"{at}.{key}" if at else key
            inside = at or _("the body")
            raise ParseError(
                {
                    path: [
                        _(
                            'The key "%(key)s" is given more than once in %(where)s: a JSON object '
                            "names each key once (which one was meant?). Send it once."
                        )
                        % {"key": key, "where": inside}
                    ]
                }
            )
        if isinstance(value, dict):
            stack.extend((child, f"{at}.{key}" if at else key) for key, child in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((child, f"{at}[{index + 1}]") for index, child in reversed(list(enumerate(value))))


def _reject_constant(name: str) -> Any:
    """JSON has no NaN or Infinity; Python's json module accepts them unless told not to."""
    raise ValueError(_("%(name)s is not a JSON number") % {"name": name})


SCORING_PARSERS: list[type[BaseParser]] = [BoundedJSONParser, AnyTypeJSONParser]
