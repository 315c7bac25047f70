"""What a recorded ruling decided, in words: the situation's title (never its catalogue id) and the
penalty actually given, as the ledger holds it (its step, its points, the official's own decision,
a rescinding on appeal).

A ruling keeps the catalogue's answer as it was when recorded (`Ruling.ruling`, `correction`): that
text names the ladder's step ("disqualification from the tournament"). When the official named
another step, that text no longer says what was decided, so every page, the API and the exports
show `RecordedOutcome.decision` first and the catalogue's text only as what the official changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Penalty, PenaltyStep, Ruling
from tournaments.officiating.catalogue import BY_ID


@dataclass(frozen=True)
class RecordedOutcome:
    """A ruling as it was decided: its situation in words and the penalty given, in words."""

    situation_title: str
    decision: str
    #: The official named the penalty's step: the catalogue's text (which names the ladder's) is
    #: not what was decided.
    changed_by_official: bool


def situation_title(situation_id: str) -> str:
    """The catalogue's title of a situation; a plain phrase for one no longer in the catalogue."""
    situation = BY_ID.get(situation_id)
    return str(situation.title) if situation is not None else _("A situation no longer in the catalogue")


def penalty_in_words(penalty: Penalty) -> str:
    """The penalty as given, in a sentence naming the player: its step and points, whether the
    official chose the step, and a rescinding on appeal."""
    name = penalty.entrant.name
    if penalty.step == PenaltyStep.WARNING:
        text = _("Warning for %(name)s (no points).") % {"name": name}
    elif penalty.step == PenaltyStep.POINTS:
        text = _("Penalty points for %(name)s: +%(points)s on their total.") % {
            "name": name,
            "points": penalty.points,
        }
    elif penalty.step == PenaltyStep.ROUND_DQ:
        text = _("%(name)s is disqualified from round %(n)s.") % {"name": name, "n": penalty.round_number}
    else:
        text = _("%(name)s is disqualified from the tournament.") % {"name": name}
    if penalty.step_decided:
        text += " " + _("The official chose this penalty instead of rule 6.3's ladder.")
    if penalty.rescinded_at is not None:
        text += " " + (
            _("Rescinded on appeal (%(reason)s): it counts for nothing.") % {"reason": penalty.rescind_reason}
            if penalty.rescind_reason
            else _("Rescinded on appeal: it counts for nothing.")
        )
    return text


def recorded_outcome(ruling: Ruling) -> RecordedOutcome:
    """What `ruling` decided (no query when its penalty and the penalty's player are loaded)."""
    penalty = ruling.penalty
    decision = _("No penalty.") if penalty is None else penalty_in_words(penalty)
    return RecordedOutcome(
        situation_title=situation_title(ruling.situation),
        decision=decision,
        changed_by_official=bool(penalty is not None and penalty.step_decided),
    )
