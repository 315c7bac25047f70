"""A client that gives up after the commit, and a gunicorn worker killed mid-request.

One production gunicorn (two workers) behind the repository's nginx site file (bench/cluster.py),
with the tests' pauses (tests/faults/middleware.py): a request can be held inside the hole's
transaction or after its commit, while the test lets the phone time out or SIGKILLs the worker.
Each time the phone's retry with the same key (the API's Idempotency-Key, or the same hole form
sent again) gets the first answer or performs the write once, the database never holds half a
hole, and a phone whose request died with its worker is told in plain words what happened.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from pathlib import Path

import httpx
import pytest
from django.db.models import Sum

from bench.cluster import Cluster, cluster, nginx_available
from scoring.models import Game, Hole, IdempotentRequest, Seat
from tests.faults.helpers import (
    app_env,
    clear_pause,
    client,
    new_game,
    paused_pid,
    shared_database_url,
)


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker, tmp_path_factory) -> tuple[Cluster, Path]:
    if not nginx_available():
        pytest.skip("no nginx at /usr/sbin/nginx (apt-get install nginx-light; .ci/run installs it)")
    fault_dir = tmp_path_factory.mktemp("faults")
    env = app_env(shared_database_url(), fault_dir)
    with cluster(fault_dir / "cluster", env, instances=1, workers=2) as running:
        yield running, fault_dir


def _hole(edit: str, n: int) -> tuple[str, dict, dict]:
    """The URL, body and key header of hole `n` of a game of ann and bob."""
    return (
        f"/api/v1/games/{edit}/holes/",
        {"entries": {"ann": n, "bob": 12 - n}},
        {"Idempotency-Key": f"{edit[:10]}-hole-{n}"},
    )


def _state(edit: str) -> tuple[list[int], int, int, int]:
    """What the database holds of a game: hole numbers, keys used, the seats' totals, the version."""
    game = Game.objects.get(edit_token=edit)
    holes = list(Hole.objects.filter(game=game).order_by("number").values_list("number", flat=True))
    keys = IdempotentRequest.objects.filter(game=game).count()
    totals = Seat.objects.filter(game=game).aggregate(total=Sum("total"))["total"]
    return holes, keys, totals, game.version


