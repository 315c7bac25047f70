"""The rows of a standings table, built in Python rather than by the template engine.

A 1,000-player event has 1,000 rows of a dozen cells: through `{% for %}`, `{% url %}` and a filter
per cell, Django's template engine took about 100 ms for them, half the standings page's budget
(issue 8: 200 ms whatever the size). Here each row is one f-string, every text a person typed
escaped: about a tenth of that. The markup is the one `_standings_rows.html` had; the template
still holds the table's head and its groups.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.web.numbers import minus_sign
from tournaments.models import EntrantStatus
from tournaments.standings import StandingLine


def standings_rows(lines: Iterable[StandingLine], tournament_id: int) -> SafeString:
    """The `<tr>`s of `lines`: rank (or DQ), the player linked to their record, total, holes played
    (so a live total reads right: 0 after no hole is not a lead), each round, penalty points, the
    tiebreak columns and why the player ranks above the next."""
    # One reverse() for the whole table: the player's id is the last part of the path.
    player_url = escape(reverse("tournaments:player", args=[tournament_id, 0])[: -len("0/")])
    dq, playoff = escape(_("DQ")), escape(_("playoff"))
    badge = f' <span class="badge">{playoff}</span>'
    status_tag = {
        value: f' <span class="status status-{value}">{escape(label)}</span>'
        for value, label in EntrantStatus.choices
        if value != EntrantStatus.ACTIVE
    }
    rows = []
    for line in lines:
        # Only the texts people typed (names, and the tiebreak texts built from them) need escaping;
        # the numbers are ints, the statuses the choices above.
        classes = " ".join(
            name
            for name, on in (("playoff-row", line.playoff), ("leader", line.rank == 1 and line.complete))
            if on
        )
        rank = dq if line.disqualified else f"{line.rank}{'=' if line.shared else ''}"
        rounds = "".join(f'<td class="num">{_number(score)}</td>' for score in line.rounds)
        if line.thru is not None and line.rounds:
            # The round in play is the last counted: its score so far, and how far the player is.
            last = _number(line.rounds[-1])
            thru = escape(_("thru %(n)s") % {"n": int(line.thru)})
            rounds = (
                rounds[: rounds.rfind("<td")]
                + f'<td class="num">{last} <span class="thru">{thru}</span></td>'
            )

        columns = "".join(f'<td class="num">{escape(value)}</td>' for _name, value in line.columns)
        rows.append(
            f'<tr class="{classes}"><td class="num">{rank}</td>'
            f'<th scope="row"><a href="{player_url}{int(line.entrant_id)}/">{escape(line.name)}</a>'
            f"{badge if line.playoff else ''}{status_tag.get(line.status, '')}</th>"
            f'<td class="num total">{_number(line.total)}</td>'
            f'<td class="num holes">{int(line.holes_played)}</td>{rounds}'
            f'<td class="num">{f"+{int(line.penalty_points)}" if line.penalty_points else "0"}</td>'
            f'{columns}<td class="why">{escape(line.why_above)}</td></tr>'
        )
    return mark_safe("\n".join(rows))


def _number(value: int | None) -> str:
    """A score as the app shows it (U+2212 for minus), an en dash where there is none."""
    return "\u2013" if value is None else minus_sign(int(value))
