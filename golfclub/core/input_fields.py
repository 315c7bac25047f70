"""Serializer fields of the API built on `golfclub.core.inputs`: strict JSON types, clean text,
bounded numbers.

DRF's CharField turns `0` into "0", its IntegerField takes "5", "٣" and 5.0 and its BooleanField
"yes" and 1; these refuse any JSON type but their own, so `{"name": 0}` is a 400 naming `name`, as
a page refuses the same value.
"""

from __future__ import annotations

from collections.abc import Mapping
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


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false (not "yes", 1 or "true")."""

    default_error_messages = {"not_bool": _("{where} must be true or false, not {type}.")}

    def to_internal_value(self, data: Any) -> bool:
        """The boolean as sent, or a ValidationError naming the type sent instead."""
        if not isinstance(data, bool):
            self.fail("not_bool", where=self.field_name, type=json_type(data))
        return data


def body_json_type(value: Any) -> str:
    """The JSON name of a parsed body's type, for the messages of a body that is not an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


class StrictObjectSerializer(serializers.Serializer):
    """A serializer for a JSON object body that also names every key it does not know."""

    default_error_messages = {
        "invalid": _("The request body must be a JSON object, not {datatype}."),
    }

    def to_internal_value(self, data: Any) -> Any:
        """Validate the known keys and report unknown ones alongside, all at once."""
        errors: dict[str, Any] = {}
        value = None
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as error:
            errors.update(
                error.detail if isinstance(error.detail, Mapping) else {"non_field_errors": error.detail}
            )
        if isinstance(data, Mapping):
            known = ", ".join(self.fields)
            for key in data:
                if key not in self.fields:
                    message = _('Unknown key "%(key)s"; this endpoint takes: %(known)s.')
                    errors[str(key)] = [message % {"key": key, "known": known}]
        if errors:
            raise serializers.ValidationError(errors)
        return value

    def run_validation(self, data: Any = serializers.empty) -> Any:
        """Name the JSON type of a body that is not an object (DRF would name the Python type)."""
        if data is not serializers.empty and not isinstance(data, Mapping):
            raise serializers.ValidationError(
                {"non_field_errors": [self.error_messages["invalid"].format(datatype=body_json_type(data))]}
            )
        return super().run_validation(data)
