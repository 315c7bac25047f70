"""A table's phone attests the scorecard offline and sends the confirmation later (issue 32 item 3):
`POST /api/v1/games/{edit_token}/confirm/` with its `Idempotency-Key`, after the table's queued
holes. A retry is answered the first answer and recorded once (the answer lost after the commit
included); a confirmation arriving after the round was finalized, or carrying a scorecard the
game's holes no longer match, is refused with a 409 whose sentence the phone can show."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from scoring import services as scoring_services
from scoring.models import IdempotentRequest
from tests.tournaments.helpers import event_in_play
from tournaments import services
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    tournament = event_in_play(8, rounds=2, holes=2)
    return Table.objects.select_related("game", "round").get(round__tournament=tournament, number=1)


def names(table: Table) -> list[str]:
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def send(client: APIClient, path: str, body: dict, key: str):
    """One write of the phone's queue: JSON, its own key, what it still holds."""
    return client.post(path, body, format="json", headers={"Idempotency-Key": key, "X-Golf-Pending": "1"})


def play_offline_then_sync(table: Table) -> tuple[APIClient, dict[str, list[int]]]:
    """The phone's queued holes reach the server in order; the scorecard the players attested."""
    client = APIClient()
    players = names(table)
    card: dict[str, list[int]] = {name: [] for name in players}
    for hole in (1, 2):
        entries = {name: hole + seat for seat, name in enumerate(players)}
        holes = f"/api/v1/games/{table.game.edit_token}/holes/"
        answer = send(client, holes, {"entries": entries}, f"h{hole}")
        assert answer.status_code == 201, answer.content
        for name, score in entries.items():
            card[name].append(score)
    return client, card


def finalize_over(table: Table) -> None:
    """The other tables finish, and the director finalizes the round over the unconfirmed ones."""
    for other in Table.objects.filter(round=table.round).exclude(pk=table.pk).select_related("game"):
        for _hole in (1, 2):
            entries = dict.fromkeys(names(other), 4)
            scoring_services.hole_record(other.game, entries=entries, ender=None)
    services.finalize_round(table.round.tournament, 1, override=True, reason="phones died")


def confirm_url(table: Table) -> str:
    return f"/api/v1/games/{table.game.edit_token}/confirm/"


def test_a_confirmation_sent_again_is_answered_the_same_and_recorded_once(table: Table) -> None:
    client, card = play_offline_then_sync(table)
    body = {"by": names(table)[1], "scorecard": card}
    key = str(uuid.uuid4())
    first = send(client, confirm_url(table), body, key)
    assert first.status_code == 200 and first.json()["confirmed"] is True
    confirmed = Table.objects.get(pk=table.pk)
    version = Round.objects.get(pk=table.round_id).version
    again = send(APIClient(), confirm_url(table), body, key)
    assert again.status_code == 200 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    after = Table.objects.get(pk=table.pk)
    assert after.confirmed_at == confirmed.confirmed_at and after.confirmed_by_id == confirmed.confirmed_by_id
    assert Round.objects.get(pk=table.round_id).version == version  # nothing written again
    assert IdempotentRequest.objects.filter(key=key).count() == 1
    other = send(client, confirm_url(table), {**body, "by": names(table)[2]}, key)
    assert other.status_code == 422


def test_an_answer_lost_before_the_round_was_finalized_is_replayed_after(table: Table) -> None:
    client, card = play_offline_then_sync(table)
    body = {"by": names(table)[0], "scorecard": card}
    first = send(client, confirm_url(table), body, "attest-1")  # committed; the phone never saw it
    finalize_over(table)
    retry = send(client, confirm_url(table), body, "attest-1")
    assert retry.status_code == 200 and retry.json() == first.json()


def test_a_confirmation_arriving_after_the_round_was_finalized_is_a_clear_409(table: Table) -> None:
    client, card = play_offline_then_sync(table)
    finalize_over(table)
    refused = send(client, confirm_url(table), {"by": names(table)[0], "scorecard": card}, "late")
    assert refused.status_code == 409
    (problem,) = refused.json()["errors"]
    assert problem["where"] == "round" and "Round 1 is finalized" in problem["message"]
    assert Table.objects.get(pk=table.pk).confirmed_by_id is None
    # A refusal is not kept: the same key is looked at again, and refused again.
    late = send(client, confirm_url(table), {"by": names(table)[0], "scorecard": card}, "late")
    assert late.status_code == 409


def test_a_scorecard_changed_since_it_was_attested_is_a_clear_409(table: Table) -> None:
    client, card = play_offline_then_sync(table)
    players = names(table)
    # Another phone of the table corrected hole 2 before this phone's confirmation arrived.
    scoring_services.hole_update(
        table.game, 2, expected_version=1, entries={name: 7 for name in players}, ender=None
    )
    refused = send(client, confirm_url(table), {"by": players[1], "scorecard": card}, "attest")
    assert refused.status_code == 409
    (problem,) = refused.json()["errors"]
    assert problem["where"] == "scorecard"
    assert f"hole 2: {players[0]} has 7 here, 2 on your phone" in problem["message"]
    assert "confirm it again" in problem["message"]
    assert not Table.objects.get(pk=table.pk).is_confirmed
    # The players check the card as it stands and attest it again (a new write, a new key).
    card = {name: [scores[0], 7] for name, scores in card.items()}
    assert send(client, confirm_url(table), {"by": players[1], "scorecard": card}, "again").status_code == 200
    assert Table.objects.get(pk=table.pk).is_confirmed


def test_a_scorecard_with_fewer_holes_than_the_game_is_refused(table: Table) -> None:
    client, card = play_offline_then_sync(table)
    short = {name: scores[:1] for name, scores in card.items()}
    refused = send(client, confirm_url(table), {"by": names(table)[1], "scorecard": short}, "short")
    assert refused.status_code == 409
    assert "the server has 2 holes, your phone showed 1" in refused.json()["errors"][0]["message"]


@pytest.mark.parametrize(
    "scorecard",
    [
        [1, 2],
        {"Nobody": [1, 2]},
        {"x": "1,2"},
        {"x": [1, "2"]},
        {"x": [True, 2]},
        {"x": list(range(201))},
        {"x": [10**30, 2]},
        {"x": [1001, 2]},
        {f"p{n}": [1] for n in range(13)},
    ],
)
def test_a_malformed_scorecard_is_a_400_naming_it(table: Table, scorecard: object) -> None:
    client, card = play_offline_then_sync(table)
    if isinstance(scorecard, dict) and "x" in scorecard:
        scorecard = {**card, names(table)[0]: scorecard["x"]}
    answer = send(client, confirm_url(table), {"by": names(table)[1], "scorecard": scorecard}, "bad")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["where"] == "scorecard"
    assert Table.objects.get(pk=table.pk).confirmed_by_id is None


def test_without_a_scorecard_the_contract_is_unchanged(table: Table) -> None:
    client, _card = play_offline_then_sync(table)
    answer = client.post(confirm_url(table), {"by": names(table)[1]}, format="json")
    assert answer.status_code == 200 and answer.json()["confirmed"] is True