def _in_background(send) -> dict:
    """Run `send()` in a thread; the dict gets its answer (or exception) once it returns."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["answer"] = send()
        except httpx.HTTPError as error:
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    outcome["thread"] = thread
    return outcome


def _killed_mid_request(fault_dir: Path, send) -> httpx.Response:
    """Send a paused request, SIGKILL the worker holding it, and return what the phone got."""
    clear_pause(fault_dir)
    outcome = _in_background(send)
    os.kill(paused_pid(fault_dir), signal.SIGKILL)
    outcome["thread"].join(30)
    assert "answer" in outcome, outcome.get("error")
    return outcome["answer"]


@pytest.mark.django_db(transaction=True)
def test_a_client_that_gave_up_after_the_commit_gets_the_first_answer_on_retry(served) -> None:
    running, fault_dir = served
    setup = client(running.url)
    edit = new_game(setup)
    url, body, key = _hole(edit, 1)
    impatient = client(running.url, timeout=1.0)  # gives up before the answer comes
    clear_pause(fault_dir)
    with pytest.raises(httpx.ReadTimeout):
        impatient.post(
            url, json=body, headers=key | {"X-Test-Pause": "after-commit", "X-Test-Pause-Seconds": "3"}
        )
    assert _state(edit) == ([1], 1, 12, 2)  # committed whole before the phone gave up
    retry = impatient.post(url, json=body, headers=key)
    assert retry.status_code == 201, retry.text
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json()["number"] == 1 and retry.json() == setup.get(f"{url}1/").json()
    assert _state(edit) == ([1], 1, 12, 2)  # still one hole


def _hole_sent_and_killed(fault_dir, phone, url: str, body: dict, key: dict, *, pause: str):
    """The hole sent with the worker told to pause at `pause`, and killed there: nginx's answer."""
    headers = key | {"X-Test-Pause": pause, "X-Test-Pause-Seconds": "30"}
    return _killed_mid_request(fault_dir, lambda: phone.post(url, json=body, headers=headers))


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_inside_the_transaction_leaves_nothing_and_the_retry_records_once(served) -> None:
    running, fault_dir = served
    phone = client(running.url)
    edit = new_game(phone)
    before = _state(edit)
    url, body, key = _hole(edit, 1)
    answer = _hole_sent_and_killed(fault_dir, phone, url, body, key, pause="in-transaction")
    assert answer.status_code == 502
    assert answer.headers["Content-Type"].startswith("application/json")
    assert "may or may not have been saved" in answer.json()["detail"]
    assert "same Idempotency-Key" in answer.json()["detail"]
    assert _state(edit) == before  # the hole's INSERT died with its transaction: nothing half written
    retry = phone.post(url, json=body, headers=key)
    assert retry.status_code == 201 and "Idempotent-Replayed" not in retry.headers, retry.text
    assert _state(edit) == ([1], 1, 12, before[3] + 1)
    again = phone.post(url, json=body, headers=key)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == retry.json()


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_after_the_commit_and_the_retry_gets_the_first_answer(served) -> None:
    running, fault_dir = served
    phone = client(running.url)
    edit = new_game(phone)
    url, body, key = _hole(edit, 1)
    answer = _hole_sent_and_killed(fault_dir, phone, url, body, key, pause="after-commit")
    assert answer.status_code == 502
    recorded = _state(edit)
    assert recorded[:3] == ([1], 1, 12)
    retry = phone.post(url, json=body, headers=key)
    assert retry.status_code == 201 and retry.headers["Idempotent-Replayed"] == "true", retry.text
    assert retry.json()["number"] == 1
    assert _state(edit) == recorded


def _hidden(page: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', page).group(1)


@pytest.mark.django_db(transaction=True)
def test_the_hole_page_says_what_happened_and_the_same_form_sent_again_saves_once(served) -> None:
    running, fault_dir = served
    phone = client(running.url)
    edit = new_game(phone)
    page_url = f"{running.url}/games/e/{edit}/holes/new/"
    page = phone.get(page_url)
    assert page.status_code == 200, page.text[:300]
    form = {
        "csrfmiddlewaretoken": _hidden(page.text, "csrfmiddlewaretoken"),
        "idempotency_key": _hidden(page.text, "idempotency_key"),
        "number": "1",
        "p0-total": "4",
        "p1-total": "9",
    }
    # The site file passes nginx's $host (no port) to the app, as a browser on port 443 has it.
    headers = {"Referer": f"https://127.0.0.1/games/e/{edit}/holes/new/"}
    answer = _killed_mid_request(
        fault_dir,
        lambda: phone.post(
            page_url,
            data=form,
            headers=headers | {"X-Test-Pause": "after-commit", "X-Test-Pause-Seconds": "30"},
        ),
    )
    # What the phone shows: nginx's page in plain words, not a bare "502 Bad Gateway".
    assert answer.status_code == 502 and answer.headers["Content-Type"].startswith("text/html")
    text = re.sub(r"<[^>]+>", " ", answer.text)
    assert "The server did not answer" in text
    assert "may or may not have been saved" in text
    assert "Sending it again is safe: a hole is never saved twice." in text
    assert answer.headers["Retry-After"] == "5" and answer.headers["Cache-Control"] == "no-store"
    assert _state(edit)[:3] == ([1], 1, 13)
    # The browser sends the same form again (reload, or back and Save): the same one-time key.
    again = phone.post(page_url, data=form, headers=headers)
    assert again.status_code == 302, again.text[:300]
    board = phone.get(again.headers["Location"])
    assert "That hole was already saved (the form was sent twice)." in board.text
    assert _state(edit)[:3] == ([1], 1, 13)
