"""The rows of a standings table, built in Python rather than by the template engine.

A 1,000-player event has 1,000 rows of a dozen cells: through `{% for %}`, `{% url %}` and a filter
per cell, Django's template engine took about 100 ms for them, half the standings page's budget
(issue 8: 200 ms whatever the size). Here each row is one f-string, every text a person typed
escaped: about a tenth of that. The markup is the one `_standings_rows.html` had; the template
still holds the table's head and its groups.

On a phone (static/css/tournaments.css) each row becomes a block: rank, player and total on the
first line, the other cells wrapped beneath, each after its column's name, which the cell carries
in `data-label` (the column heads stay in the markup for screen readers).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.web.numbers import minus_sign
from tournaments.models import EntrantStatus
from tournaments.standings import StandingLine
from tournaments.web.forms import TIEBREAK_LABELS


def standings_rows(
    lines: Iterable[StandingLine],
    tournament_id: int,
    round_numbers: Iterable[int] = (),
    round_heads: Iterable[str] = (),
) -> SafeString:
    """The `<tr>`s of `lines`: rank (or DQ), the player linked to their record, total, holes played
    (so a live total reads right: 0 after no hole is not a lead), each round, penalty points, the
    tiebreak columns and why the player ranks above the next.

    `round_numbers` names the round columns (`Standings.round_numbers`); without it they are
    numbered from 1. `round_heads` (`Standings.round_heads`, which say which holes of the round in
    play count) names them instead when given. Late entries, dropped, withdrawn and disqualified
    players carry their label beside their name."""
    labels = _Labels(tuple(round_numbers), tuple(round_heads))
    shared = _Shared.build(tournament_id)
    return mark_safe("\n".join(_row(line, labels, shared) for line in lines))


@dataclass(frozen=True)
class _Shared:
    """The pieces of markup every row may hold, each built once for the table."""

    player_url: str  # the player's page but for their id, which ends the path
    dq: str
    badge: str  # "playoff"
    late: str  # "late entry"
    status_tag: dict[str, str]  # by status, but for active players

    @classmethod
    def build(cls, tournament_id: int) -> _Shared:
        # One reverse() for the whole table: the player's id is the last part of the path.
        player_url = escape(reverse("tournaments:player", args=[tournament_id, 0])[: -len("0/")])
        return cls(
            player_url=player_url,
            dq=escape(_("DQ")),
            badge=f' <span class="badge">{escape(_("playoff"))}</span>',
            late=f' <span class="status status-late">{escape(_("late entry"))}</span>',
            status_tag={
                value: f' <span class="status status-{value}">{escape(label)}</span>'
                for value, label in EntrantStatus.choices
                if value != EntrantStatus.ACTIVE
            },
        )


def _row(line: StandingLine, labels: _Labels, shared: _Shared) -> str:
    """One player's `<tr>`. Only the texts people typed (names, and the tiebreak texts built from
    them) need escaping; the numbers are ints, the statuses the choices of `_Shared`."""
    classes = " ".join(
        name
        for name, on in (("playoff-row", line.playoff), ("leader", line.rank == 1 and line.complete))
        if on
    )
    rank = shared.dq if line.disqualified else f"{line.rank}{'=' if line.shared else ''}"
    cells = [
        f'<td class="num round"{label}>{_number(score)}'
        for label, score in zip(labels.rounds(len(line.rounds)), line.rounds, strict=True)
    ]
    total_thru = ""
    if line.thru is not None and cells:
        # The round in play is the last counted: its score so far, and how far the player is.
        thru = escape(_("thru %(n)s") % {"n": int(line.thru)})
        cells[-1] += f' <span class="thru">{thru}</span>'
        # A phone shows it under the total too, on the row's first line (hidden from screen
        # readers, which read it in the round's cell).
        total_thru = f' <span class="thru thru-total" aria-hidden="true">{thru}</span>'
    rounds = "".join(f"{cell}</td>" for cell in cells)
    columns = "".join(
        f'<td class="num"{labels.column(name) if value else ""}>{escape(value)}</td>'
        for name, value in line.columns
    )
    why = f"{labels.why if line.why_above else ''}>{escape(line.why_above)}"
    return (
        f'<tr class="{classes}"><td class="num">{rank}</td>'
        f'<th scope="row"><a href="{shared.player_url}{int(line.entrant_id)}/">{escape(line.name)}</a>'
        f"{shared.badge if line.playoff else ''}{shared.late if line.late_entry else ''}"
        f"{shared.status_tag.get(line.status, '')}</th>"
        f'<td class="num total">{_number(line.total)}{total_thru}</td>'
        f'<td class="num holes"{labels.holes}>{int(line.holes_played)}</td>{rounds}'
        f'<td class="num pen"{labels.penalty}>'
        f"{f'+{int(line.penalty_points)}' if line.penalty_points else '0'}</td>"
        f'{columns}<td class="why"{why}</td></tr>'
    )


class _Labels:
    """The ` data-label="..."` attributes of a table's cells, each built once for all its rows: the
    names the table's head gives the columns (`_standings_head.html`)."""

    def __init__(self, round_numbers: tuple[int, ...], round_heads: tuple[str, ...] = ()) -> None:
        self.holes = _attribute(_("Holes played"))
        self.penalty = _attribute(_("Pen."))
        self.why = _attribute(_("Why above"))
        self._round_numbers = round_numbers
        self._round_heads = round_heads
        self._rounds: dict[int, list[str]] = {}
        self._columns: dict[str, str] = {}

    def rounds(self, count: int) -> list[str]:
        """The labels of a line's `count` round cells: R1, R2, ... (the counted rounds' numbers)."""
        if count not in self._rounds and len(self._round_heads) == count:
            self._rounds[count] = [_attribute(head) for head in self._round_heads]
        if count not in self._rounds:
            numbers = self._round_numbers if len(self._round_numbers) == count else range(1, count + 1)
            self._rounds[count] = [_attribute(_("R%(n)s") % {"n": n}) for n in numbers]
        return self._rounds[count]

    def column(self, name: str) -> str:
        """The label of a tiebreak column, under its readable name ("Most holes won")."""
        if name not in self._columns:
            self._columns[name] = _attribute(str(TIEBREAK_LABELS.get(name, name)))
        return self._columns[name]


def _attribute(label: str) -> str:
    return f' data-label="{escape(label)}"'


def _number(value: int | None) -> str:
    """A score as the app shows it (U+2212 for minus), an en dash where there is none."""
    return "\u2013" if value is None else minus_sign(int(value))
