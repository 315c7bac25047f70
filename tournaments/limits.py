"""Every size limit of a tournament a user can meet, in one place (as `golfclub.core.limits` for games)."""

from __future__ import annotations

__all__ = [
    "MAX_CLUB",
    "MAX_CSV_LINES",
    "MAX_ENTRANTS",
    "MAX_HOLE_TIME_LIMIT",
    "MAX_NOTE",
    "MAX_RATING",
    "MAX_ROUNDS",
    "MAX_SEED",
    "MAX_TIME_LIMIT",
    "MAX_TOURNAMENT_NAME",
    "MAX_VENUE",
]

MAX_ROUNDS = 21  # rounds of an event: up to the round robin of 64 players (issue 34)
MAX_TOURNAMENT_NAME = 120
MAX_VENUE = 120
MAX_CLUB = 80
MAX_NOTE = 500  # a disagreement's or a penalty's note
MAX_RATING = 100_000  # a player's rating, either sign
MAX_ENTRANTS = 2000  # players in one tournament
MAX_CSV_LINES = MAX_ENTRANTS  # players in one CSV import
MAX_SEED = 2**53  # a seed a JSON client holds exactly
MAX_TIME_LIMIT = 24 * 60  # minutes a round may last
MAX_HOLE_TIME_LIMIT = 120  # minutes a hole may last
