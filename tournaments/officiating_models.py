"""The officiating records of an event: penalties (rule 6.3's ladder), rulings and calls for an
official (`Offence`, `PenaltyStep`, `Penalty`, `Ruling`, `OfficialCall`).

Kept apart from `tournaments.models` (imported at its end, so Django registers them there and
`from tournaments.models import Penalty` keeps working).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import MAX_NAME_LENGTH, MAX_REASON_LENGTH
from tournaments.limits import MAX_NOTE
from tournaments.models import Entrant, Table, Tournament


class Offence(models.TextChoices):
    """The offences of rule 6.3."""

    ILLEGAL_MOVE = "illegal_move", _("Illegal move")
    CHEATING = "cheating", _("Cheating")
    UNSPORTSMANLIKE = "unsportsmanlike", _("Unsportsmanlike conduct")
    TIME = "time", _("Time violation")


class PenaltyStep(models.TextChoices):
    """A step of rule 6.3's ladder."""

    WARNING = "warning", _("Warning")
    POINTS = "points", _("Penalty points")
    ROUND_DQ = "round_dq", _("Disqualified from the round")
    EVENT_DQ = "event_dq", _("Disqualified from the tournament")


class Penalty(models.Model):
    """A penalty of rule 6.3 given to a player: its points count in the standings' totals (never in a
    hole's score); a rescinded penalty stays in the ledger, marked, and counts for nothing."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="penalties")
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    offence = models.CharField(_("offence"), max_length=20, choices=Offence.choices)
    step = models.CharField(_("step"), max_length=12, choices=PenaltyStep.choices)
    points = models.PositiveIntegerField(_("points"), default=0)
    seconds_over = models.PositiveIntegerField(_("seconds over"), null=True, blank=True)
    # True when an official named the step instead of following the ladder.
    step_decided = models.BooleanField(_("step decided by the official"), default=False)
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True, default="")
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("given"), auto_now_add=True)
    rescinded_at = models.DateTimeField(_("rescinded"), null=True, blank=True)
    rescind_reason = models.CharField(
        _("rescinded because"), max_length=MAX_REASON_LENGTH, blank=True, default=""
    )

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant"],
                condition=models.Q(step=PenaltyStep.EVENT_DQ, rescinded_at__isnull=True),
                name="penalty_one_active_event_dq",
                violation_error_message=_("This player is already disqualified from the tournament."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_offence_display()}: {self.get_step_display()}"


class Ruling(models.Model):
    """An official's ruling at a table: the situation and its facts, the answer given (ruling,
    citations, correction), where it happened, and the penalty it carried (if any). The event's
    rulings log is part of its record: entries are never edited or deleted."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    situation = models.CharField(_("situation"), max_length=64)
    facts = models.JSONField(_("facts"), default=dict, blank=True)
    ruling = models.TextField(_("ruling"))
    citations = models.JSONField(_("rules cited"), default=list)
    correction = models.TextField(_("correction"), blank=True, default="")
    offence = models.CharField(_("offence"), max_length=20, choices=Offence.choices, blank=True, default="")
    entrant = models.ForeignKey(
        Entrant, on_delete=models.CASCADE, null=True, blank=True, related_name="rulings"
    )
    penalty = models.OneToOneField(
        Penalty, on_delete=models.PROTECT, null=True, blank=True, related_name="ruling"
    )
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    hole_number = models.PositiveSmallIntegerField(_("hole"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True, default="")
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["tournament", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.situation


class OfficialCall(models.Model):
    """A table asking for an official ("call an official" on its page): open until an official
    answers it, with a ruling or without. A table has at most one open call: a second tap while
    one is open is the same call."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    called_by = models.CharField(_("called by"), max_length=MAX_NAME_LENGTH, blank=True, default="")
    note = models.CharField(_("what happened"), max_length=MAX_NOTE, blank=True, default="")
    created_at = models.DateTimeField(_("called"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ruling = models.OneToOneField(
        "Ruling", on_delete=models.SET_NULL, null=True, blank=True, related_name="call"
    )

    class Meta:
        verbose_name = _("call for an official")
        verbose_name_plural = _("calls for an official")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(answered_at__isnull=True), name="one_open_call_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} ({self.called_by or '?'})"
