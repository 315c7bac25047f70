"""What the live-games API accepts: the request bodies, checked strictly.

Text must be a JSON string without NUL, surrogates or control characters, numbers JSON integers
within bounds (`input_fields`, over `golfclub.core.inputs`); names, cards, grids and rulesets are checked
by the services and the rules engine, which name the exact player, card or parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from golfclub.core.input_fields import StrictCharField, StrictIntegerField, StrictObjectSerializer
from golfclub.core.inputs import InputError, clean_text, preview
from golfclub.core.limits import (
    BIGINT_MAX,
    GAME_API_MAX_BLOCKS_MARKED,
    MAX_ACTOR_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_REASON_LENGTH,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    SMALL_INT_MAX,
    TOTAL_LIMIT,
)
from golfclub.core.names import check_player_names
from scoring.api.calculator.request_serializers import GridField, RulesetSpecField
from scoring.api.games.hole_body import plain_hole_body

_GRID_SCHEMA = {
    "type": "array",
    "description": "rows, top row first, each a list of card tokens left to right",
    "items": {"type": "array", "items": {"type": "string", "example": "Q"}},
}
_ENTRY_SCHEMA = {
    "oneOf": [
        _GRID_SCHEMA,
        {"type": "integer", "description": "a typed hole total (the table did not record the cards)"},
        {
            "type": "object",
            "properties": {
                "cards": _GRID_SCHEMA,
                "total": {"type": "integer"},
                "blocks_marked": {"type": "integer", "minimum": 0},
            },
            "description": 'either "cards" or "total", with "blocks_marked" for blocks marked by hand',
        },
    ]
}


@extend_schema_field(
    {
        "type": "object",
        "description": "player name → their final grid (rows of cards), a typed total, or "
        '{"cards": grid} / {"total": N, "blocks_marked": K}',
        "additionalProperties": _ENTRY_SCHEMA,
        "example": {"ann": [["9", "K", "Q"], ["A", "K", "Q"]], "bob": 3},
    }
)
class EntriesField(serializers.Field):
    """Player name → grid, typed total or {"cards"/"total", "blocks_marked"}; the services check the rest."""

    default_error_messages = {
        "invalid": _("entries must be an object of player name → grid or typed total."),
        "empty": _("entries names no player: give every player's grid or total."),
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """Keep the mapping; number tokens inside grids become strings."""
        if not isinstance(data, Mapping):
            self.fail("invalid")
        if not data:
            self.fail("empty")
        result: dict[str, Any] = {}
        problems: dict[str, list[str]] = {}
        for name, value in data.items():
            try:
                clean_text(name, _("The player name %(name)s") % {"name": preview(name)})
            except InputError as error:
                problems[preview(name)] = [error.message]
                continue
            if isinstance(value, list):
                value = GridField().to_internal_value(value)
            elif isinstance(value, Mapping) and isinstance(value.get("cards"), list):
                value = {**value, "cards": GridField().to_internal_value(value["cards"])}
            result[name] = value
        if problems:
            raise serializers.ValidationError(problems)
        return result

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


@extend_schema_field({"type": "string", "maxLength": MAX_NAME_LENGTH})
class PlayerNameField(StrictCharField):
    """A player's name: JSON text; its length and the rest are checked by `check_player_names`."""


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "maxLength": MAX_NAME_LENGTH},
        "minItems": MIN_PLAYERS,
        "maxItems": MAX_PLAYERS,
    }
)
class PlayerNamesField(serializers.ListField):
    """The names of a table in seat order; the count and the names are checked by `check_player_names`."""


def _checked_names(names: list[str]) -> list[str]:
    """`names` unchanged when the services would take them; else a ValidationError at each bad seat.

    The check and its messages are `golfclub.core.names.check_player_names`, the services' own, so the API
    refuses exactly what the services and the start page refuse ("players[2]" for the second name,
    "players" for the count). The services clean the names when they store them.
    """
    checked = check_player_names(names)
    if not checked.problems:
        return names
    errors: dict[int | str, list[str]] = {}
    for problem in checked.problems:
        # DRF reports list items by 0-based index; the error shape turns that into "players[n]".
        key = problem.position - 1 if problem.position is not None else "non_field_errors"
        errors.setdefault(key, []).append(problem.message())
    raise serializers.ValidationError(errors)


def _checked_name(name: str) -> str:
    """One name as the services check it: unchanged, or a ValidationError with their message."""
    checked = check_player_names([name], minimum=1, maximum=1)
    if checked.problems:
        raise serializers.ValidationError([problem.message() for problem in checked.problems])
    return name


