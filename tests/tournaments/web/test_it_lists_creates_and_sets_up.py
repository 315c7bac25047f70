"""The list of tournaments, a new one, its settings and its staff (pages, real database)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event, user
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments.models import EventLogEntry, Staff, Tournament

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Autumn Cup",
    "date": "2026-11-28",
    "venue": "Club house",
    "ruleset": "official",
    "rounds": "3",
    "seating": "fewest_repeats",
    "seed": "",
    "time_limit_minutes": "45",
    "standings_release": "live",
    "public": "on",
}


def test_it_lists_my_events_and_the_public_ones_but_no_one_elses_private_one() -> None:
    mine = event(4)
    hidden = event(4, public=False)
    Tournament.objects.filter(pk=hidden.pk).update(director=user("sam"), name="Secret")
    page = as_user("dora").get("/tournaments/").content.decode()
    assert "Your events" in page and mine.name in page and "Secret" not in page
    anonymous = as_user(None).get("/tournaments/").content.decode()
    assert "Spring Open" in anonymous and "Secret" not in anonymous
    assert "Secret" in as_user("sam").get("/tournaments/").content.decode()


@pytest.mark.parametrize("events", [2, 12])
def test_it_lists_in_a_fixed_number_of_queries(events: int, django_assert_max_num_queries) -> None:
    for _ in range(events):
        event(3)
    client = as_user("dora")
    with django_assert_max_num_queries(5):
        assert client.get("/tournaments/").status_code == 200


def test_it_creates_a_tournament_with_a_random_seed_shown_after() -> None:
    client = as_user("dora")
    answer = client.post("/tournaments/new/", NEW)
    assert answer.status_code == 302
    created = Tournament.objects.get(name="Autumn Cup")
    assert created.director == user("dora") and created.time_limit_minutes == 45
    assert created.tiebreakers == ["countback", "most_holes_won", "sudden_death"]
    assert answer["Location"] == f"/tournaments/{created.pk}/players/"
    assert f"seed {created.seed}" in client.get(answer["Location"]).content.decode()


def test_new_tournament_needs_a_login() -> None:
    answer = as_user(None).get("/tournaments/new/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert as_user(None).post("/tournaments/new/", NEW).status_code == 302
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"rounds": "22"}, "less than or equal to 21"),
        ({"rounds": "٣"}, "Rounds"),
        ({"tiebreak_1": "countback", "tiebreak_2": "countback"}, "Use each of these at most once"),
        ({"date": "yesterday"}, "Enter a valid date"),
        ({"seed": "-4"}, "greater than or equal to 0"),
    ],
)
def test_it_names_a_bad_setting_in_the_page_and_creates_nothing(change: dict, message: str) -> None:
    answer = as_user("dora").post("/tournaments/new/", {**NEW, **change})
    assert answer.status_code == 400
    assert message in answer.content.decode()
    assert not Tournament.objects.exists()


def test_settings_change_and_the_ruleset_and_seed_freeze_once_round_one_is_seated() -> None:
    tournament = event(8)
    client = as_user("dora")
    form = {**NEW, "name": "Spring Open 2", "ruleset": "basic", "seed": "7"}
    assert client.post(f"/tournaments/{tournament.pk}/settings/", form).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.ruleset["preset"], tournament.seed) == ("Spring Open 2", "basic", 7)
    from tournaments import services

    services.seat_next_round(tournament)
    page = client.get(f"/tournaments/{tournament.pk}/settings/").content.decode()
    assert "can no longer change" in page
    client.post(f"/tournaments/{tournament.pk}/settings/", {**form, "ruleset": "official", "seed": "9"})
    tournament.refresh_from_db()
    assert (tournament.ruleset["preset"], tournament.seed) == ("basic", 7)


def test_the_director_adds_and_removes_staff_and_a_co_director_may_not() -> None:
    ev = staffed_event(publish=False)
    pk = ev.tournament.pk
    dora = as_user("dora")
    page = dora.get(f"/tournaments/{pk}/settings/").content.decode()
    assert "cora" in page and "olive" in page
    unknown = dora.post(f"/tournaments/{pk}/staff/", {"username": "nobody", "role": "official"})
    assert unknown.status_code == 400 and "No user is called nobody" in unknown.content.decode()
    assert dora.post(f"/tournaments/{pk}/staff/", {"username": "sam", "role": "official"}).status_code == 302
    assert Staff.objects.filter(tournament=ev.tournament, user__username="sam").exists()
    cora = as_user("cora")
    assert "Add to the staff" not in cora.get(f"/tournaments/{pk}/settings/").content.decode()
    assert (
        cora.post(f"/tournaments/{pk}/staff/", {"username": "sam", "role": "co_director"}).status_code == 403
    )
    sam_row = Staff.objects.get(tournament=ev.tournament, user__username="sam")
    assert cora.post(f"/tournaments/{pk}/staff/{sam_row.pk}/remove/").status_code == 403
    assert dora.post(f"/tournaments/{pk}/staff/{sam_row.pk}/remove/").status_code == 302
    assert not Staff.objects.filter(pk=sam_row.pk).exists()
    assert EventLogEntry.objects.filter(tournament=ev.tournament, action="staff_removed").exists()
