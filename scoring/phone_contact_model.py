"""`PhoneContact`: when a phone holding a game's edit link was last heard from, and how many writes
it said it still held for that game (the `X-Golf-Pending` header of the offline queue).

Kept apart from `scoring.models` (imported at its end, so Django registers it there) and apart from
the game row: the game row is updated by every hole (a HOT update, migration 0006) and locked by its
transaction; this row is written by its own short statement outside that transaction
(`scoring.phone_contact.record_phone_contact`), so it never waits on a hole nor makes one wait.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PhoneContact(models.Model):
    """A game's last contact with a phone holding its edit link (one row per game, made on contact)."""

    game = models.OneToOneField(
        "scoring.Game",
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="phone_contact",
    )
    last_heard_at = models.DateTimeField(_("phone last heard"))
    # What the phone last reported in `X-Golf-Pending` (writes still waiting on it), and when;
    # null while no request of this game carried the header.
    pending_writes = models.PositiveIntegerField(_("writes still on the phone"), null=True, blank=True)
    pending_reported_at = models.DateTimeField(_("reported"), null=True, blank=True)

    class Meta:
        verbose_name = _("phone contact")
        verbose_name_plural = _("phone contacts")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.last_heard_at:%Y-%m-%d %H:%M:%S}"
