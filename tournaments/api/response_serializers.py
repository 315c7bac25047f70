"""What the tournament API answers, for the OpenAPI schema and as the one spelling of each shape."""

from __future__ import annotations

from rest_framework import serializers


class SeatingPlanSerializer(serializers.Serializer):
    """A `fewest_repeats` event's seating plan, over all its rounds (SPEC "Seating plans")."""

    repeats = serializers.IntegerField(
        help_text="Repeated meetings over the event: per pair, times at one table - 1, where positive."
    )
    least_possible = serializers.IntegerField(help_text="The best lower bound the planner knows.")
    first_round = serializers.IntegerField(help_text="The first round the plan was last made for.")


class TournamentSerializer(serializers.Serializer):
    """A tournament's settings and where it stands."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    director = serializers.CharField(help_text="The director's username.")
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
    club = serializers.IntegerField(allow_null=True, help_text="The id of the club it belongs to, or null.")
    rounds_seated = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players registered.")
    role = serializers.CharField(
        allow_null=True, help_text="Your role in it: director, co_director, official or null."
    )
    # Not `allow_null`: DRF would answer null for a key left out; the others get no key at all.
    seating_plan = SeatingPlanSerializer(
        required=False,
        help_text="The staff's only, in a fewest_repeats event once round 1 is seated: its seating plan "
        "(GET /tournaments/{id}/ only; it moves the event's ETag when it is made again).",
    )


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

    checked_in = EntrantRefSerializer(many=True)
    already = EntrantRefSerializer(many=True)
    action = serializers.IntegerField(
        allow_null=True, help_text="The event log entry of this bulk action (null when nothing changed)."
    )


class StatusSerializer(serializers.Serializer):
    """A new status."""

    status = serializers.CharField()


class GameTokensSerializer(serializers.Serializer):
    """A table's links: shown to the staff only."""

    edit_token = serializers.CharField()
    view_token = serializers.CharField()


class TableSerializer(serializers.Serializer):
    """A table of a round: players in seat order; its game's links for the staff."""

    number = serializers.IntegerField()
    players = EntrantRefSerializer(many=True)
    game = GameTokensSerializer(required=False, help_text="Staff only.")
    status = serializers.CharField(help_text="The game's status: in_progress or finished.")
    holes_played = serializers.IntegerField()
    confirmed = serializers.BooleanField()
    confirmed_by = serializers.CharField(allow_null=True)
    disputed = serializers.BooleanField()
    dispute_note = serializers.CharField(required=False, help_text="Staff only.")


class RoundSerializer(serializers.Serializer):
    """A round: its status and tables."""

    number = serializers.IntegerField()
    status = serializers.CharField(help_text="seated, published or finalized.")
    seating = serializers.CharField()
    repeat_pairs = serializers.IntegerField(help_text="Pairs of players who met in an earlier round.")
    tables = TableSerializer(many=True)


class RoundSummarySerializer(serializers.Serializer):
    """A round in a list."""

    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = serializers.IntegerField()


class ConfirmationSerializer(serializers.Serializer):
    """A table's scorecard after a confirmation or a disagreement."""

    round = serializers.IntegerField()
    table = serializers.IntegerField()
    confirmed = serializers.BooleanField()
    confirmed_by = serializers.CharField(allow_null=True)
    disputed = serializers.BooleanField()
    disputed_by = serializers.CharField(allow_null=True)


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

    round = serializers.IntegerField()
    status = serializers.CharField()
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    holes = RecordHoleSerializer(many=True)


class PlayerRecordSerializer(serializers.Serializer):
    """A player's record: round by round, hole by hole."""

    player = EntrantSerializer()
    rounds = RecordRoundSerializer(many=True)


class StaffSerializer(serializers.Serializer):
    """A co-director or official."""

    id = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.CharField()


class PhoneSerializer(serializers.Serializer):
    """A table's phone as the server last heard it (issue 32: a phone scoring without a connection)."""

    last_heard_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a request by the table's edit link was last heard (its pages, the API); null: never.",
    )
    pending_writes = serializers.IntegerField(
        help_text=(
            "The writes (holes, corrections, the confirmation) the phone last said it still holds "
            "(`X-Golf-Pending`); 0 when none, or never said."
        )
    )
    pending_reported_at = serializers.DateTimeField(allow_null=True, help_text="When it said so.")
    silent = serializers.BooleanField(
        help_text="The round is open, the table's game not over, and its phone not heard for over 5 minutes."
    )
    to_chase = serializers.BooleanField(
        help_text="Silent, or holes still on the phone: find the table before finalizing."
    )


class TablePhoneSerializer(serializers.Serializer):
    """A table of the round and its phone."""

    number = serializers.IntegerField()
    phone = PhoneSerializer()


class RoundPhonesSerializer(serializers.Serializer):
    """Each table's phone in a round, in table order."""

    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = TablePhoneSerializer(many=True)
