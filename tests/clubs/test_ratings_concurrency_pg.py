"""Club games sharing members finishing at the same moment, on PostgreSQL with real connections
(one thread each): the ratings writers queue on the club's ratings lock, taken after each game's
own row, so neither waits for the other's game and no deadlock can form; the ratings end as a
rebuild from scratch gives them, whichever finished first."""

from __future__ import annotations

import threading
from typing import Any

from django.db import connections

from clubs.models import Member, MemberResult
from clubs.services.results import recount_club
from scoring import services
from scoring.models import Game
from tests.clubs.factories import club_game, make_club, make_members
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS

pytestmark = NEEDS_POSTGRES_ROW_LOCKS

HOME3 = {"preset": "basic", "holes": 3}


def everything(club) -> tuple[list, list]:
    fields = [f.attname for f in MemberResult._meta.concrete_fields if f.attname != "id"]
    return (
        sorted(MemberResult.objects.filter(club=club).values_list(*fields)),
        list(Member.objects.filter(club=club).order_by("pk").values_list()),
    )


def test_games_sharing_members_finishing_together_rate_as_a_rebuild():
    club = make_club()
    ann, bob, cy, dan = make_members(club, "Ann", "Bob", "Cy", "Dan")
    # Earlier games, so that each finish recomputes across shared members' histories.
    for seats in ([ann, bob, cy], [dan, cy, bob], [bob, ann, dan]):
        club_game(club, seats, [{s.name: i + len(s.name) for i, s in enumerate(seats)}] * 3, ruleset=HOME3)
    tables = [[ann, bob, cy, dan], [dan, cy, bob, ann], [cy, ann, dan, bob]]
    games = []
    for seats in tables:  # two holes of three each: the third finishes them
        games.append(
            club_game(club, seats, [{s.name: (i * 3) % 5 for i, s in enumerate(seats)}] * 2, ruleset=HOME3)
        )
    start = threading.Barrier(len(games))
    errors: list[Any] = []

    def finish(game_id: int, seats: list) -> None:
        try:
            start.wait()
            services.hole_record(
                Game.objects.get(pk=game_id), entries={s.name: i for i, s in enumerate(seats)}, ender=None
            )
        except Exception as error:  # the test reads it
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=finish, args=(g.pk, seats)) for g, seats in zip(games, tables, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert MemberResult.objects.filter(game__in=games).count() == 12
    counted = everything(club)
    recount_club(club)
    assert everything(club) == counted
