"""The answers of the clubs' read API (SPEC "Clubs API contract"): each serializer is its answer's
schema too. Averages are points per hole played (two decimals, null before any hole); ratings are
openskill's mu and sigma with `ordinal` = mu - 3 sigma."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from golfclub.core.input_fields import StrictBooleanField, StrictCharField, StrictObjectSerializer
from golfclub.core.limits import MAX_NAME_LENGTH


class MemberRefSerializer(serializers.Serializer):
    """A member named in another answer."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class RatingLineSerializer(serializers.Serializer):
    """One rated member's current rating and counted games."""

    member = MemberRefSerializer()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()


class RatingsSerializer(serializers.Serializer):
    """`GET /api/v1/clubs/{id}/ratings/`: the rated members by ordinal, highest first."""

    ratings = RatingLineSerializer(many=True)


class RatingSerializer(serializers.Serializer):
    """A rating: openskill's mu and sigma, and the ordinal shown (mu - 3 sigma)."""

    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingPointSerializer(RatingSerializer):
    """The rating right after one counted game (its game's id)."""

    game = serializers.IntegerField()


class HeadToHeadSerializer(serializers.Serializer):
    """The member against one member they met: shared games, and how many of them the member
    finished ahead of (a better place), behind, or tied with the other."""

    member = MemberRefSerializer()
    games = serializers.IntegerField()
    ahead = serializers.IntegerField()
    behind = serializers.IntegerField()
    tied = serializers.IntegerField()


class RecordFieldsSerializer(serializers.Serializer):
    """The figures a member's results add up to."""

    games = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="First places, shared or not.")
    holes_played = serializers.IntegerField()
    total_points = serializers.IntegerField()
    average_per_hole = serializers.FloatField(allow_null=True, help_text="total_points / holes_played.")
    low_hole_score = serializers.IntegerField(help_text="Holes where they had the table's lowest score.")
    best_hole_score = serializers.IntegerField(allow_null=True, help_text="Their lowest single hole.")


class MemberStatsSerializer(RecordFieldsSerializer):
    """`GET /api/v1/clubs/{id}/members/{member_id}/`: a member's stats, rating and its history,
    head-to-head against every member met; rival and nemesis (null below 3 shared games)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    retired = serializers.BooleanField()
    rating = RatingSerializer(help_text="openskill's defaults (mu 25, sigma 25/3) before any rated game.")
    rating_history = RatingPointSerializer(many=True)
    head_to_head = HeadToHeadSerializer(many=True)
    average_seconds_per_turn = serializers.FloatField(
        allow_null=True, help_text="Over the turns the turn timer measured in their games; null without any."
    )
    rival = HeadToHeadSerializer(
        allow_null=True, help_text="Who finished ahead of them most often (at least 3 shared games)."
    )
    nemesis = HeadToHeadSerializer(
        allow_null=True,
        help_text="Who finished ahead of them in the highest share of shared games, among those ahead "
        "more often than behind (at least 3 shared games).",
    )


class SeasonRowSerializer(RecordFieldsSerializer):
    """One member's season."""

    member = MemberRefSerializer()
    rating_change = serializers.FloatField(
        help_text="Ordinal after their last game of the season minus ordinal before their first."
    )


class SeasonLeaderboardSerializer(serializers.Serializer):
    """`GET /api/v1/clubs/{id}/seasons/{season_id}/leaderboard/`."""

    rows = SeasonRowSerializer(many=True)


class MemberUpdateSerializer(StrictObjectSerializer):
    """PATCH /api/v1/clubs/{id}/members/{member_id}/: a new `name`, `retired` true or false, or both."""

    name = StrictCharField(required=False, max_length=MAX_NAME_LENGTH * 4, help_text="The member's new name.")
    retired = StrictBooleanField(
        required=False, help_text="true: off the leaderboard and the game start (games and rating kept)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """At least one change."""
        if not attrs:
            raise serializers.ValidationError({"name": [_('Send "name", "retired" or both.')]})
        return attrs
