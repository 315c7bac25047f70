"""The tournament's rounds with their tables' games' versions, read in one statement.

`tournaments.standings_cache` reads the rounds with the sum of their tables' games' versions at
every call (`standings._rounds`, the version an entry is keyed by), and after a hole the versions
of the games of the rounds whose sum moved, to find the tables to read again: two joins of the
tables with the games. On PostgreSQL `rounds_and_games` reads both in the one statement (each
round's game ids and versions as two arrays in the same order): one statement and one pass over
the games fewer after every hole, the same sums.
"""

from __future__ import annotations

from django.db import connections, router

from tournaments.models import Round, Tournament
from tournaments.standings import _rounds

#: Round pk -> game id -> game version.
GameVersions = dict[int, dict[int, int]]


def rounds_and_games(tournament: Tournament) -> tuple[list[Round], GameVersions | None]:
    """`standings._rounds(tournament)` (each round with `games_version`) and, on PostgreSQL, each
    round's tables' games' versions read in the same statement; None for those elsewhere."""
    if connections[router.db_for_read(Round)].vendor != "postgresql":
        return _rounds(tournament), None
    from django.contrib.postgres.aggregates import ArrayAgg  # needs psycopg: PostgreSQL only

    rounds = list(
        Round.objects.filter(tournament=tournament)
        .annotate(
            game_ids=ArrayAgg("tables__game_id", order_by="tables__game_id"),
            game_versions=ArrayAgg("tables__game__version", order_by="tables__game_id"),
        )
        .order_by("number")
    )
    games: GameVersions = {}
    for round_ in rounds:
        # A round with no table has one row of NULLs: no game.
        versions = {
            game: version
            for game, version in zip(round_.game_ids or (), round_.game_versions or (), strict=True)
            if game is not None
        }
        round_.games_version = sum(versions.values())
        games[round_.pk] = versions
    return rounds, games
