"""What the tournament API accepts: request bodies checked strictly (JSON types, clean text,
bounded whole numbers), every unknown key named. The services check the rest (names, rulesets,
settings) and name the exact field."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from golfclub.core.input_fields import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictObjectSerializer,
)
from golfclub.core.limits import BIGINT_MAX, MAX_NAME_LENGTH, MAX_REASON_LENGTH
from scoring.api.calculator.request_serializers import RulesetSpecField
from scoring.rules.ruleset import TIEBREAKERS
from tournaments.limits import (
    MAX_CLUB,
    MAX_ENTRANTS,
    MAX_HOLE_TIME_LIMIT,
    MAX_NOTE,
    MAX_RATING,
    MAX_ROUNDS,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MAX_TOURNAMENT_NAME,
    MAX_VENUE,
)
from tournaments.models import SeatingMode, StaffRole, StandingsRelease


class StrictChoiceField(serializers.ChoiceField):
    """One of the choices, sent as a JSON string."""

    def to_internal_value(self, data: Any) -> str:
        """The choice, or a ValidationError listing the choices."""
        if not isinstance(data, str) or data not in self.choices:
            raise serializers.ValidationError(
                _("Must be one of: %(choices)s.") % {"choices": ", ".join(map(str, self.choices))}
            )
        return data


class _Settings(StrictObjectSerializer):
    """A tournament's settings, as creating and changing one take them."""

    name = StrictCharField(max_length=MAX_TOURNAMENT_NAME, help_text=_("The event's name."))
    date = StrictCharField(
        required=False, allow_null=True, allow_blank=True, max_length=10, help_text="YYYY-MM-DD"
    )
    venue = StrictCharField(required=False, allow_blank=True, max_length=MAX_VENUE)
    ruleset = RulesetSpecField(
        required=False, help_text=_('A preset name ("official") or {"preset": name, ...overrides}.')
    )
    rounds = StrictIntegerField(required=False, min_value=1, max_value=MAX_ROUNDS)
    seating = StrictChoiceField(
        choices=SeatingMode.values, required=False, help_text=_("How rounds after the first are seated.")
    )
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=MAX_SEED,
        help_text=_("Random when not given."),
    )
    tiebreakers = serializers.ListField(
        child=StrictChoiceField(choices=list(TIEBREAKERS)),
        required=False,
        allow_null=True,
        min_length=1,
        max_length=len(TIEBREAKERS),
        help_text=_("The tiebreak chain; the ruleset's (rule 4.2) when not given."),
    )
    time_limit_minutes = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_TIME_LIMIT
    )
    hole_time_limit_minutes = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_HOLE_TIME_LIMIT
    )
    standings_release = StrictChoiceField(choices=StandingsRelease.values, required=False)
    public = StrictBooleanField(required=False)
    rulings_public = StrictBooleanField(required=False)
    public_table_links = StrictBooleanField(required=False)


class TournamentCreateSerializer(_Settings):
    """POST /api/v1/tournaments/: a new tournament, its creator its director."""


class TournamentUpdateSerializer(_Settings):
    """PATCH /api/v1/tournaments/{id}/: some settings (the ruleset and seed frozen once round 1 is seated)."""

    name = StrictCharField(required=False, max_length=MAX_TOURNAMENT_NAME)
    # A stored event always has a seed and a tiebreak chain: null cannot clear them (it was a 500).
    seed = StrictIntegerField(
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        error_messages={"null": _("The seed is a whole number; it cannot be cleared (null).")},
    )
    tiebreakers = serializers.ListField(
        child=StrictChoiceField(choices=list(TIEBREAKERS)),
        required=False,
        min_length=1,
        max_length=len(TIEBREAKERS),
        error_messages={"null": _("The tiebreak chain is a list; it cannot be cleared (null).")},
    )
    club = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=BIGINT_MAX,
        help_text=_(
            "The id of a club the director owns (null: none): the players linked to its members count "
            "in its ratings. A private club of someone else is a 404, one the director may only read a "
            "403. A different club clears the players' member links."
        ),
    )


class PlayerAddSerializer(StrictObjectSerializer):
    """POST .../players/ as JSON: one player."""

    name = StrictCharField(max_length=MAX_NAME_LENGTH * 4, help_text=_("Unique in the tournament."))
    club = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_CLUB)
    rating = StrictIntegerField(
        required=False, default=None, allow_null=True, min_value=-MAX_RATING, max_value=MAX_RATING
    )


class ReasonSerializer(StrictObjectSerializer):
    """A body with an optional reason (dropping, withdrawing)."""

    reason = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_REASON_LENGTH)


class CheckInSerializer(StrictObjectSerializer):
    """POST .../check-in/: present at the venue (true, the default) or not."""

    checked_in = StrictBooleanField(required=False, default=True)


class BulkCheckInSerializer(StrictObjectSerializer):
    """POST .../players/check-in/: the players' ids to check in, or everyone not yet checked in."""

    players = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
        max_length=MAX_ENTRANTS,
        help_text=_("The ids of the players to check in."),
    )
    everyone = StrictBooleanField(
        required=False, default=False, help_text=_("Check in every active player not yet checked in.")
    )

    def validate(self, attrs: dict) -> dict:
        """One of the two: a list of players, or everyone."""
        if attrs["everyone"] == bool(attrs["players"]):
            raise serializers.ValidationError(
                {"players": _('Send a non-empty "players" list, or "everyone": true (not both).')}
            )
        return attrs


class EmptySerializer(StrictObjectSerializer):
    """A body that takes nothing (`{}` or none)."""


class FinalizeSerializer(StrictObjectSerializer):
    """POST .../rounds/{n}/finalize/: `{}`, or an override for finished but unconfirmed tables."""

    override = StrictBooleanField(required=False, default=False)
    reason = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_REASON_LENGTH)


class SwapSerializer(StrictObjectSerializer):
    """POST .../rounds/{n}/swap/: two players' ids, and why."""

    players = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=2**63 - 1), min_length=2, max_length=2
    )
    reason = StrictCharField(max_length=MAX_REASON_LENGTH)


class ConfirmSerializer(StrictObjectSerializer):
    """POST /api/v1/games/{edit_token}/confirm/: a player at the table attests the scorecard, or disagrees."""

    by = StrictCharField(max_length=MAX_NAME_LENGTH * 4, help_text=_("The confirming player's name."))
    disagree = StrictBooleanField(required=False, default=False)
    note = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_NOTE)
    scorecard = serializers.JSONField(
        required=False,
        default=None,
        help_text=_(
            "Optional: what the player attested, each player's name mapped to their regular hole "
            "scores in hole order, as the phone showed them (a phone that attested offline sends "
            'it, e.g. {"Ann": [3, 5, 2], "Bob": [4, 4, 6]}). When the game\'s holes differ from it '
            "now (another phone or an official changed a hole since), the confirmation is refused "
            "with 409 naming the first difference. Without it, the scorecard is confirmed as it stands."
        ),
    )


class ClearDisputeSerializer(StrictObjectSerializer):
    """POST .../tables/{t}/clear-dispute/: how the disagreement was settled."""

    note = StrictCharField(required=False, default="", allow_blank=True, max_length=MAX_NOTE)


class StaffAddSerializer(StrictObjectSerializer):
    """POST .../staff/: a user by username, and their role."""

    username = StrictCharField(max_length=150)
    role = StrictChoiceField(choices=StaffRole.values)
