"""What the tournament API answers, for the OpenAPI schema and as the one spelling of each shape:
each serializer reads the models (or the selectors' objects) its answer shows, named in a comment."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Table, Tournament


class SeatingPlanSerializer(serializers.Serializer):
    """A `fewest_repeats` event's seating plan, over all its rounds (SPEC "Seating plans")."""

    repeats = serializers.IntegerField(
        help_text="Repeated meetings over the event: per pair, times at one table - 1, where positive."
    )
    least_possible = serializers.IntegerField(help_text="The best lower bound the planner knows.")
    first_round = serializers.IntegerField(help_text="The first round the plan was last made for.")


class TournamentSerializer(serializers.Serializer):
    """A tournament's settings and where it stands."""

    # Reads a `Tournament` with its director and the counts `player_count` and `round_count`
    # (`with_counts`). Context: `roles`, the asker's role by tournament id.
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    director = serializers.CharField(source="director.get_username", help_text="The director's username.")
    ruleset = serializers.DictField(help_text="Every parameter resolved (frozen once round 1 is seated).")
    rounds = serializers.IntegerField(help_text="Rounds the event plays (1 to 21).")
    seating = serializers.CharField()
    seed = serializers.IntegerField()
    tiebreakers = serializers.ListField(child=serializers.CharField())
    time_limit_minutes = serializers.IntegerField(allow_null=True)
    hole_time_limit_minutes = serializers.IntegerField(allow_null=True)
    standings_release = serializers.CharField()
    public = serializers.BooleanField()
    rulings_public = serializers.BooleanField(help_text="Everybody who sees the event reads its rulings log.")
    public_table_links = serializers.BooleanField(
        help_text="Find my table on the public page gives each player their table's scoring link."
    )
    club = serializers.IntegerField(
        source="club_id", allow_null=True, help_text="The id of the club it belongs to, or null."
    )
    rounds_seated = serializers.IntegerField(source="round_count")
    players = serializers.IntegerField(source="player_count", help_text="Players registered.")
    role = serializers.SerializerMethodField(
        help_text="Your role in it: director, co_director, official or null."
    )
    # Not `allow_null`: DRF would answer null for a key left out; the others get no key at all.
    # `required=False`: left out when the tournament carries no `seating_plan_summary` (the view
    # sets it for the staff, once the plan is made; `seating_plan` is the model's own relation).
    seating_plan = SeatingPlanSerializer(
        source="seating_plan_summary",
        required=False,
        help_text="The staff's only, in a fewest_repeats event once round 1 is seated: its seating plan "
        "(GET /tournaments/{id}/ only; it moves the event's ETag when it is made again).",
    )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_role(self, tournament: Tournament) -> str | None:
        """The asker's role in the tournament, or None."""
        return self.context["roles"].get(tournament.pk)


class TournamentListSerializer(serializers.Serializer):
    """A page of tournaments."""

    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = TournamentSerializer(many=True)


class EntrantRefSerializer(serializers.Serializer):
    """A player named by id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class EntrantSerializer(serializers.Serializer):
    """A player of the tournament."""

    # Reads an `Entrant`.
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="active, dropped, withdrawn or disqualified.")
    checked_in = serializers.BooleanField()


class PlayersCreatedSerializer(serializers.Serializer):
    """The players a CSV import created."""

    created = EntrantRefSerializer(many=True)


class BulkCheckInAnswerSerializer(serializers.Serializer):
    """What a bulk check-in did: who it checked in, who was in already, its event log entry."""

    # Reads the service's `BulkCheckIn`.
    checked_in = EntrantRefSerializer(source="changed", many=True)
    already = EntrantRefSerializer(source="unchanged", many=True)
    action = serializers.IntegerField(
        source="entry.pk",
        allow_null=True,
        help_text="The event log entry of this bulk action (null when nothing changed).",
    )


class StatusSerializer(serializers.Serializer):
    """A new status."""

    status = serializers.CharField()


class GameTokensSerializer(serializers.Serializer):
    """A table's links: shown to the staff only."""

    edit_token = serializers.CharField()
    view_token = serializers.CharField()


def confirmer(table: Table) -> str | None:
    """Who confirmed the table's scorecard, while the confirmation holds."""
    return table.confirmed_by.name if table.confirmed_by and table.is_confirmed else None


class TableSerializer(serializers.Serializer):
    """A table of a round: players in seat order; its game's links for the staff."""

    # Reads a `Table` with its seats (players), game, round and `progress` (the game's
    # `GameProgress`), as `round_views.with_tables` reads them. Context: `staff`, who alone see
    # the game's links and the note of a disagreement.
    STAFF_ONLY = ("game", "dispute_note")

    number = serializers.IntegerField()
    players = serializers.SerializerMethodField()
    game = GameTokensSerializer(required=False, help_text="Staff only.")
    status = serializers.CharField(
        source="game.status", help_text="The game's status: in_progress or finished."
    )
    holes_played = serializers.IntegerField(source="progress.holes_played")
    confirmed = serializers.BooleanField(source="is_confirmed")
    confirmed_by = serializers.SerializerMethodField()
    disputed = serializers.BooleanField(source="is_disputed")
    dispute_note = serializers.CharField(required=False, help_text="Staff only.")

    @extend_schema_field(EntrantRefSerializer(many=True))
    def get_players(self, table: Table) -> list[dict[str, Any]]:
        """The players in seat order."""
        return EntrantRefSerializer([seat.entrant for seat in table.seats.all()], many=True).data

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_confirmed_by(self, table: Table) -> str | None:
        """Who confirmed the scorecard, while the confirmation holds."""
        return confirmer(table)

    def to_representation(self, instance: Table) -> dict[str, Any]:
        """The fields, without the staff's for everyone else."""
        body = super().to_representation(instance)
        if not self.context["staff"]:
            for key in self.STAFF_ONLY:
                del body[key]
        return body


