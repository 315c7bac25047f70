"""Form fields of the pages built on `golfclub.core.inputs`: text and whole numbers refused the
same way as the API.

`TextField` is a CharField that refuses NUL, lone surrogates and control characters;
`WholeNumberField` an IntegerField that takes only ASCII digits with an optional sign (no "²", no
"٣", no 5,000-digit numbers), so every field of every page form names a bad value instead of
failing later in `int()` or in the database.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext as _

from golfclub.core.inputs import InputError, clean_text, parse_int


def _where(field: forms.Field, where: str | None) -> str:
    """How a message names the field: the given name, else its label."""
    return where or str(field.label or _("This field"))


class TextField(forms.CharField):
    """A CharField whose value must be usable text (see `golfclub.core.inputs.clean_text`)."""

    def __init__(self, *, where: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.where = where
        for validator in self.validators:
            if isinstance(validator, MaxLengthValidator):
                # The limit and the length, as every over-long name is refused (never cut).
                validator.message = _("At most %(limit_value)d characters; this one has %(show_value)d.")

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        """Django's attributes without `maxlength`: a browser would cut a longer pasted text silently,
        whereas the server refuses it saying the limit and the length."""
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs

    def to_python(self, value: Any) -> Any:
        """Refuse NUL, surrogates and control characters before Django's own cleaning."""
        if value not in self.empty_values:
            try:
                clean_text(value, _where(self, self.where))
            except InputError as error:
                raise ValidationError(error.message, code="invalid_text") from None
        return super().to_python(value)


class WholeNumberField(forms.IntegerField):
    """An IntegerField of ASCII digits only, of bounded length (`golfclub.core.inputs.parse_int`)."""

    def __init__(self, *, where: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.where = where

    def to_python(self, value: Any) -> int | None:
        """The number, None when blank, or a ValidationError naming what was typed."""
        if value in self.empty_values or (isinstance(value, str) and not value.strip()):
            return None
        try:
            return parse_int(value, _where(self, self.where))
        except InputError as error:
            raise ValidationError(error.message, code="invalid") from None
