"""Members' results and ratings, equal to an independent openskill computation (ratings_oracle.py)."""

from __future__ import annotations

import random

import pytest

from clubs.models import Member, MemberResult
from clubs.services.ratings import recompute_club
from clubs.services.results import recount_club
from tests.clubs.factories import club_game, make_club, make_members
from tests.clubs.ratings_games import oracle_for_club, play_random_game, stored_history

pytestmark = pytest.mark.django_db


def test_a_game_gives_each_linked_member_their_place_and_record():
    club = make_club()
    ann, bob, cy = make_members(club, "Ann", "Bob", "Cy")
    holes = [{"Ann": 3, "Bob": 5, "Guest": 3, "Cy": 4}, {"Ann": 4, "Bob": 1, "Guest": 2, "Cy": 6}]
    holes += [{"Ann": 0, "Bob": 0, "Guest": 7, "Cy": 9}]
    game = club_game(club, [ann, bob, "Guest", cy], holes, ruleset={"preset": "basic", "holes": 3})
    recount_club(club)
    results = {r.member.name: r for r in MemberResult.objects.filter(game=game).select_related("member")}
    assert set(results) == {"Ann", "Bob", "Cy"}
    # Ann 7 and Bob 6 beat the guest's 12 and Cy's 19: the guest's place counts.
    assert [(n, results[n].place) for n in ("Bob", "Ann", "Cy")] == [("Bob", 1), ("Ann", 2), ("Cy", 4)]
    ann_r = results["Ann"]
    assert (ann_r.total_points, ann_r.holes_played, ann_r.players) == (7, 3, 4)
    assert ann_r.low_hole_score == 2  # hole 1 shared with the guest, hole 3 shared with Bob
    assert ann_r.best_hole_score == 0
    assert results["Cy"].low_hole_score == 0 and results["Cy"].best_hole_score == 4


def test_a_tie_the_home_chain_cannot_break_is_a_shared_place():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    holes = [{"Ann": 3, "Bob": 2}, {"Ann": 2, "Bob": 3}]
    game = club_game(club, [ann, bob], holes, ruleset={"preset": "basic", "holes": 2})
    recount_club(club)
    assert sorted(MemberResult.objects.filter(game=game).values_list("place", flat=True)) == [1, 1]
    ann.refresh_from_db()
    bob.refresh_from_db()
    assert ann.mu == bob.mu and ann.rated_games == 1 and ann.ordinal == ann.mu - 3 * ann.sigma


def test_one_linked_member_keeps_a_result_but_moves_no_rating():
    club = make_club()
    (ann,) = make_members(club, "Ann")
    club_game(club, [ann, "Guest"], [{"Ann": 1, "Guest": 2}], ruleset={"preset": "basic", "holes": 1})
    assert recount_club(club) == 0
    result = MemberResult.objects.get(member=ann)
    assert (result.mu_before, result.sigma_before) == (result.mu_after, result.sigma_after)
    ann.refresh_from_db()
    assert ann.mu is None and ann.rated_games == 0


def test_ratings_equal_an_independent_openskill_computation_and_a_recompute_changes_no_digit():
    rnd = random.Random(33)
    club = make_club()
    members = make_members(club, *[f"M{i}" for i in range(7)])
    games = [play_random_game(club, rnd, members, rnd.choice(["home", "official"])) for _ in range(40)]
    rated = recount_club(club)
    assert rated == sum(len(p.linked_places()) >= 2 for p in games)
    assert stored_history(club) == oracle_for_club(club, games)
    stored = list(MemberResult.objects.order_by("pk").values_list())
    current = list(Member.objects.order_by("pk").values_list())
    assert recompute_club(club) == rated
    assert list(MemberResult.objects.order_by("pk").values_list()) == stored
    assert list(Member.objects.order_by("pk").values_list()) == current
    for member in Member.objects.filter(club=club):
        last = stored_history(club).get(member.pk)
        if member.rated_games:
            assert (member.mu, member.sigma) == last[-1][2:]
