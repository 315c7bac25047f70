"""What the officiating API accepts: the bodies of advice, penalties, rescinding and rulings,
checked for their keys (every unknown one named) and JSON types before the services check what
the values mean (a player of the event, a round seated, a situation of the catalogue, a step of
rule 6.3's ladder) and name the exact field. What it answers: `officiating_answers`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from golfclub.core.input_fields import StrictCharField, StrictIntegerField, StrictObjectSerializer
from golfclub.core.inputs import json_type

_ID = {"min_value": 1, "max_value": 2**63 - 1}
_NUMBER = {"min_value": -(2**63), "max_value": 2**63 - 1}  # the services say which range is meant
_WORD = 80  # a situation, offence or step id is a short word


def _step_field() -> StrictCharField:
    """An official's step of rule 6.3's ladder, as sent (the services check it; none: the ladder's)."""
    return StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        default=None,
        max_length=_WORD,
        trim_whitespace=False,
    )


def _note_field() -> StrictCharField:
    """A note, as sent (the services trim it and check its length); null is no note."""
    return StrictCharField(
        required=False, allow_null=True, allow_blank=True, default="", trim_whitespace=False
    )


@extend_schema_field(OpenApiTypes.OBJECT)
class FactsField(serializers.Field):
    """The facts of a situation: a JSON object of names to values (the catalogue checks each)."""

    # Doubled braces: DRF formats the message with `str.format` (a single brace would be a field).
    default_error_messages = {"not_object": _('facts must be a JSON object {{"name": value}}, not {type}.')}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        """The object as sent (the catalogue checks each fact's name and type)."""
        if not isinstance(data, dict):
            self.fail("not_object", type=json_type(data))
        return data

    def to_representation(self, value: Any) -> Any:
        """The facts as stored."""
        return value


class AdviseSerializer(StrictObjectSerializer):
    """POST /api/v1/rulings/advise/: a situation, its facts, and optionally an event's player."""

    situation = StrictCharField(
        max_length=_WORD, trim_whitespace=False, help_text=_("The situation's id (see situations/).")
    )
    facts = FactsField(required=False, allow_null=True, default=None)
    tournament = StrictIntegerField(required=False, allow_null=True, default=None, **_ID)
    player = StrictIntegerField(required=False, allow_null=True, default=None, **_ID)


class PenaltySerializer(StrictObjectSerializer):
    """POST .../penalties/: a player, the offence, and optionally the round, an official's step,
    the seconds over the time limit and a note."""

    player = StrictIntegerField(**_ID)
    offence = StrictCharField(max_length=_WORD, trim_whitespace=False)
    round = StrictIntegerField(required=False, allow_null=True, default=None, **_NUMBER)
    step = _step_field()
    seconds_over = StrictIntegerField(required=False, allow_null=True, default=None, **_NUMBER)
    note = _note_field()


class RescindSerializer(StrictObjectSerializer):
    """POST .../penalties/{id}/rescind/: why the penalty is rescinded (on appeal)."""

    reason = StrictCharField(allow_blank=True, trim_whitespace=False)


class RulingSerializer(AdviseSerializer):
    """POST .../rulings/: advice's body plus where it happened, a note, and an official's step."""

    # The URL names the event; a body that names it too (advise's body, as documented) is taken,
    # its value left to the URL.
    round = StrictIntegerField(required=False, allow_null=True, default=None, **_NUMBER)
    table = StrictIntegerField(required=False, allow_null=True, default=None, **_NUMBER)
    hole = StrictIntegerField(required=False, allow_null=True, default=None, **_NUMBER)
    step = _step_field()
    note = _note_field()
