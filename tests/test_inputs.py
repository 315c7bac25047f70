"""golfclub.core.inputs: the one place that decides what text, whole numbers and link tokens are."""

from __future__ import annotations

import pytest

from golfclub.core.inputs import (
    InputError,
    clean_text,
    first_bad_field,
    int_or_none,
    is_token,
    optional_int,
    parse_int,
    preview,
)


@pytest.mark.parametrize("value", ["Ann", "", "Zoë 🂡", "tab\there", "two\nlines", "\u200dzwj"])
def test_it_keeps_usable_text_as_it_is(value: str) -> None:
    assert clean_text(value, "name") == value


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("a\x00b", "NUL"),
        ("a\ud800", "surrogate"),
        ("\x1b[0m", "U+001B"),
        ("\x85", "U+0085"),
        (0, "not a number"),
        (True, "not true/false"),
        (None, "not null"),
        (["a"], "not a list"),
    ],
)
def test_it_refuses_text_that_is_not_usable_naming_where(value: object, words: str) -> None:
    with pytest.raises(InputError) as caught:
        clean_text(value, "name")
    assert caught.value.where == "name"
    assert caught.value.message.startswith("name ")
    assert words in caught.value.message


def test_it_refuses_text_longer_than_the_limit() -> None:
    with pytest.raises(InputError, match="longer than 3"):
        clean_text("abcd", "title", max_length=3)


@pytest.mark.parametrize(
    ("value", "number"), [("7", 7), (" -3 ", -3), ("+12", 12), ("007", 7), (5, 5), (-2, -2)]
)
def test_it_reads_whole_numbers_in_ascii_digits(value: object, number: int) -> None:
    assert parse_int(value, "seat") == number


@pytest.mark.parametrize(
    "value", ["²", "٣", "\uff13", "1.0", "1e3", "", "-", "12a", "9" * 5000, "9" * 13, True, 2.0, None, [1]]
)
def test_it_refuses_anything_else_as_a_whole_number(value: object) -> None:
    with pytest.raises(InputError) as caught:
        parse_int(value, "seat")
    assert caught.value.where == "seat"
    assert "seat" in caught.value.message
    assert len(caught.value.message) < 200


def test_it_refuses_text_where_only_a_json_integer_will_do() -> None:
    with pytest.raises(InputError, match="not a string"):
        parse_int("3", "total", allow_text=False)


def test_it_checks_the_bounds_and_says_them() -> None:
    with pytest.raises(InputError, match="from 0 to 11, not 12"):
        parse_int("12", "seat", minimum=0, maximum=11)
    with pytest.raises(InputError, match="a huge number"):
        parse_int(10**40, "seat", maximum=11)


def test_it_reads_blank_as_missing_and_garbage_as_none_when_asked() -> None:
    assert optional_int(" ", "version") is None
    assert int_or_none("²") is None
    assert int_or_none("9" * 5000) is None
    assert int_or_none("4", maximum=3) is None
    assert int_or_none("3", maximum=3) == 3


@pytest.mark.parametrize("token", ["demo-friday-edit", "a", "A_b-9" * 12, "x" * 64])
def test_it_accepts_link_tokens(token: str) -> None:
    assert is_token(token)


@pytest.mark.parametrize("token", ["", "x" * 65, "abc\x00def", "a b", "a.b", "²", "%00", None, 5])
def test_it_refuses_anything_outside_the_token_alphabet(token: object) -> None:
    assert not is_token(token)


def test_it_shows_a_refused_value_printably_and_briefly() -> None:
    assert preview("a\x00b\ud800") == "a\\u0000b\\ud800"
    assert preview("x" * 100).endswith("\u2026")


def test_it_finds_the_first_bad_field_of_a_query_string() -> None:
    from django.http import QueryDict

    assert first_bad_field(QueryDict("a=1&b=%C2%B2"), "query string") is None
    error = first_bad_field(QueryDict("a=1&b=x%00y"), "query string")
    assert error is not None and error.where == "b" and "NUL" in error.message
    assert first_bad_field(QueryDict("a%00=1"), "form") is not None
