"""The forms of the club owners' pages. They take text as typed: the services clean and check it
(names, uniqueness, dates) and their problems are put back on the field they name."""

from __future__ import annotations

from collections.abc import Iterable

from django import forms
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import (
    MAX_CLUB_NAME_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PASTED_MEMBERS,
    MAX_SEASON_NAME_LENGTH,
)

# Room for spaces and invisible characters the services drop; they refuse a name too long once clean.
_SLACK = 4


class ClubForm(forms.Form):
    """A new club's name, or a club's name and visibility."""

    name = forms.CharField(
        label=_("Club name"), max_length=MAX_CLUB_NAME_LENGTH * _SLACK, strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": MAX_CLUB_NAME_LENGTH}),
    )  # fmt: skip
    is_public = forms.BooleanField(
        label=_("Public: anyone with the club's link sees its leaderboard and members' pages (read only)"),
        required=False,
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)


class MemberForm(forms.Form):
    """One new member."""

    name = forms.CharField(
        label=_("Name"), max_length=MAX_NAME_LENGTH * _SLACK, strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": MAX_NAME_LENGTH}),
    )  # fmt: skip


class PasteForm(forms.Form):
    """Several new members, one name a line."""

    names = forms.CharField(
        label=_("Names, one a line"),
        max_length=MAX_PASTED_MEMBERS * MAX_NAME_LENGTH * _SLACK,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off"}),
        help_text=_("Everyone is added, or nobody when a line is wrong: each such line is named."),
    )

    def lines(self) -> list[str]:
        """The pasted text's lines (blank ones kept, so that lines keep their numbers)."""
        return self.cleaned_data["names"].splitlines()


class RenameForm(forms.Form):
    """A member's new name, against the version read."""

    name = forms.CharField(label=_("New name"), max_length=MAX_NAME_LENGTH * _SLACK, strip=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)


class MergeForm(forms.Form):
    """Two members who are one person."""

    keep = forms.TypedChoiceField(label=_("Keep"), coerce=int)
    duplicate = forms.TypedChoiceField(label=_("Merge into it, then delete"), coerce=int)

    def __init__(self, *args: object, members: Iterable[tuple[int, str]] = (), **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *members]
        self.fields["keep"].choices = choices
        self.fields["duplicate"].choices = choices


class SeasonForm(forms.Form):
    """A season's name and days."""

    name = forms.CharField(
        label=_("Season name"), max_length=MAX_SEASON_NAME_LENGTH * _SLACK, strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "maxlength": MAX_SEASON_NAME_LENGTH}),
    )  # fmt: skip
    start = forms.CharField(
        label=_("First day"), max_length=10, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.CharField(label=_("Last day"), max_length=10, widget=forms.DateInput(attrs={"type": "date"}))
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
