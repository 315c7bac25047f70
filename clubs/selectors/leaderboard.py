"""A club's leaderboard: its active members by rating (openskill ordinal), highest first.

Read from `Member` alone (the current rating and its count of rated games, both kept by the
ratings service), in one query on the (club, -ordinal) index. Members with no rated game yet come
after the rated ones, by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from clubs.models import Club, Member


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of the leaderboard: a member, their current rating (None until rated) and games."""

    rank: int | None  # 1.. among the rated members; None for a member not rated yet
    member_id: int
    name: str
    mu: float | None
    sigma: float | None
    ordinal: float | None
    games: int  # rated games


def club_leaderboard(club: Club, *, include_retired: bool = False) -> list[LeaderboardRow]:
    """The club's members by ordinal, highest first (ties by name), unrated members after them.

    Retired members are left out unless `include_retired` (the ratings API lists everyone who has a
    rating). One query."""
    members = Member.objects.filter(club=club)
    if not include_retired:
        members = members.filter(retired_at__isnull=True)
    rows = members.order_by(F("ordinal").desc(nulls_last=True), "name_key", "pk").values_list(
        "pk", "name", "mu", "sigma", "ordinal", "rated_games"
    )
    board: list[LeaderboardRow] = []
    rank = 0
    for pk, name, mu, sigma, ordinal, games in rows:
        rank += ordinal is not None
        board.append(
            LeaderboardRow(
                rank=rank if ordinal is not None else None,
                member_id=pk,
                name=name,
                mu=mu,
                sigma=sigma,
                ordinal=ordinal,
                games=games,
            )
        )
    return board
