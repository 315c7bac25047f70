"""Forms of the game settings page: rename the game, rename a player, change the ruleset.

Each checks its own fields through `golfclub.core.inputs` (text without NUL, a seat written in ASCII
digits); a player's name with `golfclub.core.names.check_player_names` as the services and the API check
it; names and titles are then normalised (and checked again) by the services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from golfclub.core.form_fields import TextField, WholeNumberField
from golfclub.core.limits import SMALL_INT_MAX
from golfclub.core.names import check_player_names
from scoring.game_errors import GameError
from scoring.rules.errors import Problem


class TitleForm(forms.Form):
    """action=title: the game's new title (the services strip it and check its length)."""

    title = TextField(label=gettext_lazy("Title"), required=False, strip=False)


class SeatRenameForm(forms.Form):
    """action=rename: the seat (0-based) and the player's new name (checked by the services)."""

    seat = WholeNumberField(label=gettext_lazy("Seat"), min_value=0, max_value=SMALL_INT_MAX)
    name = TextField(label=gettext_lazy("Name"), required=False, strip=False)

    def clean_name(self) -> str:
        """The name as typed, or the services' own message for a name they would refuse."""
        name = self.cleaned_data.get("name") or ""
        checked = check_player_names([name], minimum=1, maximum=1)
        if checked.problems:
            raise forms.ValidationError([problem.message() for problem in checked.problems])
        return name


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
