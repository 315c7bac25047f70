"""Request and response shapes of the live-games API.

Request serializers check the JSON shape only, strictly: text must be a JSON string without NUL,
surrogates or control characters, numbers JSON integers within bounds (`input_fields`, over
`scoring.inputs`); names, cards, grids and rulesets are checked by the services and the rules
engine, which name the exact player, card or parameter. Response serializers
read the selectors' dataclasses (`Scoreboard`, `HoleLine`, ...) and document the answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import selectors
from scoring.api.calculator.serializers import (
    AdjustmentSerializer,
    GridField,
    RulesetSerializer,
    RulesetSpecField,
    StrictObjectSerializer,
)
from scoring.api.games.concurrency import etag
from scoring.api.input_fields import StrictCharField, StrictIntegerField
from scoring.inputs import InputError, clean_text, preview
from scoring.limits import (
    GAME_API_MAX_BLOCKS_MARKED,
    MAX_ACTOR_LENGTH,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    SMALL_INT_MAX,
    TOTAL_LIMIT,
)
from scoring.names import check_player_names
from scoring.selectors import HoleLine

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


# ---------------------------------------------------------------------------------------------
# Requests


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

    The check and its messages are `scoring.names.check_player_names`, the services' own, so the API
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

    def validate_players(self, value: list[str]) -> list[str]:
        """The names as the services check them (`check_player_names`), each problem at its seat."""
        return _checked_names(value)


class GameUpdateSerializer(StrictObjectSerializer):
    """PATCH /api/v1/games/{token}/: a new title, or a new ruleset before the first hole."""

    title = StrictCharField(required=False, allow_blank=True, max_length=MAX_TITLE_LENGTH)
    ruleset = RulesetSpecField(
        required=False, help_text=_("Refused once the first hole is recorded (seed 001).")
    )


class HoleWriteSerializer(StrictObjectSerializer):
    """POST/PUT a hole: every player's entry and who ended the hole."""

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


class HolePatchSerializer(HoleWriteSerializer):
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


# ---------------------------------------------------------------------------------------------
# Responses


class SeatSerializer(serializers.Serializer):
    """A player at the table with the stored totals."""

    name = serializers.CharField()
    seat = serializers.IntegerField(help_text=_("0-based, clockwise"))
    total = serializers.IntegerField()
    holes_played = serializers.IntegerField()
    playoff_total = serializers.IntegerField()
    etag = serializers.CharField(help_text=_('"seat-<id>": send it in If-Match to remove this player'))


class SeatLineSerializer(serializers.Serializer):
    """A player at the table with the stored totals."""

    name = serializers.CharField()
    seat = serializers.IntegerField(help_text=_("0-based, clockwise"))
    total = serializers.IntegerField(help_text=_("regular holes only"))
    holes_played = serializers.IntegerField()
    playoff_total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text=_("1 = leading; equal totals share a rank"))
    is_leader = serializers.BooleanField()
    is_winner = serializers.BooleanField()


class EntryLineSerializer(serializers.Serializer):
    """One player's result in one hole."""

    name = serializers.CharField()
    seat = serializers.IntegerField()
    score = serializers.IntegerField(help_text=_("the hole score: grid score plus adjustments"))
    grid_score = serializers.IntegerField(help_text=_("the grid's score, or the typed total"))
    typed = serializers.BooleanField(help_text=_("true when a total was typed instead of cards"))
    typed_total = serializers.IntegerField(allow_null=True)
    cards = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), allow_null=True)
    adjustments = AdjustmentSerializer(many=True)
    blocks_marked = serializers.IntegerField()
    is_low = serializers.BooleanField(help_text=_("lowest score of the hole"))


class HoleLineSerializer(serializers.Serializer):
    """A recorded hole."""

    number = serializers.IntegerField()
    is_playoff = serializers.BooleanField()
    dealer_seat = serializers.IntegerField()
    dealer = serializers.CharField()
    ender = serializers.CharField(allow_null=True)
    version = serializers.IntegerField(help_text=_("bumped by every change to the hole"))
    etag = serializers.SerializerMethodField(
        help_text=_('"hole-<id>-v<version>": send it in If-Match to change or delete this hole')
    )
    created_by = serializers.CharField()
    entries = EntryLineSerializer(many=True)

    def get_etag(self, line: Any) -> str:
        """The hole's ETag, the same as the header of its GET."""
        if isinstance(line, Mapping):
            return etag("hole", line["id"], line["version"])
        return etag("hole", line.id, line.version)


