"""The hostile pass's writes sent many times at once (bench/hostile_pass.py).

`copies` identical requests released together by a barrier, each on its own connection, once with
one `Idempotency-Key` (one object must come of it, every copy the first answer) and once without
(the app must refuse the copies or make exactly as many objects as it answered 2xx).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
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


def _new(model: Any, **where: Any) -> Callable[[], int]:
    """How many `model` rows match `where`, as a counting function."""
    return lambda: model.objects.filter(**where).count()


def _exactly_one(model: Any, **where: Any) -> Callable[[int, int], bool]:
    """Copies without a key of a write with a unique name: exactly one row of it."""
    return lambda made, created: model.objects.filter(**where).count() == 1


def _as_many(made: int, created: int) -> bool:
    """Copies without a key of a write that may repeat: one new object per 2xx answer."""
    return made == created


def _named_replay(
    http: Http, what: str, url: str, model: Any, names: tuple[str, str], addr: str, copies: int, **where: Any
) -> None:
    """A POST of `{"name": first}` replayed with one key (one `model` row of that name), then of
    `{"name": second}` without (exactly one row of that name)."""
    first, second = names
    replay(
        http,
        what,
        "POST",
        url,
        {"name": first},
        _new(model, **where, name=first),
        address=addr,
        copies=copies,
        unkeyed_body={"name": second},
        expect_unkeyed=_exactly_one(model, **where, name=second),
    )


def _game_writes(http: Http, copies: int, tag: str, addr: str) -> list[int]:
    """A game's create, seat, hole, undo, redo, end and resume, each replayed; the ids of the games made."""
    from scoring.models import Game, Seat

    title = f"replay {tag}"
    game = _create_game(http, copies, title, addr)
    base = f"/api/v1/games/{game.edit_token}"
    _named_replay(
        http, "POST .../players/ (a seat)", f"{base}/players/", Seat, ("Zed", "Yan"), addr, copies, game=game
    )
    holes = _hole_writes(http, game, base, copies, addr)
    _undo_redo(http, base, holes, copies, addr)
    _end_resume(http, game, base, copies, addr)
    return list(Game.objects.filter(title__startswith=title).values_list("pk", flat=True))


def _create_game(http: Http, copies: int, title: str, addr: str) -> Any:
    """A game's create, replayed with a key and without; the first game of that title."""
    from scoring.models import Game

    game_body = {"players": ["Ann", "Bob", "Cy"], "ruleset": "official", "title": title}
    replay(
        http,
        "POST /api/v1/games/",
        "POST",
        "/api/v1/games/",
        game_body,
        _new(Game, title=title),
        address=addr,
        copies=copies,
        unkeyed_body={**game_body, "title": title + "b"},
        expect_unkeyed=lambda made, created: Game.objects.filter(title=title + "b").count() == created,
    )
    return Game.objects.filter(title__startswith=title).order_by("pk").first()


def _hole_writes(http: Http, game: Any, base: str, copies: int, addr: str) -> Callable[[], int]:
    """A hole, replayed with a key and (hole 2) without; answers the game's hole count."""
    from scoring.models import Hole

    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    holes = _new(Hole, game=game)
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
        expect_unkeyed=lambda made, created: made == 1 and created >= 1,
    )
    return holes


def _undo_redo(http: Http, base: str, holes: Callable[[], int], copies: int, addr: str) -> None:
    """The scoreboard's undo, then its redo, each replayed with one key."""
    undo = _scoreboard(http, addr, base)["undo"]["id"]
    replay(
        http,
        "POST .../undo/",
        "POST",
        f"{base}/undo/",
        {"change": undo},
        lambda: -holes(),
        address=addr,
        copies=copies,
    )
    redo = _scoreboard(http, addr, base)["redo"]["id"]
    replay(
        http, "POST .../redo/", "POST", f"{base}/redo/", {"change": redo}, holes, address=addr, copies=copies
    )


def _end_resume(http: Http, game: Any, base: str, copies: int, addr: str) -> None:
    """An early ending, then taken back, each replayed; without a key: 409 each."""
    from scoring.models import GameChange

    for action in ("end", "resume"):  # an early ending, then taken back; without a key: 409 each
        replay(
            http,
            f"POST .../{action}/",
            "POST",
            f"{base}/{action}/",
            {"actor": "Ann"},
            _new(GameChange, game=game, action=action),
            address=addr,
            copies=copies,
            unkeyed_body={},
            expect_unkeyed=lambda made, created: made == 0 and created == 0,
        )


def _event_writes(http: Http, event: Event, copies: int, tag: str, addr: str) -> None:
    """The roster, a tournament, an entrant, staff, seating, publishing and a penalty, each replayed."""
    _event_names(http, event, copies, tag, addr)
    _event_running(http, event, copies, addr)


