"""Races players hit at a real table, with real concurrent requests on PostgreSQL.

Two phones saving the same hole, two corrections at once with `If-Match: *`: each request runs in
its own thread on its own database connection, released together by a barrier, and the database
is checked afterwards, not only the status codes. Skipped (with the reason) on SQLite.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Game, GameChange, Hole

from .test_concurrency_pg import NEEDS_POSTGRES_ROW_LOCKS, at_once

pytestmark = NEEDS_POSTGRES_ROW_LOCKS


def _page_post(game: Game, key: str, ann: int, bob: int) -> Callable[[], Any]:
    """The hole screen's form for hole 1, as one phone sends it (its own idempotency key)."""
    data = {"number": "1", "idempotency_key": key, "p0-total": str(ann), "p1-total": str(bob), "ender": ""}
    return lambda: Client().post(f"/games/e/{game.edit_token}/holes/new/", data)


def test_it_saves_one_hole_when_two_phones_save_hole_one_at_the_same_moment():
    for trial in range(10):  # the race was lost 9 times in 10: it must never be lost now
        game = services.create_game(players=["ann", "bob"], ruleset="official")
        first, second = at_once(_page_post(game, f"a{trial}", 3, 4), _page_post(game, f"b{trial}", 7, 8))
        codes = sorted([first.status_code, second.status_code])
        assert codes == [302, 409], (trial, codes)
        assert Hole.objects.filter(game=game).count() == 1
        refused = first if first.status_code == 409 else second
        body = refused.content.decode()
        assert "Not saved: hole 1 was saved meanwhile" in body and "Hole 1 saved:" in body
        # Nothing the refused phone typed is lost: its totals are back in the form, for hole 2.
        sent = ("7", "8") if refused is second else ("3", "4")
        assert f'name="p0-total" value="{sent[0]}"' in body and f'name="p1-total" value="{sent[1]}"' in body
        assert 'name="number" value="2"' in body
        game.refresh_from_db()
        assert game.version == 2 and sorted(game.seats.values_list("holes_played", flat=True)) == [1, 1]


def test_it_saves_one_hole_when_twenty_phones_save_the_same_hole():
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": 9})
    results = at_once(*(_page_post(game, f"k{i}", i % 7, 3) for i in range(20)))
    assert sorted(r.status_code for r in results) == [302] + [409] * 19
    assert list(Hole.objects.filter(game=game).values_list("number", flat=True)) == [1]
    assert GameChange.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_it_answers_409_to_the_second_api_client_naming_the_same_hole_number():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    url = f"/api/v1/games/{game.edit_token}/holes/"

    def post(key: str) -> Callable[[], Any]:
        body = {"number": 1, "entries": {"ann": 3, "bob": 4}}
        return lambda: APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    first, second = at_once(post("one"), post("two"))
    assert sorted([first.status_code, second.status_code]) == [201, 409]
    refused = first if first.status_code == 409 else second
    assert refused.json()["errors"][0]["where"] == "number"
    assert "Hole 1 was just saved by someone else" in refused.json()["detail"]
    assert Hole.objects.filter(game=game).count() == 1


def test_it_applies_both_if_match_star_corrections_one_after_the_other_never_412():
    for _ in range(3):
        game = services.create_game(players=["ann", "bob"], ruleset="official")
        services.hole_record(game, entries={"ann": 3, "bob": 4}, ender=None)
        url = f"/api/v1/games/{game.edit_token}/holes/1/"

        def put(url: str, points: int) -> Callable[[], Any]:
            body = {"entries": {"ann": points, "bob": points}}
            return lambda: APIClient().put(url, body, format="json", HTTP_IF_MATCH="*")

        results = at_once(put(url, 10), put(url, 20))
        assert [r.status_code for r in results] == [200, 200], [r.content for r in results]
        hole = Hole.objects.get(game=game)
        assert hole.version == 3
        assert GameChange.objects.filter(game=game, action="update").count() == 2
        last = max(results, key=lambda r: r.json()["version"])
        stored = list(hole.entries.order_by("seat__seat").values_list("score", flat=True))
        assert stored == [e["score"] for e in last.json()["entries"]]


def test_it_undoes_once_when_the_same_undo_is_sent_twice_at_once():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    for points in (1, 2, 3):
        services.hole_record(game, entries={"ann": points, "bob": 4}, ender=None)
    change = GameChange.objects.filter(game=game).order_by("-pk").first().pk
    url = f"/api/v1/games/{game.edit_token}/undo/"

    def undo() -> Any:
        return APIClient().post(url, {"change": change}, format="json")

    first, second = at_once(undo, undo)
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    assert list(Hole.objects.filter(game=game).order_by("number").values_list("number", flat=True)) == [1, 2]
    assert GameChange.objects.filter(game=game, action="undo").count() == 1


def test_it_deletes_one_hole_when_the_same_delete_is_sent_twice_at_once():
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    for points in (1, 2, 3):
        services.hole_record(game, entries={"ann": points, "bob": 4}, ender=None)
    url = f"/api/v1/games/{game.edit_token}/holes/2/"
    tag = APIClient().get(url)["ETag"]

    def delete() -> Any:
        return APIClient().delete(url, HTTP_IF_MATCH=tag)

    first, second = at_once(delete, delete)
    assert sorted([first.status_code, second.status_code]) == [204, 412]
    assert Hole.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert dict(game.seats.values_list("name", "total")) == {"ann": 4, "bob": 8}


