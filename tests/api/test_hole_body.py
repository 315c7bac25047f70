"""The hole body's quick check (scoring.api.games.hole_body, HoleWriteSerializer's fast path)
agrees with the serializer's fields.

Whatever it accepts, the fields accept with the same validated data; whatever the fields refuse, it
leaves to them (None), so that every error keeps the serializer's wording. HoleWriteSerializer
itself answers the quick check's data for the usual body and the fields' answer for any other.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from scoring.api.errors import validated
from scoring.api.games.hole_body import plain_hole_body
from scoring.api.games.request_serializers import HoleWriteSerializer

# Text that the checks treat differently: plain names, blanks, NUL, control and surrogate characters.
_TEXT = st.one_of(
    st.sampled_from(["ann", "Bob", " cat ", "", "  ", "\t", "zoé", "a\x00b", "x\x07", "\ud800", "\n\n"]),
    st.text(max_size=6),
)
_TOKEN = st.one_of(
    st.sampled_from(["A", "10", "Q", "K", "X", "10h"]), st.integers(-3, 14), st.booleans(), st.none(), _TEXT
)
_ROW = st.one_of(st.lists(_TOKEN, max_size=4), _TOKEN)
_ENTRY = st.one_of(
    st.lists(_ROW, max_size=3),
    st.integers(-100, 100),
    st.booleans(),
    st.none(),
    _TEXT,
    st.fixed_dictionaries({"total": st.integers(-5, 5)}),
    st.fixed_dictionaries({"cards": st.lists(st.lists(_TOKEN, max_size=3), max_size=2)}),
)
_NUMBER = st.one_of(st.integers(-2, 40_000), st.booleans(), st.none(), st.floats(0, 3), _TEXT)


def _serializer_answer(body: Any) -> dict[str, Any] | None:
    """The serializer's fields' validated data for `body` (its fast path aside), or None when they
    refuse it."""
    try:
        return dict(HoleWriteSerializer().run_field_validation(body))
    except ValidationError:
        return None


def _validator_answer(body: Any) -> dict[str, Any] | None:
    """What the one validator, HoleWriteSerializer, answers for `body` (None: refused)."""
    serializer = HoleWriteSerializer(data=body)
    return dict(serializer.validated_data) if serializer.is_valid() else None


def _view_answer(body: Any) -> dict[str, Any] | None:
    """What the hole POST's view takes from `body`: `validated(HoleWriteSerializer, request)`, which
    asks the quick check before it builds the serializer (None: refused with a 400)."""
    # json.dumps escapes lone surrogates (\ud800), which the parser gives back as they were.
    posted = APIRequestFactory().post(
        "/api/v1/games/t/holes/", json.dumps(body), content_type="application/json"
    )
    try:
        return dict(validated(HoleWriteSerializer, Request(posted, parsers=[JSONParser()])))
    except ValidationError:
        return None


_NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyzé", min_size=1, max_size=8)
_CARD = st.one_of(st.sampled_from(["A", "2", "9", "10", "J", "Q", "K", "X"]), st.integers(1, 10))
_USUAL = st.fixed_dictionaries(
    {
        "entries": st.dictionaries(
            _NAME,
            st.lists(st.lists(_CARD, min_size=3, max_size=3), min_size=2, max_size=2),
            min_size=2,
            max_size=6,
        )
    },
    optional={
        # Enders as DRF's CharField trims them: spaces, and characters str.strip() takes for
        # whitespace though they are control characters ("\x1c", "\x85").
        "ender": st.one_of(
            _NAME, st.none(), st.sampled_from(["", " ann ", "\tbob\n", "\x1c", "\x85", "\u3000dan\u3000"])
        ),
        "number": st.integers(1, 18),
    },
)


@settings(max_examples=200, deadline=None)
@given(_USUAL)
def test_it_takes_the_usual_body_itself_with_the_serializers_result(body: dict[str, Any]) -> None:
    quick = plain_hole_body(body)
    assert quick is not None
    assert quick == _serializer_answer(body) == _validator_answer(body) == _view_answer(body)


# Usual bodies with some odd pieces mixed in: names, tokens, enders and numbers now and then of the
# kinds above, so that both answers are often reached (the plain strategy above seldom gives a body
# that either accepts).
_NEAR_USUAL = st.fixed_dictionaries(
    {
        "entries": st.dictionaries(
            st.one_of(_NAME, _NAME, _TEXT),
            st.one_of(
                st.lists(
                    st.lists(st.one_of(_CARD, _CARD, _TOKEN), min_size=3, max_size=3), min_size=2, max_size=2
                ),
                st.lists(
                    st.lists(st.one_of(_CARD, _CARD, _TOKEN), min_size=3, max_size=3), min_size=2, max_size=2
                ),
                _ENTRY,
            ),
            min_size=1,
            max_size=4,
        )
    },
    optional={
        "ender": st.one_of(
            _NAME,
            st.none(),
            _TEXT,
            st.integers(0, 2),
            st.sampled_from([" ann ", "\x1c", "cat\x85", "\x0bx\x0b", " a\x00"]),
        ),
        "number": st.one_of(st.integers(1, 18), _NUMBER),
    },
)


@settings(max_examples=400, deadline=None)
@given(_NEAR_USUAL)
def test_it_agrees_with_the_serializer_on_nearly_usual_bodies(body: dict[str, Any]) -> None:
    quick = plain_hole_body(body)
    answer = _serializer_answer(body)
    assert _validator_answer(body) == answer == _view_answer(body)
    if answer is None:
        assert quick is None
    elif quick is not None:
        assert quick == answer


def test_it_leaves_every_other_shape_to_the_serializer() -> None:
    grid = [["A", "2", "3"], ["4", "5", "6"]]
    assert plain_hole_body({"entries": {"ann": grid}, "blocks_marked": {"ann": 1}}) is None
    assert plain_hole_body({"entries": {"ann": {"total": 4}}}) is None
    assert plain_hole_body({"entries": {"a\x00": grid}}) is None
    assert plain_hole_body({"entries": {"ann": grid}, "number": True}) is None
    assert plain_hole_body({"entries": {"ann": grid}, "ender": 3}) is None
    assert plain_hole_body({"entries": {}}) is None
    assert plain_hole_body([grid]) is None
    assert plain_hole_body({"entries": {"ann": [[7, "K", "Q"], grid[1]]}, "ender": " ann "}) == {
        "entries": {"ann": [["7", "K", "Q"], grid[1]]},
        "ender": "ann",
    }
