"""Issue 20, findings 7 and 8 (officiating): a ruling's place is checked against the event (the
round seated, the table one of that round's, the player seated at that table, the hole one the
round plays) and every problem is listed at once; a NUL in a note is said to be one (not "too
long"); a co-director's refused override says it is the director's; the officiating bodies name
unknown keys and take ids only as JSON numbers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Penalty, Ruling, Table, Tournament

from .conftest import client_of, with_staff

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Tournament:
    tournament = with_staff(event(8, rounds=2, holes=2))
    play_round(tournament)
    return tournament


def _post(tournament: Tournament, body: dict[str, Any]) -> Any:
    return client_of("olive").post(f"/api/v1/tournaments/{tournament.pk}/rulings/", body, format="json")


def _tables_of_p01(tournament: Tournament) -> tuple[int, int, int]:
    """(P01's id, P01's table number, another table's number) in round 1."""
    p01 = tournament.entrants.get(name="P01")
    sat = Table.objects.get(round__tournament=tournament, round__number=1, seats__entrant=p01).number
    other = Table.objects.filter(round__tournament=tournament, round__number=1).exclude(number=sat).first()
    return p01.pk, sat, other.number


def test_it_refuses_a_player_ruled_on_at_a_table_they_did_not_sit_at(played: Tournament) -> None:
    player, sat, other = _tables_of_p01(played)
    body = {"situation": "electronic_device", "facts": {}, "player": player, "round": 1, "table": other}
    answer = _post(played, body)
    assert answer.status_code == 400, answer.content
    errors = answer.json()["errors"]
    assert [e["where"] for e in errors] == ["player"]
    assert f"table {sat}" in errors[0]["message"] and f"not table {other}" in errors[0]["message"]
    assert Ruling.objects.count() == 0 and Penalty.objects.count() == 0
    assert _post(played, body | {"table": sat}).status_code == 201


def test_it_refuses_a_player_who_did_not_play_the_round(played: Tournament) -> None:
    late = services.add_entrant(played, "Latecomer")
    body = {"situation": "electronic_device", "facts": {}, "player": late.pk, "round": 1}
    answer = _post(played, body)
    assert answer.status_code == 400
    assert [e["where"] for e in answer.json()["errors"]] == ["player"]
    assert "did not play round 1" in answer.json()["errors"][0]["message"]
    assert Penalty.objects.count() == 0


def test_it_lists_every_problem_of_a_ruling_at_once(played: Tournament) -> None:
    body = {
        "situation": "electronic_device",
        "facts": {},
        "player": 10**9,
        "round": 99,
        "table": 0,
        "hole": 100,
        "step": "exile",
        "note": "x" * 5000,
    }
    answer = _post(played, body)
    assert answer.status_code == 400, answer.content
    wheres = [e["where"] for e in answer.json()["errors"]]
    assert wheres == ["player", "round", "table", "hole", "step", "note"]
    messages = {e["where"]: e["message"] for e in answer.json()["errors"]}
    assert "No round 99" in messages["round"]
    assert Ruling.objects.count() == 0 and Penalty.objects.count() == 0


def test_it_lists_the_situation_and_the_place_together(played: Tournament) -> None:
    body = {"situation": "card_revealed", "facts": {"intentional": True}, "round": 99, "table": 0}
    wheres = [e["where"] for e in _post(played, body).json()["errors"]]
    assert wheres == ["facts.can_be_hidden", "round", "table"]


@pytest.mark.parametrize(
    ("place", "where", "says"),
    [
        ({"round": 1, "table": 9}, "table", "No table 9 in round 1"),
        ({"table": 1}, "table", "which round"),
        ({"round": 1, "hole": 3}, "hole", "plays 2 holes"),
    ],
)
def test_it_checks_the_place_against_the_round(
    played: Tournament, place: dict[str, int], where: str, says: str
) -> None:
    answer = _post(played, {"situation": "stock_exhausted", "facts": {}} | place)
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert [e["where"] for e in errors] == [where] and says in errors[0]["message"]
    assert Ruling.objects.count() == 0


def test_the_service_checks_the_same(played: Tournament) -> None:
    player, _sat, other = _tables_of_p01(played)
    with pytest.raises(TournamentError) as refused:
        services.record_ruling(
            played, situation="electronic_device", facts={}, player=player, round_number=1, table=other
        )
    assert [p.where for p in refused.value.problems] == ["player"]


@pytest.mark.parametrize("path", ["rulings/", "penalties/"])
def test_it_says_a_nul_in_a_note_is_a_nul(played: Tournament, path: str) -> None:
    player = played.entrants.get(name="P01").pk
    body = {"situation": "electronic_device", "facts": {}, "player": player, "note": "late\x00"}
    if path == "penalties/":
        body = {"player": player, "offence": "illegal_move", "note": "late\x00"}
    answer = client_of("olive").post(f"/api/v1/tournaments/{played.pk}/{path}", body, format="json")
    assert answer.status_code == 400
    note = next(e["message"] for e in answer.json()["errors"] if e["where"] == "note")
    assert "NUL" in note and "too long" not in note


def test_the_service_says_a_nul_in_a_note_is_a_nul(played: Tournament) -> None:
    player = played.entrants.get(name="P01").pk
    with pytest.raises(TournamentError) as refused:
        services.give_penalty(played, player=player, offence="illegal_move", note="late\x00")
    assert "NUL" in refused.value.problems[0].message
    assert "too long" not in refused.value.problems[0].message


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("rulings/", {"situation": "stock_exhausted", "facts": {}, "verdict": "x"}, "verdict"),
        ("rulings/", {"situation": "electronic_device", "facts": {}, "player": "@P"}, "player"),
        ("rulings/", {"situation": "stock_exhausted", "facts": {}, "round": "1"}, "round"),
        ("rulings/", {"situation": "stock_exhausted", "facts": {}, "table": 1.0}, "table"),
        ("penalties/", {"player": "@P", "offence": "illegal_move"}, "player"),
        ("penalties/", {"player": 1, "offence": "illegal_move", "points": 5}, "points"),
        ("penalties/", {"player": 1, "offence": "illegal_move", "round": True}, "round"),
        ("penalties/", {"player": 1, "offence": "time", "seconds_over": "61"}, "seconds_over"),
        ("penalties/{penalty}/rescind/", {"reason": "appeal", "by": "dora"}, "by"),
        ("penalties/{penalty}/rescind/", {"reason": 5}, "reason"),
    ],
)
def test_it_names_unknown_keys_and_text_ids_in_the_officiating_bodies(
    played: Tournament, path: str, body: dict[str, Any], where: str
) -> None:
    player = played.entrants.get(name="P01").pk
    penalty = services.give_penalty(played, player=player, offence="illegal_move").pk
    body = {k: (str(player) if v == "@P" else v) for k, v in body.items()}
    url = f"/api/v1/tournaments/{played.pk}/" + path.format(penalty=penalty)
    answer = client_of("dora" if "rescind" in path else "olive").post(url, body, format="json")
    assert answer.status_code == 400, answer.content
    assert where in [e["where"] for e in answer.json()["errors"]]
    assert Penalty.objects.count() == 1 and Ruling.objects.count() == 0


def test_a_co_directors_refused_override_says_it_is_the_directors() -> None:
    tournament = with_staff(event(8, rounds=2, holes=1))
    play_round(tournament, confirm=False)
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1/finalize/"
    answer = client_of("cora").post(url, {"override": True, "reason": "phones died"}, format="json")
    assert answer.status_code == 403
    error = answer.json()["errors"][0]
    assert error["where"] == "override" and "director" in error["message"]
    assert "staff" not in error["message"]
    assert tournament.round_set.get(number=1).status == "published"
