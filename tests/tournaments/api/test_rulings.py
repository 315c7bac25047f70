"""The Rulings API: the catalogue as the contract lists it, advice (with the ladder's step for a
player of an event), a ruling recorded with the penalty it carries, the rulings log public or
private as the director set it, and bad input named with nothing written."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.models import Penalty, Ruling

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db


def _event(**settings):
    tournament = with_staff(event(8, rounds=2, holes=2, **settings))
    play_round(tournament)
    return tournament


def test_it_lists_the_situations_with_their_facts() -> None:
    body = client_of(None).get("/api/v1/rulings/situations/").json()
    by_id = {s["id"]: s for s in body["situations"]}
    took = by_id["took_discard_then_discarded"]
    assert set(took) == {"id", "title", "rules", "facts"} and "3.2" in took["rules"]
    assert took["facts"] == [
        {"name": "next_turn_begun", "question": took["facts"][0]["question"], "type": "boolean"}
    ]
    assert by_id["over_time_limit"]["facts"][0]["type"] == "integer"
    assert len(by_id) >= 18


def test_it_advises_without_an_event() -> None:
    answer = client_of(None).post(
        "/api/v1/rulings/advise/",
        {"situation": "took_discard_then_discarded", "facts": {"next_turn_begun": False}},
        format="json",
    )
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) >= {"ruling", "citations", "correction", "offence", "penalty"}
    assert body["citations"][:2] == ["3.2", "4.5"] and body["offence"] == "illegal_move"
    assert body["correction"] and body["penalty"] is None


def test_advice_for_a_player_gives_the_ladders_next_step() -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    body = {
        "situation": "moved_card_in_grid",
        "facts": {"next_turn_begun": True},
        "tournament": tournament.pk,
        "player": p01.pk,
    }
    steps = []
    for _ in range(3):
        steps.append(
            client_of("olive").post("/api/v1/rulings/advise/", body, format="json").json()["penalty"]
        )
        services.give_penalty(tournament, player=p01.pk, offence="illegal_move", round_number=1)
    assert steps == [
        {"step": "warning", "points": 0},
        {"step": "points", "points": 5},
        {"step": "round_dq", "points": 0},
    ]
    time = body | {"situation": "over_time_limit", "facts": {"seconds_over": 61}}
    assert client_of("olive").post("/api/v1/rulings/advise/", time, format="json").json()["penalty"] == {
        "step": "points",
        "points": 4,
    }
    no_offence = body | {"situation": "stock_exhausted", "facts": {}}
    assert (
        client_of("olive").post("/api/v1/rulings/advise/", no_offence, format="json").json()["penalty"]
        is None
    )


@pytest.mark.parametrize(
    ("body", "status", "where"),
    [
        ({"situation": "card_revealed", "facts": {"intentional": True}}, 400, "facts.can_be_hidden"),
        ({"situation": "card_revealed", "facts": {"x": True}}, 400, "facts.x"),
        ({"situation": "nope"}, 400, "situation"),
        ({"situation": "stock_exhausted", "tournament": "3"}, 400, "tournament"),
        ({"situation": "stock_exhausted", "tournament": "@T", "player": 10**9}, 400, "player"),
        ({"situation": "stock_exhausted", "tournament": 10**9}, 404, "tournament"),
        # Facts that are not an object: a 400 naming them (the message's braces once made a 500).
        ({"situation": "card_revealed", "facts": []}, 400, "facts"),
        ({"situation": "card_revealed", "facts": "intentional"}, 400, "facts"),
        ({"situation": "card_revealed", "facts": True}, 400, "facts"),
        ({"situation": " card_revealed ", "facts": {"intentional": True}}, 400, "situation"),
        ({"situation": "card_revealed", "facts": {"intentional": True}, "verdict": 1}, 400, "verdict"),
    ],
)
def test_bad_advice_requests_are_named(body, status, where) -> None:
    tournament = _event()
    if body.get("tournament") == "@T":
        body = body | {"tournament": tournament.pk}
    answer = client_of(None).post("/api/v1/rulings/advise/", body, format="json")
    assert answer.status_code == status
    assert where in [e["where"] for e in answer.json()["errors"]]


def test_a_private_events_players_are_not_advised_on_to_strangers() -> None:
    tournament = with_staff(event(4, rounds=1, public=False))
    body = {"situation": "electronic_device", "facts": {}, "tournament": tournament.pk,
            "player": tournament.entrants.first().pk}  # fmt: skip
    assert client_of("sam").post("/api/v1/rulings/advise/", body, format="json").status_code == 404
    assert client_of("olive").post("/api/v1/rulings/advise/", body, format="json").status_code == 200


def test_a_ruling_is_recorded_with_the_penalty_it_carries_and_the_standings_follow() -> None:
    tournament = _event()
    p02 = tournament.entrants.get(name="P02")
    services.give_penalty(tournament, player=p02.pk, offence="illegal_move", round_number=1)
    table = tournament.round_set.get(number=1).tables.get(seats__entrant=p02)
    answer = client_of("olive").post(
        f"/api/v1/tournaments/{tournament.pk}/rulings/",
        {
            "situation": "swapped_two_grid_cards",
            "facts": {"next_turn_begun": True},
            "player": p02.pk,
            "round": 1,
            "table": table.number,
            "hole": 2,
            "note": "seen by two players",
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["offence"] == "illegal_move" and "8.4" in body["citations"]
    assert (body["penalty"]["step"], body["penalty"]["points"], body["penalty"]["rule"]) == (
        "points",
        5,
        "6.3",
    )
    assert (body["round"], body["table"], body["hole"], body["official"]) == (1, table.number, 2, "olive")
    ruling = Ruling.objects.get(pk=body["id"])
    assert ruling.penalty.entrant == p02 and ruling.note == "seen by two players"
    standings = client_of(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    assert next(s for s in standings if s["player"]["name"] == "P02")["penalty_points"] == 5


def test_a_ruling_takes_advices_body_with_its_tournament_and_a_null_note() -> None:
    tournament = _event()
    body = {"situation": "stock_exhausted", "facts": {}, "tournament": tournament.pk, "note": None}
    answer = client_of("olive").post(f"/api/v1/tournaments/{tournament.pk}/rulings/", body, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["note"] == "" and Ruling.objects.get().note == ""


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"situation": "electronic_device", "facts": {}}, "player"),
        ({"situation": "stock_exhausted", "facts": {}, "round": 9}, "round"),
        ({"situation": "stock_exhausted", "facts": {}, "round": 1, "table": 99}, "table"),
        ({"situation": "stock_exhausted", "facts": {}, "table": 1}, "table"),
        ({"situation": "stock_exhausted", "facts": {}, "hole": 0}, "hole"),
        ({"situation": "stock_exhausted", "facts": {}, "note": "\x00"}, "note"),
        ({"situation": "electronic_device", "facts": {}, "player": "@P", "step": "exile"}, "step"),
        ({"situation": "over_time_limit", "facts": {"seconds_over": 0}, "player": "@P"}, "seconds_over"),
    ],
)
def test_bad_rulings_are_named_and_nothing_is_written(body, where) -> None:
    tournament = _event()
    if body.get("player") == "@P":
        body = body | {"player": tournament.entrants.get(name="P01").pk}
    answer = client_of("olive").post(f"/api/v1/tournaments/{tournament.pk}/rulings/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert where in [e["where"] for e in answer.json()["errors"]]
    assert Ruling.objects.count() == 0 and Penalty.objects.count() == 0


@pytest.mark.parametrize("public_log", [False, True])
def test_the_rulings_log_reads_as_the_director_set_it(public_log: bool) -> None:
    tournament = _event(rulings_public=public_log)
    services.record_ruling(tournament, situation="stock_exhausted", facts={}, round_number=1)
    url = f"/api/v1/tournaments/{tournament.pk}/rulings/"
    for who in ("dora", "cora", "olive"):
        assert client_of(who).get(url).json()["rulings"][0]["situation"] == "stock_exhausted"
    for who in ("sam", None):
        assert client_of(who).get(url).status_code == (200 if public_log else 403)
    assert client_of("sam").post(url, {"situation": "stock_exhausted"}, format="json").status_code == 403
    assert client_of(None).post(url, {"situation": "stock_exhausted"}, format="json").status_code == 401


def test_the_director_makes_the_log_public_through_the_settings() -> None:
    tournament = _event()
    answer = client_of("dora").patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"rulings_public": True}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["rulings_public"] is True
    bad = client_of("dora").patch(
        f"/api/v1/tournaments/{tournament.pk}/", {"rulings_public": "yes"}, format="json"
    )
    assert bad.status_code == 400


@pytest.mark.parametrize("rulings", [1, 10])
def test_the_rulings_log_reads_in_a_fixed_number_of_queries(
    rulings: int, django_assert_max_num_queries
) -> None:
    tournament = _event()
    p01 = tournament.entrants.get(name="P01")
    for _ in range(rulings):
        services.record_ruling(
            tournament, situation="over_time_limit", facts={"seconds_over": 30}, player=p01.pk
        )
    olive = client_of("olive")
    with django_assert_max_num_queries(6):
        body = olive.get(f"/api/v1/tournaments/{tournament.pk}/rulings/").json()
    assert len(body["rulings"]) == rulings and body["rulings"][0]["penalty"]["points"] == 2
