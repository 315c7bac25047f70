"""Exports of an event: its standings and every score, as rows for CSV and as JSON objects.

- `standings_table(standings)`: one row per player in rank order, with each round, the penalty
  points, the tiebreak columns and why above;
- `score_rows(tournament, live=...)`: every regular hole score of the counted rounds (player,
  round, table, seat, hole, score), then every penalty (player, round, offence, step, points,
  rescinded), in a fixed handful of queries whatever the size;
- `spreadsheet_safe(value)`: a text cell a spreadsheet would run as a formula (starting with `=`,
  `+`, `-`, `@`, a tab or a carriage return, full-width ones too: OWASP's "CSV injection") gets a
  leading `'`; numbers and lists of numbers stay as they are (-2 is a score, not a formula).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import Any

from golfclub.core.spreadsheets import formula_safe
from scoring.selectors import regular_hole_scores
from tournaments.models import Penalty, Round, Table, TableSeat, Tournament
from tournaments.standings import Standings, counted_rounds

SCORE_HEADER = (
    "kind",
    "player_id",
    "player",
    "round",
    "table",
    "seat",
    "hole",
    "score",
    "offence",
    "step",
    "penalty_points",
    "rescinded",
)


def spreadsheet_safe(value: Any) -> Any:
    """`value`, with a text that a spreadsheet would evaluate made inert by a leading quote
    (`golfclub.core.spreadsheets.formula_safe`: full-width signs caught, numbers kept)."""
    return formula_safe(value)


def standings_table(standings: Standings) -> tuple[list[str], list[list[Any]]]:
    """The header and the rows of the standings, in rank order. `total` is the `round_N` cells plus
    `penalty_points`; `totals_include` says in words what that covers (the same on every row, so a
    spreadsheet keeps it with any row copied out of it)."""
    columns = [name for name, _value in standings.lines[0].columns] if standings.lines else []
    header = [
        "rank",
        "player_id",
        "player",
        "club",
        "status",
        "late_entry",
        "total",
        *(f"round_{n}" for n in standings.round_numbers),
        "penalty_points",
        "holes_won",
        "holes_played",
        "complete",
        "playoff",
        "shared",
        *columns,
        "why_above",
        "thru",
        "totals_include",
    ]
    note = standings.totals_note()
    rows = [
        [
            line.rank,
            line.entrant_id,
            line.name,
            line.club,
            line.status,
            line.late_entry,
            line.total,
            *line.rounds,
            line.penalty_points,
            line.holes_won,
            line.holes_played,
            line.complete,
            line.playoff,
            line.shared,
            *(value for _name, value in line.columns),
            line.why_above,
            "" if line.thru is None else line.thru,
            note,
        ]
        for line in standings.lines
    ]
    return header, rows


def score_rows(tournament: Tournament, *, live: bool) -> list[dict[str, Any]]:
    """Every regular hole score of the counted rounds, then every penalty of the event (5 queries)."""
    rounds = counted_rounds(tournament, list(Round.objects.filter(tournament=tournament)), live=live)
    number_of = {r.pk: r.number for r in rounds}
    owner: dict[
        tuple[int, int], tuple[int, str, int, int]
    ] = {}  # (game, seat) -> entrant, name, round, table
    for round_id, game_id, seat, entrant_id, name, table in TableSeat.objects.filter(
        round_id__in=number_of
    ).values_list("round_id", "table__game_id", "seat", "entrant_id", "entrant__name", "table__number"):
        owner[(game_id, seat)] = (entrant_id, name, number_of[round_id], table)
    rows: list[dict[str, Any]] = []
    games = Table.objects.filter(round_id__in=number_of).values("game_id")
    for game_id, seat, _hole_id, hole, score in regular_hole_scores(games):
        found = owner.get((game_id, seat))
        if found is None:
            continue
        entrant_id, name, number, table = found
        rows.append(_score(entrant_id, name, number, table, seat + 1, hole, score))
    rows.sort(key=lambda r: (r["round"], r["table"], r["seat"], r["hole"]))
    counted = set(number_of.values())
    for entrant_id, name, number, offence, step, points, rescinded in (
        Penalty.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list(
            "entrant_id", "entrant__name", "round_number", "offence", "step", "points", "rescinded_at"
        )
    ):
        if number is not None and number not in counted:
            continue  # a penalty of a round the viewer does not see yet
        rows.append(
            {
                **_score(entrant_id, name, number, None, None, None, None),
                "kind": "penalty",
                "offence": offence,
                "step": step,
                "penalty_points": 0 if rescinded else points,
                "rescinded": rescinded is not None,
            }
        )
    return rows


def _score(
    entrant_id: int, name: str, number: int | None, table: int | None, seat: int | None, hole: int | None,
    score: int | None,
) -> dict[str, Any]:  # fmt: skip
    return {
        "kind": "hole",
        "player_id": entrant_id,
        "player": name,
        "round": number,
        "table": table,
        "seat": seat,
        "hole": hole,
        "score": score,
        "offence": None,
        "step": None,
        "penalty_points": 0,
        "rescinded": False,
    }


def csv_lines(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> Iterator[str]:
    """The CSV text, line by line (for a streamed response): UTF-8 with a byte-order mark so that
    spreadsheets read accents right, a header row, text cells made spreadsheet-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[Any]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(["" if v is None else spreadsheet_safe(v) for v in values])
        return buffer.getvalue()

    yield "\ufeff" + line(header)
    for row in rows:
        yield line(row)


def score_csv_rows(rows: list[dict[str, Any]]) -> Iterator[list[Any]]:
    """The score rows in the order of `SCORE_HEADER`."""
    for row in rows:
        yield [row[key] for key in SCORE_HEADER]


__all__ = [
    "SCORE_HEADER",
    "csv_lines",
    "score_csv_rows",
    "score_rows",
    "spreadsheet_safe",
    "standings_table",
]
