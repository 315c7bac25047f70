"""`{% standings_rows lines tournament %}`: a standings table's rows (`tournaments.web.standings_rows`)."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.safestring import SafeString

from tournaments.models import Tournament
from tournaments.standings import StandingLine
from tournaments.web.standings_rows import standings_rows as build_rows

register = template.Library()


@register.simple_tag
def standings_rows(lines: Iterable[StandingLine], tournament: Tournament) -> SafeString:
    """The `<tr>`s of `lines` in `tournament`'s standings table."""
    return build_rows(lines, tournament.pk)
