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

from django.db import connection, transaction
from django.db.models import Q
from openskill.models import PlackettLuce

from clubs.models import Club, Member, MemberResult

__all__ = ["MODEL", "lock_club_ratings", "recompute_club", "recompute_from"]

#: The one rating model: openskill's PlackettLuce with its default parameters (mu 25, sigma 25/3).
MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma

# The advisory lock namespace of club ratings (an arbitrary constant, with the club id as key).
_LOCK_SPACE = 33_001

Rating = tuple[float, float]  # (mu, sigma)
Row = tuple[int, int, int, int]  # (result id, game id, member id, place) in rating order


def lock_club_ratings(club_id: int) -> None:
    """Serialize the writers of one club's results and ratings until the transaction ends.

    A PostgreSQL transaction-level advisory lock, not the club's row: a club's edits (name,
    visibility, version) never wait for a rating recompute, nor the reverse. Every writer takes it
    as its LAST lock, after the game rows its change holds (a live game's lock, a round's tables'
    games), and holding it takes no game lock: so no cycle can form between writers. It is taken
    before any member or result row is written, so two games sharing members never update those
    rows in opposite orders. A caller that writes members' rows itself (a merge) should take it
    first."""
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
    results = MemberResult.objects.filter(club_id=club_id)
    if start is not None:
        at, game_id = start
        results = results.filter(Q(finished_at__gt=at) | Q(finished_at=at, game_id__gte=game_id))
    rows: list[Row] = list(
        results.order_by("finished_at", "game_id", "member_id").values_list(
            "pk", "game_id", "member_id", "place"
        )
    )
    if start is None:
        touched = set(Member.objects.filter(club_id=club_id).values_list("pk", flat=True))
        state: dict[int, Rating] = {}
        rated: dict[int, int] = {}
    else:
        touched = {row[2] for row in rows} | set(members)
        state, rated = _state_before(club_id, start, touched)
    updates, games = _rate(rows, state, rated)
    _write_results(updates)
    _write_members(touched, state, rated)
    return games


def _rate(rows: Sequence[Row], state: dict[int, Rating], rated: dict[int, int]) -> tuple[list[tuple], int]:
    """Rate `rows` game by game, updating `state` and `rated` in place; answers the results' new
    columns (id, mu before, sigma before, mu after, sigma after) and the number of games rated."""
    updates: list[tuple] = []
    games = 0
    rating = MODEL.rating
    default = (DEFAULT_MU, DEFAULT_SIGMA)
    start = 0
    while start < len(rows):
        end = start + 1
        game_id = rows[start][1]
        while end < len(rows) and rows[end][1] == game_id:
            end += 1
        table = rows[start:end]
        before = [state.get(row[2], default) for row in table]
        if len(table) >= 2:
            games += 1
            teams = MODEL.rate(
                [[rating(mu=mu, sigma=sigma)] for mu, sigma in before], ranks=[r[3] for r in table]
            )
            after = [(team[0].mu, team[0].sigma) for team in teams]
            for row in table:
                rated[row[2]] = rated.get(row[2], 0) + 1
        else:
            after = before
        for row, old, new in zip(table, before, after, strict=True):
            state[row[2]] = new
            updates.append((row[0], old[0], old[1], new[0], new[1]))
        start = end
    return updates, games


def _state_before(
    club_id: int, start: tuple[datetime, int], members: set[int]
) -> tuple[dict[int, Rating], dict[int, int]]:
    """Each member's rating after their last result before `start`, and their rated games then."""
    if not members:
        return {}, {}
    at, game_id = start
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT DISTINCT ON (r.member_id) r.member_id, r.mu_after, r.sigma_after,
                   count(*) FILTER (WHERE EXISTS (
                       SELECT 1 FROM {_RESULTS} o WHERE o.game_id = r.game_id AND o.member_id <> r.member_id
                   )) OVER (PARTITION BY r.member_id)
            FROM {_RESULTS} r
            WHERE r.club_id = %s AND r.member_id = ANY(%s) AND (r.finished_at, r.game_id) < (%s, %s)
            ORDER BY r.member_id, r.finished_at DESC, r.game_id DESC
            """,
            [club_id, list(members), at, game_id],
        )
        found = cursor.fetchall()
    return {m: (mu, sigma) for m, mu, sigma, _n in found}, {m: n for m, _mu, _sigma, n in found}


_RESULTS = MemberResult._meta.db_table
_MEMBERS = Member._meta.db_table


def _write_results(updates: Sequence[tuple]) -> None:
    """One UPDATE for every result (arrays unnested): Django's bulk_update writes a CASE per column
    and row, several times slower at 40,000 rows (bench/club_ratings.py)."""
    if not updates:
        return
    ids, mu_b, sigma_b, mu_a, sigma_a = (list(column) for column in zip(*updates, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {_RESULTS} AS r SET mu_before = v.mu_b, sigma_before = v.sigma_b,
                mu_after = v.mu_a, sigma_after = v.sigma_a
            FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::float8[], %s::float8[])
                AS v(id, mu_b, sigma_b, mu_a, sigma_a)
            WHERE r.id = v.id
            """,
            [ids, mu_b, sigma_b, mu_a, sigma_a],
        )


def _write_members(members: Iterable[int], state: dict[int, Rating], rated: dict[int, int]) -> None:
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
        mu, sigma = state.get(member, (DEFAULT_MU, DEFAULT_SIGMA))
        counts.append(count)
        if count:
            mus.append(mu)
            sigmas.append(sigma)
            ordinals.append(MODEL.rating(mu=mu, sigma=sigma).ordinal())
        else:
            mus.append(None)
            sigmas.append(None)
            ordinals.append(None)
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
