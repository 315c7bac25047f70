"""The hostile pass's writes sent many times at once (bench/hostile_pass.py).

`copies` identical requests released together by a barrier, each on its own connection, once with
one `Idempotency-Key` (one object must come of it, every copy the first answer) and once without
(the app must refuse the copies or make exactly as many objects as it answered 2xx).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from bench.hostile_common import Http, statuses

REPLAYS = "concurrent replays"


@dataclass
class Event:
    """The tournament the replays write to, made in-process: its id and its players' ids."""

    id: int
    players: list[int]


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def replay(
    http: Http,
    what: str,
    method: str,
    url: str,
    body: Any,
    count: Any,
    *,
    expect_keyed: int = 1,
    expect_unkeyed: Any = None,
    address: str,
    unkeyed_body: Any = None,
    copies: int,
) -> None:
    """Send `body` `copies` times at once with one key, then (if `unkeyed_body`) `copies` times
    without; `count()` answers how many objects exist. Keyed: exactly `expect_keyed` new objects,
    every answer the same status and body. Unkeyed: `expect_unkeyed(new, answers)` must hold."""
    tally = http.tally
    before = count()
    answers = http.burst(
        REPLAYS, copies, method, url, address=address, director=True, json=body, headers=_key()
    )
    made = count() - before
    codes = statuses(answers)
    repro = f"{copies} x {method} {url} with one Idempotency-Key, body {json.dumps(body)[:200]}"
    tally.check(REPLAYS, made == expect_keyed, f"{what}: {made} objects from one key (codes {codes})", repro)
    ok = [a for a in answers if a is not None and a.status_code < 300]
    bodies = {a.text for a in ok}
    tally.check(
        REPLAYS,
        len(ok) == copies and len(bodies) == 1,
        f"{what}: the copies with one key did not all get the first answer (codes {sorted(map(str, codes))})",
        repro
        + " -> "
        + "; ".join(
            f"{a.status_code} {a.text[:160]}" for a in answers if a is not None and a.status_code >= 300
        )[:600],
    )
    if unkeyed_body is None:
        return
    before = count()
    other = address.rsplit(".", 1)[0] + f".{int(address.rsplit('.', 1)[1]) + 100}"  # its own rate limit
    answers = http.burst(REPLAYS, copies, method, url, address=other, director=True, json=unkeyed_body)
    made = count() - before
    codes = statuses(answers)
    created = sum(1 for c in codes if c in (200, 201))
    tally.check(
        REPLAYS,
        expect_unkeyed(made, created),
        f"{what}: {made} objects from {copies} copies without a key "
        f"({created} answered 2xx, codes {sorted(map(str, codes))})",
        f"{copies} x {method} {url} no key, body {json.dumps(unkeyed_body)[:200]}",
    )


