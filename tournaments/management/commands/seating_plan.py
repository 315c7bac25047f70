"""`manage.py seating_plan --players N --rounds R [--seed S] [--json]`: the seating plan an event of
N players over R rounds seated `fewest_repeats` with seed S gets (SPEC "Seating plans").

Players are numbered 1..N in entry order; each round's tables are in seat order, round 1
included. `repeats` is the sum over every pair of (times they shared a table - 1) where positive;
`least_possible` the best lower bound the planner knows. Without `--json`, the same plan is
printed for reading, a line a table.
"""

from __future__ import annotations

import argparse
import json
import re

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.limits import MAX_ENTRANTS, MAX_SEED
from tournaments.planning import SeatingError, plan_rounds

#: The command plans further than an event may go (events stop at `MAX_ROUNDS`).
MAX_PLAN_ROUNDS = 400

#: A whole number as typed: ASCII digits only (no "1_6", fullwidth digits, "5.0", "1e3" nor spaces).
WHOLE = re.compile(r"-?[0-9]{1,30}")


def whole_number(text: str) -> int:
    """argparse's type for every option: a whole number of at most 30 digits, else a clear refusal
    (`CommandError` from `call_command`, a usage line and exit status 2 from the shell)."""
    if WHOLE.fullmatch(text) is None:
        shown = text if len(text) <= 32 else f"{text[:12]}... ({len(text)} characters)"
        raise argparse.ArgumentTypeError(f"a whole number is expected (got {shown!r}).")
    return int(text)


class Command(BaseCommand):
    help = "Print the seating plan of an event of N players over R rounds (fewest repeated meetings)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--players", type=whole_number, required=True, help="How many players (3 or more)."
        )
        parser.add_argument("--rounds", type=whole_number, required=True, help="How many rounds (1 or more).")
        parser.add_argument("--seed", type=whole_number, default=0, help="The event's seed (default 0).")
        parser.add_argument("--json", action="store_true", help="Print the plan as JSON.")

    def handle(self, *args: object, **options: object) -> None:
        players, rounds, seed = int(options["players"]), int(options["rounds"]), int(options["seed"])
        if not 3 <= players <= MAX_ENTRANTS:
            raise CommandError(f"--players must be from 3 to {MAX_ENTRANTS} (got {players}).")
        if not 1 <= rounds <= MAX_PLAN_ROUNDS:
            raise CommandError(f"--rounds must be from 1 to {MAX_PLAN_ROUNDS} (got {rounds}).")
        if not 0 <= seed <= MAX_SEED:
            raise CommandError(f"--seed must be from 0 to {MAX_SEED} (got {seed}).")
        try:
            plan = plan_rounds(list(range(players)), rounds=rounds, seed=seed)
        except SeatingError as error:
            raise CommandError(str(error)) from None
        numbered = [[[player + 1 for player in table] for table in tables] for tables in plan.rounds]
        if options["json"]:
            body = {
                "players": players,
                "rounds": numbered,
                "repeats": plan.repeats,
                "least_possible": plan.least_possible,
            }
            self.stdout.write(json.dumps(body))
            return
        for number, tables in enumerate(numbered, start=1):
            self.stdout.write(f"Round {number}")
            for table_number, table in enumerate(tables, start=1):
                self.stdout.write(f"  Table {table_number}: " + " ".join(map(str, table)))
        self.stdout.write(f"Repeated meetings: {plan.repeats}; least possible: {plan.least_possible}")
