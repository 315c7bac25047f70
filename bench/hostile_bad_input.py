"""The hostile pass's bad requests (bench/hostile_pass.py): a JSON key twice, totals no grid can
score, over-long names, DELETE with `If-Match: *`, oversized bodies and URIs. Every answer must be
a 4xx whose JSON names the field (and the limit where there is one), never a 500, nothing written.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from bench.hostile_common import Http, where_of
from bench.hostile_replays import Event

BAD = "bad input"


def _bad(
    http: Http,
    what: str,
    method: str,
    url: str,
    *,
    where: str | None,
    expect: tuple[int, ...] = (400,),
    written: Any = None,
    address: str = "198.51.100.20",
    mention: str = "",
    **kw: Any,
) -> None:
    """One bad request: its status in `expect`, a JSON error naming `where`, `mention` in its text,
    and `written()` (a count, when given) the same afterwards."""
    tally = http.tally
    headers = {**http.director, **kw.pop("headers", {})}
    before = written() if written is not None else None
    with http.client(address, **headers) as client:
        answer = http.send(client, BAD, method, url, **kw)
    shown = f"{answer.status_code} {answer.text[:300]}" if answer is not None else "no answer"
    sent = kw.get("content") or json.dumps(kw.get("json", ""))
    repro = f"{method} {url[:120]}{'...' if len(url) > 120 else ''} body {str(sent)[:160]} -> {shown}"
    status = answer.status_code if answer is not None else None
    ok = status in expect and (where is None or any(where in w for w in where_of(answer)))
    ok = ok and (not mention or mention in (answer.text if answer is not None else ""))
    tally.check(BAD, ok, f"{what}: expected {expect} naming {where!r} {mention!r}, got {shown[:200]}", repro)
    if written is not None:
        after = written()
        tally.check(BAD, after == before, f"{what}: something was written ({before} -> {after} rows)", repro)


def run_bad_input(http: Http, event: Event) -> None:
    """Duplicate keys, impossible totals, over-long names, If-Match: *, oversized bodies."""
    from scoring.models import Hole

    game = _new_game(http)
    base = f"/api/v1/games/{game.edit_token}"
    no_hole = lambda: Hole.objects.filter(game=game).count()  # noqa: E731
    _duplicate_keys(http, base, no_hole)
    _impossible_totals(http, base, no_hole)
    _long_players(http, base, event)
    _long_event_names(http, event)
    _if_match_star(http, game)
    _more_bad(http, game, event)
    _bad(
        http,
        "a 300 KB body",
        "POST",
        f"{base}/holes/",
        where="body",
        expect=(413,),
        json={"entries": {"Ann": 1, "Bob": "x" * 300_000}},
        written=no_hole,
    )


def _new_game(http: Http) -> Any:
    """The game the bad requests are sent to (Ann and Bob, official rules)."""
    from scoring.models import Game

    with http.client("198.51.100.21") as client:
        made = http.send(
            client, BAD, "POST", "/api/v1/games/", json={"players": ["Ann", "Bob"], "ruleset": "official"}
        )
    return Game.objects.get(edit_token=made.json()["edit_token"])


def _too_long_name(
    http: Http, what: str, method: str, url: str, name: str, limit: str, written: Any, **kw: Any
) -> None:
    """A `name` over its limit: a 4xx naming `name` and mentioning `limit`, nothing written."""
    _bad(http, what, method, url, where="name", mention=limit, json={"name": name}, written=written, **kw)


def _duplicate_keys(http: Http, base: str, no_hole: Any) -> None:
    """A player's key twice in a hole's entries, a top-level key twice in a game and a tournament."""
    from scoring.models import Game
    from tournaments.models import Tournament

    _bad(
        http,
        "a player's key twice in entries",
        "POST",
        f"{base}/holes/",
        where="entries",
        content='{"entries": {"Ann": 3, "Bob": 4, "Ann": 9}}',
        mention="Ann",
        written=no_hole,
        headers={"Content-Type": "application/json"},
    )
    tag = uuid.uuid4().hex[:6]
    _bad(
        http,
        "a top-level key twice (games)",
        "POST",
        "/api/v1/games/",
        where="players",
        address="198.51.100.22",
        content=f'{{"players": ["A", "B"], "title": "dup {tag}", "players": ["C", "D"]}}',
        written=lambda: Game.objects.filter(title=f"dup {tag}").count(),
        headers={"Content-Type": "application/json"},
    )
    _bad(
        http,
        "a top-level key twice (tournament)",
        "POST",
        "/api/v1/tournaments/",
        where="name",
        content=f'{{"name": "Dup {tag}", "name": "Dup2 {tag}"}}',
        address="198.51.100.23",
        written=lambda: Tournament.objects.filter(name__startswith="Dup").filter(name__endswith=tag).count(),
        headers={"Content-Type": "application/json"},
    )


def _impossible_totals(http: Http, base: str, no_hole: Any) -> None:
    """Typed totals of 99 and -99, which no official 2x3 grid can score."""
    for total in (99, -99):
        _bad(
            http,
            f"a typed total of {total} under official 2x3",
            "POST",
            f"{base}/holes/",
            where="Ann",
            json={"entries": {"Ann": total, "Bob": 4}},
            written=no_hole,
        )


def _long_players(http: Http, base: str, event: Event) -> None:
    """A 41-character player in a new game, a seat, the roster and a tournament's entrants."""
    from scoring.models import Player, Seat
    from tournaments.models import Entrant

    long_player = "N" * 41
    _bad(
        http,
        "a 41-character player (new game)",
        "POST",
        "/api/v1/games/",
        where="players",
        mention="40",
        json={"players": [long_player, "Bob"]},
        address="198.51.100.24",
        written=lambda: Seat.objects.filter(name__startswith="N" * 40).count(),
    )
    seats = lambda: Seat.objects.filter(name__startswith="N" * 40).count()  # noqa: E731
    _too_long_name(http, "a 41-character player (seat)", "POST", f"{base}/players/", long_player, "40", seats)
    roster = lambda: Player.objects.filter(name__startswith="N" * 40).count()  # noqa: E731
    _too_long_name(
        http, "a 41-character player (roster)", "POST", "/api/v1/players/", long_player, "40", roster
    )
    entrants = lambda: Entrant.objects.filter(name__startswith="N" * 40).count()  # noqa: E731
    url = f"/api/v1/tournaments/{event.id}/players/"
    _too_long_name(http, "a 41-character entrant", "POST", url, long_player, "40", entrants)


