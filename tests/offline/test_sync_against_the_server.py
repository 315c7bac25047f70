"""The phone's offline queue against the real server (issue 32, item 4 "Exactly once").

The real static/js/offline/*.js run in node (tests/offline/sync_phone.js) as a phone: its storage
is kept between runs like a phone's IndexedDB across reloads. The server is the live test server on
PostgreSQL; between them a proxy (tests/offline/proxy.py) can drop an answer after the server
committed, or hold two phones' requests and let them go at the same moment. Each test then reads
the database: exactly the holes the phone entered, once each, with its values.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from pathlib import Path

import httpx
import pytest
from django.db import connection
from django.db.models import Sum

from scoring.models import Game, Hole, HoleEntry, IdempotentRequest, Seat
from tests.offline.proxy import proxy_to
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

NODE = shutil.which("node")
PHONE = Path(__file__).parent / "sync_phone.js"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(NODE is None, reason="node runs the phone's JavaScript"),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the live server shares PostgreSQL (as in CI)"
    ),
]


class Phone:
    """A phone: runs actions of sync_phone.js against `base`, keeping what it stored between runs."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.state: dict = {}

    def _input(self, actions: tuple[dict, ...]) -> str:
        return json.dumps({"base": self.base, "state": self.state, "actions": list(actions)})

    def run(self, *actions: dict) -> list:
        """Run `actions` in one go (one page load); their results."""
        done = subprocess.run(
            [NODE, str(PHONE)], input=self._input(actions), capture_output=True, text=True, timeout=120
        )
        return self._read(done.returncode, done.stdout, done.stderr)

    def start(self, *actions: dict) -> subprocess.Popen:
        """Start `actions` without waiting (two phones at once); `finish` reads them."""
        process = subprocess.Popen(
            [NODE, str(PHONE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        process.stdin.write(self._input(actions))
        process.stdin.close()
        return process

    def finish(self, process: subprocess.Popen) -> list:
        """The results of a started run."""
        out, err = process.stdout.read(), process.stderr.read()
        return self._read(process.wait(timeout=120), out, err)

    def _read(self, code: int, out: str, err: str) -> list:
        assert code == 0, err[-3000:]
        answer = json.loads(out)
        self.state = answer["state"]
        return answer["results"]

    def game(self, game_id: str) -> dict:
        """The phone's record of a game."""
        return self.state["game:" + game_id]


def _holes(game: Game) -> list[tuple[int, dict[str, int]]]:
    """The game's regular holes in the database: number and each player's typed total."""
    found = []
    for hole in Hole.objects.filter(game=game, is_playoff=False).order_by("number"):
        entries = HoleEntry.objects.filter(hole=hole).select_related("seat")
        found.append((hole.number, {e.seat.name: e.typed_total for e in entries}))
    return found


def _entries(n: int) -> dict[str, int]:
    return {"Ann": n % 7, "Bob": (n * 3) % 11, "Cy": 12 - n}


def test_a_game_started_offline_then_nine_holes_reach_the_server_once_each(live_server) -> None:
    phone = Phone(live_server.url)
    (made,) = phone.run(
        {"do": "new-game", "players": ["Ann", "Bob", "Cy"], "ruleset": "official", "firstDealer": 1}
    )
    game_id = made["id"]
    phone.run(*({"do": "hole", "gameId": game_id, "number": n, "entries": _entries(n)} for n in range(1, 10)))
    assert Game.objects.count() == 0  # all still on the phone
    (report,) = phone.run({"do": "flush"})
    assert report["stopped"] is None and len(report["sent"]) == 10 and report["conflicts"] == []
    record = phone.game(game_id)
    game = Game.objects.get()
    assert record["editToken"] == game.edit_token and record["viewToken"] == game.view_token
    assert record["id"] == game_id and record["local"] == []
    assert _holes(game) == [(n, _entries(n)) for n in range(1, 10)]
    assert game.first_dealer == 1 and list(game.seats.order_by("seat").values_list("name", flat=True)) == [
        "Ann",
        "Bob",
        "Cy",
    ]
    assert IdempotentRequest.objects.filter(game=game).count() == 9
    # The phone's copy of the server is the server's game: same totals.
    totals = {s.name: s.total for s in Seat.objects.filter(game=game)}
    assert record["server"]["totals"] == totals
    (again,) = phone.run({"do": "flush"})
    assert again["sent"] == [] and len(_holes(game)) == 9


def test_an_answer_lost_after_the_commit_is_retried_with_its_key_and_recorded_once(live_server) -> None:
    with proxy_to(live_server.url) as proxy:
        phone = Phone(proxy.url)
        made, *_ = phone.run({"do": "new-game", "players": ["Ann", "Bob", "Cy"], "ruleset": "official"})
        game_id = made["id"]
        holes = phone.run(
            *({"do": "hole", "gameId": game_id, "number": n, "entries": _entries(n)} for n in (1, 2, 3))
        )
        hole_two = holes[1]["key"]
        proxy.drop_answer(lambda method, path, headers, body: headers.get("Idempotency-Key") == hole_two)
        (first,) = phone.run({"do": "flush"})
        assert first["stopped"] == "offline" and len(first["sent"]) == 2  # the create and hole 1
        game = Game.objects.get()
        assert [n for n, _ in _holes(game)] == [1, 2]  # the server committed hole 2; the phone was not told
        (waiting,) = phone.run({"do": "pending", "gameId": game_id})
        assert [(w["holeNumber"], w["state"], w["key"]) for w in waiting] == [
            (2, "waiting", hole_two),
            (3, "waiting", holes[2]["key"]),
        ]
        (second,) = phone.run({"do": "flush"})
        assert second["stopped"] is None and len(second["sent"]) == 2
    assert _holes(game) == [(n, _entries(n)) for n in (1, 2, 3)]  # hole 2 once
    assert IdempotentRequest.objects.filter(game=game).count() == 3
    sent_with_key = [s for s in proxy.seen if s.headers.get("Idempotency-Key") == hole_two]
    assert [s.dropped for s in sent_with_key] == [True, False]  # the same key both times
    sent = phone.game(game_id)["sent"]
    assert [(s["holeNumber"], s["replayed"]) for s in sent if s["kind"] == "hole"] == [
        (1, False),
        (2, True),
        (3, False),
    ]
    assert Seat.objects.filter(game=game).aggregate(total=Sum("total"))["total"] == sum(
        sum(_entries(n).values()) for n in (1, 2, 3)
    )


def _table_after_three_holes(base: str) -> tuple[Game, list[str]]:
    """A tournament table's game with holes 1-3 recorded through its link; its players."""
    tournament = event_in_play(8, rounds=1, holes=9)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").first()
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for n in (1, 2, 3):
        answer = httpx.post(
            f"{base}/api/v1/games/{table.game.edit_token}/holes/",
            json={"entries": dict.fromkeys(names, n), "number": n},
            headers={"Idempotency-Key": str(uuid.uuid4())},
        )
        assert answer.status_code == 201, answer.text
    return table.game, names


def _table_phone(base: str, game: Game, names: list[str]) -> Phone:
    phone = Phone(base)
    record = {"id": game.edit_token, "editToken": game.edit_token, "viewToken": game.view_token}
    phone.run(
        {"do": "put-game", "record": record | {"players": names, "table": {"number": 1}, "managed": True}}
    )
    return phone


def _two_phones_save_hole_four(live_server) -> tuple[Game, list[str], list[Phone], list[dict]]:
    """Two phones of one table each queue hole 4 offline, then flush at the same moment."""
    game, names = _table_after_three_holes(live_server.url)
    with proxy_to(live_server.url) as proxy:
        phones = [_table_phone(proxy.url, game, names) for _ in range(2)]
        writes = [
            phone.run(
                {"do": "hole", "gameId": game.edit_token, "number": 4, "entries": dict.fromkeys(names, v)}
            )[0]
            for phone, v in zip(phones, (5, 9), strict=True)
        ]
        proxy.gather(lambda method, path, headers, body: method == "POST" and path.endswith("/holes/"), 2)
        running = [phone.start({"do": "flush"}) for phone in phones]
        reports = [phone.finish(process)[0] for phone, process in zip(phones, running, strict=True)]
    return game, names, phones, [writes[0], writes[1], *reports]


def test_two_phones_of_a_table_save_hole_four_at_once_one_hole_and_one_conflict(live_server) -> None:
    game, names, phones, (mine, theirs, *reports) = _two_phones_save_hole_four(live_server)
    assert sorted(len(r["sent"]) for r in reports) == [0, 1]
    assert sorted(len(r["conflicts"]) for r in reports) == [0, 1]
    holes = _holes(game)
    assert [n for n, _ in holes] == [1, 2, 3, 4]  # one hole 4
    winner = 0 if reports[0]["sent"] else 1
    loser_write = (mine, theirs)[1 - winner]
    assert holes[3][1] == dict.fromkeys(names, (5, 9)[winner])
    (pending,) = phones[1 - winner].run({"do": "pending", "gameId": game.edit_token})
    assert [(w["key"], w["state"]) for w in pending] == [(loser_write["key"], "conflict")]
    answer = pending[0]["answer"]
    assert answer["status"] == 409 and answer["body"]["errors"][0]["where"] == "number"
    assert pending[0]["conflict"]["code"] == "hole-saved-elsewhere"
    loser = phones[1 - winner].game(game.edit_token)
    assert [h["number"] for h in loser["server"]["holes"]] == [1, 2, 3, 4]  # the server's, to show beside
    (status,) = phones[1 - winner].run({"do": "status"})
    assert status["games"][game.edit_token]["conflict"] == 1


def test_the_phone_that_lost_hole_four_keeps_its_own_as_a_correction(live_server) -> None:
    game, names, phones, (mine, theirs, *reports) = _two_phones_save_hole_four(live_server)
    winner = 0 if reports[0]["sent"] else 1
    loser, loser_write = phones[1 - winner], (mine, theirs)[1 - winner]
    loser.base = live_server.url
    (choice,) = loser.run({"do": "resolve", "key": loser_write["key"], "choice": "keep-mine"})
    assert choice["ok"] and choice["code"] == "kept-mine" and choice["key"] != loser_write["key"]
    holes = _holes(game)
    assert [n for n, _ in holes] == [1, 2, 3, 4]  # corrected, not added
    assert holes[3][1] == dict.fromkeys(names, (5, 9)[1 - winner])
    assert Hole.objects.get(game=game, number=4).version == 2
    (pending,) = loser.run({"do": "pending", "gameId": game.edit_token})
    assert pending == []


def test_a_lost_answer_to_the_games_create_makes_one_game_and_its_holes_follow(live_server) -> None:
    with proxy_to(live_server.url) as proxy:
        phone = Phone(proxy.url)
        (made,) = phone.run({"do": "new-game", "players": ["Ann", "Bob", "Cy"], "ruleset": "official"})
        phone.run({"do": "hole", "gameId": made["id"], "number": 1, "entries": _entries(1)})
        proxy.drop_answer(lambda method, path, headers, body: path == "/api/v1/games/")
        (first,) = phone.run({"do": "flush"})
        assert first["stopped"] == "offline" and first["sent"] == []
        assert Game.objects.count() == 1  # made; the phone has no token for it yet
        (second,) = phone.run({"do": "flush"})
        assert second["stopped"] is None and len(second["sent"]) == 2
    game = Game.objects.get()  # still one game: the create was replayed by its key
    assert phone.game(made["id"])["editToken"] == game.edit_token
    assert _holes(game) == [(1, _entries(1))]
    creates = [s for s in proxy.seen if s.path == "/api/v1/games/"]
    assert (
        len(creates) == 2 and creates[0].headers["Idempotency-Key"] == creates[1].headers["Idempotency-Key"]
    )
