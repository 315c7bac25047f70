"""Writes of live games: create a game, record, edit, delete and undo holes, change the ruleset.

The public API of the services, by job:

- `games`: `create_game`, `set_game_ruleset`, `game_rename`, `update_game` (both at once),
  `delete_game`; for the apps that manage games, `lock_games` (lock a set of games in the
  caller's transaction) and `delete_games` (a bulk delete);
- `game_batches`: `create_managed_games` (a tournament round's tables, each a `NewGame`, in a few
  bulk inserts);
- `seats`: seats at a table (`seat_add`, `seat_rename`, `seat_remove`) and a user's roster
  (`player_create`, `player_rename`, `player_delete`);
- `holes`: `hole_record` (`hole_record_with_line` and `hole_record_by_edit_token` also answer the
  hole's scoreboard line, built from what was written), `hole_update`, `hole_delete` (a
  recording's key is purged with every other key: `idempotency.purge_idempotent_requests`);
- `undo`: `undo_last_change`, `redo_change`;
- `game_ending`: `end_game_early`, `resume_game` (a family stops before the last hole);
- `turn_times`: `record_turn_times`, a phone's turn timer report merged in (larger values kept);
- `game_restore`: `restore_games`, games put back from a backup file with their ids and tokens;
- `hole_scoring`: `score_hole_entries`, the one scoring pipeline of a hole (pure), shared by the
  save and the page's live preview.

Callers use `from scoring import services; services.hole_record(...)`. Every function runs in one
transaction, locks the game row first, gets every score from the rules engine, and recomputes the
stored totals of every seat from the entries before it commits (recording a regular hole adds its
scores to them instead). Bad input raises a `GameError` (or the engine's `RulesError`) naming what is
wrong and where; nothing is written then. The private modules hold the shared steps:
`_hole_writing` (lock, entries, snapshots, change log, totals), `_entry_scoring` (input checked
and scored by the engine), `_hole_recording` (the hot path of recording a hole), `_players`
(names and the roster).
"""

from golfclub.core.limits import MAX_HOLES, MAX_PLAYERS, MIN_PLAYERS
from scoring.game_errors import GameError
from scoring.services._hole_recording import IdempotentReplay, RecordedHole
from scoring.services.game_batches import NewGame, create_managed_games
from scoring.services.game_ending import EndRequest, end_game_early, resume_game
from scoring.services.game_restore import restore_games
from scoring.services.games import (
    create_game,
    delete_game,
    delete_games,
    game_rename,
    lock_games,
    set_game_ruleset,
    update_game,
)
from scoring.services.hole_scoring import EntryToScore, ScoredHole, score_hole_entries
from scoring.services.holes import (
    hole_delete,
    hole_record,
    hole_record_by_edit_token,
    hole_record_with_line,
    hole_update,
)
from scoring.services.seats import (
    player_create,
    player_delete,
    player_rename,
    seat_add,
    seat_remove,
    seat_rename,
)
from scoring.services.turn_times import HoleTimes, SeatTime, record_turn_times
from scoring.services.undo import redo_change, undo_last_change

__all__ = [
    "MAX_HOLES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "EndRequest",
    "EntryToScore",
    "GameError",
    "HoleTimes",
    "IdempotentReplay",
    "NewGame",
    "RecordedHole",
    "ScoredHole",
    "SeatTime",
    "create_game",
    "create_managed_games",
    "delete_game",
    "delete_games",
    "end_game_early",
    "game_rename",
    "hole_delete",
    "hole_record",
    "hole_record_by_edit_token",
    "hole_record_with_line",
    "hole_update",
    "lock_games",
    "player_create",
    "player_delete",
    "player_rename",
    "record_turn_times",
    "redo_change",
    "restore_games",
    "resume_game",
    "score_hole_entries",
    "seat_add",
    "seat_remove",
    "seat_rename",
    "set_game_ruleset",
    "undo_last_change",
    "update_game",
]
