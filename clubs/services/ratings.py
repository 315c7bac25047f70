"""Members' ratings: openskill's PlackettLuce (defaults) over a club's counted games, in order.

Every counted game with at least two linked members rates them once, with `ranks` = their places
at the table, in the order the games finished (`MemberResult.finished_at`, then the game's id; a
game's members by id). Each `MemberResult` keeps the rating before and after its game and
`Member.mu`/`sigma`/`ordinal`/`rated_games` the current one (null until the first rated game). A
game with one linked member keeps a result for the stats but moves no rating (before = after).

The stored floats are the whole state: recomputing from any game on, starting from the stored
ratings just before it, gives what a full recompute gives, to the last digit (openskill is
deterministic and PostgreSQL's float8 keeps Python's floats exactly).

Writers of a club's ratings serialize on `lock_club_ratings` (a transaction-level advisory lock,
taken last, after any game row a caller holds): see its docstring for why it cannot deadlock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

import psycopg
from django.db import connection, transaction
from django.db.models import Count, Q
from openskill.models import PlackettLuce

from clubs.models import Club, Member, MemberResult

__all__ = ["MODEL", "lock_club_ratings", "recompute_club", "recompute_from"]

#: The one rating model: openskill's PlackettLuce with its default parameters (mu 25, sigma 25/3).
MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

# The advisory lock namespace of club ratings (an arbitrary constant, with the club id as key).
_LOCK_SPACE = 33_001

# (result id, game id, member id, place, mu before, sigma before, mu after, sigma after), in order
Row = tuple[int, int, int, int, float, float, float, float]


def lock_club_ratings(club_id: int) -> None:
    """Serialize the writers of one club's results and ratings until the transaction ends.

    A PostgreSQL transaction-level advisory lock, not the club's row: a club's edits (name,
    visibility, version) never wait for a rating recompute, nor the reverse. Every writer takes it
    as its LAST lock, after the game rows its change holds (a live game's lock, a round's tables'
    games), and holding it takes no game lock: so no cycle can form between writers. It is taken
    before any member or result row is written, so two games sharing members never update those
    rows in opposite orders. A caller that writes members' rows itself (a merge) should take it
    first."""
    if connection.vendor != "postgresql":
        return  # SQLite (development) runs one writer at a time anyway
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_SPACE, club_id])


def recompute_club(club: Club) -> int:
    """Rebuild every result's rating columns of `club` and its members' current ratings, from the
    first counted game on; answers how many games rated (with two or more linked members)."""
    with transaction.atomic():
        lock_club_ratings(club.pk)
        return _recompute(club.pk, None, ())


def recompute_from(club_id: int, finished_at: datetime, game_id: int, members: Iterable[int] = ()) -> int:
    """Recompute the ratings of `club_id` from the game (`finished_at`, `game_id`) on, starting from
    the stored ratings before it; `members` are also brought up to date (those whose results from
    there on were removed). Answers how many games rated from there. In the caller's transaction,
    with `lock_club_ratings` held."""
    return _recompute(club_id, (finished_at, game_id), set(members))


def _recompute(club_id: int, start: tuple[datetime, int] | None, members: Iterable[int]) -> int:
    rows = _results_in_order(club_id, start)
    if start is None:
        touched = set(Member.objects.filter(club_id=club_id).values_list("pk", flat=True))
        state: dict[int, Any] = {}
        rated: dict[int, int] = {}
    else:
        touched = {row[2] for row in rows} | set(members)
        state, rated = _state_before(club_id, start, touched)
    games = _rate_and_write(rows, state, rated)
    _write_members(touched, state, rated)
    return games


def _results_in_order(club_id: int, start: tuple[datetime, int] | None) -> list[Row]:
    """The club's results from `start` on (all with None), in rating order: one query. On
    PostgreSQL read in binary (about a third of the time of parsing 300,000 numbers as text)."""
    results = MemberResult.objects.filter(club_id=club_id)
    if start is not None:
        at, game_id = start
        results = results.filter(Q(finished_at__gt=at) | Q(finished_at=at, game_id__gte=game_id))
    query = results.order_by("finished_at", "game_id", "member_id").values_list(
        "pk", "game_id", "member_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after"
    )
    if connection.vendor != "postgresql":
        return list(query)
    sql, params = query.query.sql_with_params()
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:  # server-side binding: binary rows
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()


def _rate(rows: Sequence[Row], state: dict[int, Any], rated: dict[int, int]) -> tuple[list[tuple], int]:
    """Rate `rows` game by game, updating `state` (member -> openskill rating) and `rated` in
    place; answers the new columns (id, mu before, sigma before, mu after, sigma after) of the
    results whose stored ones differ, and the number of games rated."""
    updates: list[tuple] = []
    games = 0
    rate, fresh = MODEL.rate, MODEL.rating
    for _game_id, grouped in groupby(rows, key=itemgetter(1)):
        table = list(grouped)
        # A new member's rating is a new object: openskill tells teams apart by their objects.
        before = [state.get(row[2]) or fresh() for row in table]
        if len(table) >= 2:
            games += 1
            after = [team[0] for team in rate([[r] for r in before], ranks=[row[3] for row in table])]
            for row in table:
                rated[row[2]] = rated.get(row[2], 0) + 1
        else:
            after = before
        for row, old, new in zip(table, before, after, strict=True):
            state[row[2]] = new
            values = (old.mu, old.sigma, new.mu, new.sigma)
            if values != row[4:]:  # only what changed is written (a rebuild of good data: nothing)
                updates.append((row[0], *values))
    return updates, games


def _state_before(
    club_id: int, start: tuple[datetime, int], members: set[int]
) -> tuple[dict[int, Any], dict[int, int]]:
    """Each member's rating after their last result before `start`, and their rated games then."""
    if not members:
        return {}, {}
    at, game_id = start
    if connection.vendor != "postgresql":
        found = _state_before_portable(club_id, start, members)
    else:
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                SELECT DISTINCT ON (r.member_id) r.member_id, r.mu_after, r.sigma_after,
                       count(*) FILTER (WHERE EXISTS (
                           SELECT 1 FROM {_RESULTS} o
                           WHERE o.game_id = r.game_id AND o.member_id <> r.member_id
                       )) OVER (PARTITION BY r.member_id)
                FROM {_RESULTS} r
                WHERE r.club_id = %s AND r.member_id = ANY(%s) AND (r.finished_at, r.game_id) < (%s, %s)
                ORDER BY r.member_id, r.finished_at DESC, r.game_id DESC
                """,
                [club_id, list(members), at, game_id],
            )
            found = cursor.fetchall()
    ratings = {m: MODEL.rating(mu=mu, sigma=sigma) for m, mu, sigma, _n in found}
    return ratings, {m: n for m, _mu, _sigma, n in found}


def _state_before_portable(
    club_id: int, start: tuple[datetime, int], members: set[int]
) -> list[tuple[int, float, float, int]]:
    """`_state_before`'s rows read through the ORM (SQLite, in development)."""
    at, game_id = start
    before = MemberResult.objects.filter(club_id=club_id, member_id__in=members).filter(
        Q(finished_at__lt=at) | Q(finished_at=at, game_id__lt=game_id)
    )
    shared = set(
        MemberResult.objects.filter(game_id__in=before.values("game_id"))
        .values("game_id")
        .annotate(n=Count("pk"))
        .filter(n__gte=2)
        .values_list("game_id", flat=True)
    )
    found: dict[int, tuple[int, float, float, int]] = {}
    rows = before.order_by("member_id", "finished_at", "game_id")
    for member, mu, sigma, game in rows.values_list("member_id", "mu_after", "sigma_after", "game_id"):
        count = found[member][3] if member in found else 0
        found[member] = (member, mu, sigma, count + (game in shared))
    return list(found.values())


