"""Retries, double taps and old validators: a repeat never changes more than the first request did.

ETags name one hole (its id, kept when renumbered) and one version; deletes and undo name what they
act on; a replayed hole POST answers what is true now, with the same headers as the first answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from golfclub.core.errors import status_for
from scoring import services
from scoring.models import Game, GameChange, Hole, IdempotentRequest

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_holes() -> Game:
    """ann and bob, four holes: ann scored 1, 2, 3, 4 and bob 10, 20, 30, 40."""
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    for n in (1, 2, 3, 4):
        services.hole_record(game, entries={"ann": n, "bob": n * 10}, ender=None)
    return game


def ann_scores(game: Game) -> list[int]:
    holes = Hole.objects.filter(game=game, is_playoff=False).order_by("number")
    return [hole.entries.get(seat__name="ann").score for hole in holes]


def latest_change(game: Game) -> int:
    return GameChange.objects.filter(game=game).order_by("-pk").first().pk


# -- an ETag names one hole, forever -----------------------------------------------------------


def test_it_refuses_an_etag_of_a_renumbered_hole_on_put_and_delete(four_holes, api):
    token = four_holes.edit_token
    old_third = api.get(f"/api/v1/games/{token}/holes/3/")["ETag"]
    second = api.get(f"/api/v1/games/{token}/holes/2/")["ETag"]
    assert api.delete(f"/api/v1/games/{token}/holes/2/", HTTP_IF_MATCH=second).status_code == 204
    # What was hole 4 is now hole 3: the old hole 3's ETag must not reach it.
    put = api.put(
        f"/api/v1/games/{token}/holes/3/",
        {"entries": {"ann": 9, "bob": 9}},
        format="json",
        HTTP_IF_MATCH=old_third,
    )
    assert put.status_code == 412 and "renumbered" in put.json()["detail"]
    assert api.delete(f"/api/v1/games/{token}/holes/3/", HTTP_IF_MATCH=old_third).status_code == 412
    assert ann_scores(four_holes) == [1, 3, 4]
    # The ETag still names its own hole, now number 2.
    moved = api.put(
        f"/api/v1/games/{token}/holes/2/",
        {"entries": {"ann": 9, "bob": 9}},
        format="json",
        HTTP_IF_MATCH=old_third,
    )
    assert moved.status_code == 412  # renumbering bumped its version: it changed since it was read
    fresh = api.get(f"/api/v1/games/{token}/holes/2/")["ETag"]
    put = api.put(
        f"/api/v1/games/{token}/holes/2/",
        {"entries": {"ann": 9, "bob": 9}},
        format="json",
        HTTP_IF_MATCH=fresh,
    )
    assert put.status_code == 200 and ann_scores(four_holes) == [1, 9, 4]


def test_it_refuses_the_old_hole_only_etag_format(four_holes, api):
    url = f"/api/v1/games/{four_holes.edit_token}/holes/2/"
    response = api.put(url, {"entries": {"ann": 9, "bob": 9}}, format="json", HTTP_IF_MATCH='"hole-1"')
    assert response.status_code == 412 and response.json()["errors"][0]["where"] == "If-Match"


def test_it_tags_the_game_scoreboard_with_the_game_id_so_two_games_never_share_an_etag(api):
    one = services.create_game(players=["ann", "bob"], ruleset="official")
    two = services.create_game(players=["cy", "di"], ruleset="official")
    tag_one = api.get(f"/api/v1/games/{one.edit_token}/scoreboard/")["ETag"]
    assert tag_one == f'"game-{one.pk}-v{one.version}"'
    assert (
        api.get(f"/api/v1/games/{two.edit_token}/scoreboard/", HTTP_IF_NONE_MATCH=tag_one).status_code == 200
    )


def test_it_refuses_a_page_correction_loaded_before_a_renumber(four_holes, client):
    token = four_holes.edit_token
    form = client.get(f"/games/e/{token}/holes/3/").content.decode()
    assert f'name="hole_id" value="{Hole.objects.get(game=four_holes, number=3).pk}"' in form
    third = Hole.objects.get(game=four_holes, number=3)
    second = Hole.objects.get(game=four_holes, number=2)
    services.hole_delete(four_holes, 2, expected_id=second.pk, expected_version=second.version)
    data = {"hole_id": str(third.pk), "version": "1", "p0-total": "9", "p1-total": "9", "ender": ""}
    response = client.post(f"/games/e/{token}/holes/3/", data)
    assert response.status_code == 409 and "someone else changed this hole" in response.content.decode()
    assert ann_scores(four_holes) == [1, 3, 4]


def test_it_deletes_once_when_the_page_confirmation_is_tapped_twice(four_holes, client):
    token = four_holes.edit_token
    third = Hole.objects.get(game=four_holes, number=3)
    confirm = {"hole_id": str(third.pk), "version": str(third.version)}
    first = client.post(f"/games/e/{token}/holes/3/delete/", confirm, follow=True)
    assert "Hole 3 deleted." in first.content.decode()
    again = client.post(f"/games/e/{token}/holes/3/delete/", confirm, follow=True)
    assert "Hole 3 was already deleted: nothing more was deleted." in again.content.decode()
    assert ann_scores(four_holes) == [1, 2, 4]


def test_it_deletes_nothing_from_a_confirmation_that_names_no_hole(four_holes, client):
    response = client.post(f"/games/e/{four_holes.edit_token}/holes/3/delete/", {"version": "1"}, follow=True)
    assert "nothing was deleted" in response.content.decode()
    assert ann_scores(four_holes) == [1, 2, 3, 4]


# -- retries never remove more than one thing --------------------------------------------------------


def test_it_deletes_one_hole_when_the_api_delete_is_retried(four_holes, api):
    url = f"/api/v1/games/{four_holes.edit_token}/holes/2/"
    tag = api.get(url)["ETag"]
    assert api.delete(url, HTTP_IF_MATCH=tag).status_code == 204
    retry = api.delete(url, HTTP_IF_MATCH=tag)
    assert retry.status_code == 412 and "already deleted" in retry.json()["detail"]
    assert ann_scores(four_holes) == [1, 3, 4]


def test_it_requires_a_named_hole_to_delete(four_holes, api):
    url = f"/api/v1/games/{four_holes.edit_token}/holes/2/"
    assert api.delete(url).status_code == 428
    assert api.delete(url, HTTP_IF_MATCH="*").status_code == 428
    assert ann_scores(four_holes) == [1, 2, 3, 4]


def test_it_removes_one_player_when_the_api_delete_is_retried(api):
    game = services.create_game(players=["ann", "bob", "cy"], ruleset="official")
    url = f"/api/v1/games/{game.edit_token}/players/1/"
    listed = api.get(f"/api/v1/games/{game.edit_token}/players/").json()
    tag = listed[1]["etag"]
    assert tag == api.get(url)["ETag"]
    assert api.delete(url, HTTP_IF_MATCH=tag).status_code == 204
    retry = api.delete(url, HTTP_IF_MATCH=tag)
    assert retry.status_code == 412 and "cy sits there now" in retry.json()["detail"]
    assert list(game.seats.order_by("seat").values_list("name", flat=True)) == ["ann", "cy"]


def test_it_undoes_once_when_the_undo_form_is_resent(four_holes, client):
    token = four_holes.edit_token
    sent = {"change": str(latest_change(four_holes))}
    client.post(f"/games/e/{token}/undo/", sent)
    again = client.post(f"/games/e/{token}/undo/", sent, follow=True)
    assert "That change was already undone: nothing more was undone." in again.content.decode()
    assert ann_scores(four_holes) == [1, 2, 3]


def test_it_undoes_nothing_from_a_form_that_names_no_change(four_holes, client):
    response = client.post(f"/games/e/{four_holes.edit_token}/undo/", follow=True)
    assert "nothing was changed" in response.content.decode()
    assert ann_scores(four_holes) == [1, 2, 3, 4]


def test_it_redoes_what_undo_reverted_and_walks_forward_again(four_holes, client):
    token = four_holes.edit_token
    for _ in range(2):
        client.post(f"/games/e/{token}/undo/", {"change": str(services_undo_target(four_holes))})
    assert ann_scores(four_holes) == [1, 2]
    page = client.get(f"/games/e/{token}/").content.decode()
    assert "Redo: Hole 3 recorded" in page
    redo = {"change": str(services_redo_target(four_holes))}
    done = client.post(f"/games/e/{token}/redo/", redo, follow=True).content.decode()
    assert "Redone: recorded hole 3." in done and ann_scores(four_holes) == [1, 2, 3]
    again = client.post(f"/games/e/{token}/redo/", redo, follow=True).content.decode()
    assert "That undo was already redone" in again and ann_scores(four_holes) == [1, 2, 3]
    client.post(f"/games/e/{token}/redo/", {"change": str(services_redo_target(four_holes))})
    assert ann_scores(four_holes) == [1, 2, 3, 4]
    assert "Redo:" not in client.get(f"/games/e/{token}/").content.decode()
    four_holes.refresh_from_db()
    assert dict(four_holes.seats.values_list("name", "total")) == {"ann": 10, "bob": 100}


def test_it_undoes_a_redo_and_redoes_it_again(four_holes):
    services.hole_update(four_holes, 2, expected_version=1, entries={"ann": 7, "bob": 7}, ender=None)
    services.undo_last_change(four_holes)
    assert ann_scores(four_holes) == [1, 2, 3, 4]
    services.redo_change(four_holes)
    assert ann_scores(four_holes) == [1, 7, 3, 4]
    services.undo_last_change(four_holes)
    assert ann_scores(four_holes) == [1, 2, 3, 4]
    services.redo_change(four_holes)
    assert ann_scores(four_holes) == [1, 7, 3, 4]
    four_holes.refresh_from_db()
    assert dict(four_holes.seats.values_list("name", "total")) == {"ann": 15, "bob": 87}


def test_it_offers_no_redo_once_a_new_hole_is_recorded(four_holes):
    services.undo_last_change(four_holes)
    assert services_redo_target(four_holes) is not None
    services.hole_record(four_holes, entries={"ann": 5, "bob": 5}, ender=None)
    assert services_redo_target(four_holes) is None
    with pytest.raises(services.GameError):
        services.redo_change(four_holes)


def test_it_redoes_a_delete_and_puts_later_holes_back_in_order(four_holes):
    second = Hole.objects.get(game=four_holes, number=2)
    services.hole_delete(four_holes, 2, expected_id=second.pk, expected_version=second.version)
    services.undo_last_change(four_holes)
    assert ann_scores(four_holes) == [1, 2, 3, 4]
    services.redo_change(four_holes)
    assert ann_scores(four_holes) == [1, 3, 4]


def test_it_serves_undo_and_redo_targets_and_redo_on_the_api(four_holes, api):
    token = four_holes.edit_token
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["redo"] is None and board["undo"]["action"] == "create" and board["undo"]["hole_number"] == 4
    api.post(f"/api/v1/games/{token}/undo/", {"change": board["undo"]["id"]}, format="json")
    redo = api.get(f"/api/v1/games/{token}/scoreboard/").json()["redo"]
    done = api.post(f"/api/v1/games/{token}/redo/", {"change": redo["id"]}, format="json")
    assert done.status_code == 200 and done.json()["action"] == "redo"
    assert api.post(f"/api/v1/games/{token}/redo/", {"change": redo["id"]}, format="json").status_code == 409
    assert ann_scores(four_holes) == [1, 2, 3, 4]


def services_undo_target(game: Game) -> int:
    from scoring.selectors import undo_target_change

    return undo_target_change(game).pk


def services_redo_target(game: Game) -> int | None:
    from scoring.selectors import redo_target_change

    found = redo_target_change(game)
    return found.pk if found else None


# -- replays are the same answer ----------------------------------------------------------------------


def post_ann_3_bob_4(api: APIClient, game: Game, key: str) -> Any:
    """POST a new hole of `game` through the API, ann 3 and bob 4, with Idempotency-Key `key`."""
    body = {"entries": {"ann": 3, "bob": 4}}
    return api.post(f"/api/v1/games/{game.edit_token}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_it_replays_a_hole_post_with_the_same_headers_and_byte_identical_body(api):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    url = f"/api/v1/games/{game.edit_token}/holes/"
    body = {"entries": {"ann": [["Q", "7", "K"], ["Q", "7", "3"]], "bob": 4}, "ender": "bob"}
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 201
    assert again.content == first.content  # the same keys in the same order
    assert again["ETag"] == first["ETag"] and again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert Hole.objects.filter(game=game).count() == 1


def test_it_tells_a_replay_that_its_hole_was_undone_since(api):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    assert post_ann_3_bob_4(api, game, "k1").status_code == 201
    services.undo_last_change(game)
    again = post_ann_3_bob_4(api, game, "k1")
    assert again.status_code == 409 and "hole 1, which has since been undone" in again.json()["detail"]
    assert Hole.objects.filter(game=game).count() == 0 and IdempotentRequest.objects.count() == 1


def test_it_replays_the_hole_as_it_stands_after_a_correction(api):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    first = post_ann_3_bob_4(api, game, "k1")
    fixed = APIClient().put(
        first["Location"], {"entries": {"ann": 5, "bob": 4}}, format="json", HTTP_IF_MATCH=first["ETag"]
    )
    again = post_ann_3_bob_4(api, game, "k1")
    assert again.status_code == 201 and again["ETag"] == fixed["ETag"] != first["ETag"]
    assert [e["score"] for e in again.json()["entries"]] == [5, 4]


def test_it_says_the_last_hole_was_saved_by_someone_else_rather_than_the_match_is_over(client):
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": 1})
    form = {"number": "1", "idempotency_key": "phone-b", "p0-total": "7", "p1-total": "8", "ender": ""}
    services.hole_record(game, entries={"ann": 3, "bob": 4}, ender=None)  # phone A, first
    response = client.post(f"/games/e/{game.edit_token}/holes/new/", form, follow=True)
    body = response.content.decode()
    assert "Hole 1 was just saved by someone else" in body and "Hole 1 saved: ann 3, bob 4." in body
    assert Hole.objects.filter(game=game).count() == 1


def test_it_replays_a_hole_post_after_undo_and_redo_brought_its_hole_back(api):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    first = post_ann_3_bob_4(api, game, "k3")
    services.undo_last_change(game)
    services.redo_change(game)
    again = post_ann_3_bob_4(api, game, "k3")
    assert again.status_code == 201 and again["Location"] == first["Location"]
    assert again["ETag"] != first["ETag"]  # the same hole (its id), put back: a new version
    assert again.json()["etag"].startswith(first["ETag"][: first["ETag"].index("-v")])
    assert Hole.objects.filter(game=game).count() == 1


def test_it_replays_a_hole_post_after_its_delete_was_undone(api):
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    first = post_ann_3_bob_4(api, game, "k1")
    assert api.delete(first["Location"], HTTP_IF_MATCH=first["ETag"]).status_code == 204
    assert post_ann_3_bob_4(api, game, "k1").status_code == 409
    services.undo_last_change(game)
    again = post_ann_3_bob_4(api, game, "k1")
    assert again.status_code == 201 and [e["score"] for e in again.json()["entries"]] == [3, 4]


def test_it_refuses_a_key_of_a_regular_hole_sent_to_the_playoff_holes(api):
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": 1})
    token = game.edit_token
    body = {"entries": {"ann": 4, "bob": 4}}
    assert (
        api.post(f"/api/v1/games/{token}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code
        == 201
    )
    playoff = api.post(f"/api/v1/games/{token}/playoff-holes/", body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert playoff.status_code == 422
    assert Hole.objects.filter(game=game, is_playoff=True).count() == 0


def _tie_after_three_holes() -> Game:
    """ann and bob tied for first after three holes (cy far behind), one playoff hole tied again."""
    game = services.create_game(players=["ann", "bob", "cy"], ruleset={"preset": "official", "holes": 3})
    services.hole_record(game, entries={"ann": 0, "bob": 0, "cy": 9}, ender=None)
    services.hole_record(game, entries={"ann": 0, "bob": 0, "cy": 0}, ender=None)
    services.hole_record(game, entries={"ann": 0, "bob": 0, "cy": 0}, ender=None)
    services.hole_record(game, entries={"ann": 3, "bob": 3}, ender=None, playoff=True)
    return game


def test_it_refuses_a_regular_hole_change_that_would_leave_playoff_holes_deciding_another_tie():
    game = _tie_after_three_holes()
    first = Hole.objects.get(game=game, number=1, is_playoff=False)
    with pytest.raises(services.GameError) as refused:
        services.hole_delete(game, 1, expected_id=first.pk, expected_version=first.version)
    assert status_for(refused.value) == 409 and "Delete the playoff holes first" in refused.value.message
    with pytest.raises(services.GameError):
        services.hole_update(
            game, 1, expected_version=None, entries={"ann": 0, "bob": 5, "cy": 9}, ender=None
        )
    assert Hole.objects.filter(game=game).count() == 4
    game.refresh_from_db()
    assert game.status == "sudden_death"


def test_it_allows_a_regular_hole_correction_that_keeps_the_same_tie():
    game = _tie_after_three_holes()
    services.hole_update(game, 1, expected_version=None, entries={"ann": 0, "bob": 0, "cy": 12}, ender=None)
    game.refresh_from_db()
    assert game.status == "sudden_death" and dict(game.seats.values_list("name", "total"))["cy"] == 12


def test_it_takes_any_of_several_etags_in_if_match(four_holes, api):
    url = f"/api/v1/games/{four_holes.edit_token}/holes/2/"
    hole = Hole.objects.get(game=four_holes, number=2)
    services.hole_update(four_holes, 2, expected_version=1, entries={"ann": 5, "bob": 5}, ender=None)
    tags = f'"hole-{hole.pk}-v1", "hole-{hole.pk}-v2"'  # an old one, then the current one
    response = api.put(url, {"entries": {"ann": 6, "bob": 6}}, format="json", HTTP_IF_MATCH=tags)
    assert response.status_code == 200 and ann_scores(four_holes) == [1, 6, 3, 4]
    stale = api.put(url, {"entries": {"ann": 7, "bob": 7}}, format="json", HTTP_IF_MATCH=tags)
    assert stale.status_code == 412 and ann_scores(four_holes) == [1, 6, 3, 4]
