"""Forms of the game settings page: rename the game, rename a player, change the ruleset.

Each checks its own fields through `scoring.inputs` (text without NUL, a seat written in ASCII
digits); names and titles are then checked and normalised by the services, as for the API.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from scoring.game_errors import GameError
from scoring.inputs import SMALL_INT_MAX
from scoring.rules.errors import Problem
from scoring.web.input_fields import TextField, WholeNumberField


class TitleForm(forms.Form):
    """action=title: the game's new title (the services strip it and check its length)."""

    title = TextField(label=gettext_lazy("Title"), required=False, strip=False)


class SeatRenameForm(forms.Form):
    """action=rename: the seat (0-based) and the player's new name (checked by the services)."""

    seat = WholeNumberField(label=gettext_lazy("Seat"), min_value=0, max_value=SMALL_INT_MAX)
    name = TextField(label=gettext_lazy("Name"), required=False, strip=False)


def cleaned_or_refuse(form_class: type[forms.Form], data: QueryDict) -> dict[str, Any]:
    """The form's cleaned data, or a `GameError` (400) carrying each of its messages with its field."""
    form = form_class(data)
    if form.is_valid():
        return form.cleaned_data
    raise GameError(
        [
            Problem(field if field != "__all__" else "form", str(message))
            for field, messages in form.errors.items()
            for message in messages
        ]
    )