_RESULTS = MemberResult._meta.db_table
_MEMBERS = Member._meta.db_table


#: Results rated between two writes: the database updates one batch while the next is rated.
BATCH_ROWS = 4000

# Parameters in binary (%b): no float printed and parsed again on the way.
_UPDATE_RESULTS = f"""
    UPDATE {_RESULTS} AS r SET mu_before = v.mu_b, sigma_before = v.sigma_b,
        mu_after = v.mu_a, sigma_after = v.sigma_a
    FROM unnest(%b::bigint[], %b::float8[], %b::float8[], %b::float8[], %b::float8[])
        AS v(id, mu_b, sigma_b, mu_a, sigma_a)
    WHERE r.id = v.id
"""


def _rate_and_write(rows: Sequence[Row], state: dict[int, Any], rated: dict[int, int]) -> int:
    """Rate `rows` in order and write the results that changed; answers the games rated.

    PostgreSQL: by batches of whole games, each batch's changes one UPDATE of unnested arrays
    (Django's bulk_update writes a CASE per column and row: several times slower at 40,000 rows),
    sent in pipeline mode, so the server writes a batch while Python rates the next one (the
    write costs about what the rating does: overlapped, a full recompute stays near the bare
    openskill loop, bench/club_ratings.py)."""
    if connection.vendor != "postgresql":
        updates, games = _rate(rows, state, rated)
        _bulk_update_results(updates)
        return games
    games = 0
    connection.ensure_connection()
    raw = connection.connection
    with raw.pipeline(), psycopg.Cursor(raw) as cursor:  # server-side binding: binary parameters
        for batch in _batches(rows):
            updates, rated_here = _rate(batch, state, rated)
            games += rated_here
            if updates:
                cursor.execute(_UPDATE_RESULTS, [list(column) for column in zip(*updates, strict=True)])
    return games


