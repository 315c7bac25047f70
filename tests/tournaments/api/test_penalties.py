"""Penalties and rulings through the API: the contract's shapes, rule 6.3's ladder climbing per
player, an official's decided step, rescinding on appeal, the standings following each (totals,
round and event disqualifications), hole corrections and undo never losing penalty points,
permissions, and bad input answered 400 with nothing written."""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import by_number, event, play_round
from tournaments import services
from tournaments.models import Entrant, EntrantStatus, EventLogEntry, Penalty, Table

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db


def _event(players: int = 8, rounds: int = 2):
    tournament = with_staff(event(players, rounds=rounds, holes=2))
    play_round(tournament)
    return tournament


def _penalise(tournament, who: str = "olive", **body):
    return client_of(who).post(f"/api/v1/tournaments/{tournament.pk}/penalties/", body, format="json")


def _standing(tournament, name: str, who: str | None = "dora") -> dict:
    lines = client_of(who).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    return next(line for line in lines if line["player"]["name"] == name)


def test_it_answers_the_contracts_shape_and_climbs_the_illegal_move_ladder() -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    before = _standing(tournament, "P01")
    answers = [
        _penalise(tournament, player=p01.pk, round=1, offence="illegal_move", note="") for _ in range(3)
    ]
    assert [a.status_code for a in answers] == [201, 201, 201]
    bodies = [a.json() for a in answers]
    assert {"id", "offence", "step", "points", "rule"} <= set(bodies[0])
    assert [(b["step"], b["points"], b["rule"], b["offence"]) for b in bodies] == [
        ("warning", 0, "6.3", "illegal_move"),
        ("points", 5, "6.3", "illegal_move"),
        ("round_dq", 0, "6.3", "illegal_move"),
    ]
    after = _standing(tournament, "P01")
    # The third illegal move disqualifies P01 from round 1: an incomplete record, after everyone.
    assert after["penalty_points"] == 5 and after["complete"] is False and before["complete"] is True
    ranks = [line["player"]["name"] for line in client_of("dora").get(
        f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]]  # fmt: skip
    assert ranks[-1] == "P01"


def test_the_ladder_counts_per_player_and_per_offence() -> None:
    tournament = _event()
    p01, p02 = tournament.entrants.get(name="P01"), tournament.entrants.get(name="P02")
    assert _penalise(tournament, player=p01.pk, offence="illegal_move").json()["step"] == "warning"
    assert _penalise(tournament, player=p02.pk, offence="illegal_move").json()["step"] == "warning"
    assert _penalise(tournament, player=p01.pk, offence="unsportsmanlike").json()["step"] == "warning"
    assert _penalise(tournament, player=p01.pk, offence="illegal_move").json()["step"] == "points"


def test_a_time_violation_costs_two_points_per_started_minute_in_the_total() -> None:
    tournament = _event()
    p03 = tournament.entrants.get(name="P03")
    total = _standing(tournament, "P03")["total"]
    body = _penalise(tournament, player=p03.pk, round=1, offence="time", seconds_over=200).json()
    assert (body["step"], body["points"], body["seconds_over"]) == ("points", 8, 200)
    line = _standing(tournament, "P03")
    assert line["penalty_points"] == 8 and line["total"] == total + 8


def test_an_officials_decided_step_is_recorded_as_a_decision() -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    body = _penalise(tournament, player=p01.pk, offence="illegal_move", step="points").json()
    assert (body["step"], body["points"], body["decided"]) == ("points", 5, True)
    assert Penalty.objects.get(pk=body["id"]).step_decided
    assert EventLogEntry.objects.filter(tournament=tournament, action="penalty_given").count() == 1


