"""The seating planner: whole-event plans at tables of 4 with the fewest repeated meetings.

Pure Python (no Django import anywhere in this package), seeded and deterministic.

* `plan_rounds(players, rounds=, seed=, seated=)` -> `Plan` (the new rounds, the whole event's
  repeats and the least possible);
* `table_sizes(n)` (SPEC rule 6.1), `SeatingError`;
* `count_repeats(rounds)` (the SPEC's measure), `least_possible(players, rounds=, seated=)`.
"""

from tournaments.planning.bounds import count_repeats, least_possible
from tournaments.planning.plan import Plan, plan_rounds
from tournaments.planning.sizes import SeatingError, table_sizes

__all__ = ["Plan", "SeatingError", "count_repeats", "least_possible", "plan_rounds", "table_sizes"]
