"""What the officiating API answers: the catalogue, an advice, a penalty and a ruling. Each serializer
reads the object its answer shows (named in a comment) and is that answer's OpenAPI schema; the
schema's component names (`Meta.ref_name`) are those the answers always had."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Penalty, Ruling
from tournaments.officiating.ladder import RULE
from tournaments.officiating.recorded import penalty_in_words, recorded_outcome

from .officiating_serializers import FactsField


class SituationFactSerializer(serializers.Serializer):
    """A fact a situation asks: its name, the question, and its type (`boolean` or `integer`)."""

    name = serializers.CharField()
    question = serializers.CharField()
    type = serializers.CharField()


class SituationSerializer(serializers.Serializer):
    """A situation of the catalogue, the sections it rests on and the facts that decide it."""

    # Reads a `catalogue.Situation`.
    id = serializers.CharField()
    title = serializers.CharField()
    rules = serializers.ListField(child=serializers.CharField())
    facts = SituationFactSerializer(many=True)


class SituationsSerializer(serializers.Serializer):
    """Every situation of the catalogue."""

    # Reads `{"situations": SITUATIONS}`.
    situations = SituationSerializer(many=True)


class PenaltyStepSerializer(serializers.Serializer):
    """The step rule 6.3's ladder gives and its points."""

    # Reads a `ladder.Rung`.
    step = serializers.CharField()
    points = serializers.IntegerField()

    class Meta:
        ref_name = "PenaltyStep"


class AdviceSerializer(serializers.Serializer):
    """The answer of `POST /api/v1/rulings/advise/`."""

    # Reads an `Advice`. Context: `step`, the ladder's `Rung` for the player named, or None.
    situation = serializers.CharField(source="situation.id")
    ruling = serializers.CharField()
    citations = serializers.ListField(child=serializers.CharField())
    correction = serializers.CharField(allow_null=True)
    offence = serializers.CharField(allow_null=True)
    penalty = serializers.SerializerMethodField()

    class Meta:
        ref_name = "Advice"

    @extend_schema_field(PenaltyStepSerializer(allow_null=True))
    def get_penalty(self, advice: Any) -> dict[str, Any] | None:
        """The ladder's step for the player named, or None."""
        step = self.context["step"]
        return None if step is None else PenaltyStepSerializer(step).data


class PenaltyPlayerSerializer(serializers.Serializer):
    """The player a penalty or a ruling names."""

    # Reads an `Entrant`.
    id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "PenaltyPlayer"


class PenaltyAnswerSerializer(serializers.Serializer):
    """A ledger entry as the API answers it (the contract's id, offence, step, points and rule)."""

    # Reads a `Penalty` with its entrant.
    id = serializers.IntegerField()
    player = PenaltyPlayerSerializer(source="entrant")
    round = serializers.IntegerField(source="round_number", allow_null=True)
    offence = serializers.CharField()
    step = serializers.CharField()
    points = serializers.IntegerField()
    seconds_over = serializers.IntegerField(allow_null=True)
    decided = serializers.BooleanField(source="step_decided")
    note = serializers.CharField()
    rule = serializers.SerializerMethodField()
    rescinded = serializers.SerializerMethodField()
    rescind_reason = serializers.CharField()
    outcome = serializers.SerializerMethodField(
        help_text="The penalty in words, as given (step, points, the official's choice)."
    )

    class Meta:
        ref_name = "Penalty"

    def get_rule(self, penalty: Penalty) -> str:
        """The rule every penalty rests on (6.3)."""
        return RULE

    def get_rescinded(self, penalty: Penalty) -> bool:
        """True once rescinded on appeal."""
        return penalty.rescinded_at is not None

    def get_outcome(self, penalty: Penalty) -> str:
        """The penalty in words."""
        return str(penalty_in_words(penalty))


class PenaltyEntrySerializer(PenaltyAnswerSerializer):
    """A ledger entry as the API answers it (the contract's id, offence, step, points and rule)."""

    class Meta:
        ref_name = "PenaltyEntry"


class PenaltiesSerializer(serializers.Serializer):
    """The penalty ledger, newest first."""

    # Reads `{"penalties": [Penalty, ...]}`.
    penalties = PenaltyEntrySerializer(many=True)

    class Meta:
        ref_name = "Penalties"


@extend_schema_field(OpenApiTypes.DATETIME)
class _EncodedDateTimeField(serializers.ReadOnlyField):
    """A time left to the JSON encoder, as this answer always wrote it (to the millisecond; DRF's
    DateTimeField would write the microseconds)."""


class RulingAnswerSerializer(serializers.Serializer):
    """A rulings-log entry, with the penalty it carried: `situation` is the catalogue's id,
    `situation_title` its title, `outcome` what was decided in words (the penalty actually given),
    `changed_by_official` when the official chose the penalty, so that `ruling` and `correction`
    (the catalogue's answer) no longer say what was decided."""

    # Reads a `Ruling` with its entrant, penalty (and its entrant) and official.
    id = serializers.IntegerField()
    situation = serializers.CharField()
    situation_title = serializers.SerializerMethodField()
    outcome = serializers.SerializerMethodField()
    changed_by_official = serializers.SerializerMethodField()
    facts = FactsField(allow_null=True)
    ruling = serializers.CharField()
    citations = serializers.ListField(child=serializers.CharField())
    correction = serializers.SerializerMethodField()
    offence = serializers.SerializerMethodField()
    player = PenaltyPlayerSerializer(source="entrant", allow_null=True)
    penalty = PenaltyAnswerSerializer(allow_null=True)
    round = serializers.IntegerField(source="round_number", allow_null=True)
    table = serializers.IntegerField(source="table_number", allow_null=True)
    hole = serializers.IntegerField(source="hole_number", allow_null=True)
    note = serializers.CharField()
    official = serializers.CharField(source="official.get_username", allow_null=True)
    created_at = _EncodedDateTimeField()

    class Meta:
        ref_name = "Ruling"

    def get_situation_title(self, ruling: Ruling) -> str:
        """The situation in words."""
        return str(recorded_outcome(ruling).situation_title)

    def get_outcome(self, ruling: Ruling) -> str:
        """What was decided, in words."""
        return str(recorded_outcome(ruling).decision)

    def get_changed_by_official(self, ruling: Ruling) -> bool:
        """True when the official chose the penalty."""
        return recorded_outcome(ruling).changed_by_official

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_correction(self, ruling: Ruling) -> str | None:
        """The catalogue's correction, or None."""
        return ruling.correction or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_offence(self, ruling: Ruling) -> str | None:
        """The offence the ruling found, or None."""
        return ruling.offence or None


class RulingsSerializer(serializers.Serializer):
    """The rulings log, newest first."""

    # Reads `{"rulings": [Ruling, ...]}`.
    rulings = RulingAnswerSerializer(many=True)

    class Meta:
        ref_name = "RulingsLog"
