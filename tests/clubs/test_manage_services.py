"""The clubs' write services: clubs, owners, members (one, a pasted list, rename, retire, merge), seasons."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.errors import ClubConflict, ClubError, NotFoundInClub
from clubs.models import Club, ClubOwner, Member, Season, SeatMember
from clubs.services import clubs as club_services
from clubs.services.members import add_member, add_members, merge_members, rename_member, retire_member
from clubs.services.seasons import create_season, delete_season, season_version, update_season
from golfclub.core import limits
from scoring.game_errors import StaleVersion
from tests.clubs.factories import club_game, make_club, make_members, make_owner

pytestmark = pytest.mark.django_db


def wheres(error: Exception) -> list[str]:
    return [p.where for p in error.problems]


def test_create_club_cleans_the_name_and_makes_the_caller_its_owner():
    user = make_owner("ann")
    club = club_services.create_club(user=user, name="  Friday\u200b   Golf ")
    assert club.name == "Friday Golf" and not club.is_public and club.version == 1
    assert list(ClubOwner.objects.filter(club=club).values_list("user__username", flat=True)) == ["ann"]


@pytest.mark.parametrize(
    "name", ["", "   ", "\u200b", 3, None, "x" * (limits.MAX_CLUB_NAME_LENGTH + 1), "a\x00b"]
)
def test_create_club_refuses_a_bad_name_naming_the_field(name):
    with pytest.raises(ClubError) as refused:
        club_services.create_club(user=make_owner(), name=name)
    assert wheres(refused.value) == ["name"]
    assert not Club.objects.exists()


def test_update_club_bumps_the_version_and_refuses_a_stale_one():
    club = make_club()
    changed = club_services.update_club(club, name="Saturday Golf", is_public=True, version=1)
    assert (changed.name, changed.is_public, changed.version) == ("Saturday Golf", True, 2)
    with pytest.raises(StaleVersion):
        club_services.update_club(club, name="Sunday", version=1)
    assert Club.objects.get().name == "Saturday Golf"
    same = club_services.update_club(club, name="Saturday Golf", version=2)
    assert same.version == 2  # nothing changed, nothing bumped


def test_an_invitation_is_used_once_and_a_last_owner_stays():
    club = make_club()
    owner = ClubOwner.objects.get(club=club)
    invitation = club_services.invite_owner(club, by=owner.user)
    bob = make_owner("bob")
    assert club_services.accept_invitation(invitation.token, bob) == club
    assert club_services.accept_invitation(invitation.token, bob) == club  # an owner again: no error
    with pytest.raises(ClubConflict):
        club_services.accept_invitation(invitation.token, make_owner("eve"))
    with pytest.raises(NotFoundInClub):
        club_services.accept_invitation("no-such-token", bob)
    assert Club.objects.get().version == 2
    club_services.remove_owner(club, ClubOwner.objects.get(club=club, user=bob))
    with pytest.raises(ClubConflict):
        club_services.remove_owner(club, owner)
    assert ClubOwner.objects.filter(club=club).count() == 1


def test_member_names_are_unique_in_a_club_as_people_read_them():
    club = make_club()
    ann = add_member(club, "  Ann ")
    assert ann.name == "Ann"
    for same in ("ann", "\uff21\uff2e\uff2e", "Ann\u200b"):
        with pytest.raises(ClubError) as refused:
            add_member(club, same)
        assert wheres(refused.value) == ["name"]
    assert add_member(make_club("Other"), "Ann").name == "Ann"  # another club may have its own Ann


def test_a_retired_member_is_named_as_such_when_added_again():
    club = make_club()
    retire_member(club, add_member(club, "Ann"), True)
    with pytest.raises(ClubError) as refused:
        add_member(club, "ann")
    assert "retired" in refused.value.message


def test_a_pasted_list_names_every_bad_line_and_adds_nobody():
    club = make_club()
    make_members(club, "Cy")
    with pytest.raises(ClubError) as refused:
        add_members(club, ["Ann", "", "ann", "cy", "x" * 41, "Bob"])
    assert wheres(refused.value) == ["names[2]", "names[3]", "names[4]", "names[5]"]
    assert "line 1" in refused.value.problems[1].message
    assert Member.objects.filter(club=club).count() == 1


def test_a_pasted_list_adds_everyone_in_order_skipping_blank_lines_when_asked():
    club = make_club()
    added = add_members(club, ["Ann", " ", "Bob", "Zoé"], skip_blank=True)
    assert [m.name for m in added] == ["Ann", "Bob", "Zoé"]
    assert all(m.pk for m in added)
    assert sorted(Member.objects.filter(club=club).values_list("name_key", flat=True)) == [
        "ann",
        "bob",
        "zoé",
    ]


def test_list_and_club_sizes_are_bounded(monkeypatch):
    club = make_club()
    with pytest.raises(ClubError) as refused:
        add_members(club, ["n"] * (limits.MAX_PASTED_MEMBERS + 1))
    assert wheres(refused.value) == ["names"]
    monkeypatch.setattr("clubs.services.members.MAX_CLUB_MEMBERS", 2)
    add_members(club, ["Ann", "Bob"])
    with pytest.raises(ClubError) as refused:
        add_member(club, "Cy")
    assert wheres(refused.value) == ["name"]


def test_rename_and_retire_bump_the_version_and_refuse_a_stale_one():
    club = make_club()
    ann, _bob = make_members(club, "Ann", "Bob")
    renamed = rename_member(club, ann, "Annie", version=1)
    assert (renamed.name, renamed.name_key, renamed.version) == ("Annie", "annie", 2)
    with pytest.raises(StaleVersion):
        rename_member(club, ann, "Anne", version=1)
    with pytest.raises(ClubError) as refused:
        rename_member(club, ann, "BOB")
    assert wheres(refused.value) == ["name"]
    assert rename_member(club, ann, "annie").name == "annie"  # a change of case is a rename
    retired = retire_member(club, ann, True, version=3)
    assert retired.retired_at is not None and retired.version == 4
    assert retire_member(club, ann, False).retired_at is None


def test_a_member_of_another_club_is_not_found():
    club, other = make_club(), make_club("Other")
    (stranger,) = make_members(other, "Ann")
    with pytest.raises(NotFoundInClub):
        rename_member(club, stranger, "Bob")


def test_merging_moves_the_duplicates_games_and_counts_them_again():
    club = make_club()
    ann, ann2, bob = make_members(club, "Ann", "Ann B", "Bob")
    first = club_game(club, [ann, bob], [{"Ann": 3, "Bob": 5}] * 9)
    second = club_game(club, [ann2, bob], [{"Ann B": 3, "Bob": 5}] * 9)
    kept = merge_members(club, ann, ann2)
    assert kept.pk == ann.pk and kept.version == 2
    assert not Member.objects.filter(pk=ann2.pk).exists()
    assert set(SeatMember.objects.filter(member=ann).values_list("game", flat=True)) == {first.pk, second.pk}
    assert kept.results.count() == 2 and kept.rated_games == 2


def test_merging_two_who_sat_in_one_game_is_refused_naming_the_game():
    club = make_club()
    ann, bob = make_members(club, "Ann", "Bob")
    game = club_game(club, [ann, bob])
    game.title = "Friday night"
    game.save(update_fields=["title"])
    with pytest.raises(ClubConflict) as refused:
        merge_members(club, ann, bob)
    assert "Friday night" in refused.value.message
    with pytest.raises(ClubConflict):
        merge_members(club, ann, ann)
    assert Member.objects.filter(club=club).count() == 2


def test_seasons_are_created_checked_edited_and_deleted():
    club = make_club()
    season = create_season(club, name=" 2027 ", start="2027-01-01", end="2027-12-31")
    assert (season.name, season.start, season.end) == (
        "2027",
        datetime.date(2027, 1, 1),
        datetime.date(2027, 12, 31),
    )
    with pytest.raises(ClubError) as refused:
        create_season(club, name="2027", start="2028-02-01", end="2028-01-01")
    assert wheres(refused.value) == ["end", "name"]
    with pytest.raises(ClubError) as refused:
        create_season(club, name="", start="31/01/2027", end=None)
    assert wheres(refused.value) == ["name", "start", "end"]
    read = season_version(season)
    edited = update_season(club, season, name="Year 2027", version=read)
    assert edited.name == "Year 2027" and edited.start == datetime.date(2027, 1, 1)
    with pytest.raises(StaleVersion):
        update_season(club, season, end="2027-06-30", version=read)
    delete_season(club, season)
    assert not Season.objects.exists()


@given(st.text(max_size=120))
def test_a_clean_club_or_season_name_is_stable_and_tidy(raw):
    from clubs.services._common import clean_label

    try:
        clean = clean_label(raw, "name", max_length=80, what="The name")
    except ClubError as refused:
        assert wheres(refused) == ["name"]
        return
    assert clean == clean.strip() and "  " not in clean and 0 < len(clean) <= 80
    assert clean_label(clean, "name", max_length=80, what="The name") == clean


def test_merging_moves_the_duplicates_tournament_entries_unless_both_played_it():
    from tests.tournaments.helpers import event

    club = make_club()
    ann, ann2, bob = make_members(club, "Ann", "Ann B", "Bob")
    tournament = event(4, rounds=1, holes=1)
    first, second = tournament.entrants.order_by("pk")[:2]
    first.member = ann2
    first.save(update_fields=["member"])
    merge_members(club, ann, ann2)
    first.refresh_from_db()
    assert first.member_id == ann.pk
    second.member = bob
    second.save(update_fields=["member"])
    with pytest.raises(ClubConflict) as refused:
        merge_members(club, ann, bob)
    assert "Spring Open" in refused.value.message
