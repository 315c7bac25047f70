"""`{% standings_rows lines tournament standings.round_numbers standings.round_heads %}`: a
standings table's rows (`tournaments.web.standings_rows`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django import template
from django.utils.safestring import SafeString

from tournaments.models import Tournament
from tournaments.standings import StandingLine
from tournaments.web.standings_rows import standings_rows as build_rows

register = template.Library()


@register.simple_tag
def standings_rows(
    lines: Iterable[StandingLine],
    tournament: Tournament,
    round_numbers: Sequence[int] = (),
    round_heads: Sequence[str] = (),
) -> SafeString:
    """The `<tr>`s of `lines` in `tournament`'s standings table, whose round columns are
    `round_numbers` (`Standings.round_numbers`), headed `round_heads` (`Standings.round_heads`)."""
    return build_rows(lines, tournament.pk, round_numbers, round_heads)
