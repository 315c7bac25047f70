"""The one lock order of every tournament write, in one place.

A write that locks several rows takes them in this order, each level in id order:

1. the tournament row (`lock_tournament`);
2. its round (`lock_round`, `lock_round_by_pk`);
3. the round's tables (`lock_tables`, `lock_table`);
4. their games, through `scoring.services.lock_games` (scoring locks its own rows, in id order);
5. anything else (players, penalties, rulings, calls, the event's log).

A write may skip a level it does not need (extending a table's clock locks no game), but it never
locks a row of a level above one it already holds, and never several rows of a level in one query
with rows of another (a `select_for_update()` over a join locks its rows in the plan's order, not
this one). Two writes that follow the order wait for each other instead of deadlocking: the
director finalizing a round and its tables confirming at once are taken one after the other.
The hole path of `scoring` locks only its game. What the tournament writes with a hole change
(`tournaments.services.tables.follow_table_change`, in the hole's transaction) locks no row: the
event's versions are read from the games' versions (`tournaments.live_versions`). Deleting the
event removes the tournament's row, which that log row's reference check waits for: the delete
locks the games (level 4) before it deletes anything (`events.delete_tournament`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring import services as scoring_services
from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament
from tournaments.models import Round, Table, Tournament


def _in_transaction() -> None:
    # A lock outside a transaction ends with its statement: a caller's mistake, said loudly.
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("Tournament rows are locked inside the caller's transaction.atomic().")


def lock_tournament(tournament: Tournament | int) -> Tournament:
    """Level 1: the tournament's row, locked until the transaction ends."""
    _in_transaction()
    pk = tournament if isinstance(tournament, int) else tournament.pk
    # FOR NO KEY UPDATE: the tournament's writes still wait for each other, but a row that only
    # refers to the tournament (the log entry a finalized round's correction writes inside the
    # hole's transaction, holding the game's lock) is not kept waiting by a write that then waits
    # for that game (the hole's side of the lock order would otherwise be inverted).
    return Tournament.objects.select_for_update(no_key=True).get(pk=pk)


def lock_round(tournament: Tournament, number: Any) -> Round:
    """Level 2: round `number` of `tournament` (locked first by the caller), or
    `NotFoundInTournament` naming the round."""
    _in_transaction()
    ok = isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**15
    found = (
        Round.objects.select_for_update().filter(tournament=tournament, number=number).first() if ok else None
    )
    if found is None:
        raise NotFoundInTournament(
            Problem("round", _("No round %(n)s in this tournament.") % {"n": str(number)[:12]})
        )
    found.tournament = tournament
    return found


def lock_round_by_pk(round_id: int, tournament: Tournament) -> Round:
    """Level 2: the round `round_id` of `tournament` (locked first by the caller)."""
    _in_transaction()
    found = Round.objects.select_for_update().get(pk=round_id, tournament=tournament)
    found.tournament = tournament
    return found


def lock_tables(round_: Round, *, ids: Iterable[int] | None = None) -> list[Table]:
    """Level 3: the tables of `round_` (locked first by the caller), or those of `ids`, in id
    order; answered by table number."""
    _in_transaction()
    query = Table.objects.select_for_update(of=("self",)).filter(round=round_)
    if ids is not None:
        query = query.filter(pk__in=list(ids))
    tables = list(query.order_by("pk"))
    for table in tables:
        table.round = round_
    return sorted(tables, key=lambda t: t.number)


def lock_table(tournament: Tournament, table_id: Any) -> Table | None:
    """Levels 2 and 3: the table `table_id` of `tournament` (locked first by the caller), its
    round locked before it; None when the tournament has no such table."""
    pk = table_id if isinstance(table_id, int) and not isinstance(table_id, bool) else None
    row = (
        Table.objects.filter(round__tournament=tournament, pk=pk).values_list("round_id", flat=True).first()
        if pk is not None and 0 < pk < 2**63
        else None
    )
    if row is None:
        return None
    round_ = lock_round_by_pk(row, tournament)
    return lock_tables(round_, ids=[pk])[0]


def lock_table_of_game(game_id: int, *, with_game: bool = True) -> Table | None:
    """Levels 1 to 4 for one table: the tournament, the round and the table whose game is
    `game_id`, then (with `with_game`) the game itself; None when the game is not a table's.

    The table's round and tournament never change, so they are read before locking."""
    _in_transaction()
    row = Table.objects.filter(game_id=game_id).values_list("pk", "round_id", "round__tournament_id").first()
    if row is None:
        return None
    table_id, round_id, tournament_id = row
    try:
        tournament = lock_tournament(tournament_id)
        round_ = lock_round_by_pk(round_id, tournament)
    except (Tournament.DoesNotExist, Round.DoesNotExist):  # the event was deleted meanwhile
        return None
    tables = lock_tables(round_, ids=[table_id])
    if not tables:
        return None
    table = tables[0]
    if with_game:
        table.game = scoring_services.lock_games([game_id])[game_id]
    return table
