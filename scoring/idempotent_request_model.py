"""`IdempotentRequest`: one write sent with a one-time key (an API's `Idempotency-Key` header or a
page form's hidden key) and the answer it got, so that a retry, a double tap or a browser resend
is answered again instead of written again (`scoring.services.idempotency`, the one store of the
games, clubs and tournaments).

Kept apart from `scoring.models` (imported at its end, so Django registers it there). A game's own
writes keyed by the game (a hole's POST, ending or resuming it: scope `game:<id>`, `game_scope`)
keep their game and the hole they recorded: their replay is built from that hole as it stands now,
not from a stored answer (`scoring.services.idempotency`, "A game's keys").
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import MAX_IDEMPOTENCY_KEY


class IdempotentRequest(models.Model):
    """A key used once in its scope, the request it came with (its hash) and the answer given.

    `scope` is who may replay it: `user:<id>` for a logged-in person, `link:<hash>` for a table's
    or a game's link (the link is the credential; only its hash is kept), `addr:<hash>` for an
    anonymous client starting a game (`scoring.api.write_once`; its address's hash). The unique
    `(scope, key)` is what makes two copies of one request sent at once write once: the second
    waits on the index until the first commits, then answers what the first stored (see
    `scoring.services.idempotency.run_once`).
    A row is only ever committed together with its answer and the write it records.

    `game:<id>` is a game's own key (a hole recorded, the game ended or resumed, through its API or
    its pages alike): `game` is then set (its deletion takes its keys along), and a hole's POST
    keeps the `hole` it recorded and its `hole_number`.
    """

    scope = models.CharField(_("scope"), max_length=80)
    key = models.CharField(_("key"), max_length=MAX_IDEMPOTENCY_KEY)
    method = models.CharField(_("method"), max_length=8)
    # The URL's route pattern ("api/v1/tournaments/<id:tournament_id>/penalties/"), never a path
    # that holds a table link's secret token.
    route = models.CharField(_("route"), max_length=200)
    request_hash = models.CharField(_("request hash"), max_length=64)
    # What the write was about, when it was about something whose deletion takes its keys along
    # ("tournament:12": `forget_keys_about`, called by the tournament's deletion); blank otherwise
    # (a game's keys, most rows: left out of its index, which the hole POST would write to).
    about = models.CharField(_("about"), max_length=64, blank=True, default="")
    status = models.PositiveSmallIntegerField(_("status"), null=True)
    # What the first answer said, as sent (JSON text of the API, a page's HTML fragment; empty for
    # a redirect): kept as text, since a JSON column would reorder the answer's keys.
    body = models.TextField(_("body"), blank=True, default="")
    headers = models.JSONField(_("headers"), default=dict, blank=True)  # Content-Type, Location, ETag
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    # A game's own key (scope `game:<id>`): the game, whose deletion takes the key along.
    game = models.ForeignKey(
        "scoring.Game",
        verbose_name=_("game"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="idempotent_requests",
        db_index=False,  # the partial index below: only a game's keys have one
    )
    # The hole a hole's POST recorded. No database constraint and nothing done on delete: the id
    # stays when the hole is deleted, so that a hole put back by undo or redo (which keeps its id)
    # is found again by a retried request.
    hole = models.ForeignKey(
        "scoring.Hole",
        verbose_name=_("hole"),
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        null=True,
        blank=True,
        related_name="+",
    )
    # The number the hole had when recorded: a retry after it was undone or deleted names it.
    hole_number = models.PositiveSmallIntegerField(_("hole number"), null=True, blank=True)

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="scoring_idempotent_request_key")
        ]
        indexes = [
            models.Index(
                fields=["game"], name="idempotent_request_game", condition=models.Q(game__isnull=False)
            ),
            models.Index(fields=["about"], name="idempotent_request_about", condition=~models.Q(about="")),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.route} ({self.key})"


def game_scope(game_id: int) -> str:
    """The scope of a game's own keys (`db_statements.lock_game_for_hole` builds the same in SQL)."""
    return f"game:{game_id}"
