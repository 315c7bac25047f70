"""A page form that edits a tournament's settings in place refuses a stale edit, never overwrites.

The form carries the tournament's version and a fingerprint of its settings as it read them
(hidden `version` and `read_digest`); `update_tournament` compares them under the tournament's
lock. When another director changed a setting since, nothing is saved and the page shows, field by
field, what this director sent beside what is stored now. The form keeps what they typed but now
carries the current version: saving again keeps theirs on purpose; reloading keeps what is stored.
A version moved on only by scores (a hole, a confirmation) with the settings unchanged is no
conflict: the submit goes through.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from tournaments.live_versions import event_version
from tournaments.models import Tournament
from tournaments.services.versions import settings_digest
from tournaments.web.forms import TournamentForm


@dataclass(frozen=True)
class Difference:
    """One setting as this director sent it and as it is stored now."""

    label: str
    sent: str
    stored: str


@dataclass(frozen=True)
class Conflict:
    """A refused stale edit: the version the form was read at, the current one, what differs."""

    yours: int | None
    now: int
    rows: list[Difference]


def conflict_of(form: TournamentForm, stored: Tournament) -> Conflict:
    """What `form` (valid) sent against the settings of `stored`, field by field, differences only."""
    now = TournamentForm.initial_of(stored)
    rows = []
    for name, field in form.fields.items():
        if name in ("version", "read_digest"):
            continue
        sent, kept = form.cleaned_data.get(name), now.get(name)
        if _same(sent, kept):
            continue
        rows.append(Difference(str(field.label), _shown(field, sent), _shown(field, kept)))
    return Conflict(form.cleaned_data.get("version"), event_version(stored), rows)


def rebased(data: QueryDict, stored: Tournament) -> QueryDict:
    """The posted values, now carrying the stored version: submitting them again keeps them."""
    fresh = data.copy()
    fresh["version"] = str(event_version(stored))
    fresh["read_digest"] = settings_digest(stored)
    return fresh


def _same(sent: Any, kept: Any) -> bool:
    empty = (None, "")
    return (sent in empty and kept in empty) or sent == kept


def _shown(field: Any, value: Any) -> str:
    if value in (None, ""):
        return _("(empty)")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    choices = dict(getattr(field, "choices", []) or [])
    return str(choices.get(value, value))