def _long_event_names(http: Http, event: Event) -> None:
    """A 121-character tournament name, at its creation and as a rename."""
    from tournaments.models import Tournament

    long_event = "E" * 121
    events = lambda: Tournament.objects.filter(name__startswith="E" * 120).count()  # noqa: E731
    _too_long_name(
        http,
        "a 121-character event (create)",
        "POST",
        "/api/v1/tournaments/",
        long_event,
        "120",
        events,
        address="198.51.100.25",
    )
    _too_long_name(
        http,
        "a 121-character event (rename)",
        "PATCH",
        f"/api/v1/tournaments/{event.id}/",
        long_event,
        "120",
        events,
        headers={"If-Match": "*"},
    )


def _if_match_star(http: Http, game: Any) -> None:
    """DELETE with `If-Match: *`: done (RFC 9110: `*` matches any current representation) or a
    refusal that names `*`; never "Send an If-Match header"."""
    base = f"/api/v1/games/{game.edit_token}"
    with http.client("198.51.100.26") as client:
        http.send(client, BAD, "POST", f"{base}/players/", json={"name": "Cy"})
        for url in (f"{base}/players/3/", None):
            if url is None:  # then a hole's DELETE
                http.send(client, BAD, "POST", f"{base}/holes/", json={"entries": {"Ann": 1, "Bob": 2}})
                url = f"{base}/holes/1/"
            answer = http.send(client, BAD, "DELETE", url, headers={"If-Match": "*"})
            text = answer.text if answer is not None else ""
            ok = answer is not None and (
                answer.status_code == 204 or (400 <= answer.status_code < 500 and "*" in text)
            )
            http.tally.check(
                BAD,
                ok,
                f"DELETE {url.replace(game.edit_token, '<token>')} with If-Match: * -> "
                f"{answer.status_code if answer else None} {text[:200]}",
                f"DELETE {url} If-Match: * -> {text[:300]}",
            )