class NextHoleSerializer(serializers.Serializer):
    """The hole to record next."""

    number = serializers.IntegerField()
    is_playoff = serializers.BooleanField()
    dealer_seat = serializers.IntegerField()
    dealer = serializers.CharField()
    first_player_seat = serializers.IntegerField()
    first_player = serializers.CharField(help_text=_("the dealer's left"))
    players = serializers.ListField(child=serializers.CharField())


class TiebreakStepSerializer(serializers.Serializer):
    """One tiebreaker applied."""

    method = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    values = serializers.SerializerMethodField()
    decided = serializers.BooleanField()
    explanation = serializers.CharField()

    def get_values(self, step: Any) -> dict[str, str]:
        """Player → the value compared."""
        return dict(step.values)


class OutcomeSerializer(serializers.Serializer):
    """The engine's MatchOutcome."""

    order = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text=_("best first; a group is still level"),
    )
    winners = serializers.ListField(child=serializers.CharField())
    status = serializers.CharField(help_text=_('"won", "sudden_death", "shared" or "tied"'))
    contenders = serializers.ListField(child=serializers.CharField())
    steps = TiebreakStepSerializer(many=True)
    explanation = serializers.ListField(child=serializers.CharField())


class ChangeRefSerializer(serializers.Serializer):
    """The change an undo (or redo) would act on now: send its id as `change`."""

    id = serializers.IntegerField()
    action = serializers.CharField()
    hole_number = serializers.IntegerField(allow_null=True)
    is_playoff = serializers.BooleanField()


def _change_ref(line: Any) -> dict[str, Any] | None:
    if line is None:
        return None
    return {
        "id": line.id,
        "action": line.action,
        "hole_number": line.hole_number,
        "is_playoff": line.is_playoff,
    }


class ScoreboardSerializer(serializers.Serializer):
    """GET /api/v1/games/{token}/scoreboard/."""

    version = serializers.IntegerField(help_text=_('the ETag is "game-<id>-v<version>"'))
    status = serializers.ChoiceField(choices=["in_progress", "sudden_death", "finished"])
    frozen = serializers.BooleanField(
        help_text=_("true once the first hole is recorded: the ruleset is fixed")
    )
    ruleset = serializers.SerializerMethodField()
    players = SeatLineSerializer(many=True)
    holes = HoleLineSerializer(many=True)
    playoff_holes = HoleLineSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    leaders = serializers.ListField(child=serializers.CharField())
    match_over = serializers.BooleanField()
    reason = serializers.CharField()
    winners = serializers.ListField(child=serializers.CharField())
    shared_victory = serializers.BooleanField()
    outcome = OutcomeSerializer(allow_null=True)
    next_hole = NextHoleSerializer(allow_null=True)
    contenders = serializers.ListField(child=serializers.CharField(), help_text=_("pending sudden death"))
    cumulative = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text=_("running total after each hole"),
    )
    holes_left = serializers.IntegerField(allow_null=True)
    undo = serializers.SerializerMethodField(
        help_text=_("the change undo would revert now (POST undo/ with its id), or null")
    )
    redo = serializers.SerializerMethodField(
        help_text=_("the undo that redo would revert now (POST redo/ with its id), or null")
    )

    @extend_schema_field(RulesetSerializer)
    def get_ruleset(self, board: Any) -> dict[str, Any]:
        """The frozen ruleset, every parameter resolved."""
        return board.ruleset.to_dict()

    @extend_schema_field(ChangeRefSerializer(allow_null=True))
    def get_undo(self, board: Any) -> dict[str, Any] | None:
        """What undo would revert now."""
        return _change_ref(selectors.undo_target(board.game))

    @extend_schema_field(ChangeRefSerializer(allow_null=True))
    def get_redo(self, board: Any) -> dict[str, Any] | None:
        """What redo would apply again now (the undo it reverts)."""
        return _change_ref(selectors.redo_target(board.game))


