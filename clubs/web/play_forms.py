"""The form of starting a club's game: the seats in order (members picked, guests typed), the
first dealer, the ruleset and house rules exactly as /games/new/ offers them (its form, reused)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Member
from golfclub.core.form_fields import TextField
from golfclub.core.limits import MAX_NAME_LENGTH, MAX_PLAYERS, MAX_TITLE_LENGTH
from scoring.web.games.start_forms import PlayersForm

#: A seat as the form carries it: "m:<member id>" for a member, "g:<name>" for a guest.
MEMBER, GUEST = "m:", "g:"


def parse_seats(values: Sequence[str], members: dict[int, Member]) -> tuple[list[Member | str], list[str]]:
    """The seats the hidden fields say, in order, and what was wrong with them (unknown member,
    a member twice, too many seats): bad seats are dropped, so the page shows what it can start."""
    seats: list[Member | str] = []
    errors: list[str] = []
    for value in values[: MAX_PLAYERS * 2]:
        if value.startswith(MEMBER):
            member_id = value[len(MEMBER) :]
            member = members.get(int(member_id)) if member_id.isdigit() else None
            if member is None:
                errors.append(_("That member is not in this club any more."))
            elif member in seats:
                errors.append(_("%(name)s already has a seat.") % {"name": member.name})
            else:
                seats.append(member)
        elif value.startswith(GUEST) and value[len(GUEST) :].strip():
            seats.append(" ".join(value[len(GUEST) :].split())[:MAX_NAME_LENGTH])
    if len(seats) > MAX_PLAYERS:
        errors.append(_("A table seats %(n)s players at most.") % {"n": MAX_PLAYERS})
        seats = seats[:MAX_PLAYERS]
    return seats, errors


def seat_value(seat: Member | str) -> str:
    """The hidden field's value of a seat."""
    return f"{MEMBER}{seat.pk}" if isinstance(seat, Member) else f"{GUEST}{seat}"


def seat_name(seat: Member | str) -> str:
    """The name played at the seat."""
    return seat.name if isinstance(seat, Member) else seat


class ClubGameForm(PlayersForm):
    """The rules (as /games/new/), the first dealer (a seat index) and a title; the seats are checked
    by `parse_seats` and the names as any game's (`PlayersForm.clean`, from `player` fields)."""

    first_dealer = forms.TypedChoiceField(
        label=gettext_lazy("First dealer"), coerce=int, choices=(), required=False, empty_value=0
    )
    title = TextField(
        label=gettext_lazy("Game title (optional)"), required=False, max_length=MAX_TITLE_LENGTH, strip=True
    )
    start_key = TextField(widget=forms.HiddenInput, required=False, max_length=64, where="start_key")
    guest = TextField(label=gettext_lazy("Guest's name"), required=False, max_length=MAX_NAME_LENGTH)

    def __init__(self, data: QueryDict | None = None, *, seats: Sequence[Member | str] = (), **kwargs: Any):
        super().__init__(data, **kwargs)
        names = [seat_name(seat) for seat in seats]
        self.raw_players = names
        self.fields["first_dealer"].choices = [(index, name) for index, name in enumerate(names)]
