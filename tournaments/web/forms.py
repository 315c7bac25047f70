"""The forms of the tournament pages. They check the shape of what was typed (a number is a number);
the services check the rest (a name already taken, a round not in the right state) and their
problems are put back on the form by `golfclub.core.form_fields.place_problems`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from golfclub.core.form_fields import TextField, WholeNumberField
from golfclub.core.limits import MAX_REASON_LENGTH
from scoring.rules import PRESETS
from scoring.rules.ruleset import TIEBREAKERS
from scoring.web.games.start_forms import ruleset_choices
from tournaments.limits import (
    MAX_CLUB,
    MAX_HOLE_TIME_LIMIT,
    MAX_NOTE,
    MAX_RATING,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MAX_TOURNAMENT_NAME,
    MAX_VENUE,
)
from tournaments.live_versions import event_version
from tournaments.models import SeatingMode, StaffRole, StandingsRelease, Tournament
from tournaments.services.versions import settings_digest

TIEBREAK_LABELS = {
    "countback": _("Countback (best hole scores)"),
    "most_holes_won": _("Most holes won"),
    "sudden_death": _("Sudden death (playoff holes)"),
    "shared": _("Shared place"),
}
TIEBREAK_SLOTS = len(TIEBREAKERS)
#: The settings the form shows as they are stored (the others need a word: ruleset, seed, chain...).
PLAIN_SETTINGS = (
    "name",
    "date",
    "venue",
    "rounds",
    "seating",
    "time_limit_minutes",
    "hole_time_limit_minutes",
)


def _tiebreak_choices() -> list[tuple[str, Any]]:
    return [("", _("(none)")), *((name, TIEBREAK_LABELS.get(name, name)) for name in TIEBREAKERS)]


class TournamentForm(forms.Form):
    """A tournament's settings (the new-tournament page and the settings page)."""

    name = TextField(label=_("Name"), max_length=MAX_TOURNAMENT_NAME)
    date = forms.DateField(label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    venue = TextField(label=_("Venue"), max_length=MAX_VENUE, required=False)
    ruleset = forms.ChoiceField(label=_("Ruleset"), choices=ruleset_choices, initial="official")
    rounds = WholeNumberField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=3)
    seating = forms.ChoiceField(
        label=_("Seating of the rounds after the first"),
        choices=SeatingMode.choices,
        initial=SeatingMode.FEWEST_REPEATS,
    )
    seed = WholeNumberField(
        label=_("Seed"),
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text=_(
            "Blank: a random one, shown afterwards. The same seed and players give the same seating."
        ),
    )
    time_limit_minutes = WholeNumberField(
        label=_("Time limit per round (minutes)"), min_value=1, max_value=MAX_TIME_LIMIT, required=False
    )
    hole_time_limit_minutes = WholeNumberField(
        label=_("Time limit per hole (minutes, optional)"),
        min_value=1,
        max_value=MAX_HOLE_TIME_LIMIT,
        required=False,
    )
    standings_release = forms.ChoiceField(
        label=_("Standings for the public"), choices=StandingsRelease.choices, initial=StandingsRelease.LIVE
    )
    public = forms.BooleanField(
        label=_("Public (anyone can see the players and standings)"), required=False, initial=True
    )
    public_table_links = forms.BooleanField(
        label=_("Find my table gives players their table's scoring link (and QR code)"), required=False
    )
    rulings_public = forms.BooleanField(
        label=_("Public rulings log (anyone who sees the event reads the rulings)"), required=False
    )
    # The settings page's form carries what it was read at (`tournaments.web.stale_forms`): a
    # submit against settings changed since is refused with both versions shown.
    version = forms.CharField(widget=forms.HiddenInput, required=False, max_length=12)
    read_digest = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # The services name the whole tiebreak chain: its problems show on the first slot.
    problem_fields = {"tiebreakers": "tiebreak_1"}

    def __init__(self, *args: Any, frozen: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{slot}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": slot}, choices=_tiebreak_choices, required=False
            )
        self.frozen = frozen
        if frozen:  # round 1 is seated: the ruleset and seed stay as they are
            self.fields["ruleset"].disabled = True
            self.fields["seed"].disabled = True

    @classmethod
    def initial_of(cls, tournament: Tournament) -> dict[str, Any]:
        """The form's values for an existing tournament."""
        initial: dict[str, Any] = {key: getattr(tournament, key) for key in (*PLAIN_SETTINGS, "seed")}
        initial.update(
            ruleset=tournament.ruleset.get("preset", "official"),
            standings_release=tournament.standings_release,
            public=tournament.public,
            rulings_public=tournament.rulings_public,
            public_table_links=tournament.public_table_links,
            version=event_version(tournament),
            read_digest=settings_digest(tournament),
        )
        for slot, method in enumerate(tournament.tiebreakers, start=1):
            initial[f"tiebreak_{slot}"] = method
        return initial

    def clean_version(self) -> int | None:
        """The version the form was read at; anything but a whole number reads as none (a page
        without it saves as before)."""
        value = self.cleaned_data.get("version") or ""
        return int(value) if value.isascii() and value.isdigit() and int(value) < 2**31 else None

    def tiebreak_fields(self) -> list[forms.BoundField]:
        """The tiebreak selects, in order (the template draws them together)."""
        return [self[f"tiebreak_{slot}"] for slot in range(1, TIEBREAK_SLOTS + 1)]

    def settings(self, tournament: Tournament | None = None) -> dict[str, Any]:
        """The cleaned values as `create_tournament` / `update_tournament` take them.

        The ruleset is sent only when a different preset is chosen (an event created with house
        rules keeps them); a blank tiebreak chain means the ruleset's own; a blank seed a random one
        (on a new event) or the current one.
        """
        data = self.cleaned_data
        values: dict[str, Any] = {key: data.get(key) for key in (*PLAIN_SETTINGS, "standings_release")}
        values["venue"] = values["venue"] or ""
        values["public"] = bool(data.get("public"))
        values["rulings_public"] = bool(data.get("rulings_public"))
        values["public_table_links"] = bool(data.get("public_table_links"))
        chain = [
            data[f"tiebreak_{slot}"] for slot in range(1, TIEBREAK_SLOTS + 1) if data.get(f"tiebreak_{slot}")
        ]
        preset = data.get("ruleset")
        if tournament is None:
            values["ruleset"] = preset
            values["seed"] = data.get("seed")
            values["tiebreakers"] = chain or None
            return values
        if not self.frozen and preset in PRESETS and preset != tournament.ruleset.get("preset"):
            values["ruleset"] = preset
            if not chain:
                values["tiebreakers"] = list(PRESETS[preset].tiebreakers)
        if not self.frozen and data.get("seed") is not None:
            values["seed"] = data["seed"]
        if chain:
            values["tiebreakers"] = chain
        return values