def _batches(rows: Sequence[Row]) -> Iterable[Sequence[Row]]:
    """`rows` cut into batches of about BATCH_ROWS, never inside a game."""
    start = 0
    while start < len(rows):
        end = min(start + BATCH_ROWS, len(rows))
        while end < len(rows) and rows[end][1] == rows[end - 1][1]:
            end += 1
        yield rows[start:end]
        start = end


def _write_members(members: Iterable[int], state: dict[int, Any], rated: dict[int, int]) -> None:
    """Each member's current rating (null until a rated game) and rated games, in one UPDATE. The
    member's `version` (its edits' ETag) does not move: a rating is not an edit of the member."""
    ids = sorted(members)
    if not ids:
        return
    mus: list[float | None] = []
    sigmas: list[float | None] = []
    ordinals: list[float | None] = []
    counts = []
    for member in ids:
        count = rated.get(member, 0)
        counts.append(count)
        if count:
            rating = state[member]
            mus.append(rating.mu)
            sigmas.append(rating.sigma)
            ordinals.append(rating.ordinal())
        else:
            mus.append(None)
            sigmas.append(None)
            ordinals.append(None)
    if connection.vendor != "postgresql":
        fields = ["mu", "sigma", "ordinal", "rated_games"]
        rows = zip(ids, mus, sigmas, ordinals, counts, strict=True)
        Member.objects.bulk_update(
            [Member(pk=pk, **dict(zip(fields, v, strict=True))) for pk, *v in rows], fields
        )
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {_MEMBERS} AS m SET mu = v.mu, sigma = v.sigma, ordinal = v.ordinal, rated_games = v.n
            FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::float8[], %s::int[])
                AS v(id, mu, sigma, ordinal, n)
            WHERE m.id = v.id
            """,
            [ids, mus, sigmas, ordinals, counts],
        )


def _bulk_update_results(updates: Sequence[tuple]) -> None:
    """The results' new ratings written through the ORM (SQLite, in development)."""
    fields = ["mu_before", "sigma_before", "mu_after", "sigma_after"]
    objs = [MemberResult(pk=pk, **dict(zip(fields, values, strict=True))) for pk, *values in updates]
    MemberResult.objects.bulk_update(objs, fields, batch_size=500)
