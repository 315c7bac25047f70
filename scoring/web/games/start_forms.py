"""Forms of starting a live game (two screens: players, then dealer and rules) and how a ruleset
is described on them.

The start form keeps everything in the request (query string, then hidden fields), never in process
memory, so a reload or the back button shows the same screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from golfclub.core.form_fields import TextField, place_problems
from golfclub.core.limits import MAX_PLAYERS as MAX_PLAYERS  # start_views takes it from here
from golfclub.core.limits import (
    MAX_TITLE_LENGTH,
)
from golfclub.core.names import check_player_names
from scoring.rules import PRESETS, Ruleset, RulesetError, resolve_ruleset
from scoring.web.numbers import grid_size, minus_sign, signed_points

DEFAULT_SEATS = 4


def ruleset_choices() -> list[tuple[str, str]]:
    """The presets as (name, label) pairs, in the SPEC's order."""
    return [(name, short_label(ruleset)) for name, ruleset in PRESETS.items()]


def short_label(ruleset: Ruleset) -> str:
    """A label that fits a phone's select box: "official · 2\u00d73, 9 holes"."""
    holes = _("%(n)s holes") % {"n": ruleset.holes} if ruleset.holes else _("no hole limit")
    return f"{ruleset.preset} · {grid_size(ruleset.rows, ruleset.cols)}, {holes}"


def describe_preset(ruleset: Ruleset) -> str:
    """One line a player recognises: "official: 2\u00d73 grid, 9 holes, 2 = \u22122, K = 0" (true signs)."""
    holes = _("%(n)s holes") % {"n": ruleset.holes} if ruleset.holes else _("no hole limit")
    extras = []
    if ruleset.jokers:
        extras.append(_("jokers"))
    if "rows" in ruleset.match_lines:
        extras.append(_("row pairs"))
    if "anywhere" in ruleset.match_lines:
        extras.append(_("pairs anywhere"))
    if ruleset.hole_end == "knock":
        extras.append(_("knock to end"))
    if ruleset.target_score:
        extras.append(_("ends at %(n)s") % {"n": ruleset.target_score})
    if ruleset.ender_penalty is not None:
        if ruleset.ender_penalty.kind == "fixed":
            extras.append(_("ender %(n)s if beaten") % {"n": signed_points(ruleset.ender_penalty.points)})
        else:
            extras.append(_("ender adds the lowest score if beaten"))
    text = _("%(name)s: %(size)s grid, %(holes)s, 2 = %(two)s, K = %(king)s") % {
        "name": ruleset.preset,
        "size": grid_size(ruleset.rows, ruleset.cols),
        "holes": holes,
        "two": minus_sign(ruleset.value_of("2")),
        "king": minus_sign(ruleset.value_of("K")),
    }
    return f"{text}, {', '.join(extras)}" if extras else text


def clean_player_names(raw: Sequence[str]) -> tuple[list[str], list[str]]:
    """Clean the typed names (`golfclub.core.names.check_player_names`), drop blank seats; return
    (names, errors).

    Names compare as the services compare them: "ANN", full-width "ann" and "ann" are one player.
    The messages name the player's row ("Player 2: ...") as the page lists them.
    """
    checked = check_player_names([str(value) for value in raw], skip_blank=True)
    return checked.names, [problem.message(numbered=True) for problem in checked.problems]


HOLES_CHOICES = [("", gettext_lazy("As the ruleset says")), ("6", "6"), ("9", "9"), ("18", "18")]
TARGET_CHOICES = [("", gettext_lazy("None")), ("50", "50"), ("100", "100"), ("200", "200")]
ENDER_CHOICES = [
    ("", gettext_lazy("As the ruleset says")),
    ("none", gettext_lazy("No penalty")),
    ("fixed-10", gettext_lazy("+10 if someone else scored lower")),
    ("lowest", gettext_lazy("Add the lowest score if someone else scored lower")),
]
OPTION_FIELDS = ("holes", "target_score", "ender_penalty")


class PlayersForm(forms.Form):
    """Screen 1: the ruleset, a few house rules, and the players in seat order.

    Names come as repeated `player` fields. The house rules are the overrides tables ask for most
    (match length, a target score, a penalty for ending the hole, seeds 001 and 004); the engine
    checks the resulting ruleset.
    """

    ruleset = forms.ChoiceField(label=gettext_lazy("Ruleset"), choices=ruleset_choices, initial="official")
    holes = forms.ChoiceField(label=gettext_lazy("Holes"), choices=HOLES_CHOICES, required=False)
    target_score = forms.ChoiceField(
        label=gettext_lazy("Stop when someone reaches"), choices=TARGET_CHOICES, required=False
    )
    ender_penalty = forms.ChoiceField(
        label=gettext_lazy("Player who ends the hole"), choices=ENDER_CHOICES, required=False
    )
    # A refusal's problems (`place_problems`) all go in the one list the start screens show above the
    # form: the engine's "ruleset.holes" is no control of this form.
    problems_at_top = True

    def __init__(self, data: QueryDict | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.raw_players: list[str] = data.getlist("player") if data is not None else []
        self.player_names: list[str] = []
        self.player_errors: list[str] = []

    def clean(self) -> dict[str, Any]:
        """Check the names (a table's worth, all different, none too long) and the ruleset and house rules."""
        cleaned = super().clean() or {}
        self.player_names, self.player_errors = clean_player_names(self.raw_players)
        for message in self.player_errors:
            self.add_error(None, message)
        cleaned["players"] = self.player_names
        if "ruleset" in cleaned:
            try:
                cleaned["resolved"] = resolve_ruleset(self.ruleset_spec(cleaned))
            except RulesetError as error:
                place_problems(self, error.problems)
        return cleaned

    @staticmethod
    def ruleset_spec(cleaned: Mapping[str, Any]) -> str | dict[str, Any]:
        """The preset's name, or {"preset": name, ...overrides} when house rules were chosen."""
        overrides: dict[str, Any] = {}
        if cleaned.get("holes"):
            overrides["holes"] = int(cleaned["holes"])
        if cleaned.get("target_score"):
            overrides["target_score"] = int(cleaned["target_score"])
        ender = cleaned.get("ender_penalty")
        if ender == "none":
            overrides["ender_penalty"] = None
        elif ender == "fixed-10":
            overrides["ender_penalty"] = {"kind": "fixed", "points": 10}
        elif ender == "lowest":
            overrides["ender_penalty"] = {"kind": "lowest_score"}
        return {"preset": cleaned["ruleset"], **overrides} if overrides else cleaned["ruleset"]

    def options_query(self) -> list[tuple[str, str]]:
        """The chosen house rules as query pairs (for links back to screen 1)."""
        data = getattr(self, "cleaned_data", {})
        return [(name, str(data[name])) for name in OPTION_FIELDS if data.get(name)]


class StartForm(PlayersForm):
    """Screen 2: who deals first, an optional title; carries screen 1's answers in hidden fields."""

    first_dealer = forms.TypedChoiceField(
        label=gettext_lazy("First dealer"), coerce=int, choices=(), widget=forms.RadioSelect
    )
    title = TextField(
        label=gettext_lazy("Game title (optional)"), required=False, max_length=MAX_TITLE_LENGTH, strip=True
    )
    start_key = TextField(widget=forms.HiddenInput, required=False, max_length=64, where="start_key")

    def __init__(
        self, data: QueryDict | None = None, *, names: Sequence[str] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        if names is None:
            names, _errors = clean_player_names(self.raw_players)
        self.player_names = list(names)
        self.fields["first_dealer"].choices = [(index, name) for index, name in enumerate(names)]
