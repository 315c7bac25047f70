"""The live-games API end to end: every endpoint, errors, tokens, ETag/If-Match and Idempotency-Key."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.models import Game, Hole, IdempotentRequest

from .conftest import GRID_3, GRID_21

pytestmark = pytest.mark.django_db


def create(api, players=("ann", "bob"), **extra) -> dict:
    response = api.post("/api/v1/games/", {"players": list(players), **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def hole_id(token: str, number: int, playoff: bool = False) -> int:
    """The primary key of hole `number` of the game with edit token `token` (its ETag names it)."""
    return Hole.objects.get(game__edit_token=token, number=number, is_playoff=playoff).pk


def post_hole(api, token: str, entries: dict, ender=None, key: str | None = None, playoff: bool = False):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    path = "playoff-holes" if playoff else "holes"
    return api.post(
        f"/api/v1/games/{token}/{path}/", {"entries": entries, "ender": ender}, format="json", **headers
    )


def assert_error_shape(response, status: int) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["detail"] and body["errors"] and all({"where", "message"} <= set(e) for e in body["errors"])
    return body


# -- games -------------------------------------------------------------------------------------------


def test_it_creates_a_game_and_answers_the_edit_token_and_links(api):
    body = create(api, ("Ann", "Bob", "Cy"), ruleset={"preset": "official", "holes": 6}, title="Friday")
    assert body["can_edit"] and body["edit_token"] and body["view_token"] != body["edit_token"]
    assert body["ruleset"]["holes"] == 6 and body["preset"] == "official" and body["title"] == "Friday"
    assert [p["name"] for p in body["players"]] == ["Ann", "Bob", "Cy"]
    assert body["links"]["scoreboard"].endswith(f"/api/v1/games/{body['edit_token']}/scoreboard/")
    assert body["links"]["view"].endswith(f"/api/v1/games/{body['view_token']}/")
    assert Game.objects.get(edit_token=body["edit_token"]).owner is None


def test_it_answers_400_json_naming_every_bad_field(api):
    body = assert_error_shape(
        api.post("/api/v1/games/", {"players": ["ann"], "colour": "red"}, format="json"), 400
    )
    wheres = {e["where"] for e in body["errors"]}
    assert "colour" in wheres and any(w.startswith("players") for w in wheres)
    body = assert_error_shape(
        api.post("/api/v1/games/", {"players": ["a", "b"], "ruleset": "nope"}, format="json"), 400
    )
    assert "nope" in body["detail"]
    response = api.post("/api/v1/games/", "{not json", content_type="application/json")
    assert_error_shape(response, 400)


def test_it_reads_a_game_by_edit_or_view_token_and_hides_the_edit_token_from_viewers(api):
    game = create(api)
    by_view = api.get(f"/api/v1/games/{game['view_token']}/").json()
    assert not by_view["can_edit"] and "edit_token" not in by_view and "edit" not in by_view["links"]
    assert api.get(f"/api/v1/games/{game['edit_token']}/").json()["can_edit"]


def test_it_answers_404_for_an_unknown_token(api):
    for path in ("", "holes/", "holes/1/", "scoreboard/", "history/", "players/", "export.csv", "results/"):
        body = assert_error_shape(api.get(f"/api/v1/games/not-a-real-token/{path}"), 404)
        assert "No game has this link" in body["detail"]


def test_it_refuses_every_write_through_the_view_token_with_403(api):
    game = create(api)
    view = game["view_token"]
    writes = [
        api.patch(f"/api/v1/games/{view}/", {"title": "x"}, format="json"),
        api.delete(f"/api/v1/games/{view}/"),
        post_hole(api, view, {"ann": 3, "bob": 4}),
        api.post(f"/api/v1/games/{view}/players/", {"name": "cy"}, format="json"),
        api.post(f"/api/v1/games/{view}/undo/", {}, format="json"),
    ]
    writes.append(api.post(f"/api/v1/games/{view}/holes/", {"entries": "bad"}, format="json"))
    for response in writes:
        body = assert_error_shape(response, 403)
        assert "read-only link" in body["detail"]
    assert not Hole.objects.exists()
    assert_error_shape(api.post("/api/v1/games/nope/holes/", {"entries": "bad"}, format="json"), 404)
    assert_error_shape(post_hole(api, "x" * 65, {"ann": 3, "bob": 4}), 404)


def test_it_renames_changes_the_ruleset_then_refuses_with_seed_001_and_deletes(api):
    token = create(api)["edit_token"]
    body = api.patch(f"/api/v1/games/{token}/", {"title": "Sunday", "ruleset": "basic"}, format="json").json()
    assert body["title"] == "Sunday" and body["preset"] == "basic"
    post_hole(api, token, {"ann": 3, "bob": 4}, ender="bob")
    body = assert_error_shape(
        api.patch(f"/api/v1/games/{token}/", {"ruleset": "official"}, format="json"), 409
    )
    assert "seed 001" in body["detail"]
    assert api.delete(f"/api/v1/games/{token}/").status_code == 204
    assert api.get(f"/api/v1/games/{token}/").status_code == 404


def test_it_lists_the_owners_games_only_when_logged_in(api, django_user_model):
    assert_error_shape(api.get("/api/v1/games/"), 403)
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    api.force_login(user)
    mine = create(api)
    api.logout()
    create(api)  # someone else's
    api.force_login(user)
    listed = api.get("/api/v1/games/").json()
    assert [g["edit_token"] for g in listed] == [mine["edit_token"]]


# -- players --------------------------------------------------------------------------------------


def test_it_adds_renames_and_removes_players_at_the_table(api):
    token = create(api)["edit_token"]
    added = api.post(f"/api/v1/games/{token}/players/", {"name": "cy"}, format="json")
    assert added.status_code == 201 and added.json()["seat"] == 2
    assert (
        api.patch(f"/api/v1/games/{token}/players/2/", {"name": "Cyd"}, format="json").json()["name"] == "Cyd"
    )
    assert api.get(f"/api/v1/games/{token}/players/2/").json()["name"] == "Cyd"
    assert_error_shape(api.delete(f"/api/v1/games/{token}/players/0/"), 428)
    seat_tag = api.get(f"/api/v1/games/{token}/players/0/")["ETag"]
    assert api.delete(f"/api/v1/games/{token}/players/0/", HTTP_IF_MATCH=seat_tag).status_code == 204
    # The same DELETE again (a retry): bob moved up into seat 0 and is not removed.
    assert_error_shape(api.delete(f"/api/v1/games/{token}/players/0/", HTTP_IF_MATCH=seat_tag), 412)
    assert [p["name"] for p in api.get(f"/api/v1/games/{token}/players/").json()] == ["bob", "Cyd"]
    assert_error_shape(api.get(f"/api/v1/games/{token}/players/9/"), 404)
    body = assert_error_shape(
        api.post(f"/api/v1/games/{token}/players/", {"name": "BOB"}, format="json"), 400
    )
    assert "already at the table" in body["detail"]
    post_hole(api, token, {"bob": 3, "Cyd": 4})
    assert_error_shape(api.post(f"/api/v1/games/{token}/players/", {"name": "dee"}, format="json"), 409)


def test_it_keeps_a_roster_for_logged_in_users(api, django_user_model):
    assert_error_shape(api.get("/api/v1/players/"), 403)
    user = django_user_model.objects.create_user("host", password="pw-12345-long")
    api.force_login(user)
    created = api.post("/api/v1/players/", {"name": "Ann"}, format="json")
    assert created.status_code == 201
    player_id = created.json()["id"]
    assert_error_shape(api.post("/api/v1/players/", {"name": "ann"}, format="json"), 400)
    assert (
        api.patch(f"/api/v1/players/{player_id}/", {"name": "Annie"}, format="json").json()["name"] == "Annie"
    )
    assert [p["name"] for p in api.get("/api/v1/players/").json()] == ["Annie"]
    assert api.delete(f"/api/v1/players/{player_id}/").status_code == 204
    assert_error_shape(api.get(f"/api/v1/players/{player_id}/"), 404)


# -- holes and entries ---------------------------------------------------------------------------


def test_it_records_a_hole_with_grids_and_typed_totals(api):
    token = create(api, ("ann", "bob", "cy"))["edit_token"]
    response = post_hole(api, token, {"ann": GRID_3, "bob": GRID_21, "cy": {"total": 12}}, ender="ann")
    assert response.status_code == 201
    hole = response.json()
    assert response["ETag"] == f'"hole-{hole_id(token, 1)}-v1"' and response["Location"].endswith(
        f"/api/v1/games/{token}/holes/1/"
    )
    scores = {e["name"]: (e["score"], e["typed"]) for e in hole["entries"]}
    assert scores == {"ann": (3, False), "bob": (21, False), "cy": (12, True)}
    assert hole["dealer"] == "ann" and hole["ender"] == "ann"
    assert api.get(f"/api/v1/games/{token}/holes/").json()[0]["number"] == 1
    entries = api.get(f"/api/v1/games/{token}/holes/1/entries/").json()
    assert [e["name"] for e in entries] == ["ann", "bob", "cy"]
    assert api.get(f"/api/v1/games/{token}/holes/1/entries/1/").json()["score"] == 21


def test_it_answers_400_for_bad_cards_and_deck_overflows_naming_where(api):
    token = create(api)["edit_token"]
    body = assert_error_shape(
        post_hole(api, token, {"ann": [["Q", "ZZ", "K"], ["Q", "7", "3"]], "bob": 3}), 400
    )
    assert body["errors"][0]["where"].startswith("entries.ann") and "ZZ" in body["detail"]
    body = assert_error_shape(
        post_hole(
            api, token, {"ann": [["5", "5", "5"], ["5", "K", "K"]], "bob": [["5", "2", "4"], ["A", "2", "3"]]}
        ),
        400,
    )
    assert "5" in body["detail"] and "ann 4" in body["detail"]
    body = assert_error_shape(post_hole(api, token, {"ann": 3}), 400)
    assert body["errors"][0]["where"] == "entries.bob"
    assert_error_shape(api.post(f"/api/v1/games/{token}/holes/", {"entries": "x"}, format="json"), 400)
    assert not Hole.objects.exists()


def test_it_requires_if_match_on_hole_updates_428_412_200(api):
    token = create(api)["edit_token"]
    post_hole(api, token, {"ann": 3, "bob": 4})
    url = f"/api/v1/games/{token}/holes/1/"
    etag = api.get(url)["ETag"]
    payload = {"entries": {"ann": 5, "bob": 6}, "ender": None}
    assert assert_error_shape(api.put(url, payload, format="json"), 428)["errors"][0]["where"] == "If-Match"
    assert_error_shape(api.put(url, payload, format="json", HTTP_IF_MATCH='W/"hole-1"'), 412)
    ok = api.put(url, payload, format="json", HTTP_IF_MATCH=etag)
    assert ok.status_code == 200 and ok["ETag"] == f'"hole-{hole_id(token, 1)}-v2"'
    assert [e["score"] for e in ok.json()["entries"]] == [5, 6]
    stale = api.put(url, {"entries": {"ann": 9, "bob": 9}}, format="json", HTTP_IF_MATCH=etag)
    body = assert_error_shape(stale, 412)
    assert "changed by someone else" in body["detail"]
    assert [e["score"] for e in api.get(url).json()["entries"]] == [5, 6]


def test_it_patches_one_player_and_puts_one_entry(api):
    token = create(api)["edit_token"]
    post_hole(api, token, {"ann": GRID_3, "bob": 4}, ender="bob")
    url = f"/api/v1/games/{token}/holes/1/"
    first = f'"hole-{hole_id(token, 1)}-v1"'
    patched = api.patch(url, {"entries": {"Bob": 7}}, format="json", HTTP_IF_MATCH=first).json()
    assert [(e["name"], e["score"]) for e in patched["entries"]] == [("ann", 3), ("bob", 7)]
    assert patched["ender"] == "bob" and patched["entries"][0]["cards"] == GRID_3
    entry = api.put(f"{url}entries/0/", {"total": 11}, format="json", HTTP_IF_MATCH=patched["etag"])
    assert entry.status_code == 200 and entry.json()["typed"] and entry.json()["score"] == 11
    assert_error_shape(api.put(f"{url}entries/0/", {"total": 1}, format="json"), 428)
    assert_error_shape(
        api.put(f"{url}entries/0/", {"total": 1, "cards": GRID_3}, format="json", HTTP_IF_MATCH="*"), 400
    )


def test_it_deletes_a_hole_named_by_if_match_and_undoes_it(api):
    token = create(api)["edit_token"]
    post_hole(api, token, {"ann": 3, "bob": 4})
    url = f"/api/v1/games/{token}/holes/1/"
    assert_error_shape(api.delete(url), 428)
    assert_error_shape(api.delete(url, HTTP_IF_MATCH="*"), 428)
    assert_error_shape(api.delete(url, HTTP_IF_MATCH='"hole-7"'), 412)
    assert api.delete(url + "?actor=Ann", HTTP_IF_MATCH=api.get(url)["ETag"]).status_code == 204
    assert_error_shape(api.get(url), 404)
    delete = api.get(f"/api/v1/games/{token}/scoreboard/").json()["undo"]
    assert delete["action"] == "delete" and delete["hole_number"] == 1
    undone = api.post(f"/api/v1/games/{token}/undo/", {"actor": "Bob", "change": delete["id"]}, format="json")
    assert undone.status_code == 200 and undone.json()["action"] == "undo" and undone.json()["actor"] == "Bob"
    assert api.get(url).status_code == 200
    history = api.get(f"/api/v1/games/{token}/history/").json()
    assert [(h["action"], h["actor"]) for h in history] == [
        ("undo", "Bob"),
        ("delete", "Ann"),
        ("create", "API"),
    ]
    assert history[1]["undone"] and history[1]["before"]["entries"][0]["total"] == 3
    # The undo sent again changes nothing more: 409 saying it was already undone.
    again = api.post(f"/api/v1/games/{token}/undo/", {"change": delete["id"]}, format="json")
    assert "already undone" in assert_error_shape(again, 409)["detail"]
    assert assert_error_shape(api.post(f"/api/v1/games/{token}/undo/", {}, format="json"), 400)
    create_change = api.get(f"/api/v1/games/{token}/scoreboard/").json()["undo"]["id"]
    api.post(f"/api/v1/games/{token}/undo/", {"change": create_change}, format="json")
    last = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert last["undo"] is None and last["holes"] == []
    assert_error_shape(
        api.post(f"/api/v1/games/{token}/undo/", {"change": create_change}, format="json"), 409
    )


def test_it_replays_an_idempotent_post_and_refuses_the_key_with_another_body(api):
    token = create(api)["edit_token"]
    first = post_hole(api, token, {"ann": 3, "bob": 4}, key="k-1")
    again = post_hole(api, token, {"bob": 4, "ann": 3}, key="k-1")  # same body, other key order
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Hole.objects.count() == 1
    other = post_hole(api, token, {"ann": 9, "bob": 9}, key="k-1")
    body = assert_error_shape(other, 422)
    assert "different request body" in body["detail"]
    assert post_hole(api, token, {"ann": 9, "bob": 9}, key="k-2").json()["number"] == 2
    assert IdempotentRequest.objects.count() == 2
    too_long = post_hole(api, token, {"ann": 1, "bob": 1}, key="k" * 256)
    assert assert_error_shape(too_long, 400)["errors"][0]["where"] == "Idempotency-Key"
    # A header sent empty is not "no key": the phone would lose the protection without a word.
    for blank in ("", "  "):
        empty = api.post(
            f"/api/v1/games/{token}/holes/",
            {"entries": {"ann": 1, "bob": 1}},
            format="json",
            HTTP_IDEMPOTENCY_KEY=blank,
        )
        assert assert_error_shape(empty, 400)["errors"][0]["where"] == "Idempotency-Key"
    assert Hole.objects.count() == 2


def test_it_records_names_keys_and_actors_holding_percent_signs_and_quotes_verbatim(api):
    # Recording a hole sends its writes as one string bound value by value (scoring/db_batch.py):
    # placeholders and quotes in the values must come back as written, never be read as SQL.
    players = ("a%s", "100%", "o'neil", "%(x)s")
    token = create(api, players)["edit_token"]
    entries = {"a%s": GRID_3, "100%": 4, "o'neil": GRID_21, "%(x)s": 7}
    path = f"/api/v1/games/{token}/holes/?actor=%25(who)s%27"
    headers = {"HTTP_IDEMPOTENCY_KEY": "k%s'1"}
    first = api.post(path, {"entries": entries, "ender": "100%"}, format="json", **headers)
    assert first.status_code == 201, first.content
    assert first.json()["ender"] == "100%"
    assert [e["name"] for e in first.json()["entries"]] == list(players)
    again = api.post(path, {"entries": entries, "ender": "100%"}, format="json", **headers)
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() == api.get(first["Location"]).json()
    change = api.get(f"/api/v1/games/{token}/history/").json()[0]
    assert change["actor"] == "%(who)s'" and change["after"]["ender"] == "100%"
    assert IdempotentRequest.objects.get().key == "k%s'1"


def test_it_answers_a_new_hole_exactly_as_a_later_read_of_it(api):
    token = create(api, ("ann", "bob", "cy"))["edit_token"]
    post_hole(api, token, {"ann": 3, "bob": 4, "cy": 2})
    created = post_hole(api, token, {"ann": GRID_3, "bob": 7, "cy": GRID_21}, ender="bob", key="k")
    read = api.get(created["Location"])
    assert created.status_code == 201 and created.json() == read.json()
    assert created["ETag"] == read["ETag"] == f'"hole-{hole_id(token, 2)}-v1"' == created.json()["etag"]
    assert created.json()["dealer"] == "bob" and created.json()["ender"] == "bob"
    after = api.get(f"/api/v1/games/{token}/history/").json()[0]["after"]
    assert after["ender"] == "bob" and after["number"] == 2
    assert [(e["name"], e["seat"], e["score"], e["cards"], e["adjustments"]) for e in after["entries"]] == [
        (e["name"], e["seat"], e["score"], e["cards"], e["adjustments"]) for e in read.json()["entries"]
    ]
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["version"] == 3  # 1 when created, then one bump per hole
    first = {"ann": 3, "bob": 4, "cy": 2}
    assert board["totals"] == {e["name"]: first[e["name"]] + e["score"] for e in read.json()["entries"]}


def test_it_records_playoff_holes_only_for_the_contenders(api):
    token = create(api, ("ann", "bob", "cy"), ruleset={"preset": "official", "holes": 2})["edit_token"]
    assert_error_shape(post_hole(api, token, {"ann": 1, "bob": 1}, playoff=True), 409)
    post_hole(api, token, {"ann": 3, "bob": 5, "cy": 9})
    post_hole(api, token, {"ann": 5, "bob": 3, "cy": 9})
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["status"] == "sudden_death" and board["contenders"] == ["ann", "bob"]
    assert_error_shape(post_hole(api, token, {"ann": 1, "bob": 2, "cy": 3}), 409)
    assert_error_shape(post_hole(api, token, {"ann": 1, "bob": 2, "cy": 0}, playoff=True), 400)
    playoff = post_hole(api, token, {"ann": 1, "bob": 2}, playoff=True)
    assert playoff.status_code == 201 and playoff.json()["is_playoff"]
    assert api.get(f"/api/v1/games/{token}/playoff-holes/1/").json()["number"] == 1
    assert len(api.get(f"/api/v1/games/{token}/playoff-holes/").json()) == 1
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["status"] == "finished" and board["winners"] == ["ann"] and board["totals"]["ann"] == 8


# -- scoreboard and exports ------------------------------------------------------------------------


def test_it_serves_the_scoreboard_with_an_etag_and_304(api):
    token = create(api, ("ann", "bob", "cy"))["edit_token"]
    post_hole(api, token, {"ann": 3, "bob": 4, "cy": 2})
    response = api.get(f"/api/v1/games/{token}/scoreboard/")
    board = response.json()
    assert board["leaders"] == ["cy"] and board["totals"] == {"ann": 3, "bob": 4, "cy": 2}
    assert board["next_hole"] == {
        "number": 2, "is_playoff": False, "dealer_seat": 1, "dealer": "bob",
        "first_player_seat": 2, "first_player": "cy", "players": ["ann", "bob", "cy"],
    }  # fmt: skip
    assert board["cumulative"]["ann"] == [3] and board["ruleset"]["preset"] == "official"
    tag = response["ETag"]
    assert api.get(f"/api/v1/games/{token}/scoreboard/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    post_hole(api, token, {"ann": 3, "bob": 4, "cy": 2})
    assert api.get(f"/api/v1/games/{token}/scoreboard/", HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_it_exports_csv_json_and_results(api):
    token = create(api, ("ann", "bob"), ruleset={"preset": "official", "holes": 2}, title="Club night")[
        "edit_token"
    ]
    post_hole(api, token, {"ann": GRID_3, "bob": 10}, ender="ann")
    post_hole(api, token, {"ann": 4, "bob": 2})

    response = api.get(f"/api/v1/games/{token}/export.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="golf-club-night.csv"' in response["Content-Disposition"]
    sections = response.content.decode().split("\n\n")
    game_rows = list(csv.reader(io.StringIO(sections[0])))
    assert game_rows[1][0] == "Club night" and game_rows[1][4] == "ann"
    hole_rows = list(csv.DictReader(io.StringIO(sections[1])))
    assert len(hole_rows) == 4
    assert hole_rows[0]["cards"] == "Q 7 K / Q 7 3" and hole_rows[0]["score"] == "3"
    assert hole_rows[3]["running_total"] == "12"
    totals = list(csv.DictReader(io.StringIO(sections[2])))
    assert [(t["player"], t["total_points"], t["winner"]) for t in totals] == [
        ("ann", "7", "yes"),
        ("bob", "12", "no"),
    ]

    data = api.get(f"/api/v1/games/{token}/export.json").json()
    assert data["players"] == [{"name": "ann", "seat": 0}, {"name": "bob", "seat": 1}]
    assert data["winner"] == "ann" and data["scores"][0] == {
        "player": "ann", "score": 7, "rank": 1, "winner": True, "holes_played": 2, "low_hole_score": 1,
    }  # fmt: skip
    assert data["holes"][0]["entries"][0]["cards"] == GRID_3 and data["ruleset"]["holes"] == 2

    results = api.get(f"/api/v1/games/{token}/results/").json()
    assert results["winners"] == ["ann"]
    assert results["results"][1] == {
        "player": "bob", "seat": 1, "rank": 2, "total_points": 12, "holes_played": 2,
        "low_hole_score": 1, "best_hole_score": 2, "winner": False,
    }  # fmt: skip


def test_it_documents_every_games_endpoint_in_the_openapi_schema(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in (
        "/api/v1/games/",
        "/api/v1/games/{token}/holes/{number}/",
        "/api/v1/games/{token}/holes/{number}/entries/{seat}/",
        "/api/v1/games/{token}/playoff-holes/",
        "/api/v1/games/{token}/scoreboard/",
        "/api/v1/games/{token}/export.csv",
        "/api/v1/games/{token}/results/",
        "/api/v1/players/{player_id}/",
    ):
        assert path in text


def test_it_serves_the_entries_of_playoff_holes(api):
    token = create(api, ruleset={"preset": "official", "holes": 1})["edit_token"]
    post_hole(api, token, {"ann": 4, "bob": 4})
    post_hole(api, token, {"ann": 4, "bob": 4}, playoff=True)
    entries = api.get(f"/api/v1/games/{token}/playoff-holes/1/entries/")
    tag = f'"hole-{hole_id(token, 1, playoff=True)}-v1"'
    assert entries.status_code == 200 and entries["ETag"] == tag
    assert [e["name"] for e in entries.json()] == ["ann", "bob"]
    changed = api.put(
        f"/api/v1/games/{token}/playoff-holes/1/entries/1/",
        {"total": 6},
        format="json",
        HTTP_IF_MATCH=tag,
    )
    assert changed.status_code == 200 and changed.json()["score"] == 6
    board = api.get(f"/api/v1/games/{token}/scoreboard/").json()
    assert board["winners"] == ["ann"] and board["totals"] == {"ann": 4, "bob": 4}


def test_it_neutralises_spreadsheet_formulas_in_csv_text(api):
    token = create(api, ("=HYPERLINK(1)", "bob"))["edit_token"]
    post_hole(api, token, {"=HYPERLINK(1)": -2, "bob": 4})
    text = api.get(f"/api/v1/games/{token}/export.csv").content.decode()
    assert "'=HYPERLINK(1)" in text and "\n=HYPERLINK" not in text and ",=HYPERLINK" not in text
    assert ",-2," in text  # numbers stay numbers


def test_it_refuses_a_player_named_twice_instead_of_keeping_one_entry(api):
    # "ann" and "ANN" are one player: last-wins dropped one of the two entries without a word.
    token = create(api, players=("ann", "bob"))["edit_token"]
    body = assert_error_shape(post_hole(api, token, {"ann": GRID_3, "bob": 4, "ANN": 5}), 400)
    assert body["errors"][0]["where"] == "entries.ANN"
    assert '"ANN" and "ann" both name ann' in body["errors"][0]["message"]
    assert not Hole.objects.exists()
    body = assert_error_shape(
        api.post(
            f"/api/v1/games/{token}/holes/",
            {"entries": {"ann": 3, "bob": 4}, "blocks_marked": {"ann": 1, " Ann": 0}},
            format="json",
        ),
        400,
    )
    assert [error["where"] for error in body["errors"]] == ["blocks_marked. Ann"]
    assert not Hole.objects.exists()
    assert post_hole(api, token, {"ann": 3, "bob": 4}).status_code == 201
    etag = api.get(f"/api/v1/games/{token}/holes/1/")["ETag"]
    body = assert_error_shape(
        api.patch(
            f"/api/v1/games/{token}/holes/1/",
            {"entries": {"bob": 7, "BOB": 8}},
            format="json",
            HTTP_IF_MATCH=etag,
        ),
        400,
    )
    assert body["errors"][0]["where"] == "entries.BOB"
    entries = api.get(f"/api/v1/games/{token}/holes/1/").json()["entries"]
    assert [entry["score"] for entry in entries] == [3, 4]