def test_it_keeps_both_players_changes_when_two_patches_with_if_match_star_run_at_once():
    for _ in range(3):
        game = services.create_game(players=["ann", "bob"], ruleset="official")
        services.hole_record(game, entries={"ann": 3, "bob": 4}, ender="bob")
        url = f"/api/v1/games/{game.edit_token}/holes/1/"

        def patch(url: str, name: str, points: int) -> Callable[[], Any]:
            body = {"entries": {name: points}}
            return lambda: APIClient().patch(url, body, format="json", HTTP_IF_MATCH="*")

        results = at_once(patch(url, "ann", 10), patch(url, "bob", 20))
        assert [r.status_code for r in results] == [200, 200], [r.content for r in results]
        hole = Hole.objects.get(game=game)
        # Each PATCH changed one player: neither wrote the other's old value back.
        assert dict(hole.entries.values_list("seat__name", "typed_total")) == {"ann": 10, "bob": 20}
        assert hole.ender.name == "bob"


def test_it_answers_every_copy_of_one_request_sent_at_once_as_a_replay_never_409():
    for _ in range(5):
        _same_request_six_times()


def _same_request_six_times() -> None:
    game = services.create_game(players=["ann", "bob", "cy"], ruleset="official")
    url = f"/api/v1/games/{game.edit_token}/holes/"
    body = {"number": 1, "entries": {"ann": 1, "bob": 2, "cy": 3}}

    def post() -> Any:
        return APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")

    results = at_once(*([post] * 6))
    assert [r.status_code for r in results] == [201] * 6, [r.content for r in results]
    assert len({r["ETag"] for r in results}) == 1
    assert Hole.objects.filter(game=game).count() == 1


def test_it_answers_an_undo_with_its_own_change_while_holes_are_recorded_at_once():
    for _ in range(8):
        _undo_among_new_holes()


def _undo_among_new_holes() -> None:
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": None})
    services.hole_record(game, entries={"ann": 1, "bob": 1}, ender=None)
    change = GameChange.objects.get(game=game).pk
    base = f"/api/v1/games/{game.edit_token}"

    def undo() -> Any:
        return APIClient().post(f"{base}/undo/", {"change": change}, format="json")

    def post(key: str) -> Callable[[], Any]:
        body = {"entries": {"ann": 2, "bob": 2}}
        return lambda: APIClient().post(f"{base}/holes/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    results = at_once(undo, *(post(f"k{i}") for i in range(4)))
    answer = results[0]
    # Holes recorded first make the named change no longer the one to undo: a plain 409. An undo
    # that ran answers its own change, never a newer one (and never a 500).
    assert answer.status_code in (200, 409), answer.content
    if answer.status_code == 200:
        assert answer.json()["action"] == "undo" and answer.json()["undoes_id"] == change


def test_it_answers_a_patch_with_the_hole_it_changed_while_an_earlier_hole_is_deleted():
    for _ in range(8):
        _patch_while_deleting()


def _patch_while_deleting() -> None:
    game = services.create_game(players=["ann", "bob"], ruleset="official")
    holes = [services.hole_record(game, entries={"ann": n, "bob": n}, ender=None) for n in (1, 2, 3, 4)]
    base = f"/api/v1/games/{game.edit_token}/holes"
    third, first = holes[2], holes[0]

    def patch() -> Any:
        tag = f'"hole-{third.pk}-v{third.version}"'
        return APIClient().patch(f"{base}/3/", {"entries": {"bob": 59}}, format="json", HTTP_IF_MATCH=tag)

    def delete() -> Any:
        return APIClient().delete(f"{base}/1/", HTTP_IF_MATCH=f'"hole-{first.pk}-v{first.version}"')

    patched, deleted = at_once(patch, delete)
    assert deleted.status_code == 204
    if patched.status_code == 200:  # the PATCH went first: it answers its own hole, now number 2
        assert patched["ETag"].startswith(f'"hole-{third.pk}-')
        assert [e["score"] for e in patched.json()["entries"]] == [3, 59]
    else:
        assert patched.status_code == 412  # the delete went first and renumbered it


def test_it_replays_every_copy_of_the_hole_that_ends_the_match_sent_at_once_without_a_number():
    # The copies that waited for the lock find the match over; the key the first copy stored says
    # they are the same request: 201 for all, not "the match is over" (found by a hostile pass).
    for trial in range(3):
        game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": 2})
        services.hole_record(game, entries={"ann": 3, "bob": 4}, ender=None)
        url = f"/api/v1/games/{game.edit_token}/holes/"

        def post(url: str = url, key: str = f"last-{trial}") -> Any:
            body = {"entries": {"ann": 1, "bob": 2}, "ender": "bob"}
            return APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)

        results = at_once(*([post] * 6))
        assert [r.status_code for r in results] == [201] * 6, [r.content for r in results]
        assert {r.json()["number"] for r in results} == {2}
        assert Hole.objects.filter(game=game).count() == 2
        game.refresh_from_db()
        assert game.status == "finished"


def test_it_replays_every_copy_of_the_playoff_hole_that_ends_sudden_death_sent_at_once():
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": 1})
    services.hole_record(game, entries={"ann": 3, "bob": 3}, ender=None)  # a tie: sudden death
    url = f"/api/v1/games/{game.edit_token}/playoff-holes/"

    def post() -> Any:
        body = {"entries": {"ann": 1, "bob": 5}, "ender": "ann"}
        return APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="sudden")

    results = at_once(*([post] * 6))
    assert [r.status_code for r in results] == [201] * 6, [r.content for r in results]
    assert Hole.objects.filter(game=game, is_playoff=True).count() == 1
    game.refresh_from_db()
    assert game.status == "finished" and list(game.winners) == ["ann"]
