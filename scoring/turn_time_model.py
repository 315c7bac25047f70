"""`TurnTime`: how long each player of a live game took on their turns in one hole, as the table's
phone measured it with the turn timer (static/js/turn-timer.js).

Kept apart from `scoring.models` (imported at its end, so Django registers it there). One row per
game, hole and seat, written by `scoring.services.turn_times.record_turn_times`: a phone reports its
running totals, which only grow, so a row keeps the larger of what it holds and what arrives (a
report sent twice, or an older one arriving late, changes nothing).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TurnTime(models.Model):
    """One player's (seat's) time and turns in one hole of a game, measured by the turn timer."""

    game = models.ForeignKey(
        "scoring.Game", verbose_name=_("game"), on_delete=models.CASCADE, related_name="turn_times"
    )
    hole_number = models.PositiveSmallIntegerField(_("hole number"))
    is_playoff = models.BooleanField(_("playoff hole"), default=False)
    seat = models.PositiveSmallIntegerField(_("seat"))  # 0-based, as Seat.seat
    milliseconds = models.PositiveIntegerField(_("milliseconds"), default=0)
    turns = models.PositiveIntegerField(_("turns"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("turn time")
        verbose_name_plural = _("turn times")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "hole_number", "is_playoff", "seat"], name="turn_time_one_per_hole_seat"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_id} hole {self.hole_number} seat {self.seat}: {self.milliseconds} ms"