def test_cheating_disqualifies_from_the_event_and_rescinding_restores_everything() -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    before = client_of("dora").get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    body = _penalise(tournament, player=p01.pk, round=1, offence="cheating").json()
    assert body["step"] == "event_dq"
    assert Entrant.objects.get(pk=p01.pk).status == EntrantStatus.DISQUALIFIED
    line = _standing(tournament, "P01")
    assert line["status"] == "disqualified"
    services.finalize_round(tournament, 1)
    round_2 = services.seat_next_round(tournament)
    assert "P01" not in {s.entrant.name for t in round_2.tables.all() for s in t.seats.all()}
    # On appeal: the entry stays, marked; the player is back for the rounds not yet seated.
    rescinded = client_of("dora").post(
        f"/api/v1/tournaments/{tournament.pk}/penalties/{body['id']}/rescind/",
        {"reason": "appeal upheld"},
        format="json",
    )
    assert rescinded.status_code == 200 and rescinded.json()["rescinded"] is True
    assert Penalty.objects.filter(pk=body["id"]).exists()
    assert Entrant.objects.get(pk=p01.pk).status == EntrantStatus.ACTIVE
    assert _standing(tournament, "P01")["status"] == "active"
    assert before  # the standings before the penalty had P01 active too
    again = client_of("dora").post(
        f"/api/v1/tournaments/{tournament.pk}/penalties/{body['id']}/rescind/",
        {"reason": "twice"},
        format="json",
    )
    assert again.status_code == 409


def test_rescinding_points_restores_the_standings_exactly() -> None:
    tournament = _event()
    services.finalize_round(tournament, 1)
    p02 = tournament.entrants.get(name="P02")
    before = client_of("dora").get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    _penalise(tournament, player=p02.pk, offence="illegal_move")
    given = _penalise(tournament, player=p02.pk, offence="illegal_move").json()
    assert _standing(tournament, "P02")["penalty_points"] == 5
    client_of("cora").post(
        f"/api/v1/tournaments/{tournament.pk}/penalties/{given['id']}/rescind/",
        {"reason": "appeal upheld"},
        format="json",
    )
    after = client_of("dora").get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert after["standings"] == before["standings"]
    # The rescinded entry no longer counts on the ladder: the next illegal move is +5 again.
    assert _penalise(tournament, player=p02.pk, offence="illegal_move").json()["step"] == "points"


def test_corrections_and_undo_of_holes_keep_the_penalty_points(django_capture_on_commit_callbacks) -> None:
    tournament = _event(rounds=1)
    table = Table.objects.select_related("game").filter(round__tournament=tournament).first()
    name = table.game.seats.order_by("seat").first().name
    _penalise(tournament, player=tournament.entrants.get(name=name).pk, offence="time", seconds_over=61)
    assert _standing(tournament, name)["penalty_points"] == 4
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    with django_capture_on_commit_callbacks(execute=True):  # scoring's signals move the version
        scoring_services.hole_update(
            table.game, 2, expected_version=None, entries={n: 9 for n in names}, ender=None, reason="typo"
        )
    line = _standing(tournament, name)
    # Hole 1 as played (number + 1), hole 2 corrected to 9; the penalty still on top of the holes.
    assert line["rounds"] == [by_number(name) + 1 + 9]
    assert line["penalty_points"] == 4 and line["total"] == by_number(name) + 1 + 9 + 4
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.undo_last_change(table.game, reason="undo the typo fix")
        scoring_services.undo_last_change(table.game, reason="and the hole")
    line = _standing(tournament, name)
    assert line["rounds"] == [by_number(name) + 1] and line["penalty_points"] == 4


@pytest.mark.parametrize(
    ("who", "status"), [("dora", 201), ("cora", 201), ("olive", 201), ("sam", 403), (None, 401)]
)
def test_officials_and_directors_give_penalties(who, status) -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    assert _penalise(tournament, who, player=p01.pk, offence="illegal_move").status_code == status
    assert Penalty.objects.count() == (1 if status == 201 else 0)


