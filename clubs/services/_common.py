"""What the clubs' write services share: cleaning a label, locking the club, checking a version."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.utils.translation import gettext as _

from clubs.errors import ClubError
from clubs.models import Club
from golfclub.core.inputs import text_problem
from golfclub.core.names import is_invisible
from scoring.game_errors import StaleVersion
from scoring.rules.errors import Problem


def clean_label(raw: Any, where: str, *, max_length: int, what: str) -> str:
    """A club's or a season's name as stored: NFKC, no invisible characters, single spaces.

    `ClubError` naming `where` when it is not text, holds a control character, shows nothing or is
    longer than `max_length` once cleaned (never cut silently). `what` names it in the message.
    """
    if not isinstance(raw, str):
        raise ClubError(Problem(where, _("%(what)s must be text.") % {"what": what}))
    problem = text_problem(raw)
    if problem:
        raise ClubError(Problem(where, _("%(what)s %(problem)s.") % {"what": what, "problem": problem}))
    text = unicodedata.normalize("NFKC", "".join(c for c in raw if not is_invisible(c)))
    text = " ".join(text.split())
    if not text:
        raise ClubError(Problem(where, _("%(what)s needs visible characters.") % {"what": what}))
    if len(text) > max_length:
        raise ClubError(
            Problem(
                where,
                _("%(what)s is too long: at most %(max)s characters; this one has %(n)s.")
                % {"what": what, "max": max_length, "n": len(text)},
            )
        )
    return text


def lock_club(club: Club) -> Club:
    """The club's row locked for this transaction (writes to a club and its members go one at a time).

    A no-key lock: it never changes the club's id, so the results a game writes meanwhile (their
    foreign key share-locks the club's row) do not wait for it, nor deadlock with it."""
    return Club.objects.select_for_update(no_key=True).get(pk=club.pk)


def check_version(what: str, current: int, expected: int | None) -> None:
    """Refuse (`StaleVersion`, 412) when the client read another version than `current` (the locked
    row's); `expected=None` changes whatever is current."""
    if expected is not None and expected != current:
        raise StaleVersion(
            Problem(
                "If-Match",
                _(
                    "%(what)s was changed by someone else since you read it (your version %(yours)s, "
                    "now %(now)s): nothing was changed. Read it again and make your change again."
                )
                % {"what": what, "yours": expected, "now": current},
            )
        )
