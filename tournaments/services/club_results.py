"""A club's tournament: its finalized rounds' tables count in the club's members' results and
ratings (`clubs.services.results`), each table's game for its entrants linked to members
(`Entrant.member`), finished when its round was finalized (`Round.finalized_at`).

Called by the round's services in their transactions: `finalize_round` counts the round's games;
a director's correction of a finalized round's game (`follow_table_change`) recounts that game
and recomputes the ratings from it on. `club_tables` answers a club's counted tournament games for
`recount_club` (registered in `TournamentsConfig.ready()`). Rounds cannot be reopened once
finalized, so nothing here uncounts a round.
"""

from __future__ import annotations

from collections.abc import Iterable

from clubs.services.results import CountedGame, count_games
from tournaments.models import Round, RoundStatus, TableSeat

__all__ = ["club_tables", "count_finalized_round", "count_tournament", "recount_table_game"]


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


def count_tournament(tournament_id: int, club_id: int) -> None:
    """Recount every finalized round of a tournament in `club_id` (its entrants' links changed)."""
    rows = _seats(round__tournament_id=tournament_id, round__status=RoundStatus.FINALIZED)
    games = _counted_games(((g, s, m) for g, s, m, _at in rows), {g: at for g, _s, _m, at in rows})
    count_games(club_id, games)


def club_tables(club_id: int) -> list[CountedGame]:
    """The counted tournament games of a club: its tournaments' finalized rounds' tables."""
    rows = _seats(round__tournament__club_id=club_id, round__status=RoundStatus.FINALIZED)
    return _counted_games(((g, s, m) for g, s, m, _at in rows), {g: at for g, _s, _m, at in rows})