def run_oversized_uri(http: Http, proxy: str) -> None:
    """A 9 KB path and a 20 KB query, through nginx (the deployed front): 414, never 500."""
    import httpx

    with httpx.Client(base_url=proxy, verify=False, timeout=30) as client:
        for url in ("/api/v1/games/" + "x" * 9000 + "/", "/api/v1/rulesets/?q=" + "y" * 20_000):
            answer = http.send(client, BAD, "GET", url)
            status = answer.status_code if answer is not None else None
            http.tally.check(
                BAD,
                status == 414,
                f"a {len(url)}-character URI through nginx -> {status}",
                f"GET {url[:60]}... ({len(url)} chars) -> {status}",
            )


def _more_bad(http: Http, game: Any, event: Event) -> None:
    """A key twice deeper in the body, a total no grid scores at a tournament's table, a rename
    too long, a DELETE of a hole that is not there and a made-up If-Match."""
    from scoring.models import Hole, Seat

    base = f"/api/v1/games/{game.edit_token}"
    holes = lambda: Hole.objects.filter(game=game).count()  # noqa: E731
    _nested_duplicate_keys(http, base, holes)
    seats = lambda: Seat.objects.filter(name__startswith="N" * 40).count()  # noqa: E731
    _too_long_name(
        http, "a 41-character rename of a seat", "PATCH", f"{base}/players/1/", "N" * 41, "40", seats
    )
    _table_total(http, event)
    _bad_if_match(http, base, holes)


def _nested_duplicate_keys(http: Http, base: str, holes: Any) -> None:
    """A key twice inside a player's entry, and inside a new game's ruleset."""
    from scoring.models import Game

    json_type = {"Content-Type": "application/json"}
    _bad(
        http,
        "a key twice inside a player's entry",
        "POST",
        f"{base}/holes/",
        where="total",
        written=holes,
        content='{"entries": {"Ann": {"total": 3, "total": 5}, "Bob": 4}}',
        headers=json_type,
    )
    tag = uuid.uuid4().hex[:6]
    _bad(
        http,
        "a key twice inside the ruleset",
        "POST",
        "/api/v1/games/",
        where="holes",
        address="198.51.100.27",
        content=f'{{"players": ["A", "B"], "title": "r {tag}", '
        '"ruleset": {"preset": "official", "holes": 9, "holes": 3}}',
        written=lambda: Game.objects.filter(title=f"r {tag}").count(),
        headers=json_type,
    )


def _table_total(http: Http, event: Event) -> None:
    """A typed total of 99 at a round 1 table of the tournament, when there is one."""
    from scoring.models import Hole
    from tournaments.models import Table

    table = Table.objects.filter(round__tournament_id=event.id, round__number=1).select_related("game").last()
    if table is not None:
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        _bad(
            http,
            "a typed total of 99 at a tournament's table",
            "POST",
            f"/api/v1/games/{table.game.edit_token}/holes/",
            where=names[0],
            json={"entries": {n: 99 if i == 0 else 3 for i, n in enumerate(names)}},
            written=lambda: Hole.objects.filter(game=table.game).count(),
        )


def _bad_if_match(http: Http, base: str, holes: Any) -> None:
    """`If-Match: *` on a hole that is not there, and a made-up If-Match on a hole's DELETE."""
    _bad(
        http,
        "If-Match: * on a hole that is not there",
        "DELETE",
        f"{base}/holes/99/",
        where=None,
        expect=(404, 412, 428),
        headers={"If-Match": "*"},
        written=holes,
    )
    _bad(
        http,
        "a made-up If-Match on a hole's DELETE",
        "DELETE",
        f"{base}/holes/1/",
        where="If-Match",
        expect=(400, 412),
        headers={"If-Match": '"nonsense"'},
        written=holes,
    )
