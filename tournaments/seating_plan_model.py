"""`SeatingPlan`: the whole seating of a `fewest_repeats` event, made when round 1 is seated and
kept, so every later round is seated from it (SPEC "Seating plans").

A drop, a late entry, a reinstatement, a disqualification or a swap re-plans only the rounds not
yet seated (`tournaments.services.seating_plans`); the director sees the plan's repeated meetings
beside the least possible.

Kept apart from `tournaments.models` (imported at its end, so Django registers it there).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SeatingPlan(models.Model):
    """The planned tables of the rounds from `first_round` on, for the players it was made for.

    `rounds[i]` is round `first_round + i`: its tables, each a list of entrant ids in seat order.
    `players` are the entrant ids it seats (sorted); a plan whose players or seated rounds no
    longer match the event is made again before it is used. `repeats` and `least_possible` are
    over the whole event (the rounds seated before it included), as the SPEC counts them.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="seating_plan"
    )
    first_round = models.PositiveSmallIntegerField(_("first planned round"))
    players = models.JSONField(_("players"), default=list)
    rounds = models.JSONField(_("planned rounds"), default=list)
    repeats = models.PositiveIntegerField(_("repeated meetings"))
    least_possible = models.PositiveIntegerField(_("least possible"))
    reason = models.CharField(_("why it was made"), max_length=200, blank=True, default="")
    made_at = models.DateTimeField(_("made"), auto_now=True)

    class Meta:
        verbose_name = _("seating plan")
        verbose_name_plural = _("seating plans")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.repeats} / {self.least_possible}"

    def round_tables(self, number: int) -> list[list[int]] | None:
        """The planned tables of round `number`, or None when the plan does not reach it."""
        index = number - self.first_round
        if 0 <= index < len(self.rounds):
            return [list(table) for table in self.rounds[index]]
        return None