class RoundSerializer(serializers.Serializer):
    """A round: its status and tables."""

    # Reads a `Round` with its `tables_in_order` (`round_views.with_tables`). Context: `staff`.
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="seated, published or finalized.")
    seating = serializers.CharField(source="seating_mode")
    repeat_pairs = serializers.IntegerField(help_text="Pairs of players who met in an earlier round.")
    tables = TableSerializer(source="tables_in_order", many=True)


class RoundSummarySerializer(serializers.Serializer):
    """A round in a list."""

    # Reads a `Round` annotated with its `table_count`.
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = serializers.IntegerField(source="table_count")


class ConfirmationSerializer(serializers.Serializer):
    """A table's scorecard after a confirmation or a disagreement."""

    # Reads a `Table` with its round, game, confirmer and disputer.
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField(source="number")
    confirmed = serializers.BooleanField(source="is_confirmed")
    confirmed_by = serializers.SerializerMethodField()
    disputed = serializers.BooleanField(source="is_disputed")
    disputed_by = serializers.CharField(source="disputed_by.name", allow_null=True)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_confirmed_by(self, table: Table) -> str | None:
        """Who confirmed the scorecard, while the confirmation holds."""
        return confirmer(table)


class StandingSerializer(serializers.Serializer):
    """One line of the standings (SPEC "Tournament API contract")."""

    rank = serializers.IntegerField()
    player = EntrantRefSerializer()
    total = serializers.IntegerField()
    rounds = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    penalty_points = serializers.IntegerField()
    holes_won = serializers.IntegerField()
    holes_played = serializers.IntegerField()
    complete = serializers.BooleanField()
    status = serializers.CharField()
    playoff = serializers.BooleanField()
    shared = serializers.BooleanField()
    tiebreak = serializers.DictField(child=serializers.CharField())
    why_above = serializers.CharField()
    thru = serializers.IntegerField(
        allow_null=True, help_text="Holes the player has played in the round in play (live); else null."
    )
    late_entry = serializers.BooleanField(help_text="The player entered after round 1 was seated.")


class StandingsSerializer(serializers.Serializer):
    """The standings in rank order."""

    standings = StandingSerializer(many=True)
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="The round numbers counted.")
    live = serializers.BooleanField(help_text="True when a round in play is counted.")
    final = serializers.BooleanField(help_text="True when every round is finalized.")
    tiebreakers = serializers.ListField(child=serializers.CharField())
    round_in_play = serializers.IntegerField(
        allow_null=True, help_text="The number of the round in play, counted in the totals or not; else null."
    )
    holes_counted_in_play = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "When the round in play is counted (live): its first holes, every player's, that the totals "
            "and its `rounds` score include; else null. A total is always its `rounds` plus `penalty_points`."
        ),
    )
    totals_include = serializers.CharField(
        help_text="What the totals include, in words (the event's language)."
    )


class RecordHoleSerializer(serializers.Serializer):
    """One hole of a player's record."""

    number = serializers.IntegerField()
    score = serializers.IntegerField()


class RecordRoundSerializer(serializers.Serializer):
    """A player's round: table, score, holes."""

    # Reads a `records.RoundRecord`.
    round = serializers.IntegerField()
    status = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    holes = serializers.SerializerMethodField()

    @extend_schema_field(RecordHoleSerializer(many=True))
    def get_holes(self, record: Any) -> list[dict[str, int]]:
        """Each regular hole's score, in hole order."""
        return [{"number": number, "score": score} for number, score in record.holes]


class PlayerRecordSerializer(serializers.Serializer):
    """A player's record: round by round, hole by hole."""

    # Reads `{"player": Entrant, "rounds": [RoundRecord, ...]}`.
    player = EntrantSerializer()
    rounds = RecordRoundSerializer(many=True)


class StaffSerializer(serializers.Serializer):
    """A co-director or official."""

    # Reads a `Staff` with its user.
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.get_username")
    role = serializers.CharField()


class PhoneSerializer(serializers.Serializer):
    """A table's phone as the server last heard it (issue 32: a phone scoring without a connection)."""

    # Reads a `web.phone_status.PhoneStatus`.
    last_heard_at = serializers.DateTimeField(
        source="heard_at",
        allow_null=True,
        help_text="When a request by the table's edit link was last heard (its pages, the API); null: never.",
    )
    pending_writes = serializers.IntegerField(
        source="pending",
        help_text=(
            "The writes (holes, corrections, the confirmation) the phone last said it still holds "
            "(`X-Golf-Pending`); 0 when none, or never said."
        ),
    )
    pending_reported_at = serializers.DateTimeField(
        source="pending_at", allow_null=True, help_text="When it said so."
    )
    silent = serializers.BooleanField(
        help_text="The round is open, the table's game not over, and its phone not heard for over 5 minutes."
    )
    to_chase = serializers.BooleanField(
        help_text="Silent, or holes still on the phone: find the table before finalizing."
    )


class TablePhoneSerializer(serializers.Serializer):
    """A table of the round and its phone."""

    # Reads a `web.selectors.TableLine` with its `phone` attached.
    number = serializers.IntegerField(source="table.number")
    phone = PhoneSerializer()


class RoundPhonesSerializer(serializers.Serializer):
    """Each table's phone in a round, in table order."""

    # Reads a `Round`. Context: `lines`, its tables' lines with their phones, in table order.
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = serializers.SerializerMethodField()

    @extend_schema_field(TablePhoneSerializer(many=True))
    def get_tables(self, round_: Any) -> list[dict[str, Any]]:
        """Each table and its phone."""
        return TablePhoneSerializer(self.context["lines"], many=True).data
