"""`{% recorded_outcome ruling as outcome %}`: what a ruling decided, in words (its situation's title
and the penalty actually given), and `{{ penalty|penalty_in_words }}` for a ledger entry
(`tournaments.officiating.recorded`)."""

from __future__ import annotations

from django import template

from tournaments.models import Penalty, Ruling
from tournaments.officiating import recorded

register = template.Library()


@register.simple_tag
def recorded_outcome(ruling: Ruling) -> recorded.RecordedOutcome:
    """The ruling's situation title and decision in words."""
    return recorded.recorded_outcome(ruling)


@register.filter
def penalty_in_words(penalty: Penalty) -> str:
    """A ledger entry as a sentence: the step, its points, the official's choice, a rescinding."""
    return recorded.penalty_in_words(penalty)


@register.filter
def situation_title(situation_id: str) -> str:
    """A situation's title (never its catalogue id)."""
    return recorded.situation_title(situation_id)