@pytest.mark.parametrize(("who", "status"), [("dora", 200), ("cora", 200), ("olive", 403), ("sam", 403)])
def test_directors_rescind_and_staff_read_the_ledger(who, status) -> None:
    tournament = _event()
    given = _penalise(tournament, player=tournament.entrants.get(name="P01").pk, offence="illegal_move")
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    answer = client_of(who).post(f"{url}{given.json()['id']}/rescind/", {"reason": "appeal"}, format="json")
    assert answer.status_code == status
    listed = client_of(who).get(url)
    assert listed.status_code == (403 if who == "sam" else 200)
    if who != "sam":
        assert listed.json()["penalties"][0]["rescinded"] is (status == 200)


def test_a_private_events_penalties_are_a_404_to_strangers() -> None:
    tournament = with_staff(event(4, rounds=1, public=False))
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    assert client_of("sam").post(url, {"player": 1, "offence": "cheating"}, format="json").status_code == 404
    assert client_of("sam").get(url).status_code == 404


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"offence": "illegal_move"}, "player"),
        ({"player": 10**30, "offence": "illegal_move"}, "player"),
        ({"player": "P01", "offence": "illegal_move"}, "player"),
        ({"player": "@P", "offence": "nope"}, "offence"),
        ({"player": "@P", "offence": "illegal_move", "step": "banished"}, "step"),
        ({"player": "@P", "offence": "time"}, "seconds_over"),
        ({"player": "@P", "offence": "time", "seconds_over": 0}, "seconds_over"),
        ({"player": "@P", "offence": "time", "seconds_over": "200"}, "seconds_over"),
        ({"player": "@P", "offence": "illegal_move", "round": 7}, "round"),
        ({"player": "@P", "offence": "illegal_move", "round": "1"}, "round"),
        ({"player": "@P", "offence": "illegal_move", "note": "a\x00b"}, "note"),
        ({"player": "@P", "offence": "illegal_move", "note": "x" * 5000}, "note"),
        ({"player": "@P", "offence": "illegal_move", "step": "round_dq"}, "round"),
        ({"player": "@P", "offence": ["illegal_move"]}, "offence"),
        ({"player": "5", "offence": "illegal_move"}, "player"),
        ({"player": "@P", "offence": "illegal_move", "points": 3}, "points"),  # an unknown key, named
    ],
)
def test_bad_penalties_are_named_and_nothing_is_written(body, where) -> None:
    tournament = _event()
    if body.get("player") == "@P":
        body = body | {"player": tournament.entrants.get(name="P01").pk}
    version = type(tournament).objects.get(pk=tournament.pk).version
    answer = _penalise(tournament, **body)
    assert answer.status_code == 400, answer.content
    assert where in [e["where"] for e in answer.json()["errors"]]
    assert Penalty.objects.count() == 0
    assert type(tournament).objects.get(pk=tournament.pk).version == version


def test_a_json_list_body_is_a_400() -> None:
    tournament = _event()
    answer = client_of("olive").post(f"/api/v1/tournaments/{tournament.pk}/penalties/", [1], format="json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["where"] == "body"


def test_rescinding_needs_a_reason_and_an_existing_penalty() -> None:
    tournament = _event()
    given = _penalise(
        tournament, player=tournament.entrants.get(name="P01").pk, offence="illegal_move"
    ).json()
    url = f"/api/v1/tournaments/{tournament.pk}/penalties/"
    no_reason = client_of("dora").post(f"{url}{given['id']}/rescind/", {}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["where"] == "reason"
    assert client_of("dora").post(f"{url}999999/rescind/", {"reason": "x"}, format="json").status_code == 404
    assert Penalty.objects.get(pk=given["id"]).rescinded_at is None


@pytest.mark.parametrize("penalties", [2, 12])
def test_the_ledger_reads_in_a_fixed_number_of_queries(penalties: int, django_assert_max_num_queries) -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    for _ in range(penalties):
        services.give_penalty(tournament, player=p01.pk, offence="time", seconds_over=30)
    olive = client_of("olive")
    with django_assert_max_num_queries(6):
        body = olive.get(f"/api/v1/tournaments/{tournament.pk}/penalties/").json()
    assert len(body["penalties"]) == penalties and body["penalties"][0]["points"] == 2
