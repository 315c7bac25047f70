"""What the scoring API accepts: only the JSON shape (an object, the keys it may hold, their JSON
types). Everything about cards, grids and rulesets is checked by the rules engine, which names the
exact card or parameter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from golfclub.core.input_fields import (
    StrictCharField,
    StrictIntegerField,
    StrictObjectSerializer,
    body_json_type,
)
from golfclub.core.limits import CALCULATOR_API_MAX_BLOCKS_MARKED, CALCULATOR_API_MAX_PLAYERS, TOTAL_LIMIT
from scoring.rules import PRESETS


def normalise_grid(value: Any) -> Any:
    """Whole numbers inside rows become tokens ("7" for 7); anything else goes to the engine as it is."""
    if not isinstance(value, list):
        return value
    return [
        [str(token) if isinstance(token, int) and not isinstance(token, bool) else token for token in row]
        if isinstance(row, list)
        else row
        for row in value
    ]


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(PRESETS), "description": "a preset name"},
            {
                "type": "object",
                "description": 'a preset plus overrides: {"preset": "official", "negative_matches": "zero"}',
                "properties": {"preset": {"type": "string", "enum": list(PRESETS)}},
                "additionalProperties": True,
            },
        ],
        "example": "official",
    }
)
class RulesetSpecField(serializers.Field):
    """A preset name or {"preset": name, ...overrides}; the engine resolves and checks it."""

    default_error_messages = {
        "invalid": _(
            'A ruleset is a preset name such as "official" or an object {{"preset": ...}}, not {datatype}.'
        ),
        "null": _('A ruleset is a preset name such as "official" or an object {{"preset": ...}}, not null.'),
    }

    def to_internal_value(self, data: Any) -> str | Mapping[str, Any]:
        """Accept a string or an object; the engine checks the rest."""
        if not isinstance(data, (str, Mapping)):
            self.fail("invalid", datatype=body_json_type(data))
        return data

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


_GRID_SCHEMA = {
    "type": "array",
    "description": "rows, top row first, each a list of card tokens left to right",
    "items": {"type": "array", "items": {"type": "string", "example": "Q"}},
    "example": [["Q", "7", "K"], ["Q", "7", "3"]],
}


@extend_schema_field(_GRID_SCHEMA)
class GridField(serializers.Field):
    """A grid: rows of card tokens ("Q", "10h", "X"; whole numbers are read as ranks)."""

    default_error_messages = {"null": _("A grid is a list of rows, each a list of cards, not null.")}

    def to_internal_value(self, data: Any) -> Any:
        """Normalise number tokens; the engine checks the shape and every card."""
        return normalise_grid(data)

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


@extend_schema_field(
    {
        "type": "object",
        "description": (
            "player name → their grid (a list of rows of cards), or a typed hole total (a whole number), "
            'or {"total": N, "blocks_marked": K} for a typed total with four-of-a-kind blocks marked '
            "by hand; "
            "players in seat order"
        ),
        "additionalProperties": {
            "oneOf": [
                _GRID_SCHEMA,
                {"type": "integer", "minimum": -TOTAL_LIMIT, "maximum": TOTAL_LIMIT},
                {
                    "type": "object",
                    "properties": {
                        "total": {"type": "integer", "minimum": -TOTAL_LIMIT, "maximum": TOTAL_LIMIT},
                        "blocks_marked": {
                            "type": "integer",
                            "minimum": 0,
                            "maximum": CALCULATOR_API_MAX_BLOCKS_MARKED,
                        },
                    },
                    "required": ["total"],
                },
            ]
        },
        "example": {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": 3},
    }
)
class HoleGridsField(serializers.Field):
    """Player name → grid, typed total, or {"total", "blocks_marked"}: returns (name, grid, total, blocks)."""

    default_error_messages = {
        "invalid": _("grids must be an object of player name → grid or typed total, not {datatype}."),
        "null": _("grids must be an object of player name → grid or typed total, not null."),
        "empty": _("grids names no player: give at least one."),
        "too_many": _("grids names %(count)d players; a table has at most %(limit)d."),
    }

    def to_internal_value(self, data: Any) -> list[tuple[str, Any, int | None, int]]:
        """Check each player's entry is a grid, a whole number or {"total", "blocks_marked"}."""
        if not isinstance(data, Mapping):
            self.fail("invalid", datatype=body_json_type(data))
        if not data:
            self.fail("empty")
        if len(data) > CALCULATOR_API_MAX_PLAYERS:
            raise serializers.ValidationError(
                self.error_messages["too_many"] % {"count": len(data), "limit": CALCULATOR_API_MAX_PLAYERS}
            )
        entries: list[tuple[str, Any, int | None, int]] = []
        errors: dict[str, list[str]] = {}
        for name, value in data.items():
            if not str(name).strip():
                errors[str(name)] = [_("A player name cannot be blank.")]
                continue
            try:
                entries.append(_hole_entry(str(name), value))
            except serializers.ValidationError as error:
                errors[str(name)] = error.detail
        if errors:
            raise serializers.ValidationError(errors)
        return entries

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