def _event_names(http: Http, event: Event, copies: int, tag: str, addr: str) -> None:
    """A roster player, a tournament and an entrant, each replayed."""
    from django.contrib.auth import get_user_model

    from scoring.models import Player
    from tournaments.models import Entrant, Tournament

    t, director = event.id, get_user_model().objects.get(username="hostile-director")
    roster = (f"Roster {tag}", f"Roster2 {tag}")
    _named_replay(
        http,
        "POST /api/v1/players/ (roster)",
        "/api/v1/players/",
        Player,
        roster,
        addr,
        copies,
        owner=director,
    )
    # 8 copies: 10 creations a minute from one address
    replay(
        http,
        "POST /api/v1/tournaments/",
        "POST",
        "/api/v1/tournaments/",
        {"name": f"Replayed {tag}"},
        _new(Tournament, name=f"Replayed {tag}"),
        address="198.51.100.11",
        copies=min(copies, 8),
    )
    url, late = f"/api/v1/tournaments/{t}/players/", (f"Late {tag}", f"Later {tag}")
    _named_replay(http, "POST tournaments/{id}/players/", url, Entrant, late, addr, copies, tournament_id=t)


def _event_running(http: Http, event: Event, copies: int, addr: str) -> None:
    """Staff, seating round 1, publishing it and a penalty, each replayed."""
    from tournaments.models import Round, Staff
    from tournaments.officiating_models import Penalty

    t = event.id
    replay(
        http,
        "POST tournaments/{id}/staff/",
        "POST",
        f"/api/v1/tournaments/{t}/staff/",
        {"username": "hostile-official", "role": "official"},
        _new(Staff, tournament_id=t),
        address=addr,
        copies=copies,
    )
    replay(
        http,
        "POST tournaments/{id}/rounds/ (seat)",
        "POST",
        f"/api/v1/tournaments/{t}/rounds/",
        {},
        _new(Round, tournament_id=t),
        address=addr,
        copies=copies,
        unkeyed_body={},
        expect_unkeyed=lambda made, created: made == 0 and created == 0,
    )
    replay(
        http,
        "POST rounds/1/publish/",
        "POST",
        f"/api/v1/tournaments/{t}/rounds/1/publish/",
        {},
        _new(Round, tournament_id=t, status="published"),
        address=addr,
        copies=copies,
    )
    offence = {"round": 1, "offence": "illegal_move"}
    replay(
        http,
        "POST tournaments/{id}/penalties/",
        "POST",
        f"/api/v1/tournaments/{t}/penalties/",
        {"player": event.players[0], **offence},
        _new(Penalty, tournament_id=t),
        address=addr,
        copies=copies,
        unkeyed_body={"player": event.players[1], **offence, "step": "warning"},
        expect_unkeyed=_as_many,
    )


def run_replays(http: Http, event: Event, copies: int) -> list[int]:
    """Every create and write sent `copies` times at once; answers the ids of the games touched."""
    from scoring.models import Game

    addr, tag = "198.51.100.10", uuid.uuid4().hex[:6]
    games = _game_writes(http, copies, tag, addr)
    _event_writes(http, event, copies, tag, addr)
    _replay_table(http, event, copies, addr)
    schema_documents_keys(http)
    tables = Game.objects.filter(tournament_table__round__tournament_id=event.id).values_list("pk", flat=True)
    return games + list(tables)


def schema_documents_keys(http: Http) -> None:
    """Every POST of the API's schema documents the `Idempotency-Key` header (issue 31, item 3)."""
    with http.client("198.51.100.12") as client:
        answer = http.send(client, REPLAYS, "GET", "/api/schema/?format=json")
    if answer is None or answer.status_code != 200:
        http.tally.check(REPLAYS, False, "the schema could not be read", "GET /api/schema/?format=json")
        return
    schema = answer.json()
    posts = [
        (path, op) for path, item in schema.get("paths", {}).items() for m, op in item.items() if m == "post"
    ]
    pure = ("/api/v1/score/", "/api/v1/score-hole/", "/api/v1/rulings/advise/")  # compute, write nothing
    missing = [
        path
        for path, op in posts
        if path not in pure
        and not any(p.get("name", "").lower() == "idempotency-key" for p in op.get("parameters", []))
    ]
    http.tally.note(
        f"schema: {len(posts)} POST operations, {len(posts) - len(missing)} document Idempotency-Key"
    )
    http.tally.check(
        REPLAYS,
        not missing,
        f"{len(missing)} POSTs of the schema do not document Idempotency-Key: " + ", ".join(missing[:12]),
        "GET /api/schema/?format=json, paths.*.post.parameters",
    )


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
