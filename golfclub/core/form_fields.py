"""Form fields of the pages built on `golfclub.core.inputs`: text and whole numbers refused the
same way as the API.

`TextField` is a CharField that refuses NUL, lone surrogates and control characters;
`WholeNumberField` an IntegerField that takes only ASCII digits with an optional sign (no "²", no
"٣", no 5,000-digit numbers), so every field of every page form names a bad value instead of
failing later in `int()` or in the database.

`place_problems` puts a refusal's problems (the services' or the rules engine's, each a `where` and a
`message`) on a page form: the one way every page does it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext as _

from golfclub.core.errors import ProblemLike
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


# --- A refusal's problems on a form ---------------------------------------------------------------

#: Where a path of the request ends one name: "names[3]", "start.day".
_NAME_END = re.compile(r"[.\[]")


def leading_paths(where: str) -> list[str]:
    """`where` and each path it is inside, longest first: "a.b[2].c" -> a.b[2].c, a.b[2], a.b, a."""
    ends = [match.start() for match in _NAME_END.finditer(where)]
    return [where, *(where[:end] for end in reversed(ends))]


def problem_field(form: forms.Form, where: str) -> str | None:
    """The visible field of `form` that shows a problem at `where`, or None for the form's top.

    None for every problem when the form's `problems_at_top` is true; else the form's
    `field_for_problem(where)` when it has that hook; else the longest of `where`'s leading paths in
    the form's `problem_fields` mapping; else `where`'s first name ("names[3]" and "start.day" name
    "names" and "start"). A name that is no field of the form, or a hidden one (a stale "version"),
    puts the message at the top, where it is seen.
    """
    if getattr(form, "problems_at_top", False):
        return None
    hook = getattr(form, "field_for_problem", None)
    if hook is not None:
        name = hook(where)
    else:
        paths = leading_paths(where)
        aliases = getattr(form, "problem_fields", {})
        name = next((aliases[path] for path in paths if path in aliases), paths[-1])
    field = form.fields.get(name) if name else None
    return name if field is not None and not field.widget.is_hidden else None


def place_problems(form: forms.Form, problems: Iterable[ProblemLike]) -> None:
    """Put a refusal's problems on `form`, in order: each message on the field its `where` names
    (`problem_field`), else at the form's top (its non-field errors).

    A form whose problems do not name its fields says how to read them, as data or one small hook:
    - `problem_fields`: a mapping of a `where`'s leading path to the field that shows it
      ({"tiebreakers": "tiebreak_1"}, {"facts.hand": "fact_hand"});
    - `problems_at_top = True`: every problem at the form's top (its page lists them above the form);
    - `field_for_problem(where)`: the field's name, or None for the top (the calculator's
      "ruleset.values.Q" is its "value_Q");
    - `problems_to_place(problems)`: the problems as the form shows them, for a form that shows them
      elsewhere too (the hole form names whose grid in each message and keeps them for its grids).
    """
    shown = getattr(form, "problems_to_place", None)
    for problem in shown(problems) if shown is not None else problems:
        form.add_error(problem_field(form, problem.where), problem.message)
