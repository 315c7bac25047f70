"""What the "Score a grid" page reads from its form: the ruleset (preset plus adjusted rules), the players
and their grids, who ended the hole. Nothing here scores: the rules engine does (see score_views)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from golfclub.core.form_fields import WholeNumberField, place_problems
from golfclub.core.limits import (
    MAX_DECKS,
    VALUE_LIMIT,
)
from scoring.rules import PARAMETERS, PRESETS, RANKS, Ruleset, RulesetError, resolve_ruleset
from scoring.rules.ruleset import SHAPES

MODES = ("grid", "hole")
DEFAULT_PRESET = "official"

RANK_LABELS: dict[str, Any] = {
    "A": gettext_lazy("Ace"),
    "J": gettext_lazy("Jack"),
    "Q": gettext_lazy("Queen"),
    "K": gettext_lazy("King"),
    "X": gettext_lazy("Joker"),
}
MATCH_LINE_LABELS: dict[str, Any] = {
    "columns": gettext_lazy("Columns"),
    "rows": gettext_lazy("Rows"),
    "diagonals": gettext_lazy("Diagonals (2x2, 3x3)"),
    "anywhere": gettext_lazy("Anywhere in the grid"),
}
NEGATIVE_MATCH_LABELS: dict[str, Any] = {
    "keep": gettext_lazy("keep their points (pair of 2s = -4)"),
    "zero": gettext_lazy("score 0"),
}
ENDER_KIND_LABELS: dict[str, Any] = {
    "": gettext_lazy("None"),
    "fixed": gettext_lazy("Fixed points"),
    "lowest_score": gettext_lazy("Add the lowest score"),
}


PARAMETER_LABELS: dict[str, Any] = {
    "rows": gettext_lazy("grid shape"),
    "cols": gettext_lazy("grid shape"),
    "decks": gettext_lazy("packs"),
    "jokers": gettext_lazy("jokers"),
    "values": gettext_lazy("card values"),
    "match_lines": gettext_lazy("matches"),
    "negative_matches": gettext_lazy("matched negative cards"),
    "jokers_wild": gettext_lazy("wild jokers"),
    "four_of_a_kind_block": gettext_lazy("four-of-a-kind block"),
    "ender_penalty": gettext_lazy("ender penalty"),
    "ender_penalty_on_tie": gettext_lazy("ender penalty on a tie"),
}


def adjusted_parameters(ruleset: Ruleset | None) -> list[str]:
    """What the player changed from the preset, in words ("card values", "ender penalty"), each once."""
    if ruleset is None:
        return []
    labels = [str(PARAMETER_LABELS.get(name, name.replace("_", " "))) for name in ruleset.overrides]
    return list(dict.fromkeys(labels))


def value_field_name(rank: str) -> str:
    """The form field holding the points of `rank`: value_A ... value_X."""
    return f"value_{rank}"


def preset_label(ruleset: Ruleset) -> str:
    """How the preset select shows a preset: "official (000 §2, §5.1)"."""
    return f"{ruleset.preset} ({ruleset.source})"


class RulesForm(forms.Form):
    """The preset and the rule adjustments that change how grids and holes score.

    `rules_for` names the preset the adjustment controls were drawn for: when the preset select no longer
    matches it (the player picked another preset), the adjustments are dropped and the new preset's own
    rules apply, so a stale control never becomes an override.
    """

    preset = forms.ChoiceField(label=gettext_lazy("Ruleset"))
    rules_for = forms.CharField(required=False, widget=forms.HiddenInput)
    shape = forms.ChoiceField(
        label=gettext_lazy("Grid (rows x columns)"),
        choices=[(f"{r}x{c}", f"{r} x {c}") for r, c in SHAPES],
    )
    match_lines = forms.MultipleChoiceField(
        label=gettext_lazy("Matches cancel in"),
        required=False,
        choices=[(line, MATCH_LINE_LABELS[line]) for line in PARAMETERS["match_lines"].choices],
        widget=forms.CheckboxSelectMultiple,
    )
    negative_matches = forms.ChoiceField(
        label=gettext_lazy("Matched negative cards"),
        choices=[(kind, NEGATIVE_MATCH_LABELS[kind]) for kind in PARAMETERS["negative_matches"].choices],
    )
    jokers = forms.TypedChoiceField(
        label=gettext_lazy("Jokers per pack"),
        coerce=int,
        choices=[(n, n) for n in PARAMETERS["jokers"].choices],
    )
    jokers_wild = forms.BooleanField(label=gettext_lazy("Jokers are wild (complete a match)"), required=False)
    decks = forms.ChoiceField(
        label=gettext_lazy("Packs"),
        choices=[("auto", gettext_lazy("auto (1 per 4 players)"))]
        + [(str(n), str(n)) for n in range(1, MAX_DECKS + 1)],
    )
    block = forms.BooleanField(label=gettext_lazy("Four-of-a-kind block"), required=False)
    block_points = WholeNumberField(
        label=gettext_lazy("Block scores"), required=False, min_value=-VALUE_LIMIT, max_value=VALUE_LIMIT
    )
    block_others_add = WholeNumberField(
        label=gettext_lazy("Every other player adds"),
        required=False,
        min_value=-VALUE_LIMIT,
        max_value=VALUE_LIMIT,
    )
    ender_kind = forms.ChoiceField(
        label=gettext_lazy("Penalty for the player who ended the hole"),
        required=False,
        choices=list(ENDER_KIND_LABELS.items()),
    )
    ender_points = WholeNumberField(
        label=gettext_lazy("Penalty points"), required=False, min_value=0, max_value=VALUE_LIMIT
    )
    ender_on_tie = forms.BooleanField(
        label=gettext_lazy("Also when the ender only ties for lowest"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(name, preset_label(ruleset)) for name, ruleset in PRESETS.items()]
        for rank in RANKS:
            self.fields[value_field_name(rank)] = WholeNumberField(
                label=RANK_LABELS.get(rank, rank), min_value=-VALUE_LIMIT, max_value=VALUE_LIMIT
            )

    @property
    def value_fields(self) -> list[forms.BoundField]:
        """The bound fields of the card values, A to Joker."""
        return [self[value_field_name(rank)] for rank in RANKS]

    def spec(self) -> dict[str, Any]:
        """The spec for resolve_ruleset(): {"preset": ..., every adjustable parameter}. Needs is_valid()."""
        data = self.cleaned_data
        rows, cols = (int(n) for n in data["shape"].split("x"))
        block = None
        if data["block"]:
            block = {"points": data["block_points"], "others_add": data["block_others_add"]}
        ender: dict[str, Any] | None = None
        if data["ender_kind"] == "fixed":
            ender = {"kind": "fixed", "points": data["ender_points"]}
        elif data["ender_kind"] == "lowest_score":
            ender = {"kind": "lowest_score"}
        return {
            "preset": data["preset"],
            "rows": rows,
            "cols": cols,
            "match_lines": list(data["match_lines"]),
            "negative_matches": data["negative_matches"],
            "jokers": data["jokers"],
            "jokers_wild": data["jokers_wild"],
            "decks": data["decks"] if data["decks"] == "auto" else int(data["decks"]),
            "values": {rank: data[value_field_name(rank)] for rank in RANKS},
            "four_of_a_kind_block": block,
            "ender_penalty": ender,
            "ender_penalty_on_tie": data["ender_on_tie"],
        }

    @staticmethod
    def field_for_problem(where: str) -> str | None:
        """The control an engine path names ("ruleset.values.Q" is `value_Q`, "ruleset.ender_penalty.points"
        `ender_points`), else None (the form's top): how `place_problems` reads the engine's problems."""
        parts = where.split(".")
        name = parts[1] if len(parts) > 1 else ""
        if name in ("rows", "cols"):
            return "shape"
        if name == "values" and len(parts) > 2 and parts[2] in RANKS:
            return value_field_name(parts[2])
        if name == "four_of_a_kind_block":
            return {"points": "block_points", "others_add": "block_others_add"}.get(parts[-1], "block")
        if name == "ender_penalty":
            return "ender_points" if parts[-1] == "points" else "ender_kind"
        if name == "ender_penalty_on_tie":
            return "ender_on_tie"
        if name in ("match_lines", "negative_matches", "jokers", "jokers_wild", "decks"):
            return name
        return "preset" if name == "preset" else None


def rules_initial(ruleset: Ruleset) -> dict[str, Any]:
    """The controls' values that reproduce `ruleset`."""
    block = ruleset.four_of_a_kind_block
    ender = ruleset.ender_penalty
    return {
        "preset": ruleset.preset,
        "rules_for": ruleset.preset,
        "shape": ruleset.shape,
        "match_lines": sorted(ruleset.match_lines),
        "negative_matches": ruleset.negative_matches,
        "jokers": ruleset.jokers,
        "jokers_wild": ruleset.jokers_wild,
        "decks": str(ruleset.decks),
        "block": block is not None,
        "block_points": block.points if block else 0,
        "block_others_add": block.others_add if block else 0,
        "ender_kind": ender.kind if ender else "",
        "ender_points": ender.points if ender and ender.points is not None else 10,
        "ender_on_tie": ruleset.ender_penalty_on_tie,
    } | {value_field_name(rank): ruleset.value_of(rank) for rank in RANKS}


def read_rules(data: Mapping[str, Any]) -> tuple[RulesForm, Ruleset | None]:
    """The rules form and the ruleset it gives, or None (the form then carries the errors)."""
    preset_name = str(data.get("preset") or DEFAULT_PRESET).strip().lower()
    preset = PRESETS.get(preset_name)
    if preset is None:
        # Only the preset is wrong: show the default's controls with the error on the preset select.
        form = RulesForm(data=rules_initial(PRESETS[DEFAULT_PRESET]) | {"preset": preset_name})
        form.is_valid()
        return form, None
    if data.get("rules_for") != preset_name or data.get("action") == "reset-rules":
        # A first visit, the preset was just changed, or "back to the preset's rules": no adjustments.
        return RulesForm(initial=rules_initial(preset)), preset
    submitted = {key: data.get(key) for key in data} | {
        "preset": preset_name,
        "match_lines": _getlist(data, "match_lines"),
    }
    form = RulesForm(data=submitted)
    if not form.is_valid():
        return form, None
    try:
        return form, resolve_ruleset(form.spec())
    except RulesetError as error:
        place_problems(form, error.problems)
        return form, None


def grid_shape(rules: RulesForm, ruleset: Ruleset | None) -> tuple[int, int]:
    """Rows and columns to draw: the ruleset's, else (rules in error) the chosen shape, else the preset's."""
    if ruleset is not None:
        return ruleset.rows, ruleset.cols
    shape = str(rules["shape"].value() or "")
    if shape in dict(rules.fields["shape"].choices):
        rows, cols = shape.split("x")
        return int(rows), int(cols)
    preset = PRESETS.get(str(rules["preset"].value()), PRESETS[DEFAULT_PRESET])
    return preset.rows, preset.cols


def _getlist(data: Mapping[str, Any], key: str) -> list[str]:
    """Every value of a repeated field (a QueryDict) or the one value of a plain mapping."""
    getlist = getattr(data, "getlist", None)
    if getlist is not None:
        return list(getlist(key))
    value = data.get(key)
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]
