"""Writes of tournaments, each one transaction taking its locks in the one order of `locks`:

1. the tournament row; 2. the round; 3. its tables (id order); 4. their games, through
`scoring.services.lock_games` (id order); 5. anything else (players, penalties, calls, the log).

A write may skip a level it does not need but never locks one above a level it holds, so two
writes wait for each other instead of deadlocking (tables confirming while the director
finalizes: `tests/tournaments/api/test_lock_order_pg.py`). Invariants are held by the database
where a constraint can say them (migration 0007) and checked under these locks otherwise.

- `events`: `create_tournament`, `update_tournament`, `delete_tournament`;
- `staff`: `add_staff`, `remove_staff`;
- `entrants`: `add_entrant`, `import_entrants` (CSV, all or nothing), `set_checked_in`,
  `drop_entrant`, `reinstate_entrant`;
- `bulk_players`: `check_in_players`, `drop_players`, `undo_bulk_action` (event day, in bulk, each
  action undone for exactly the players it changed);
- `rounds`: `seat_next_round`, `swap_players`, `publish_round`, `finalize_round`;
- `tables`: `confirm_table`, `clear_dispute` (a finalized round's scorecards are closed);
- `penalties`: `give_penalty` (rule 6.3's ladder; one active event DQ a player), `rescind_penalty`;
- `rulings`: `record_ruling` (the catalogue's answer, with the penalty it carries).

Bad input raises `tournaments.errors.TournamentError` (400), a wrong state `WrongState` (409)
naming what is in the way, a missing player or round `NotFoundInTournament` (404).
"""

from tournaments.services.bulk_players import check_in_players, drop_players, undo_bulk_action
from tournaments.services.entrants import (
    add_entrant,
    drop_entrant,
    entrant_in,
    import_entrants,
    reinstate_entrant,
    set_checked_in,
)
from tournaments.services.events import (
    create_tournament,
    delete_tournament,
    update_tournament,
)
from tournaments.services.penalties import give_penalty, rescind_penalty
from tournaments.services.rounds import finalize_round, publish_round, round_in, seat_next_round, swap_players
from tournaments.services.rulings import record_ruling
from tournaments.services.staff import add_staff, remove_staff
from tournaments.services.tables import clear_dispute, confirm_table, table_of_game

__all__ = [
    "add_entrant",
    "add_staff",
    "check_in_players",
    "clear_dispute",
    "confirm_table",
    "create_tournament",
    "delete_tournament",
    "drop_entrant",
    "drop_players",
    "entrant_in",
    "finalize_round",
    "give_penalty",
    "import_entrants",
    "publish_round",
    "record_ruling",
    "reinstate_entrant",
    "remove_staff",
    "rescind_penalty",
    "round_in",
    "seat_next_round",
    "set_checked_in",
    "swap_players",
    "table_of_game",
    "undo_bulk_action",
    "update_tournament",
]