def _reason_field() -> StrictCharField:
    """The optional `reason` of a correction: why it is made (kept in the game's history).

    A managed game's hole policy may require one (after the next hole, an official's correction
    without a reason is a 400 naming `reason`); an ordinary game just keeps it.
    """
    return StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=MAX_REASON_LENGTH,
        help_text=_(
            "Why this change is made, kept in the game's history. A managed game's rules may require "
            "one (e.g. an official correcting a hole after the next one was recorded)."
        ),
    )


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "nullable": True},
        "maxItems": MAX_PLAYERS,
        "example": [11, 12, None],
    }
)
class MemberIdsField(serializers.ListField):
    """Per seat, a member's id or null (a guest); the linker checks the ids against the club."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=StrictIntegerField(min_value=1, max_value=BIGINT_MAX, allow_null=True),
            max_length=MAX_PLAYERS,
            **kwargs,
        )


class GameCreateSerializer(StrictObjectSerializer):
    """POST /api/v1/games/: a new game."""

    players = PlayerNamesField(
        child=PlayerNameField(), help_text=_("Player names in seat order (clockwise).")
    )
    ruleset = RulesetSpecField(
        required=False, default="official", help_text=_('A preset name, or {"preset": name, ...overrides}.')
    )
    first_dealer = StrictIntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_PLAYERS - 1,
        help_text=_("Seat index (0-based) of the first hole's dealer."),
    )
    title = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_TITLE_LENGTH)
    club = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=BIGINT_MAX,
        help_text=_("The id of a club you own: the game is the club's. Without `members` it links nobody."),
    )
    members = MemberIdsField(
        required=False,
        help_text=_(
            "With `club`: one entry per player, in seat order, the id of the club's member sitting "
            "there or null for a guest. Members must be current members of that club, each once."
        ),
    )

    def validate_players(self, value: list[str]) -> list[str]:
        """The names as the services check them (`check_player_names`), each problem at its seat."""
        return _checked_names(value)


class GameUpdateSerializer(StrictObjectSerializer):
    """PATCH /api/v1/games/{token}/: a new title, or a new ruleset before the first hole."""

    title = StrictCharField(required=False, allow_blank=True, max_length=MAX_TITLE_LENGTH)
    ruleset = RulesetSpecField(
        required=False, help_text=_("Refused once the first hole is recorded (seed 001).")
    )


class _HoleFieldsSerializer(StrictObjectSerializer):
    """Every player's entry and who ended the hole: the fields of a recorded and a replaced hole."""

    entries = EntriesField()
    ender = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        help_text=_("Who ended the hole, or null."),
    )
    number = StrictIntegerField(
        required=False,
        min_value=1,
        max_value=SMALL_INT_MAX,
        help_text=_(
            "Optional on POST: the hole number these entries are for. If the game has moved on (another "
            "phone saved that hole meanwhile), nothing is recorded and the answer is 409."
        ),
    )
    blocks_marked = serializers.DictField(
        child=StrictIntegerField(min_value=0, max_value=GAME_API_MAX_BLOCKS_MARKED),
        required=False,
        help_text=_("Player name → four-of-a-kind blocks marked by hand (typed totals only)."),
    )


class HoleWriteSerializer(_HoleFieldsSerializer):
    """POST/PUT a hole: every player's entry and who ended the hole."""

    # The one check of a recorded hole's body (its docstring above is the schema's description).
    # The usual body (grids, ender, number) is checked by `hole_body.plain_hole_body` without the
    # fields' machinery (it costs a tenth of a hole's CPU): it gives the same validated data, and
    # leaves every other body, and so every error message, to the fields
    # (tests/api/test_hole_body.py holds the two equal).

    @staticmethod
    def validated_quickly(data: Any) -> dict[str, Any] | None:
        """The usual body's validated data, without building a serializer; None for any other body.

        `scoring.api.errors.validated` asks this first: building the serializer alone costs a hole
        about 300 Python instructions (measured with bench's bytecode counts), for nothing on the
        usual body."""
        return plain_hole_body(data)

    def run_validation(self, data: Any = serializers.empty) -> Any:
        """The usual body's validated data at once, else the fields' check."""
        plain = self.validated_quickly(data)
        return plain if plain is not None else self.run_field_validation(data)

    def run_field_validation(self, data: Any = serializers.empty) -> Any:
        """DRF's check by the fields: every body but the usual one, and the reference of the tests."""
        return super().run_validation(data)


class HoleReplaceSerializer(_HoleFieldsSerializer):
    """PUT a hole: every player's entry, who ended it, and why it is corrected (optional)."""

    reason = _reason_field()


class HolePatchSerializer(HoleReplaceSerializer):
    """PATCH a hole: only the players (and the ender) given change."""

    entries = EntriesField(required=False)


class EntryWriteSerializer(StrictObjectSerializer):
    """PUT one player's entry of a hole: cards or a typed total."""

    cards = GridField(required=False, help_text=_("The final grid, rows top first."))
    total = StrictIntegerField(
        required=False,
        min_value=-TOTAL_LIMIT,
        max_value=TOTAL_LIMIT,
        help_text=_("A typed hole total, when no cards were recorded."),
    )
    blocks_marked = StrictIntegerField(
        required=False, min_value=0, max_value=GAME_API_MAX_BLOCKS_MARKED, default=0
    )
    reason = _reason_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Exactly one of cards and total."""
        if ("cards" in attrs) == ("total" in attrs):
            raise serializers.ValidationError(
                {"cards": [_("Give either cards or total, not both or neither.")]}
            )
        return attrs


class SeatWriteSerializer(StrictObjectSerializer):
    """A player's name at the table."""

    name = PlayerNameField()

    def validate_name(self, value: str) -> str:
        """One name as the services check it (`check_player_names`)."""
        return _checked_name(value)


class PlayerWriteSerializer(StrictObjectSerializer):
    """A player on your roster."""

    name = PlayerNameField()

    def validate_name(self, value: str) -> str:
        """One name as the services check it (`check_player_names`)."""
        return _checked_name(value)


class UndoSerializer(StrictObjectSerializer):
    """POST undo (or redo): the change the client saw as the one to undo (or the undo to redo)."""

    change = StrictIntegerField(
        min_value=1,
        max_value=2**63 - 1,
        help_text=_(
            "The id of the change to undo (the scoreboard's `undo.id`), or of the undo to redo "
            "(`redo.id`). A repeat of the same request then changes nothing more (409)."
        ),
    )
    actor = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_ACTOR_LENGTH)
    reason = _reason_field()


class HoleDeleteSerializer(StrictObjectSerializer):
    """DELETE a hole: an optional JSON body, with who deletes it and why."""

    actor = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_ACTOR_LENGTH)
    reason = _reason_field()
