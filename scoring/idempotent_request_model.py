"""`IdempotentRequest`: one write sent with a one-time key (an API's `Idempotency-Key` header or a
page form's hidden key) and the answer it got, so that a retry, a double tap or a browser resend
is answered again instead of written again (`scoring.services.idempotency`, the one store of the
games, clubs and tournaments).

Kept apart from `scoring.models` (imported at its end, so Django registers it there). A hole's
POST keeps its own keys (`scoring.models.IdempotencyKey`): its replay is built from the hole as it
stands now, not from a stored answer.
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
    """

    scope = models.CharField(_("scope"), max_length=80)
    key = models.CharField(_("key"), max_length=MAX_IDEMPOTENCY_KEY)
    method = models.CharField(_("method"), max_length=8)
    # The URL's route pattern ("api/v1/tournaments/<id:tournament_id>/penalties/"), never a path
    # that holds a table link's secret token.
    route = models.CharField(_("route"), max_length=200)
    request_hash = models.CharField(_("request hash"), max_length=64)
    # What the write was about, when it was about something whose deletion takes its keys along
    # ("tournament:12": `forget_keys_about`, called by the tournament's deletion); blank otherwise.
    about = models.CharField(_("about"), max_length=64, blank=True, default="", db_index=True)
    status = models.PositiveSmallIntegerField(_("status"), null=True)
    # What the first answer said, as sent (JSON text of the API, a page's HTML fragment; empty for
    # a redirect): kept as text, since a JSON column would reorder the answer's keys.
    body = models.TextField(_("body"), blank=True, default="")
    headers = models.JSONField(_("headers"), default=dict, blank=True)  # Content-Type, Location, ETag
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="scoring_idempotent_request_key")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.route} ({self.key})"