class StaffForm(forms.Form):
    """Add a co-director or an official by username."""

    username = TextField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=StaffRole.choices, initial=StaffRole.OFFICIAL)


class PlayerForm(forms.Form):
    """Add one player."""

    name = TextField(label=_("Name"), max_length=40)
    club = TextField(label=_("Club"), max_length=MAX_CLUB, required=False)
    rating = WholeNumberField(label=_("Rating"), min_value=-MAX_RATING, max_value=MAX_RATING, required=False)


class ImportForm(forms.Form):
    """A CSV player list (`name[,club][,rating]`, header first), uploaded or pasted."""

    file = forms.FileField(label=_("CSV file"), required=False)
    text = TextField(
        label=_("Or paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "name,club,rating\nAnn,North,1500"}),
    )

    def clean(self) -> dict[str, Any]:
        """One of the two is needed."""
        cleaned = super().clean() or {}
        if not cleaned.get("file") and not (cleaned.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a CSV file or paste the list."))
        return cleaned


class ReasonForm(forms.Form):
    """A reason kept in the event's log (swap, override, drop)."""

    reason = TextField(label=_("Reason"), max_length=MAX_REASON_LENGTH, required=False)


class SwapForm(forms.Form):
    """Swap two players of a seated round."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("with player"), coerce=int)
    reason = TextField(label=_("Reason"), max_length=MAX_REASON_LENGTH)

    def __init__(self, *args: Any, players: Iterable[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("(choose)")), *players]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices


class ConfirmForm(forms.Form):
    """A player at the table confirms the scorecard, or disagrees with a note."""

    by = forms.ChoiceField(
        label=_("Your name"),
        error_messages={"required": _("Choose your name: the player who checked the scores.")},
    )
    note = TextField(label=_("What is wrong (if you disagree)"), max_length=MAX_NOTE, required=False)

    def __init__(self, *args: Any, names: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["by"].choices = [("", _("(choose)")), *((name, name) for name in names)]