def run_replays(http: Http, event: Event, copies: int) -> list[int]:
    """Every create and write sent `copies` times at once; answers the ids of the games touched."""
    from django.contrib.auth import get_user_model

    from scoring.models import Game, Hole, Player, Seat
    from tournaments.models import Entrant, Round, Staff, Tournament
    from tournaments.officiating_models import Penalty

    addr = "198.51.100.10"
    t = event.id
    same = lambda made, created: made == created  # noqa: E731 (no key: every 2xx is one new object)
    one = lambda made, created: made == 1 and created >= 1  # noqa: E731 (a duplicate name is refused)
    tag = uuid.uuid4().hex[:6]
    title = f"replay {tag}"
    replay(
        http,
        "POST /api/v1/games/",
        "POST",
        "/api/v1/games/",
        {"players": ["Ann", "Bob", "Cy"], "ruleset": "official", "title": title},
        lambda: Game.objects.filter(title=title).count(),
        address=addr,
        copies=copies,
        unkeyed_body={"players": ["Ann", "Bob"], "ruleset": "official", "title": title + "b"},
        expect_unkeyed=lambda made, created: Game.objects.filter(title=title + "b").count() == created,
    )
    game = Game.objects.filter(title=title).first() or Game.objects.create(title=title)
    if not game.seats.count():  # the keyed copies made nothing: a game for the next writes
        game = Game.objects.filter(title=title + "b").first()
    token = game.edit_token
    base = f"/api/v1/games/{token}"
    replay(
        http,
        "POST .../players/ (a seat)",
        "POST",
        f"{base}/players/",
        {"name": "Zed"},
        lambda: Seat.objects.filter(game=game, name="Zed").count(),
        address=addr,
        copies=copies,
        unkeyed_body={"name": "Yan"},
        expect_unkeyed=lambda m, c: Seat.objects.filter(game=game, name="Yan").count() == 1,
    )
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    holes = lambda: Hole.objects.filter(game=game).count()  # noqa: E731
    replay(
        http,
        "POST .../holes/",
        "POST",
        f"{base}/holes/",
        {"entries": dict.fromkeys(names, 5)},
        holes,
        address=addr,
        copies=copies,
        unkeyed_body={"entries": dict.fromkeys(names, 4), "number": 2},
        expect_unkeyed=one,
    )
    board = lambda: _scoreboard(http, addr, base)  # noqa: E731
    replay(
        http,
        "POST .../undo/",
        "POST",
        f"{base}/undo/",
        {"change": board()["undo"]["id"]},
        lambda: -holes(),
        address=addr,
        copies=copies,
    )
    replay(
        http,
        "POST .../redo/",
        "POST",
        f"{base}/redo/",
        {"change": board()["redo"]["id"]},
        holes,
        address=addr,
        copies=copies,
    )
    director = get_user_model().objects.get(username="hostile-director")
    replay(
        http,
        "POST /api/v1/players/ (roster)",
        "POST",
        "/api/v1/players/",
        {"name": f"Roster {tag}"},
        lambda: Player.objects.filter(owner=director, name=f"Roster {tag}").count(),
        address=addr,
        copies=copies,
        unkeyed_body={"name": f"Roster2 {tag}"},
        expect_unkeyed=lambda m, c: Player.objects.filter(owner=director, name=f"Roster2 {tag}").count() == 1,
    )
    replay(
        http,
        "POST /api/v1/tournaments/",
        "POST",
        "/api/v1/tournaments/",
        {"name": f"Replayed {tag}"},
        lambda: Tournament.objects.filter(name=f"Replayed {tag}").count(),
        address="198.51.100.11",
        copies=min(copies, 8),
    )  # 10 creations a minute from one address
    replay(
        http,
        "POST tournaments/{id}/players/",
        "POST",
        f"/api/v1/tournaments/{t}/players/",
        {"name": f"Late {tag}"},
        lambda: Entrant.objects.filter(tournament_id=t, name=f"Late {tag}").count(),
        address=addr,
        copies=copies,
        unkeyed_body={"name": f"Later {tag}"},
        expect_unkeyed=lambda m, c: Entrant.objects.filter(tournament_id=t, name=f"Later {tag}").count() == 1,
    )
    replay(
        http,
        "POST tournaments/{id}/staff/",
        "POST",
        f"/api/v1/tournaments/{t}/staff/",
        {"username": "hostile-official", "role": "official"},
        lambda: Staff.objects.filter(tournament_id=t).count(),
        address=addr,
        copies=copies,
        expect_keyed=1,
    )
    replay(
        http,
        "POST tournaments/{id}/rounds/ (seat)",
        "POST",
        f"/api/v1/tournaments/{t}/rounds/",
        {},
        lambda: Round.objects.filter(tournament_id=t).count(),
        address=addr,
        copies=copies,
        unkeyed_body={},
        expect_unkeyed=lambda m, c: m == 0 and c == 0,
    )
    replay(
        http,
        "POST rounds/1/publish/",
        "POST",
        f"/api/v1/tournaments/{t}/rounds/1/publish/",
        {},
        lambda: Round.objects.filter(tournament_id=t, status="published").count(),
        address=addr,
        copies=copies,
    )
    player = event.players[0]
    replay(
        http,
        "POST tournaments/{id}/penalties/",
        "POST",
        f"/api/v1/tournaments/{t}/penalties/",
        {"player": player, "round": 1, "offence": "illegal_move"},
        lambda: Penalty.objects.filter(tournament_id=t).count(),
        address=addr,
        copies=copies,
        unkeyed_body={"player": event.players[1], "round": 1, "offence": "illegal_move", "step": "warning"},
        expect_unkeyed=same,
    )
    _replay_table(http, event, copies, addr)
    return [
        g for g in Game.objects.filter(title__startswith=f"replay {tag}").values_list("pk", flat=True)
    ] + list(Game.objects.filter(tournament_table__round__tournament_id=t).values_list("pk", flat=True))


def _scoreboard(http: Http, address: str, base: str) -> dict[str, Any]:
    """The game's scoreboard (its `undo` and `redo` name the change to send)."""
    with http.client(address) as client:
        return client.get(f"{base}/scoreboard/").json()


def _replay_table(http: Http, event: Event, copies: int, addr: str) -> None:
    """A tournament table's holes, sent with keys, then its confirmation, sent many times at once."""
    from scoring.models import Hole
    from tournaments.models import Table

    table = (
        Table.objects.filter(round__tournament_id=event.id, round__number=1).select_related("game").first()
    )
    if table is None:
        http.tally.check(REPLAYS, False, "no round 1 table was seated by the replayed POST .../rounds/", "")
        return
    game = table.game
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    holes = game.ruleset["holes"]
    for number in range(1, holes + 1):
        replay(
            http,
            f"table hole {number}",
            "POST",
            f"/api/v1/games/{game.edit_token}/holes/",
            {"entries": {n: (number + i) % 7 for i, n in enumerate(names)}},
            lambda: Hole.objects.filter(game=game).count(),
            address=addr,
            copies=4 if number > 1 else copies,
        )
    replay(
        http,
        "POST games/{token}/confirm/",
        "POST",
        f"/api/v1/games/{game.edit_token}/confirm/",
        {"by": names[0]},
        lambda: Table.objects.filter(pk=table.pk, confirmed_at__isnull=False).count(),
        address=addr,
        copies=copies,
    )