def _typed_total(value: Any, what: str) -> int:
    """A typed total within bounds, or a ValidationError naming what is wrong."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise serializers.ValidationError(
            _("%(what)s must be a whole number, not %(type)s.")
            % {"what": what, "type": body_json_type(value)}
        )
    if not -TOTAL_LIMIT <= value <= TOTAL_LIMIT:
        raise serializers.ValidationError(
            _("%(what)s must be between -%(limit)d and %(limit)d; got %(value)d.")
            % {"what": what, "limit": TOTAL_LIMIT, "value": value}
        )
    return value


def _hole_entry(name: str, value: Any) -> tuple[str, Any, int | None, int]:
    """One player's entry: (name, grid tokens or None, typed total or None, blocks marked)."""
    if isinstance(value, list):
        return name, normalise_grid(value), None, 0
    if isinstance(value, int) and not isinstance(value, bool):
        return name, None, _typed_total(value, _("A typed hole total")), 0
    if isinstance(value, Mapping):
        unknown = [str(key) for key in value if key not in ("total", "blocks_marked")]
        if unknown:
            raise serializers.ValidationError(
                {
                    key: [_('Unknown key "%(key)s": use "total" and "blocks_marked".') % {"key": key}]
                    for key in unknown
                }
            )
        if "total" not in value:
            raise serializers.ValidationError({"total": [_("A typed entry needs its total.")]})
        errors: dict[str, list[str]] = {}
        total = blocks = 0
        try:
            total = _typed_total(value["total"], "total")
        except serializers.ValidationError as error:
            errors["total"] = error.detail
        raw_blocks = value.get("blocks_marked", 0)
        if (
            not isinstance(raw_blocks, int)
            or isinstance(raw_blocks, bool)
            or not 0 <= raw_blocks <= CALCULATOR_API_MAX_BLOCKS_MARKED
        ):
            errors["blocks_marked"] = [
                _("blocks_marked must be a whole number from 0 to %(limit)d; got %(value)s.")
                % {"limit": CALCULATOR_API_MAX_BLOCKS_MARKED, "value": body_json_type(raw_blocks)}
            ]
        else:
            blocks = raw_blocks
        if errors:
            raise serializers.ValidationError(errors)
        return name, None, total, blocks
    raise serializers.ValidationError(
        _('Expected a grid (a list of rows), a typed total (a whole number) or {"total": N}, not %(type)s.')
        % {"type": body_json_type(value)}
    )


class RulesetRequestSerializer(StrictObjectSerializer):
    """A calculator request: a ruleset (default "official") and what it scores."""

    ruleset = RulesetSpecField(
        required=False,
        default="official",
        help_text=_('A preset name, or {"preset": name, ...overrides}. Default "official".'),
    )


@extend_schema_serializer(component_name="Score")
class ScoreRequestSerializer(RulesetRequestSerializer):
    """POST /api/v1/score/: one grid under one ruleset."""

    grid = GridField(
        error_messages={"required": _("grid is required: a list of rows, each a list of cards.")},
        help_text=_("The player's final grid: rows top first, cards left to right."),
    )
    players = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=CALCULATOR_API_MAX_PLAYERS,
        help_text=_('Players at the table: with decks "auto" it sets the packs in play for the deck check.'),
    )


@extend_schema_serializer(component_name="Hole")
class HoleRequestSerializer(RulesetRequestSerializer):
    """POST /api/v1/score-hole/: every player's grid (or typed total) of one hole."""

    grids = HoleGridsField(
        error_messages={"required": _("grids is required: an object of player name → grid, in seat order.")},
    )
    ender = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,  # "" is then named as an unknown ender, which says more than "may not be blank"
        default=None,
        trim_whitespace=False,
        help_text=_("The player who ended the hole (went out or knocked), or null."),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The ender must be one of the players."""
        ender = attrs.get("ender")
        names = [entry[0] for entry in attrs["grids"]]
        if ender is not None and ender not in names:
            raise serializers.ValidationError(
                {
                    "ender": [
                        _('Unknown ender "%(ender)s": the players are %(names)s.')
                        % {
                            "ender": ender,
                            "names": ", ".join(names),
                        }
                    ]
                }
            )
        return attrs


# Responses (documentation of the engine's to_dict() output).
