"""Table scoring models: players, games and their seats, holes, per-player entries, history.

Every score stored here was computed by the rules engine (`scoring.rules`); the stored totals on
`Seat` are a cache that `scoring.services` recomputes from the entries in the same transaction as
every change, so they always equal a recomputation.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import MAX_ACTOR_LENGTH, MAX_REASON_LENGTH, MAX_TITLE_LENGTH
from golfclub.core.names import KEY_MAX_LENGTH, MAX_NAME_LENGTH, InvalidName, clean_name, name_key

TOKEN_BYTES = 24  # secrets.token_urlsafe(24) gives 32 URL-safe characters (192 bits)


def new_token() -> str:
    """An unguessable URL-safe token for an edit or view link."""
    return secrets.token_urlsafe(TOKEN_BYTES)


class NamedModel(models.Model):
    """A row with a name and its comparison key (`golfclub.core.names.name_key`), kept in step on save.

    The key is what the unique constraints hold on: two names with one key (case, width, accents
    typed precomposed or not) are the same player. `save()` recomputes it from the name, so admin
    edits and `create()` cannot leave it stale; `bulk_create` callers set it themselves.
    """

    name = models.CharField(_("name"), max_length=MAX_NAME_LENGTH)
    name_key = models.CharField(_("name key"), max_length=KEY_MAX_LENGTH, editable=False)

    class Meta:
        abstract = True

    def save(self, *args: Any, update_fields: Iterable[str] | None = None, **kwargs: Any) -> None:
        """Save with `name_key` recomputed from `name` (and saved whenever the name is)."""
        self.name_key = name_key(self.name)
        if update_fields is not None and "name" in update_fields:
            update_fields = {*update_fields, "name_key"}
        super().save(*args, update_fields=update_fields, **kwargs)

    def clean(self) -> None:
        """Clean the name as the services do (forms such as the admin's call this)."""
        super().clean()
        try:
            self.name = clean_name(self.name)
        except InvalidName as bad:
            message = (
                _("The name is too long.")
                if bad.reason == "too_long"
                else _("The name needs visible characters.")
            )
            raise ValidationError({"name": message}) from None

    def validate_constraints(self, exclude: Iterable[str] | None = None) -> None:
        """Check the unique name keys too (the key is not a form field, so forms would skip them)."""
        exclude = set(exclude or ())
        if "name" not in exclude:
            self.name_key = name_key(self.name)
            exclude.discard("name_key")
        super().validate_constraints(exclude=exclude)


class Player(NamedModel):
    """A person who plays: a logged-in user's roster entry, or a name typed at one table."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="golf_players",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_played_at = models.DateTimeField(_("last played"), null=True, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]
        constraints = [
            # Unique ignoring case, width and composition: on the key, not on the name.
            models.UniqueConstraint(
                fields=["owner", "name_key"],
                condition=models.Q(owner__isnull=False),
                name="player_unique_name_key_per_owner",
                violation_error_message=_("This name is already on the owner's list."),
            )
        ]

    def __str__(self) -> str:
        return self.name


class GameStatus(models.TextChoices):
    """Where a match stands (recomputed with the totals on every change)."""

    IN_PROGRESS = "in_progress", _("In progress")
    SUDDEN_DEATH = "sudden_death", _("Sudden death pending")
    FINISHED = "finished", _("Finished")


class Game(models.Model):
    """One table's match: players in seat order, a ruleset frozen at the first hole, holes in order."""

    title = models.CharField(_("title"), max_length=MAX_TITLE_LENGTH, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="golf_games",
    )
    edit_token = models.CharField(_("edit token"), max_length=64, unique=True, default=new_token)
    view_token = models.CharField(_("view token"), max_length=64, unique=True, default=new_token)
    # The resolved ruleset (`Ruleset.to_dict()`), every parameter spelled out.
    ruleset = models.JSONField(_("ruleset"))
    # When the first hole was recorded: from then on the ruleset cannot change (seed 001).
    ruleset_frozen_at = models.DateTimeField(_("ruleset frozen at"), null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat index)"), default=0)
    # The random key of the start form that created the game: a resubmitted form (back button,
    # double tap, two requests at once) finds this game instead of starting another.
    start_key = models.CharField(_("start key"), max_length=64, null=True, blank=True, unique=True)
    # Bumped on every change to the game or any of its holes: the ETag of the scoreboard.
    version = models.PositiveIntegerField(_("version"), default=1)
    status = models.CharField(
        _("status"), max_length=16, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    winners = models.JSONField(_("winners"), default=list, blank=True)
    # The family ended the game before its last hole ("End the game now"): the holes played decide
    # it (`scoring.rules.compute_match_state`). "Resume the game" clears it. Never on a managed game.
    ended_early = models.BooleanField(_("ended early"), default=False)
    # A game that belongs to something else (a tournament's table): what manages it, as a short key
    # ("tournaments.table"; blank for a friends' game), and how people call it ("Spring Open, round
    # 2, table 3"). Its edit link is then a table link: it scores, but the seats, ruleset, title and
    # deletion belong to the manager (`scoring.access`).
    managed_by = models.CharField(_("managed by"), max_length=64, blank=True, default="")
    managed_label = models.CharField(_("managed as"), max_length=200, blank=True, default="")
    # An ordinary game whose results another app keeps (a club's ratings: "clubs.game"; blank for
    # most games). Unlike `managed_by` it grants and restricts nothing: it only names the follower
    # (`scoring.game_managers`) told of each change, in the change's transaction.
    followed_by = models.CharField(_("followed by"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-updated_at", "-pk"]
        # No index holds a column that recording a hole changes (version, status, winners,
        # updated_at, ruleset_frozen_at): the game row's UPDATE on every hole is then a HOT update,
        # writing no index entry, where an index on (owner, updated_at) made it write one into
        # each of the table's nine indexes (docs/performance.md, issue 21 item 4). A user's games
        # are found by the owner's own index, then the newest are picked by a top-N sort: about a
        # millisecond for a few thousand games, once per page view, against an index entry per hole.

    def __str__(self) -> str:
        return self.title or _("Game %(id)s") % {"id": self.pk}

    @property
    def preset(self) -> str:
        """The name of the preset the ruleset starts from."""
        return str(self.ruleset.get("preset", ""))

    @property
    def is_managed(self) -> bool:
        """True when the game belongs to something else (a tournament's table)."""
        return bool(self.managed_by)

    @property
    def is_frozen(self) -> bool:
        """True once a hole has been recorded: the ruleset can no longer change."""
        return self.ruleset_frozen_at is not None

    @property
    def is_finished(self) -> bool:
        """True once the match is over (its last hole, or a playoff, decided it)."""
        return self.status == GameStatus.FINISHED


class Seat(NamedModel):
    """A player's place at a game's table, with the stored totals recomputed on every change."""

    # No index of its own: the unique (game, seat) and (game, name_key) both start with it.
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="seats", db_index=False
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
    )
    seat = models.PositiveSmallIntegerField(_("seat"))  # 0-based, clockwise
    # `name` (from NamedModel) is the name at this table: unique in the game by its key.
    total = models.IntegerField(_("total"), default=0)  # regular holes only
    holes_played = models.PositiveSmallIntegerField(_("holes played"), default=0)
    playoff_total = models.IntegerField(_("playoff total"), default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "name_key"],
                name="seat_unique_name_key",
                violation_error_message=_("This name is already at the table."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Hole(models.Model):
    """One hole of a game; playoff (sudden-death) holes are numbered apart from the regular ones."""

    # No index of its own: the unique (game, number, is_playoff) index starts with it.
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="holes", db_index=False
    )
    number = models.PositiveSmallIntegerField(_("number"))
    is_playoff = models.BooleanField(_("playoff hole"), default=False)
    dealer_seat = models.PositiveSmallIntegerField(_("dealer seat"))
    ender = models.ForeignKey(
        Seat,
        verbose_name=_("ended by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="holes_ended",
    )
    # Optimistic concurrency: updates are one `UPDATE ... WHERE id=? AND version=?`.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_by = models.CharField(_("recorded by"), max_length=MAX_ACTOR_LENGTH, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("hole")
        verbose_name_plural = _("holes")
        ordering = ["game", "is_playoff", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number", "is_playoff"], name="hole_unique_number"),
        ]

    def __str__(self) -> str:
        label = _("Playoff hole %(n)s") if self.is_playoff else _("Hole %(n)s")
        return label % {"n": self.number}


class HoleEntry(models.Model):
    """One player's result in one hole: the grid's cards, or a typed total, and the engine's scores."""

    # No index of its own: the unique (hole, seat) index starts with it.
    hole = models.ForeignKey(
        Hole, verbose_name=_("hole"), on_delete=models.CASCADE, related_name="entries", db_index=False
    )
    seat = models.ForeignKey(Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="entries")
    # Rows of canonical card tokens (top row first), or null when the total was typed.
    cards = models.JSONField(_("cards"), null=True, blank=True)
    typed_total = models.IntegerField(_("typed total"), null=True, blank=True)
    blocks_marked = models.PositiveSmallIntegerField(_("blocks marked by hand"), default=0)
    grid_score = models.IntegerField(_("grid score"))
    adjustments = models.JSONField(
        _("adjustments"), default=list, blank=True
    )  # [{kind, reason, points, rule}]
    score = models.IntegerField(_("hole score"))

    class Meta:
        verbose_name = _("hole entry")
        verbose_name_plural = _("hole entries")
        ordering = ["hole", "seat__seat"]
        constraints = [
            models.UniqueConstraint(fields=["hole", "seat"], name="entry_unique_seat"),
            models.CheckConstraint(
                condition=models.Q(cards__isnull=False) | models.Q(typed_total__isnull=False),
                name="entry_cards_or_total",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hole}: {self.seat} {self.score}"

    @property
    def typed(self) -> bool:
        """True when the table typed a total instead of recording the cards."""
        return self.cards is None


class ChangeAction(models.TextChoices):
    """What a recorded change did."""

    CREATE = "create", _("Recorded")
    UPDATE = "update", _("Edited")
    DELETE = "delete", _("Deleted")
    UNDO = "undo", _("Undone")
    REDO = "redo", _("Redone")
    RULESET = "ruleset", _("Ruleset changed")
    END = "end", _("Game ended early")
    RESUME = "resume", _("Game resumed")


class GameChange(models.Model):
    """The history of a game: every change, who made it, when, the state before and after."""

    # No index of its own: the (game, -id) index starts with it.
    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    action = models.CharField(_("action"), max_length=10, choices=ChangeAction.choices)
    hole_number = models.PositiveSmallIntegerField(_("hole number"), null=True, blank=True)
    is_playoff = models.BooleanField(_("playoff hole"), default=False)
    actor = models.CharField(_("by"), max_length=MAX_ACTOR_LENGTH, blank=True)
    # Why the change was made, when the game's manager asks for one (an official's correction).
    reason = models.CharField(_("reason"), max_length=MAX_REASON_LENGTH, blank=True, default="")
    created_at = models.DateTimeField(_("when"), auto_now_add=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    # An undo points at the change it reverted; a reverted change is never undone twice.
    undoes = models.OneToOneField(
        "self",
        verbose_name=_("undoes"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="undone_by",
    )

    class Meta:
        verbose_name = _("game change")
        verbose_name_plural = _("game changes")
        ordering = ["game", "-pk"]
        indexes = [models.Index(fields=["game", "-id"], name="change_game_recent")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.hole_number or ''}".strip()


from scoring.idempotent_request_model import IdempotentRequest  # noqa: E402, F401  (registered with the app)
from scoring.phone_contact_model import PhoneContact  # noqa: E402, F401  (registered with the app)
from scoring.turn_time_model import TurnTime  # noqa: E402, F401  (registered with the app)
