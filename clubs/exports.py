"""A club's data to take away: its games and its members as CSV or JSON, and one member's games as
BG Stats-style JSON (the app's backup format: `players`, `games`, `plays` with `playerScores`), so
players can keep their plays in the scorekeeping app they know.

The answers are built in a fixed number of queries whatever the number of games. A game's places
are the ones counted for the members' ratings (`MemberResult.place`, tiebreakers applied) where the
game was counted; otherwise (guests, a game still being played) by total, lower first, a shared
total sharing the place, and the game's winners first once it is over. CSV cells are made safe for
spreadsheets (`golfclub.core.spreadsheets`).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import Count

from clubs.models import Club, ClubGame, Member, MemberResult, SeatMember
from golfclub.core.spreadsheets import formula_safe
from scoring import selectors

__all__ = [
    "GAME_COLUMNS",
    "MEMBER_COLUMNS",
    "club_games",
    "club_games_csv",
    "club_members",
    "club_members_csv",
    "member_bgstats",
]

GAME_COLUMNS = ("game", "date", "status", "title", "seat", "player", "member", "total", "place", "winner")
MEMBER_COLUMNS = ("member", "name", "retired", "games", "rated_games", "mu", "sigma", "ordinal")
#: The game every play of the BG Stats file is a play of.
_BGSTATS_GAME = {
    "id": 1,
    "name": "Golf (card game)",
    "highestWins": False,
    "noPoints": False,
    "cooperative": False,
}


def _places(totals: list[int], winners: set[int], finished: bool) -> list[int]:
    """Places by total (lower first, shared totals share), the winners' seats first when finished."""
    places = [1 + sum(1 for other in totals if other < total) for total in totals]
    if finished and winners:
        places = [1 if seat in winners else max(place, len(winners) + 1) for seat, place in enumerate(places)]
    return places


def _games(links: Iterable[ClubGame]) -> list[dict[str, Any]]:
    """Each linked game as a dict: date, status, title and its players in seat order."""
    links = list(links)
    ids = [link.game_id for link in links]
    progress = selectors.games_progress(ids)
    members: dict[tuple[int, int], int] = {
        (game_id, seat): member_id
        for game_id, seat, member_id in SeatMember.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat", "member_id"
        )
    }
    counted: dict[tuple[int, int], int] = {
        (game_id, member_id): place
        for game_id, member_id, place in MemberResult.objects.filter(game_id__in=ids).values_list(
            "game_id", "member_id", "place"
        )
    }
    games = []
    for link in links:
        game = link.game
        seats = sorted(game.seats.all(), key=lambda seat: seat.seat)
        finished = game.status == "finished"
        winner_names = set(game.winners or [])
        winners = {seat.seat for seat in seats if seat.name in winner_names}
        places = _places([seat.total for seat in seats], winners, finished)
        step = progress.get(game.pk)
        played_at = (step.last_hole_at if step and step.last_hole_at else None) or game.created_at
        players = []
        for seat, place in zip(seats, places, strict=True):
            member = members.get((game.pk, seat.seat))
            place = counted.get((game.pk, member), place) if member is not None else place
            players.append(
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "member": member,
                    "total": seat.total,
                    "place": place,
                    "winner": finished and seat.seat in winners,
                }
            )
        games.append(
            {
                "game": game.pk,
                "date": played_at.isoformat(),
                "status": game.status,
                "title": game.title,
                "first_player": selectors.deal_order(game.first_dealer, len(seats), 1)[1] if seats else None,
                "players": players,
                "winners": [player["name"] for player in players if player["winner"]],
            }
        )
    return games


def club_games(club: Club) -> list[dict[str, Any]]:
    """Every game of `club`, oldest first, with its players (member ids, totals, places, winners)."""
    links = (
        ClubGame.objects.filter(club=club)
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("game__created_at", "game_id")
    )
    return _games(links)


def _csv(columns: tuple[str, ...], rows: Iterable[Iterable[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if cell is None else formula_safe(cell) for cell in row])
    return out.getvalue()


def club_games_csv(club: Club) -> str:
    """The club's games as CSV, one line per player of each game (`GAME_COLUMNS`)."""
    return _csv(
        GAME_COLUMNS,
        (
            (
                game["game"],
                game["date"],
                game["status"],
                game["title"],
                player["seat"] + 1,
                player["name"],
                player["member"],
                player["total"],
                player["place"],
                "yes" if player["winner"] else "",
            )
            for game in club_games(club)
            for player in game["players"]
        ),
    )


def club_members(club: Club) -> list[dict[str, Any]]:
    """Every member of `club` by name: games counted, rating (null before their first rated game)."""
    members = Member.objects.filter(club=club).annotate(games=Count("results")).order_by("name_key", "pk")
    return [
        {
            "member": member.pk,
            "name": member.name,
            "retired": member.retired_at is not None,
            "games": member.games,
            "rated_games": member.rated_games,
            "mu": member.mu,
            "sigma": member.sigma,
            "ordinal": member.ordinal,
        }
        for member in members
    ]


def club_members_csv(club: Club) -> str:
    """The club's members as CSV (`MEMBER_COLUMNS`)."""
    return _csv(MEMBER_COLUMNS, ([row[column] for column in MEMBER_COLUMNS] for row in club_members(club)))


def member_bgstats(member: Member) -> dict[str, Any]:
    """The finished games `member` played, as a BG Stats-style export: `players` (id, name),
    `games` (this one game, lowest score wins), `plays` (`playDate`, `gameRefId`, `playerScores`
    with `playerRefId`, `score`, `winner`, `rank`, `seatOrder`, `startPlayer`)."""
    links = (
        ClubGame.objects.filter(
            club_id=member.club_id, game__seat_members__member=member, game__status="finished"
        )
        .select_related("game")
        .prefetch_related("game__seats")
        .order_by("game__created_at", "game_id")
    )
    games = _games(links)
    refs: dict[tuple[str, Any], int] = defaultdict(lambda: len(refs) + 1)
    players: dict[int, dict[str, Any]] = {}
    plays = []
    for game in games:
        scores = []
        for player in game["players"]:
            key = ("member", player["member"]) if player["member"] is not None else ("guest", player["name"])
            ref = refs[key]
            players.setdefault(
                ref, {"id": ref, "name": player["name"], "isAnonymous": player["member"] is None}
            )
            scores.append(
                {
                    "playerRefId": ref,
                    "score": str(player["total"]),
                    "winner": player["winner"],
                    "rank": player["place"],
                    "seatOrder": player["seat"] + 1,
                    "startPlayer": player["seat"] == game["first_player"],
                    "newPlayer": False,
                }
            )
        plays.append(
            {
                "playDate": game["date"][:19].replace("T", " "),
                "gameRefId": _BGSTATS_GAME["id"],
                "ignored": False,
                "manualWinner": False,
                "board": game["title"],
                "playerScores": scores,
            }
        )
    return {"players": list(players.values()), "games": [_BGSTATS_GAME], "plays": plays, "locations": []}
