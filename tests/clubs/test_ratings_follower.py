"""A club game's changes move its members' results and ratings in the change's transaction: a game
counts when it finishes, stops counting when reopened, and a hole changed in a counted game
recomputes the ratings from that game on (equal to an independent openskill computation and to a
rebuild from scratch, to the last digit)."""

from __future__ import annotations

import random

import pytest

from clubs.models import Member, MemberResult
from clubs.services.results import recount_club
from scoring import services
from tests.clubs.factories import club_game, make_club, make_members
from tests.clubs.ratings_games import oracle_for_club, play_random_game, stored_history

pytestmark = pytest.mark.django_db

HOME3 = {"preset": "basic", "holes": 3}


def snapshot(club) -> tuple[list, list]:
    """Every stored result (but its row id) and member row of the club."""
    fields = [f.attname for f in MemberResult._meta.concrete_fields if f.attname != "id"]
    return (
        list(MemberResult.objects.filter(club=club).order_by("member_id", "game_id").values_list(*fields)),
        list(Member.objects.filter(club=club).order_by("pk").values_list()),
    )


def results_of(game) -> dict[str, tuple[int, int]]:
    return dict(
        (name, (place, total))
        for name, place, total in MemberResult.objects.filter(game=game).values_list(
            "member__name", "place", "total_points"
        )
    )


def test_a_game_counts_when_it_finishes_and_not_before():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob, "Guest"], [{"Ann": 1, "Bob": 2, "Guest": 3}] * 2, ruleset=HOME3)
    assert not MemberResult.objects.exists()
    services.hole_record(game, entries={"Ann": 5, "Bob": 0, "Guest": 0}, ender=None)
    assert results_of(game) == {"Ann": (3, 7), "Bob": (1, 4)}  # the guest's 6 places second
    ann.refresh_from_db()
    assert ann.rated_games == 1 and ann.mu < 25


def test_reopening_uncounts_and_finishing_again_counts_from_then():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob], [{"Ann": 1, "Bob": 2}] * 3, ruleset=HOME3)
    first = MemberResult.objects.filter(game=game).first().finished_at
    services.undo_last_change(game)  # hole 3 goes: the game is open again
    assert not MemberResult.objects.exists()
    ann.refresh_from_db()
    assert (ann.mu, ann.rated_games) == (None, 0)
    services.redo_change(game)
    assert MemberResult.objects.filter(game=game).first().finished_at > first
    assert results_of(game) == {"Ann": (1, 3), "Bob": (2, 6)}


def test_ending_early_counts_and_resuming_uncounts():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob], [{"Ann": 4, "Bob": 2}], ruleset=HOME3)
    services.end_game_early(game)
    assert results_of(game) == {"Ann": (2, 4), "Bob": (1, 2)}
    services.resume_game(game)
    assert not MemberResult.objects.exists()


def test_a_hole_deleted_undone_and_redone_in_a_counted_game_recounts_it():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    holes = [{"Ann": 0, "Bob": 5}, {"Ann": 9, "Bob": 1}, {"Ann": 1, "Bob": 1}]
    game = club_game(club, [ann, bob], holes, ruleset={"preset": "basic", "holes": 4})
    services.end_game_early(game)  # over after three holes: deleting one leaves it over
    assert results_of(game) == {"Ann": (2, 10), "Bob": (1, 7)}
    services.hole_delete(game, 2)
    assert results_of(game) == {"Ann": (1, 1), "Bob": (2, 6)}
    counted = snapshot(club)
    recount_club(club)
    assert snapshot(club) == counted
    services.undo_last_change(game)  # hole 2 comes back
    assert results_of(game) == {"Ann": (2, 10), "Bob": (1, 7)}
    services.redo_change(game)  # and goes again (its row deleted before scoring tells of it)
    assert results_of(game) == {"Ann": (1, 1), "Bob": (2, 6)}
    services.hole_delete(game, 1)  # the later hole moves down a number
    assert results_of(game) == {"Ann": (1, 1), "Bob": (1, 1)}
    ann.refresh_from_db()
    assert ann.rated_games == 1


def test_a_correction_that_leaves_the_game_undecided_uncounts_it():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    official = {"preset": "official", "holes": 1}
    game = club_game(club, [ann, bob], [{"Ann": 1, "Bob": 2}], ruleset=official)
    assert results_of(game) == {"Ann": (1, 1), "Bob": (2, 2)}
    services.hole_update(game, 1, expected_version=None, entries={"Ann": 2, "Bob": 2}, ender=None)
    assert game.status == "sudden_death" and not MemberResult.objects.exists()
    services.hole_record(game, entries={"Ann": 3, "Bob": 1}, ender=None, playoff=True)
    assert results_of(game) == {"Ann": (2, 2), "Bob": (1, 2)}


def test_random_games_and_corrections_of_old_games_rate_as_openskill_from_scratch():
    rnd = random.Random(2033)
    club = make_club()
    members = make_members(club, *[f"M{i}" for i in range(6)])
    games = [play_random_game(club, rnd, members, rnd.choice(["home", "official"])) for _ in range(30)]
    for _ in range(12):  # correct a hole of an earlier home game (no playoff to go stale)
        played = rnd.choice([p for p in games if p.kind == "home"])
        names = list(played.scores)
        hole = rnd.randrange(3)
        for name in names:
            played.scores[name][hole] = rnd.choice([0, 1, 2, 5])
        entries = {name: played.scores[name][hole] for name in names}
        services.hole_update(played.game, hole + 1, expected_version=None, entries=entries, ender=None)
    assert stored_history(club) == oracle_for_club(club, games)
    before = snapshot(club)
    recount_club(club)
    assert snapshot(club) == before
