"""Tournaments: an event, its staff, its players, its rounds, their tables and the event's log.

A tournament's table is a managed live game of `scoring` (`Game.managed_by == TABLE_MANAGER`):
the players at that table score it through its edit link, while the round's state, kept here,
decides when they may (`tournaments.policies`). Every change a director makes after the fact
(a swap before publishing, an override when finalizing, a late correction) leaves an
`EventLogEntry` with its reason.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import MAX_REASON_LENGTH
from scoring.models import Game, NamedModel, new_token
from tournaments.limits import MAX_CLUB, MAX_NOTE, MAX_ROUNDS, MAX_TOURNAMENT_NAME, MAX_VENUE

#: The label of the games this app manages (`scoring.models.Game.managed_by`).
TABLE_MANAGER = "tournaments.table"


def new_player_token() -> str:
    """An unguessable URL-safe token for a player's own page (as strong as a table's link)."""
    return new_token()


class SeatingMode(models.TextChoices):
    """How the rounds after the first are seated (round 1 is always random from the seed)."""

    RANDOM = "random", _("Random")
    FEWEST_REPEATS = "fewest_repeats", _("Fewest repeat meetings")
    STANDINGS = "standings", _("By standings (leaders together)")


class StandingsRelease(models.TextChoices):
    """When the public sees the standings (the staff always see them live)."""

    LIVE = "live", _("Live, as holes are scored")
    AFTER_ROUND = "after_round", _("After each round is finalized")


class Tournament(models.Model):
    """An event: its settings, its director, its players and rounds."""

    name = models.CharField(_("name"), max_length=MAX_TOURNAMENT_NAME)
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=MAX_VENUE, blank=True, default="")
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("director"),
        on_delete=models.PROTECT,
        related_name="directed_tournaments",
    )
    # The resolved ruleset (`Ruleset.to_dict()`), frozen once round 1 is seated.
    ruleset = models.JSONField(_("ruleset"))
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    seating = models.CharField(
        _("seating after round 1"),
        max_length=16,
        choices=SeatingMode.choices,
        default=SeatingMode.FEWEST_REPEATS,
    )
    seed = models.BigIntegerField(_("seed"))
    # The club whose ratings the event's finalized games count in (its entrants linked to members).
    club = models.ForeignKey(
        "clubs.Club",
        verbose_name=_("club"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    tiebreakers = models.JSONField(_("tiebreak chain"))
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit per round (minutes)"), null=True, blank=True
    )
    # Optional: minutes a hole may take; the table's page counts each hole down from the last one.
    hole_time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit per hole (minutes)"), null=True, blank=True
    )
    standings_release = models.CharField(
        _("standings release"), max_length=16, choices=StandingsRelease.choices, default=StandingsRelease.LIVE
    )
    public = models.BooleanField(_("public"), default=True)
    # Whether "find my table" on the public page also gives each player their table's scoring link.
    public_table_links = models.BooleanField(_("table links on the public page"), default=False)
    # Whether everybody who sees the event also reads its rulings log (the staff always do).
    rulings_public = models.BooleanField(_("rulings log public"), default=False)
    # Bumped by every change that moves the standings (a hole, a finalize, a drop, a penalty).
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rounds__gte=1, rounds__lte=MAX_ROUNDS), name="tournament_rounds_in_range"
            )
        ]

    def __str__(self) -> str:
        return self.name


class StaffRole(models.TextChoices):
    """What a staff member does at the event (the director is the tournament's `director`)."""

    CO_DIRECTOR = "co_director", _("Co-director")
    OFFICIAL = "official", _("Official")


class Staff(models.Model):
    """A user helping to run a tournament: a co-director (everything a director does but delete the
    event and change its staff) or an official (rulings, penalties, late corrections with a reason)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(_("role"), max_length=16, choices=StaffRole.choices)
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")
        ordering = ["tournament", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="staff_once_per_tournament")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()})"


class EntrantStatus(models.TextChoices):
    """Where a player stands in the event."""

    ACTIVE = "active", _("Active")
    DROPPED = "dropped", _("Dropped")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    DISQUALIFIED = "disqualified", _("Disqualified")


class Entrant(NamedModel):
    """A player registered in a tournament (names are unique in a tournament, by `name_key`)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    club = models.CharField(_("club"), max_length=MAX_CLUB, blank=True, default="")
    # The club member this player is, when the tournament belongs to a club (`Tournament.club`) and
    # the director confirmed the link: the player's finalized games then count in the club's ratings.
    member = models.ForeignKey(
        "clubs.Member",
        verbose_name=_("club member"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entrants",
    )
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=EntrantStatus.choices, default=EntrantStatus.ACTIVE
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    # The number of rounds already seated when the player entered (late entry) or left (drop).
    entered_before_round = models.PositiveSmallIntegerField(_("entered before round"), default=1)
    left_after_round = models.PositiveSmallIntegerField(_("left after round"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    # The player's own page (`/tournaments/player/<token>/`): unguessable, like a table's link; the
    # backup carries it, so a printed QR still opens the page after a restore.
    token = models.CharField(_("personal link token"), max_length=64, unique=True, default=new_player_token)
    # The event log entry of the bulk check-in or drop that last changed this player, cleared by any
    # other change of theirs: undoing that bulk action reverts exactly the players still marked.
    bulk_action = models.PositiveBigIntegerField(_("last bulk action"), null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["tournament", "name_key", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name_key"],
                name="entrant_unique_name_per_tournament",
                violation_error_message=_("A player of this name is already in the tournament."),
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        """True when the player is seated in the rounds still to come."""
        return self.status == EntrantStatus.ACTIVE


class RoundStatus(models.TextChoices):
    """A round's lifecycle, held on the server."""

    SEATED = "seated", _("Seated")
    PUBLISHED = "published", _("In play")
    FINALIZED = "finalized", _("Finalized")


class Round(models.Model):
    """One round of a tournament: its seating, then its tables' games, then locked."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.SEATED
    )
    seating_mode = models.CharField(_("seating"), max_length=16, choices=SeatingMode.choices)
    seed = models.BigIntegerField(_("seed"))
    repeat_pairs = models.PositiveIntegerField(_("repeat pairings"), default=0)
    seated_at = models.DateTimeField(_("seated"), auto_now_add=True)
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    finalized_at = models.DateTimeField(_("finalized"), null=True, blank=True)
    # Bumped with every change of its tables' holes (and swaps): the key of its cached records.
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            # Finalized exactly when it has its finalizing time. That every table of a finalized
            # round is confirmed or overridden spans rows: a PostgreSQL constraint trigger holds it
            # (migration 0007), and `finalize_round` checks it under the round's lock.
            models.CheckConstraint(
                condition=models.Q(status=RoundStatus.FINALIZED, finalized_at__isnull=False)
                | (~models.Q(status=RoundStatus.FINALIZED) & models.Q(finalized_at__isnull=True)),
                name="round_finalized_with_its_time",
            ),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Table(models.Model):
    """One table of a round: its seats and its managed live game, with the scorecard's confirmation."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    # PROTECT: a table's game cannot be deleted from under the tournament (`GameInUse`, 409).
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")
    confirmed_by = models.ForeignKey(
        Entrant, on_delete=models.SET_NULL, null=True, blank=True, related_name="confirmations"
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # The game's version the player confirmed: a change of the holes committed since (the game's
    # version moved in that change's transaction) makes it stale at once, read by `is_confirmed`.
    confirmed_game_version = models.PositiveIntegerField(_("confirmed version"), null=True, blank=True)
    # A player flagged a disagreement with the scorecard: the director sees it until resolved.
    disputed_by = models.ForeignKey(
        Entrant, on_delete=models.SET_NULL, null=True, blank=True, related_name="disputes"
    )
    dispute_note = models.CharField(_("disagreement"), max_length=MAX_NOTE, blank=True, default="")
    disputed_at = models.DateTimeField(_("flagged"), null=True, blank=True)
    # Minutes the round clock gives this table beyond the round's limit (a director's extension).
    extra_minutes = models.PositiveSmallIntegerField(_("extra minutes"), default=0)
    # The director's reason when the round was finalized with this table unconfirmed (an override).
    override_reason = models.CharField(
        _("finalized unconfirmed because"), max_length=MAX_REASON_LENGTH, blank=True, default=""
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        # One confirmation per table and round: it is the table's own row (one per round and
        # number), confirmed or disputed, never both; a confirmer always comes with its time.
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
            models.CheckConstraint(
                condition=~models.Q(confirmed_at__isnull=False, disputed_at__isnull=False),
                name="table_confirmed_or_disputed_not_both",
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True) | models.Q(confirmed_at__isnull=False),
                name="table_confirmer_with_its_time",
            ),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}

    @property
    def is_confirmed(self) -> bool:
        """True when a player at the table attested the finished scorecard as it stands.

        A confirmation of an earlier version of the game (a hole corrected, deleted, undone or
        redone since, while the round was in play) no longer holds: read here from the game's
        version, which the change moved in its own transaction, so no later step has to clear it
        (issue 31). A finalized round keeps its confirmations: a director's late correction is
        kept in the event's log instead. Reads `game` (and `round` only for a stale one)."""
        if self.confirmed_at is None:
            return False
        if self.confirmed_game_version is None or self.confirmed_game_version == self.game.version:
            return True
        return self.round.status == RoundStatus.FINALIZED

    def confirms(self, game_version: int) -> bool:
        """True when the confirmation holds for the game at `game_version` (not disputed, and not
        made before a later change; a confirmation kept without its version counts)."""
        return (
            self.confirmed_at is not None
            and not self.is_disputed
            and self.confirmed_game_version in (None, game_version)
        )

    @property
    def is_disputed(self) -> bool:
        """True when a player flagged a disagreement that the director has not cleared."""
        return self.disputed_at is not None


class TableSeat(models.Model):
    """A player's seat at a table: the seat order is the game's seat order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round again, so that the database itself keeps a player to one table a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="table_seats")
    seat = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        verbose_name = _("table seat")
        verbose_name_plural = _("table seats")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="tableseat_unique_seat"),
            models.UniqueConstraint(fields=["round", "entrant"], name="tableseat_one_table_a_round"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat + 1}"


class EventLogEntry(models.Model):
    """One thing the staff did to the event, with who and why (swaps, overrides, finalizing...)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    action = models.CharField(_("action"), max_length=32)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=MAX_REASON_LENGTH, blank=True, default="")
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("event log")
        ordering = ["tournament", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.action


from tournaments.officiating_models import (  # noqa: E402, F401  (registered with the app)
    Offence,
    OfficialCall,
    Penalty,
    PenaltyStep,
    Ruling,
)
from tournaments.seating_plan_model import SeatingPlan  # noqa: E402, F401  (registered with the app)
