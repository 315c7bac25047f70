"""Import backup files into the hostile pass's scratch database and check each restored event.

    DATABASE_URL=<scratch> python -m bench.hostile_restore FILE...   # each: import, check, delete
    DATABASE_URL=<scratch> python -m bench.hostile_restore --clear   # delete every event there

Run by bench/hostile_pass.py (its own process: the scratch database is not the server's). Each
file is loaded by `manage.py import_event`'s own code (call_command); then every table's seats'
stored totals must equal the sums of its entries, the standings' round column must equal those
sums player by player, and every restored table must record its next hole. Prints
`CHECKED <n>` and one `VIOLATION <what>` line per failure; exits 1 when there is any.
"""

from __future__ import annotations

import io
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _clear() -> None:
    from tournaments import services
    from tournaments.models import Tournament

    for tournament in Tournament.objects.all():
        services.delete_tournament(tournament)


def _check(path: Path) -> tuple[int, list[str]]:
    """Import `path`, check the event restored, delete it; (invariants checked, violations)."""
    from scoring.models import Game
    from tournaments.models import Tournament

    _clear()
    imported, problems = _import(path)
    if not imported:
        return 1, problems
    checked = 1
    tournament = Tournament.objects.get()
    games = list(Game.objects.filter(tournament_table__round__tournament=tournament))
    for count, found in (
        _check_seats(games),
        _check_standings(tournament, games),
        _check_next_holes(tournament),
    ):
        checked += count
        problems.extend(found)
    _clear()
    return checked, problems


def _import(path: Path) -> tuple[bool, list[str]]:
    """Load `path` with `import_event`'s own code: (whether it was imported, what went wrong)."""
    from django.core.management import CommandError, call_command

    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_event", str(path), stdout=out, stderr=err)
    except CommandError as error:
        return False, [f"import_event refused it: {error}"]
    problems = []
    if err.getvalue().strip():
        problems.append(f"import_event had to rebuild: {err.getvalue().strip()[:300]}")
    return True, problems


def _check_seats(games: list[Any]) -> tuple[int, list[str]]:
    """Every seat's stored total and holes played equal the sums of its (non-playoff) entries."""
    from scoring.models import HoleEntry, Seat

    problems, checked = [], 0
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for seat_id, points in HoleEntry.objects.filter(hole__game__in=games, hole__is_playoff=False).values_list(
        "seat_id", "score"
    ):
        sums[seat_id][0] += points
        sums[seat_id][1] += 1
    for seat in Seat.objects.filter(game__in=games):
        checked += 1
        if (seat.total, seat.holes_played) != tuple(sums.get(seat.pk, (0, 0))):
            problems.append(
                f"seat {seat.name}: stored {(seat.total, seat.holes_played)}, entries {sums.get(seat.pk)}"
            )
    return checked, problems


def _check_standings(tournament: Any, games: list[Any]) -> tuple[int, list[str]]:
    """The live standings' round 1 column equals the counted sums of the entries, entrant by entrant."""
    from bench.hostile_common import counted_sums
    from tournaments.models import TableSeat
    from tournaments.standings import compute_standings

    problems, checked = [], 0
    entrant_of = {
        (g, s): e
        for g, s, e in TableSeat.objects.filter(round__tournament=tournament).values_list(
            "table__game_id", "seat", "entrant_id"
        )
    }
    counted = counted_sums([game.pk for game in games])
    by_entrant = {entrant_of[where]: points for where, points in counted.items()}
    for line in compute_standings(tournament, live=True).lines:
        checked += 1
        if (line.rounds[0] or 0) != by_entrant.get(line.entrant_id, 0):
            problems.append(
                f"{line.name}: standings round 1 {line.rounds[0]}, entries {by_entrant.get(line.entrant_id)}"
            )
    return checked, problems


def _check_next_holes(tournament: Any) -> tuple[int, list[str]]:
    """Every restored table still in progress can record its next hole."""
    from scoring import services as scoring
    from tournaments.models import Table

    problems, checked = [], 0
    for table in Table.objects.filter(round__tournament=tournament).select_related("game"):
        if table.game.status != "in_progress":
            continue  # a finished match takes no more holes
        checked += 1
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        try:
            scoring.hole_record(
                table.game, entries=dict.fromkeys(names, 1), ender=None, capabilities={"view", "score"}
            )
        except Exception as error:
            problems.append(
                f"table {table.number} cannot record its next hole: {type(error).__name__}: {error}"
            )
    return checked, problems


def main(argv: list[str]) -> int:
    import django

    django.setup()
    if argv == ["--clear"]:
        _clear()
        return 0
    failed = False
    for name in argv:
        checked, problems = _check(Path(name))
        print(f"CHECKED {checked}")
        for problem in problems:
            print(f"VIOLATION {problem}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
