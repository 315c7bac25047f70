"""Members' results of a club's counted games, written from the games as they stand.

A game counts for a club once it is over: a club's live game when it finishes (`ClubGame`, its
seats' members in `SeatMember`), a tournament table's game when its round is finalized (the
tournament's club, its entrants' members; the tournament's game manager answers where those links
are: `GameManager.games_followed_by(CLUB_GAME, club_id)`). Each linked member of a counted game gets
a `MemberResult`: the place (the game's final standing with the ruleset's tiebreakers, over the
whole table, guests included; players still tied share it), total points, holes played, holes with
the table's lowest score, best hole, and the ratings around it (`clubs.services.ratings`), rewritten
from that game on whenever one changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction

from clubs.models import CLUB_GAME, Club, ClubGame, Member, MemberResult, SeatMember
from clubs.services.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    lock_club_ratings,
    recompute_club,
    recompute_from,
)
from scoring.game_managers import game_managers
from scoring.selectors.final_places import FinalPlaces, final_places

__all__ = [
    "CountedGame",
    "count_games",
    "live_game_links",
    "lock_counted_games",
    "lock_games",
    "recount_club",
    "uncount_games",
]


@dataclass(frozen=True, slots=True)
class CountedGame:
    """A game that counts for a club: when it finished (None: keep the time already counted) and
    which member played each linked seat (seat index -> member id)."""

    game_id: int
    finished_at: datetime | None
    members: Mapping[int, int]


def live_game_links(game_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """The linked seats of club live games: game id -> {seat index: member id} (one query)."""
    links: dict[int, dict[int, int]] = {}
    for game_id, seat, member_id in SeatMember.objects.filter(game_id__in=list(game_ids)).values_list(
        "game_id", "seat", "member_id"
    ):
        links.setdefault(game_id, {})[seat] = member_id
    return links


def count_games(club_id: int, games: Iterable[CountedGame], *, without_hole: int | None = None) -> None:
    """(Re)write the results of `games` for `club_id` from the games as they stand, then recompute the
    ratings from the earliest of them on. In the caller's transaction (the change that made them
    count or changed them). `without_hole`: the id of a hole that change deletes, left out."""
    counted = {game.game_id: game for game in games}
    if not counted:
        return
    with transaction.atomic():
        lock_club_ratings(club_id)
        old = _counted_before(club_id, counted)
        standings = final_places(counted, without_hole=without_hole)
        ours = _members_of(club_id, counted.values())
        rows = []
        for game_id, game in counted.items():
            standing = standings.get(game_id)
            if standing is None:
                continue
            at = game.finished_at or old.get(game_id, (standing.updated_at, set()))[0]
            linked = {seat: member for seat, member in game.members.items() if member in ours}
            rows += _results(club_id, game_id, at, standing, linked)
        MemberResult.objects.filter(club_id=club_id, game_id__in=list(counted)).delete()
        MemberResult.objects.bulk_create(rows)
        _recompute_from_earliest(club_id, [(r.finished_at, r.game_id) for r in rows], old)


def uncount_games(club_id: int, game_ids: Iterable[int]) -> None:
    """Remove the results of `game_ids` (a game reopened) and recompute the ratings from the
    earliest of them on. In the caller's transaction."""
    ids = list(game_ids)
    with transaction.atomic():
        lock_club_ratings(club_id)
        old = _counted_before(club_id, ids)
        if old:
            MemberResult.objects.filter(club_id=club_id, game_id__in=ids).delete()
            _recompute_from_earliest(club_id, [], old)


def lock_games(game_ids: Iterable[int] | None = None, *, club_id: int | None = None) -> None:
    """Share-lock the rows of `game_ids` (or of every game of the club `club_id`: its live games
    and every game counted for it), in id order, until the transaction ends.

    A writer that rewrites the results of games it does not hold (a recount, a member merge, a
    tournament's links) takes it BEFORE the ratings lock: the results' foreign keys check each
    game's row at commit, and a change to one of those games holds its row while it waits for
    the ratings lock, so taken later the two would wait on each other (a deadlock)."""
    if connection.vendor != "postgresql":
        return  # SQLite (development) runs one writer at a time anyway
    games = ClubGame._meta.get_field("game").related_model._meta.db_table
    if club_id is not None:
        which = (
            f"SELECT game_id FROM {ClubGame._meta.db_table} WHERE club_id = %s "
            f"UNION SELECT game_id FROM {MemberResult._meta.db_table} WHERE club_id = %s"
        )
        params: list[Any] = [club_id, club_id]
    else:
        which, params = "SELECT unnest(%s::bigint[])", [sorted(set(game_ids or ()))]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id FROM {games} WHERE id IN ({which}) ORDER BY id FOR KEY SHARE", params)


