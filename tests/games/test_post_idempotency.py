"""Issue 31 item 3: every POST of the games API honours `Idempotency-Key` as the tournament API's
do (SPEC "Safe writes"): a replay answers the first answer and writes nothing, the key with another
body is 422, an empty key is 400 naming the header; a POST that only computes checks the key and
answers the same. Sequential here; copies at the same moment are in test_post_idempotency_pg.py."""

from __future__ import annotations

import uuid

import pytest
from rest_framework.test import APIClient

from golfclub.core.limits import MIN_ANONYMOUS_IDEMPOTENCY_KEY
from scoring.models import Game, GameChange, IdempotentRequest, Player, Seat

pytestmark = pytest.mark.django_db

NEW_GAME = {"players": ["ann", "bob"], "ruleset": "official", "title": "Friday"}
#: Anonymous creators' keys are kept by address only, so they must be unguessable (16+ characters).
KEY = "create-1-0123456789abcdef"


def _post(api: APIClient, url: str, body: dict, key: str | None, **extra: str):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return api.post(url, body, format="json", **headers, **extra)


def test_it_makes_one_game_for_three_sends_of_one_create_with_one_key(api):
    answers = [_post(api, "/api/v1/games/", NEW_GAME, KEY) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert Game.objects.count() == 1
    first, *copies = answers
    assert not first.has_header("Idempotent-Replayed")
    for copy in copies:
        assert copy.content == first.content  # the same body, the same edit token
        assert copy["Location"] == first["Location"]
        assert copy["Idempotent-Replayed"] == "true"
    assert first.json()["edit_token"] == Game.objects.get().edit_token


def test_it_refuses_the_key_with_another_body_and_creates_nothing(api):
    assert _post(api, "/api/v1/games/", NEW_GAME, KEY).status_code == 201
    other = _post(api, "/api/v1/games/", {**NEW_GAME, "players": ["cy", "dee"]}, KEY)
    assert other.status_code == 422, other.content
    assert other.json()["errors"][0]["where"] == "Idempotency-Key"
    assert Game.objects.count() == 1


@pytest.mark.parametrize("key", ["", "   ", "x" * 256])
def test_it_refuses_an_empty_or_unusable_key_naming_the_header(api, key):
    refused = _post(api, "/api/v1/games/", NEW_GAME, key)
    assert refused.status_code == 400, refused.content
    assert refused.json()["errors"][0]["where"] == "Idempotency-Key"
    assert Game.objects.count() == 0


def test_it_still_creates_a_game_per_send_without_a_key(api):
    for _ in range(2):
        assert _post(api, "/api/v1/games/", NEW_GAME, None).status_code == 201
    assert Game.objects.count() == 2


def test_it_keeps_anonymous_creators_keys_apart_by_address(api):
    """Two strangers sending the same key create a game each: neither gets the other's edit link."""
    ann = _post(api, "/api/v1/games/", NEW_GAME, KEY, REMOTE_ADDR="198.51.100.1")
    bob = _post(APIClient(), "/api/v1/games/", NEW_GAME, KEY, REMOTE_ADDR="198.51.100.2")
    assert ann.status_code == bob.status_code == 201
    assert ann.json()["edit_token"] != bob.json()["edit_token"]
    assert Game.objects.count() == 2


@pytest.mark.parametrize("key", ["1", "create-1", "x" * (MIN_ANONYMOUS_IDEMPOTENCY_KEY - 1)])
def test_it_refuses_an_anonymous_creators_guessable_key_naming_the_header(api, key):
    """Without an account or a link the key is the only secret between clients at one address:
    a short one is refused before anything is written (nothing to replay to a neighbour)."""
    refused = _post(api, "/api/v1/games/", NEW_GAME, key)
    assert refused.status_code == 400, refused.content
    error = refused.json()["errors"][0]
    assert error["where"] == "Idempotency-Key"
    assert f"at least {MIN_ANONYMOUS_IDEMPOTENCY_KEY} characters" in error["message"]
    assert "sharing your address" in error["message"]
    assert Game.objects.count() == 0
    assert IdempotentRequest.objects.count() == 0


def test_it_replays_only_to_the_holder_of_the_key_at_a_shared_address(api):
    """The reviewer's case: two anonymous clients behind one address (Wi-Fi, NAT, a proxy), the
    same body. Each sends its own UUID: A's copy replays A's game, B gets a game of its own."""
    ann_key, bob_key = str(uuid.uuid4()), str(uuid.uuid4())
    ann = _post(api, "/api/v1/games/", NEW_GAME, ann_key, REMOTE_ADDR="10.0.0.1")
    bob = _post(APIClient(), "/api/v1/games/", NEW_GAME, bob_key, REMOTE_ADDR="10.0.0.1")
    ann_again = _post(APIClient(), "/api/v1/games/", NEW_GAME, ann_key, REMOTE_ADDR="10.0.0.1")
    assert ann.status_code == bob.status_code == ann_again.status_code == 201
    assert not bob.has_header("Idempotent-Replayed")
    assert bob.json()["edit_token"] != ann.json()["edit_token"]
    assert ann_again["Idempotent-Replayed"] == "true" and ann_again.content == ann.content
    assert Game.objects.count() == 2
    # And the guessable key the reviewer used ("1") gets nobody anything.
    assert _post(APIClient(), "/api/v1/games/", NEW_GAME, "1", REMOTE_ADDR="10.0.0.1").status_code == 400
    assert Game.objects.count() == 2


def test_it_still_takes_a_logged_in_creators_short_key(api, django_user_model):
    api.force_login(django_user_model.objects.create_user("host", password="pw-12345-long"))
    first, again = (_post(api, "/api/v1/games/", NEW_GAME, "1") for _ in range(2))
    assert first.status_code == again.status_code == 201, first.content
    assert again["Idempotent-Replayed"] == "true" and again.content == first.content
    assert Game.objects.count() == 1


@pytest.mark.parametrize("key", ["1", "5f0c3e9a-8d2b-4c71-9a3e-2b6d1f7e4c08"])
def test_it_tells_an_anonymous_roster_post_to_log_in_whatever_its_key(api, key):
    """The roster is for logged-in users: an anonymous POST is refused for that, not for its key."""
    refused = _post(api, "/api/v1/players/", {"name": "Ann"}, key)
    assert refused.status_code in (401, 403), refused.content
    assert "Log in" in refused.json()["detail"]
    assert Player.objects.count() == 0


def test_it_keeps_a_logged_in_creators_keys_by_account_across_addresses(api, django_user_model):
    api.force_login(django_user_model.objects.create_user("host", password="pw-12345-long"))
    first = _post(api, "/api/v1/games/", NEW_GAME, "mine", REMOTE_ADDR="198.51.100.1")
    again = _post(api, "/api/v1/games/", NEW_GAME, "mine", REMOTE_ADDR="203.0.113.9")  # on the bus
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert Game.objects.count() == 1


def test_it_adds_one_player_for_a_repeated_add_with_one_key(api):
    token = _post(api, "/api/v1/games/", NEW_GAME, None).json()["edit_token"]
    url = f"/api/v1/games/{token}/players/"
    answers = [_post(api, url, {"name": "cy"}, "add-cy") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert len({a.content for a in answers}) == 1
    seats = Seat.objects.filter(game__edit_token=token).order_by("seat")
    assert list(seats.values_list("name", flat=True)) == ["ann", "bob", "cy"]
    assert _post(api, url, {"name": "dee"}, "add-cy").status_code == 422


def test_it_undoes_once_for_a_repeated_undo_with_one_key(api):
    token = _post(api, "/api/v1/games/", NEW_GAME, None).json()["edit_token"]
    for points in (3, 4):
        _post(api, f"/api/v1/games/{token}/holes/", {"entries": {"ann": points, "bob": 5}}, None)
    change = api.get(f"/api/v1/games/{token}/scoreboard/").json()["undo"]["id"]
    url = f"/api/v1/games/{token}/undo/"
    answers = [_post(api, url, {"change": change}, "undo-1") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200], answers[-1].content
    assert len({a.content for a in answers}) == 1
    game = Game.objects.get(edit_token=token)
    assert game.holes.count() == 1  # one hole undone, not two
    assert GameChange.objects.filter(game=game).count() == 3  # two holes and one undo


def test_it_adds_one_roster_player_for_a_repeated_add_with_one_key(api, django_user_model):
    api.force_login(django_user_model.objects.create_user("host", password="pw-12345-long"))
    answers = [_post(api, "/api/v1/players/", {"name": "Ann"}, "roster-ann") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert Player.objects.count() == 1


@pytest.mark.parametrize(
    ("url", "body"),
    [
        ("/api/v1/score/", {"grid": [["Q", "7", "K"], ["Q", "7", "3"]], "ruleset": "official"}),
        (
            "/api/v1/score-hole/",
            {"ruleset": "official", "grids": {"ann": [["Q", "7", "K"], ["Q", "7", "3"]]}, "ender": None},
        ),
    ],
)
def test_it_answers_a_computing_post_the_same_with_a_key_and_checks_the_key(api, url, body):
    first, again = (_post(api, url, body, "calc-1") for _ in range(2))
    assert first.status_code == again.status_code == 200, first.content
    assert first.content == again.content
    refused = _post(api, url, body, "")
    assert refused.status_code == 400 and refused.json()["errors"][0]["where"] == "Idempotency-Key"


def test_it_checks_the_key_of_the_rulings_advice_which_writes_nothing(api):
    body = {"situation": "looked_at_face_down_card", "facts": {}}
    assert _post(api, "/api/v1/rulings/advise/", body, "advice-1").status_code == 200
    refused = _post(api, "/api/v1/rulings/advise/", body, "")
    assert refused.status_code == 400 and refused.json()["errors"][0]["where"] == "Idempotency-Key"
