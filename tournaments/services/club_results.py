"""A club's tournament: its finalized rounds' tables count in the club's members' results and
ratings (`clubs.services.results`), each table's game for its entrants linked to members
(`Entrant.member`), finished when its round was finalized (`Round.finalized_at`).

Called by the round's services in their transactions: `finalize_round` counts the round's games;
a director's correction of a finalized round's game (`follow_table_change`) recounts that game
and recomputes the ratings from it on; `recount_tournament` is for the services that change the
entrants' links or the tournament's club once rounds are finalized. `club_tables` answers a
club's counted tournament games for `recount_club` (through `TableManager.games_followed_by`).
Rounds cannot be reopened once finalized, so nothing here uncounts a round.
"""

from __future__ import annotations

from collections.abc import Iterable

from clubs.services.results import CountedGame, count_games, lock_games, uncount_games
from tournaments.models import Round, RoundStatus, TableSeat

__all__ = ["club_tables", "count_finalized_round", "recount_table_game", "recount_tournament"]


def _counted_games(seats: Iterable[tuple[int, int, int | None]], finished_at: dict) -> list[CountedGame]:
    """(game id, seat, member id) rows -> each table's game with its linked seats."""
    members: dict[int, dict[int, int]] = {}
    for game_id, seat, member_id in seats:
        linked = members.setdefault(game_id, {})
        if member_id is not None:
            linked[seat] = member_id
    return [CountedGame(game_id, finished_at[game_id], linked) for game_id, linked in members.items()]


def _seats(**lookup: object) -> list[tuple[int, int, int | None, object]]:
    return list(
        TableSeat.objects.filter(**lookup)
        .order_by()
        .values_list("table__game_id", "seat", "entrant__member_id", "round__finalized_at")
    )


def count_finalized_round(round_: Round, club_id: int | None) -> None:
    """Count the games of `round_`, just finalized, in the club `club_id` (nothing without a club).
    In the finalizing transaction, its games' rows locked."""
    if club_id is None:
        return
    rows = _seats(round=round_)
    games = _counted_games(((g, s, m) for g, s, m, _at in rows), {g: round_.finalized_at for g, *_ in rows})
    count_games(club_id, games)


def recount_table_game(club_id: int, game_id: int, finalized_at: object, *, without_hole: int | None) -> None:
    """Recount one finalized round's game after a change of its holes (`without_hole`: a hole the
    change deletes), and the ratings from it on. In the change's transaction."""
    rows = _seats(table__game_id=game_id)
    count_games(
        club_id,
        _counted_games(((g, s, m) for g, s, m, _at in rows), {game_id: finalized_at}),
        without_hole=without_hole,
    )


def recount_tournament(
    tournament_id: int, club_id: int | None, *, previous_club_id: int | None = None
) -> None:
    """Recount every finalized round of a tournament in its club `club_id` after its entrants'
    links to members changed (a director confirmed or removed one), or after the tournament's
    club changed (`previous_club_id`: its games leave that club's results). In the caller's
    transaction; each club's ratings are recomputed from the earliest game touched."""
    rows = _seats(round__tournament_id=tournament_id, round__status=RoundStatus.FINALIZED)
    if previous_club_id is not None and previous_club_id != club_id:
        uncount_games(previous_club_id, {game_id for game_id, *_rest in rows})
    if club_id is not None:
        games = _counted_games(((g, s, m) for g, s, m, _at in rows), {g: at for g, _s, _m, at in rows})
        lock_games(game.game_id for game in games)  # before the ratings lock (see there)
        count_games(club_id, games)


def club_tables(club_id: int) -> list[CountedGame]:
    """The counted tournament games of a club: its tournaments' finalized rounds' tables."""
    rows = _seats(round__tournament__club_id=club_id, round__status=RoundStatus.FINALIZED)
    return _counted_games(((g, s, m) for g, s, m, _at in rows), {g: at for g, _s, _m, at in rows})
