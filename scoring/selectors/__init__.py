"""Reads of live games shared by the pages, the API and the exports.

Each selector runs a fixed number of queries whatever the number of players and holes. Standings,
match end and tiebreaks come from the rules engine (`compute_match_state`, `dealer_for_hole`).

A package by job, every public name re-exported here so that `from scoring import selectors` and
`from scoring.selectors import X` work unchanged:

- `scoreboard_lines`: the scoreboard and hole lines (`scoreboard`, `hole_detail`, `hole_line`...);
- `change_history`: the history of changes and the targets of undo and redo;
- `game_lookups`: a game by its link token, the games of a user or a browser, a user's players,
  recent names;
- `match_adapter`: the match state (totals, match end, outcome) from stored entries, via the engine;
- `hole_scores` and `game_progress`: what the apps built on games read (a tournament's standings,
  records, exports, scorecards, dashboard, clock and score slips): regular hole scores of many
  games at once, scorecards, holes played, and the deal order (the engine's rotation).
  Other apps read `scoring`'s tables only through these selectors;
- `phone_contacts`: when each game's phone was last heard from and what it still holds;
- `turn_times`: the turn timer's times per game and seat (`turn_times`, `game_turn_times`);
- `game_backup`: every row of some games as a backup file holds them (`games_backup`).
"""

from __future__ import annotations

from .change_history import (
    HistoryLine,
    change_by_id,
    change_origin,
    game_history,
    history_line,
    redo_target,
    redo_target_change,
    undo_target,
    undo_target_change,
)
from .game_backup import games_backup
from .game_lookups import (
    GameAccess,
    game_for_token,
    games_for_tokens,
    games_for_user,
    games_for_view_tokens,
    idempotency_key_used,
    owned_player,
    owned_players,
    recent_player_names,
)
from .game_progress import GameProgress, deal_order, game_progress, games_progress, holes_to_play
from .hole_scores import (
    HoleRow,
    Scorecard,
    ScoreRow,
    regular_hole_scores,
    score_table_names,
    scorecards,
    seat_names,
)
from .match_adapter import MatchState, SeatState, game_ruleset, match_state
from .phone_contacts import PHONE_CONTACT_RELATION, PhoneContactState, phone_contact_of, phone_contacts
from .scoreboard_lines import (
    EntryLine,
    HoleLine,
    NextHole,
    Scoreboard,
    SeatLine,
    ended_early_text,
    hole_detail,
    hole_detail_by_id,
    hole_line,
    scoreboard,
)
from .turn_times import PlayerTime, game_turn_times, turn_times

__all__ = [
    "PHONE_CONTACT_RELATION",
    "EntryLine",
    "GameAccess",
    "GameProgress",
    "HistoryLine",
    "HoleLine",
    "HoleRow",
    "MatchState",
    "NextHole",
    "PhoneContactState",
    "PlayerTime",
    "ScoreRow",
    "Scoreboard",
    "Scorecard",
    "SeatLine",
    "SeatState",
    "change_by_id",
    "change_origin",
    "deal_order",
    "ended_early_text",
    "game_for_token",
    "game_history",
    "game_progress",
    "game_ruleset",
    "game_turn_times",
    "games_backup",
    "games_for_tokens",
    "games_for_user",
    "games_for_view_tokens",
    "games_progress",
    "history_line",
    "hole_detail",
    "hole_detail_by_id",
    "hole_line",
    "holes_to_play",
    "idempotency_key_used",
    "match_state",
    "owned_player",
    "owned_players",
    "phone_contact_of",
    "phone_contacts",
    "recent_player_names",
    "redo_target",
    "redo_target_change",
    "regular_hole_scores",
    "score_table_names",
    "scoreboard",
    "scorecards",
    "seat_names",
    "turn_times",
    "undo_target",
    "undo_target_change",
]
