"""Writes of tournaments, each one transaction that locks the tournament row first.

- `events`: `create_tournament`, `update_tournament`, `delete_tournament`, `add_staff`,
  `remove_staff`;
- `entrants`: `add_entrant`, `import_entrants` (CSV, all or nothing), `set_checked_in`,
  `drop_entrant`, `reinstate_entrant`;
- `rounds`: `seat_next_round`, `swap_players`, `publish_round`, `finalize_round`;
- `tables`: `confirm_table`, `clear_dispute`;
- `penalties`: `give_penalty` (rule 6.3's ladder), `rescind_penalty`;
- `rulings`: `record_ruling` (the catalogue's answer, with the penalty it carries).

Bad input raises `tournaments.errors.TournamentError` (400), a wrong state `WrongState` (409)
naming what is in the way, a missing player or round `NotFoundInTournament` (404).
"""

from tournaments.services.entrants import (
    add_entrant,
    drop_entrant,
    entrant_in,
    import_entrants,
    reinstate_entrant,
    set_checked_in,
)
from tournaments.services.events import (
    add_staff,
    create_tournament,
    delete_tournament,
    remove_staff,
    update_tournament,
)
from tournaments.services.penalties import give_penalty, rescind_penalty
from tournaments.services.rounds import finalize_round, publish_round, round_in, seat_next_round, swap_players
from tournaments.services.rulings import record_ruling
from tournaments.services.tables import clear_dispute, confirm_table, table_of_game

__all__ = [
    "add_entrant",
    "add_staff",
    "clear_dispute",
    "confirm_table",
    "create_tournament",
    "delete_tournament",
    "drop_entrant",
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
    "update_tournament",
]