def lock_counted_games(club_id: int) -> None:
    """`lock_games` of every game of the club (see there)."""
    lock_games(club_id=club_id)


def recount_club(club: Club) -> int:
    """Rewrite the results of every counted game of `club` from the games as they stand (its live
    games that are over, and the games other apps' managers count for it: a tournament's finalized
    tables), then recompute every rating; answers
    how many games rated. A live game keeps the time it was first counted."""
    with transaction.atomic():
        lock_counted_games(club.pk)
        lock_club_ratings(club.pk)
        live_ids = list(ClubGame.objects.filter(club=club).values_list("game_id", flat=True))
        links = live_game_links(live_ids)
        games = [CountedGame(game_id, None, links.get(game_id, {})) for game_id in live_ids]
        for manager in game_managers().values():  # a club's tournaments' finalized tables
            games += list(manager.games_followed_by(CLUB_GAME, club.pk))
        counted = {game.game_id: game for game in games}
        old = _counted_before(club.pk, counted)
        standings = final_places(counted)
        ours = _members_of(club.pk, counted.values())
        rows = []
        for game_id, game in counted.items():
            standing = standings.get(game_id)
            if standing is None or (game.finished_at is None and not standing.finished):
                continue  # a live game not over does not count
            at = game.finished_at or old.get(game_id, (standing.updated_at, set()))[0]
            linked = {seat: member for seat, member in game.members.items() if member in ours}
            rows += _results(club.pk, game_id, at, standing, linked)
        MemberResult.objects.filter(club=club).delete()
        MemberResult.objects.bulk_create(rows, batch_size=5000)
        return recompute_club(club)


def _members_of(club_id: int, games: Iterable[CountedGame]) -> set[int]:
    """Which of the games' linked members belong to the club (a link left from another club, a
    tournament moved to this one, counts nobody)."""
    linked = {member for game in games for member in game.members.values()}
    return set(Member.objects.filter(club_id=club_id, pk__in=linked).values_list("pk", flat=True))


def _counted_before(club_id: int, game_ids: Iterable[int]) -> dict[int, tuple[datetime, set[int]]]:
    """The games' results as stored: game id -> (finished at, members)."""
    old: dict[int, tuple[datetime, set[int]]] = {}
    for game_id, at, member_id in MemberResult.objects.filter(
        club_id=club_id, game_id__in=list(game_ids)
    ).values_list("game_id", "finished_at", "member_id"):
        old.setdefault(game_id, (at, set()))[1].add(member_id)
    return old


def _results(
    club_id: int, game_id: int, at: datetime, standing: FinalPlaces, members: Mapping[int, int]
) -> list[MemberResult]:
    """The results of one game's linked seats (ratings filled in by the recompute)."""
    return [
        MemberResult(
            club_id=club_id,
            member_id=member_id,
            game_id=game_id,
            finished_at=at,
            players=len(standing.seats),
            place=record.place,
            total_points=record.total_points,
            holes_played=record.holes_played,
            low_hole_score=record.low_hole_score,
            best_hole_score=record.best_hole_score,
            mu_before=DEFAULT_MU,
            sigma_before=DEFAULT_SIGMA,
            mu_after=DEFAULT_MU,
            sigma_after=DEFAULT_SIGMA,
        )
        for seat, member_id in sorted(members.items())
        if (record := standing.seats.get(seat)) is not None
    ]


def _recompute_from_earliest(
    club_id: int, keys: list[tuple[datetime, int]], old: Mapping[int, tuple[datetime, set[int]]]
) -> None:
    """Recompute from the earliest game written or removed; members whose results went are kept
    up to date too."""
    keys = keys + [(at, game_id) for game_id, (at, _members) in old.items()]
    if not keys:
        return
    at, game_id = min(keys)
    removed = {member for _at, members in old.values() for member in members}
    recompute_from(club_id, at, game_id, removed)
