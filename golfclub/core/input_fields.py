"""Serializer fields of the API built on `golfclub.core.inputs`: strict JSON types, clean text,
bounded numbers.

DRF's CharField turns `0` into "0" and its IntegerField takes "5", "٣" and 5.0; these refuse any
JSON type but their own, so `{"name": 0}` is a 400 naming `name`, as a page refuses the same value.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from golfclub.core.inputs import InputError, clean_text, json_type, parse_int
from golfclub.core.names import too_long_message


def _where(field: serializers.Field) -> str:
    """The field's name, or its parent's for the items of a list or dict field."""
    return field.field_name or getattr(field.parent, "field_name", "") or "value"


class StrictCharField(serializers.CharField):
    """Text that must be a JSON string, without NUL, lone surrogates or control characters."""

    default_error_messages = {"not_text": _("{where} must be text (a JSON string), not {type}.")}

    def to_internal_value(self, data: Any) -> str:
        """Refuse other JSON types instead of converting them to text."""
        if not isinstance(data, str):
            self.fail("not_text", where=_where(self), type=json_type(data))
        try:
            clean_text(data, _where(self))
        except InputError as error:
            raise serializers.ValidationError(error.message, code="invalid_text") from None
        length = len(data.strip() if self.trim_whitespace else data)
        if self.max_length is not None and length > self.max_length:
            # Said with the limit and the length, as every over-long name is refused (never cut).
            raise serializers.ValidationError(too_long_message(self.max_length, length), code="max_length")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (not true/false, 2.0 or "2") within the field's bounds."""

    def to_internal_value(self, data: Any) -> int:
        """The number, or a ValidationError saying what was sent instead."""
        try:
            return parse_int(
                data, _where(self), minimum=self.min_value, maximum=self.max_value, allow_text=False
            )
        except InputError as error:
            raise serializers.ValidationError(error.message, code="invalid") from None
