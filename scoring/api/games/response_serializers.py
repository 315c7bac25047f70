"""What the live-games API answers: response shapes read from the selectors' dataclasses
(`Scoreboard`, `HoleLine`, `HistoryLine`...), which also document the answers in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import selectors
from scoring.api.calculator.response_serializers import AdjustmentSerializer, RulesetSerializer
from scoring.api.games.concurrency import etag
from scoring.api.games.links import absolute_url, game_links, hole_url_name
from scoring.models import Game, Seat
from scoring.selectors import HoleLine


class SeatSerializer(serializers.Serializer):
    """A player at the table with the stored totals."""

    # Reads a `Seat`.
    name = serializers.CharField()
    seat = serializers.IntegerField(help_text=_("0-based, clockwise"))
    total = serializers.IntegerField()
    holes_played = serializers.IntegerField()
    playoff_total = serializers.IntegerField()
    etag = serializers.SerializerMethodField(
        help_text=_('"seat-<id>": send it in If-Match to remove this player')
    )

    def get_etag(self, seat: Seat) -> str:
        """The seat's ETag, the same as the header of its GET."""
        return etag("seat", seat.pk)


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
    ended_early = serializers.CharField(
        help_text=_(
            '"Ended early after hole 5 of 9" when the players ended the game before its last hole '
            "(POST end/; the holes played decide it), else empty"
        )
    )
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
        target = selectors.undo_target(board.game)
        return None if target is None else ChangeRefSerializer(target).data

    @extend_schema_field(ChangeRefSerializer(allow_null=True))
    def get_redo(self, board: Any) -> dict[str, Any] | None:
        """What redo would apply again now (the undo it reverts)."""
        target = selectors.redo_target(board.game)
        return None if target is None else ChangeRefSerializer(target).data


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

    # Reads a `Game` (its seats prefetched, or read here). Context: `request`, `can_edit` (the grant
    # scores) and `token`, the link the game was reached by (None: the owner's, who holds both).
    id = serializers.IntegerField(
        source="pk",
        help_text=_("the game's number: how a club's rating history and exports name it (not a link)"),
    )
    title = serializers.CharField()
    preset = serializers.CharField()
    ruleset = serializers.JSONField(help_text=_("every parameter resolved (see /api/v1/rulesets/)"))
    frozen = serializers.BooleanField(source="is_frozen")
    first_dealer = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["in_progress", "sudden_death", "finished"])
    winners = serializers.ListField(child=serializers.CharField())
    ended_early = serializers.BooleanField(
        default=False,
        help_text=_(
            "true when the players ended the game before its last hole (POST end/; resume/ undoes it)"
        ),
    )
    version = serializers.IntegerField()
    players = serializers.SerializerMethodField(help_text=_("name, seat, total, holes_played"))
    can_edit = serializers.SerializerMethodField()
    edit_token = serializers.CharField(required=False)
    view_token = serializers.CharField()
    links = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_players(self, game: Game) -> list[dict[str, Any]]:
        """The seats in order, with their stored totals."""
        return [
            {"name": s.name, "seat": s.seat, "total": s.total, "holes_played": s.holes_played}
            for s in sorted(game.seats.all(), key=lambda s: s.seat)
        ]

    @extend_schema_field(serializers.BooleanField())
    def get_can_edit(self, game: Game) -> bool:
        """Whether the link (or the user) that reached the game scores it."""
        return bool(self.context["can_edit"])

    @extend_schema_field(GameLinksSerializer)
    def get_links(self, game: Game) -> dict[str, str]:
        """Where to go next, through the link the game was reached by."""
        own_token = game.edit_token if self.context["can_edit"] else game.view_token
        token = self.context.get("token") or own_token
        return game_links(self.context["request"], game, token, self._shows_edit_token(game))

    def _shows_edit_token(self, game: Game) -> bool:
        """The edit token only to the edit link (never through another grant)."""
        token = self.context.get("token")
        return bool(self.context["can_edit"]) and (token is None or token == game.edit_token)

    def to_representation(self, instance: Game) -> dict[str, Any]:
        """The fields, without `edit_token` for whoever may not see it."""
        body = super().to_representation(instance)
        if not self._shows_edit_token(instance):
            del body["edit_token"]
        return body


class HoleSerializer(HoleLineSerializer):
    """A hole with its links."""

    # Reads a `HoleLine`. Context: `request` and `token`, the link its game was reached by.
    url = serializers.SerializerMethodField()

    @extend_schema_field(serializers.URLField())
    def get_url(self, line: HoleLine) -> str:
        """The hole's own address, through the same link."""
        return absolute_url(
            self.context["request"], hole_url_name(line.is_playoff), self.context["token"], line.number
        )


def hole_body(line: HoleLine, url: str) -> dict[str, Any]:
    """`HoleSerializer`'s answer for `line`, built directly: its fast path.

    HoleSerializer stays the answer's schema; every recorded hole answers this body, and the
    serializer's field machinery costs more than the rest of the view, so the hole path builds the
    same dict by hand. tests/games/test_hole_answer.py keeps the two equal."""
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
    action = serializers.ChoiceField(
        choices=["create", "update", "delete", "undo", "redo", "ruleset", "end", "resume"]
    )
    action_label = serializers.CharField()
    hole_number = serializers.IntegerField(allow_null=True)
    is_playoff = serializers.BooleanField()
    actor = serializers.CharField()
    created_at = serializers.DateTimeField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    undone = serializers.BooleanField()
    undoes_id = serializers.IntegerField(allow_null=True)
    summary = serializers.CharField(
        help_text=_(
            'the change in words, what became of it included: "Hole 9 recorded, then undone", '
            '"Undone: recording of hole 9"'
        )
    )


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
    ended_early = serializers.CharField(
        help_text=_(
            '"Ended early after hole 5 of 9" when the game was ended before its last hole, else empty'
        )
    )
    results = ResultSerializer(many=True)
