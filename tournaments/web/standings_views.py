"""The standings (public as the director released them, live for the staff), a player's record
round by round and hole by hole, and the event's log (staff)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.access import Action
from tournaments.models import Entrant
from tournaments.standings import cached_standings
from tournaments.web.access import tournament_page_for
from tournaments.web.charts import bins_of, distribution_chart, player_rounds_chart
from tournaments.web.forms import TIEBREAK_LABELS
from tournaments.web.selectors import log_lines, player_rounds


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Rank, player, per-round scores, penalty points, total, tiebreak columns, why above."""
    page = tournament_page_for(request, pk, Action.VIEW)
    table = cached_standings(page.tournament, live=page.sees_live_standings)
    # The tiebreak columns and chain under their readable names ("Most holes won", not most_holes_won).
    columns = (
        [str(TIEBREAK_LABELS.get(name, name)) for name, _value in table.lines[0].columns]
        if table.lines
        else []
    )
    chain = [str(TIEBREAK_LABELS.get(name, name)) for name in table.tiebreakers]
    round_scores = [score for line in table.lines for score in line.rounds if score is not None]
    return render(
        request,
        "tournaments/standings.html",
        page.context(
            standings=table,
            complete=[line for line in table.lines if line.complete],
            incomplete=[line for line in table.lines if not line.complete and not line.disqualified],
            disqualified=[line for line in table.lines if line.disqualified],
            columns=columns,
            chain=chain,
            distribution=distribution_chart(round_scores),
            bins=bins_of(round_scores),
        ),
    )


def player_detail(request: HttpRequest, pk: int, entrant_id: int) -> HttpResponse:
    """One player's event: each round's table, its scores hole by hole and who won each hole."""
    page = tournament_page_for(request, pk, Action.VIEW)
    entrant = Entrant.objects.filter(tournament=page.tournament, pk=entrant_id).first()
    if entrant is None:
        raise Http404(_("No such player in this tournament."))
    rounds = player_rounds(page.tournament, entrant, live=page.sees_live_standings)
    totals = [r.total for r in rounds if r.total is not None]
    chart = player_rounds_chart(entrant.name, totals) if totals else ""
    return render(
        request, "tournaments/player.html", page.context(entrant=entrant, rounds=rounds, chart=chart)
    )


def event_log(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything the staff did, newest first: swaps, overrides, finalizations, drops, with reasons."""
    page = tournament_page_for(request, pk, Action.SEE_LIVE)
    return render(request, "tournaments/log.html", page.context(lines=log_lines(page.tournament)))
