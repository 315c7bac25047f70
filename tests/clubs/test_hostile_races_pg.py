"""Hostile races on PostgreSQL with real connections (one thread each): a member merge while a club
game of the duplicate finishes, and a correction of an old game while a new one finishes. After
each, the results and ratings are what a rebuild from the games gives (`recount_club`, as
`manage.py recompute_ratings`): nothing lost, nothing counted twice."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connections, transaction

from clubs.models import Member, MemberResult
from clubs.services.members import merge_members
from clubs.services.results import recount_club
from scoring import services
from scoring.models import Game
from tests.clubs.factories import club_game, make_club, make_members
from tests.clubs.test_ratings_concurrency_pg import everything
from tests.games.test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS

pytestmark = NEEDS_POSTGRES_ROW_LOCKS

HOME3 = {"preset": "basic", "holes": 3}


def _run_together(*jobs: Callable[[], None]) -> list[Any]:
    errors: list[Any] = []

    def run(job: Callable[[], None]) -> None:
        try:
            job()
        except Exception as error:  # the test reads it
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return errors


def _finish(game_id: int, names: list[str]) -> Callable[[], None]:
    def job() -> None:
        services.hole_record(
            Game.objects.get(pk=game_id), entries={n: i for i, n in enumerate(names)}, ender=None
        )

    return job


def test_a_merge_while_a_game_of_the_duplicate_finishes_loses_no_result():
    club = make_club()
    ann, bob, cy, ann_again = make_members(club, "Ann", "Bob", "Cy", "Ann B")
    club_game(club, [ann, bob, cy], [{"Ann": 1, "Bob": 2, "Cy": 3}] * 3, ruleset=HOME3)
    playing = club_game(club, [ann_again, bob, cy], [{"Ann B": 2, "Bob": 1, "Cy": 3}] * 2, ruleset=HOME3)
    start = threading.Barrier(2)

    def merge() -> None:
        start.wait()
        merge_members(club, Member.objects.get(pk=ann.pk), Member.objects.get(pk=ann_again.pk))

    def finish() -> None:
        start.wait()
        _finish(playing.pk, ["Ann B", "Bob", "Cy"])()

    assert _run_together(merge, finish) == []
    assert not Member.objects.filter(pk=ann_again.pk).exists()
    assert set(MemberResult.objects.filter(game=playing).values_list("member_id", flat=True)) == {
        ann.pk,
        bob.pk,
        cy.pk,
    }
    counted = everything(club)
    recount_club(club)
    assert everything(club) == counted


def test_a_correction_of_an_old_game_while_new_ones_finish_rates_as_a_rebuild():
    club = make_club()
    ann, bob, cy, dan = make_members(club, "Ann", "Bob", "Cy", "Dan")
    old = club_game(club, [ann, bob, cy], [{"Ann": 1, "Bob": 2, "Cy": 3}] * 3, ruleset=HOME3)
    club_game(club, [dan, cy, bob], [{"Dan": 2, "Cy": 1, "Bob": 3}] * 3, ruleset=HOME3)
    new = [
        club_game(club, seats, [{s.name: i for i, s in enumerate(seats)}] * 2, ruleset=HOME3)
        for seats in ([ann, bob, cy, dan], [dan, cy, bob, ann])
    ]
    start = threading.Barrier(3)

    def correct() -> None:
        start.wait()
        services.hole_update(
            Game.objects.get(pk=old.pk),
            1,
            expected_version=None,
            entries={"Ann": 9, "Bob": 0, "Cy": 3},
            ender=None,
        )

    def finish(game: Game) -> Callable[[], None]:
        names = list(game.seats.order_by("seat").values_list("name", flat=True))

        def job() -> None:
            start.wait()
            _finish(game.pk, names)()

        return job

    assert _run_together(correct, *(finish(game) for game in new)) == []
    assert MemberResult.objects.filter(game__in=new).count() == 8
    assert MemberResult.objects.get(game=old, member=bob).place == 1
    counted = everything(club)
    recount_club(club)
    assert everything(club) == counted


def test_a_merge_while_an_old_game_is_corrected_does_not_deadlock():
    """The merge rewrites every counted game's results: at its commit the results' foreign keys
    check each game's row, which a correction holds while it waits for the club's ratings lock.
    The merge takes the counted games' rows first, as every other ratings writer does."""
    club = make_club()
    ann, bob, cy, ann_again = make_members(club, "Ann", "Bob", "Cy", "Ann B")
    old = club_game(club, [ann, bob, cy], [{"Ann": 1, "Bob": 2, "Cy": 3}] * 3, ruleset=HOME3)
    club_game(club, [ann_again, bob, cy], [{"Ann B": 2, "Bob": 1, "Cy": 3}] * 3, ruleset=HOME3)
    correcting = threading.Event()

    def correct() -> None:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=old.pk)  # the correction is under way
            correcting.set()
            time.sleep(1.0)
            services.hole_update(
                game, 1, expected_version=None, entries={"Ann": 9, "Bob": 0, "Cy": 3}, ender=None
            )

    def merge() -> None:
        correcting.wait(10)
        merge_members(club, Member.objects.get(pk=ann.pk), Member.objects.get(pk=ann_again.pk))

    assert _run_together(correct, merge) == []
    assert MemberResult.objects.get(game=old, member=bob).place == 1
    assert MemberResult.objects.filter(club=club, member=ann).count() == 2
    counted = everything(club)
    recount_club(club)
    assert everything(club) == counted


def test_linking_a_player_while_a_finalized_table_is_corrected_does_not_deadlock():
    """Linking a player recounts the tournament's finalized tables: their games' rows are taken
    before the club's ratings lock, as a correction of one of them takes them."""
    import random

    from tests.clubs.test_ratings_tournament import DIRECTOR, play_and_finalize
    from tests.tournaments.helpers import event, user
    from tournaments.models import Entrant, Table
    from tournaments.services.club_links import link_entrants

    club = make_club(owner=user("dora"))  # the tournament's director
    members = make_members(club, "P01", "P02", "P03", "P04")
    tournament = event(8, rounds=1, holes=2)
    tournament.club = club
    tournament.save(update_fields=["club"])
    for member in members[:3]:
        Entrant.objects.filter(tournament=tournament, name=member.name).update(member=member)
    played: dict = {}
    first = play_and_finalize(tournament, random.Random(5), played)
    table_game = Table.objects.filter(round=first).order_by("pk").first().game
    scores, _playoff = played[table_game.pk]
    p04 = Entrant.objects.get(tournament=tournament, name="P04")
    correcting = threading.Event()

    def correct() -> None:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=table_game.pk)
            correcting.set()
            time.sleep(1.0)
            entries = {name: scores[name][0] + 1 for name in scores}
            services.hole_update(
                game, 1, expected_version=None, entries=entries, ender=None, capabilities=DIRECTOR, reason="x"
            )

    def link() -> None:
        correcting.wait(10)
        link_entrants(tournament, {p04.pk: members[3].pk})

    assert _run_together(correct, link) == []
    counted = everything(club)
    recount_club(club)
    assert everything(club) == counted
