"""What the scoring API answers: the shapes of the engine's `to_dict()` results, for the OpenAPI
schema."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class PositionSerializer(serializers.Serializer):
    """A place in the grid, 1-based."""

    row = serializers.IntegerField(help_text=_("1 = top row"))
    col = serializers.IntegerField(help_text=_("1 = left column (rule 1.4)"))


class MatchSerializer(serializers.Serializer):
    """A set of equal cards that cancel."""

    kind = serializers.ChoiceField(choices=["column", "row", "diagonal", "anywhere"])
    positions = PositionSerializer(many=True)
    rank = serializers.CharField()
    points = serializers.IntegerField()
    wild = PositionSerializer(many=True, help_text=_("jokers standing in (jokers_wild)"))
    rule = serializers.CharField(help_text=_('rule citation, e.g. "2.3"'))


class BlockSerializer(serializers.Serializer):
    """Four equal ranks filling two adjacent columns (four_of_a_kind_block)."""

    positions = PositionSerializer(many=True)
    rank = serializers.CharField()
    points = serializers.IntegerField()
    others_add = serializers.IntegerField()
    rule = serializers.CharField()


class CardScoreSerializer(serializers.Serializer):
    """One card's points."""

    position = PositionSerializer()
    card = serializers.CharField(help_text=_('canonical token: "10H", "Q", "X"'))
    rank = serializers.CharField(help_text=_('the rank alone: "10", "Q", "X"'))
    points = serializers.IntegerField()
    matched = serializers.BooleanField()
    rule = serializers.CharField()


@extend_schema_field(
    {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["auto"]}], "example": 1}
)
class DecksField(serializers.Field):
    """A pack count or "auto"."""

    def to_representation(self, value: Any) -> Any:
        """As given."""
        return value


class BlockRuleSerializer(serializers.Serializer):
    """four_of_a_kind_block."""

    points = serializers.IntegerField()
    others_add = serializers.IntegerField()


class EnderPenaltySerializer(serializers.Serializer):
    """ender_penalty."""

    kind = serializers.ChoiceField(choices=["fixed", "lowest_score"])
    points = serializers.IntegerField(required=False, help_text=_('only for "fixed"'))


class RulesetSerializer(serializers.Serializer):
    """A ruleset with every parameter resolved (Ruleset.to_dict())."""

    preset = serializers.CharField()
    source = serializers.CharField(help_text=_('the seed and section it follows, e.g. "000 §2, §5.1"'))
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    face_up_at_start = serializers.IntegerField()
    decks = DecksField()
    min_decks = serializers.IntegerField()
    jokers = serializers.IntegerField()
    values = serializers.DictField(child=serializers.IntegerField(), help_text=_("rank → points, every rank"))
    match_lines = serializers.ListField(child=serializers.CharField())
    negative_matches = serializers.ChoiceField(choices=["keep", "zero"])
    jokers_wild = serializers.BooleanField()
    four_of_a_kind_block = BlockRuleSerializer(allow_null=True)
    ender_penalty = EnderPenaltySerializer(allow_null=True)
    ender_penalty_on_tie = serializers.BooleanField()
    hole_end = serializers.ChoiceField(choices=["all_face_up", "knock", "either"])
    holes = serializers.IntegerField(allow_null=True)
    target_score = serializers.IntegerField(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.CharField())
    overrides = serializers.ListField(
        child=serializers.CharField(), help_text=_("parameters that differ from the preset")
    )


class GridScoreSerializer(serializers.Serializer):
    """A grid's score with its full breakdown."""

    total = serializers.IntegerField()
    matches = MatchSerializer(many=True)
    blocks = BlockSerializer(many=True)
    cards = CardScoreSerializer(many=True, help_text=_("one per card, row by row"))
    explanation = serializers.ListField(
        child=serializers.CharField(), help_text=_("lines a player can check, each citing its rule")
    )


class ScoreResponseSerializer(GridScoreSerializer):
    """POST /api/v1/score/ answer: the grid score plus the resolved ruleset."""

    ruleset = RulesetSerializer()


class AdjustmentSerializer(serializers.Serializer):
    """Points added to a player's grid score."""

    kind = serializers.ChoiceField(choices=["block_others_add", "ender_penalty"])
    reason = serializers.CharField()
    points = serializers.IntegerField()
    rule = serializers.CharField()


class PlayerHoleScoreSerializer(serializers.Serializer):
    """One player's hole."""

    name = serializers.CharField()
    grid_score = serializers.IntegerField(help_text=_("the grid's score, or the typed total"))
    typed = serializers.BooleanField(help_text=_("true when a total was typed instead of cards"))
    adjustments = AdjustmentSerializer(many=True)
    score = serializers.IntegerField(help_text=_("grid_score plus adjustments"))
    grid = GridScoreSerializer(required=False, help_text=_("the breakdown, for grids entered as cards"))


class HoleResponseSerializer(serializers.Serializer):
    """POST /api/v1/score-hole/ answer."""

    players = PlayerHoleScoreSerializer(many=True)
    ender = serializers.CharField(allow_null=True)
    decks = serializers.IntegerField(help_text=_("packs in play for this table"))
    ruleset = RulesetSerializer()


class ParameterSerializer(serializers.Serializer):
    """One ruleset parameter described."""

    name = serializers.CharField()
    values = serializers.CharField(help_text=_("the values it takes"))
    meaning = serializers.CharField()
    choices = serializers.ListField(
        child=serializers.CharField(), help_text=_("the allowed words, when a choice")
    )


class RulesetListSerializer(serializers.Serializer):
    """GET /api/v1/rulesets/ answer."""

    presets = RulesetSerializer(many=True)
    parameters = ParameterSerializer(many=True)