class GameLinksSerializer(serializers.Serializer):
    """Where to go next."""

    self = serializers.URLField()
    scoreboard = serializers.URLField()
    holes = serializers.URLField()
    players = serializers.URLField()
    history = serializers.URLField()
    export_csv = serializers.URLField()
    export_json = serializers.URLField()
    results = serializers.URLField()
    edit = serializers.URLField(
        required=False, help_text=_("the API link that can change the game (edit token)")
    )
    view = serializers.URLField(help_text=_("the read-only API link (view token)"))
    edit_page = serializers.URLField(required=False, help_text=_("the scorer's page (edit token)"))
    view_page = serializers.URLField(help_text=_("the read-only live scoreboard page (view token)"))


class GameSerializer(serializers.Serializer):
    """A game as seen through its link; the edit token is shown only to holders of the edit link."""

    title = serializers.CharField()
    preset = serializers.CharField()
    ruleset = serializers.JSONField(help_text=_("every parameter resolved (see /api/v1/rulesets/)"))
    frozen = serializers.BooleanField()
    first_dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["in_progress", "sudden_death", "finished"])
    winners = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.DictField(), help_text=_("name, seat, total, holes_played")
    )
    can_edit = serializers.BooleanField()
    edit_token = serializers.CharField(required=False)
    view_token = serializers.CharField()
    links = GameLinksSerializer()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class HoleSerializer(HoleLineSerializer):
    """A hole with its links."""

    url = serializers.URLField()


def hole_body(line: HoleLine, url: str) -> dict[str, Any]:
    """`HoleSerializer`'s answer for `line`, built directly: every recorded hole answers it, and the
    serializer's field machinery costs more than the rest of the view (a test keeps them equal)."""
    return {
        "number": line.number,
        "is_playoff": line.is_playoff,
        "dealer_seat": line.dealer_seat,
        "dealer": str(line.dealer),
        "ender": None if line.ender is None else str(line.ender),
        "version": line.version,
        "etag": etag("hole", line.id, line.version),
        "created_by": str(line.created_by),
        "entries": [
            {
                "name": str(entry.name),
                "seat": entry.seat,
                "score": entry.score,
                "grid_score": entry.grid_score,
                "typed": entry.typed,
                "typed_total": entry.typed_total,
                "cards": None if entry.cards is None else [[str(c) for c in row] for row in entry.cards],
                "adjustments": [
                    {
                        "kind": adjustment["kind"],
                        "reason": str(adjustment["reason"]),
                        "points": adjustment["points"],
                        "rule": str(adjustment["rule"]),
                    }
                    for adjustment in entry.adjustments
                ],
                "blocks_marked": entry.blocks_marked,
                "is_low": entry.is_low,
            }
            for entry in line.entries
        ],
        "url": url,
    }


class HistoryLineSerializer(serializers.Serializer):
    """One change to a game."""

    id = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["create", "update", "delete", "undo", "redo", "ruleset"])
    action_label = serializers.CharField()
    hole_number = serializers.IntegerField(allow_null=True)
    is_playoff = serializers.BooleanField()
    actor = serializers.CharField()
    created_at = serializers.DateTimeField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    undone = serializers.BooleanField()
    undoes_id = serializers.IntegerField(allow_null=True)


class PlayerSerializer(serializers.Serializer):
    """A player on a logged-in user's roster."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_played_at = serializers.DateTimeField(allow_null=True)


class ResultSerializer(serializers.Serializer):
    """One player's results summary (seed 003's fields)."""

    player = serializers.CharField()
    seat = serializers.IntegerField()
    rank = serializers.IntegerField()
    total_points = serializers.IntegerField(help_text=_("the authoritative score; lower wins"))
    holes_played = serializers.IntegerField()
    low_hole_score = serializers.IntegerField(
        help_text=_("how many holes the player had the lowest score in (shared lows count for each)")
    )
    best_hole_score = serializers.IntegerField(
        allow_null=True, help_text=_("the player's lowest single hole")
    )
    winner = serializers.BooleanField()


class ResultsSerializer(serializers.Serializer):
    """GET results: a summary per player."""

    status = serializers.CharField()
    winners = serializers.ListField(child=serializers.CharField())
    shared_victory = serializers.BooleanField()
    results = ResultSerializer(many=True)
