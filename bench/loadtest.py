"""The event-day load test: a whole round of a 1,000-player event, over HTTP, as the day uses it.

    make loadtest                    # 250 tables, 1,000 spectators, one app server behind nginx
    .venv/bin/python bench/loadtest.py --tables 250 --spectators 1000 --instances 2 --workers 2

On this machine, over loopback: a fresh PostgreSQL database (`golfclub_load`), one Redis database,
`--instances` gunicorn app servers (`--workers` each) behind Debian's nginx with the repository's
site file, production settings with the rate limits counted (bench/cluster.py). Then:

1. **Round 1 at a realistic pace.** Every table's phone records its 9 holes through the API with
   an Idempotency-Key, one hole every `--hole-seconds` (jittered; a real hole takes minutes, so
   the round is compressed), then a player confirms; the director finalizes the round and seats
   and publishes round 2 (API token).
2. **Round 2, the round-end burst.** Every table records all its holes and confirms inside the
   same minute; the director finalizes.
   During both, `--spectators` phones poll the public leaderboard every 5 s with their ETag, the
   projector polls its panels, and the director's dashboard polls its tables.
3. **The knee.** Casual games record holes at a steady rate while the spectators grow in steps
   (`--knee`): the first count at which the hole's p99 passes 1 s.
4. **The check.** The database against what the clients were acknowledged: every acknowledged
   hole there exactly once, with the totals sent, none extra, each seat's total their sum; the
   standings the API answered at the end equal to a recomputation without any cache.

Prints per kind of request: count, rate, p50/p95/p99 (ms), errors; exits 1 when a target is missed:
zero errors, nothing lost or doubled, hole recording p99 <= 300 ms in the burst with the spectators.
Why a script on httpx and not locust: docs/reliability.md.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import secrets
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import load_event
from bench.cluster import cluster
from bench.load_stats import Recorder, report

DB_NAME = "golfclub_load"
REDIS_DB = 8
HOLES = 9
POLL_SECONDS = 5
#: Attempts of one hole (the same key each time) before a table's phone gives up.
GIVE_UP = 20


def app_env(args: argparse.Namespace) -> dict[str, str]:
    """The app servers' environment: production settings, limits counted, one database, one Redis."""
    env = {
        key: value for key, value in os.environ.items() if key not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return env | {
        "DJANGO_SETTINGS_MODULE": "bench.served_settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"{load_event.PG}/{DB_NAME}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "CLIENT_IP_HEADER": "X-Forwarded-For",
        # Every phone here comes from loopback: each sends an address of its own in X-Forwarded-For,
        # and the app reads the entry before nginx's (as behind a second balancer), so the rate
        # limits count per phone as on the day, not all 2,000 phones as one.
        "CLIENT_IP_PROXY_COUNT": "2",
        "LOG_LEVEL": "ERROR",
    }


def _client(base: str, address: str, **headers: str) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=4, max_keepalive_connections=4)
    return httpx.AsyncClient(
        base_url=base,
        verify=False,
        timeout=30,
        limits=limits,
        headers={"X-Forwarded-For": address, **headers},
    )


class Day:
    """What the clients share: the recorder, the acknowledged holes, and when to stop polling."""

    def __init__(self, base: str, tournament_id: int, director_token: str) -> None:
        self.base = base
        self.tournament_id = tournament_id
        self.director = {"Authorization": f"Token {director_token}"}
        self.recorder = Recorder()
        self.acknowledged: dict[str, dict[int, dict[str, int]]] = {}
        self.given_up: list[tuple[str, int]] = []
        self.polling = True

    async def send(
        self, client: httpx.AsyncClient, kind: str, method: str, url: str, **kw
    ) -> httpx.Response | None:
        """One request, timed and counted under `kind`; None when it failed to get any answer."""
        start = time.perf_counter()
        try:
            response = await client.request(method, url, **kw)
        except httpx.HTTPError as exc:
            self.recorder.add(kind, time.perf_counter() - start, ok=False, note=type(exc).__name__)
            return None
        # The leaderboard's answers say whether nginx's cache answered (HIT, STALE, UPDATING) or the app.
        cached = response.headers.get("X-Cache")
        note = f"{response.status_code} {cached}" if cached else str(response.status_code)
        self.recorder.add(kind, time.perf_counter() - start, ok=response.status_code < 400, note=note)
        return response

    async def play_table(
        self, table: load_event.TableLink, pace: float, start: float, kind: str, *, confirm: bool = True
    ) -> None:
        """A table's phone: its holes, each with a key, then a player confirms the scorecard (a
        tournament table's).

        As the app's phone does, a hole that got no answer (or a 5xx) is sent again with the same
        key until it is acknowledged, waiting a little longer each time; the phone never goes on
        to the next hole before. After `GIVE_UP` attempts the table stops and is counted as given
        up (the check then names it): moving on would number its later holes differently from
        the server's, which numbers a game's holes in the order they arrive."""
        rng = random.Random(table.token)
        await asyncio.sleep(start)
        async with _client(self.base, f"10.1.{table.number // 250}.{table.number % 250}") as phone:
            for number in range(1, HOLES + 1):
                entries = {name: rng.randint(-2, 20) for name in table.players}
                key = str(uuid.uuid4())
                for attempt in range(GIVE_UP):
                    answer = await self.send(
                        phone, kind, "POST", f"/api/v1/games/{table.token}/holes/",
                        json={"entries": entries}, headers={"Idempotency-Key": key},
                    )  # fmt: skip
                    if answer is not None and answer.status_code == 201:
                        self.acknowledged.setdefault(table.token, {})[number] = entries
                        break
                    await asyncio.sleep(min(1 + attempt, 5))
                else:
                    self.given_up.append((table.token, number))
                    return
                await asyncio.sleep(pace * rng.uniform(0.7, 1.3))
            if confirm:
                await self.send(
                    phone, "confirm", "POST", f"/api/v1/games/{table.token}/confirm/",
                    json={"by": table.players[1]}, headers={"Idempotency-Key": str(uuid.uuid4())},
                )  # fmt: skip

    async def spectator(self, number: int, until: asyncio.Event) -> None:
        """A phone watching the leaderboard: every 5 s, with the ETag it holds."""
        await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        etag = None
        async with _client(self.base, f"10.2.{number // 250}.{number % 250}") as phone:
            while not until.is_set():
                headers = {"If-None-Match": etag} if etag else {}
                url = f"/tournaments/{self.tournament_id}/public/leaderboard/"
                answer = await self.send(phone, "leaderboard poll", "GET", url, headers=headers)
                if answer is not None and answer.status_code == 200:
                    etag = answer.headers.get("ETag")
                await asyncio.sleep(POLL_SECONDS)

    async def staff_screens(self, until: asyncio.Event) -> None:
        """The projector's panels (every 12 s) and the director's standings view (every 5 s)."""
        async with (
            _client(self.base, "10.3.0.1") as hall,
            _client(self.base, "10.3.0.2", **self.director) as desk,
        ):
            tick = 0
            while not until.is_set():
                if tick % 12 == 0:
                    await self.send(
                        hall,
                        "projector panels",
                        "GET",
                        f"/tournaments/{self.tournament_id}/projector/panels/",
                    )
                if tick % 5 == 0:
                    await self.send(
                        desk,
                        "director standings (API)",
                        "GET",
                        f"/api/v1/tournaments/{self.tournament_id}/standings/",
                    )
                tick += 1
                await asyncio.sleep(1)

    async def director_call(self, kind: str, path: str) -> httpx.Response:
        """A director's API write; retried with the same key until answered."""
        key = str(uuid.uuid4())
        async with _client(self.base, "10.3.0.3", **self.director) as desk:
            for _attempt in range(10):
                answer = await self.send(desk, kind, "POST", path, headers={"Idempotency-Key": key})
                if answer is not None and answer.status_code < 500:
                    return answer
                await asyncio.sleep(2)
        raise SystemExit(f"{kind} never answered")


def _watch(base: str, tournament_id: int, count: int, stop, results) -> None:
    """The spectators' process: `count` phones polling the leaderboard until `stop` is set, then
    their figures put on `results`."""
    day = Day(base, tournament_id, "")

    async def watch() -> None:
        until = asyncio.Event()
        watchers = [asyncio.create_task(day.spectator(n, until)) for n in range(count)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        until.set()
        await asyncio.gather(*watchers)

    asyncio.run(watch())
    results.put(day.recorder)


@contextmanager
def spectators_apart(day: Day, count: int) -> Iterator[None]:
    """`count` spectators polling in a process of their own while the block runs.

    A thousand phones polling are some 200 requests a second for the client too: in the tables'
    own event loop they would delay the tables' requests, and that wait would be counted as the
    server's. Apart, each side gets its share of the machine as separate phones would; their
    figures are merged into `day.recorder` afterwards."""
    if count <= 0:
        yield
        return
    context = multiprocessing.get_context("spawn")
    stop, results = context.Event(), context.Queue()
    process = context.Process(target=_watch, args=(day.base, day.tournament_id, count, stop, results))
    process.start()
    try:
        yield
    finally:
        stop.set()
        day.recorder.merge(results.get(timeout=120))
        process.join(timeout=30)


async def run_round(day: Day, tables, *, pace: float, spread: float, kind: str) -> float:
    """One round: the tables play while the staff's screens poll (the spectators: `spectators_apart`)."""
    until = asyncio.Event()
    watchers = [asyncio.create_task(day.staff_screens(until))]
    started = time.perf_counter()
    await asyncio.gather(*(day.play_table(t, pace, random.uniform(0, spread), kind) for t in tables))
    elapsed = time.perf_counter() - started
    until.set()
    await asyncio.gather(*watchers)
    return elapsed


def knee(
    day: Day, games: list[load_event.TableLink], steps: list[int], seconds: float
) -> list[tuple[int, float]]:
    """Hole p99 while `steps` spectators watch: casual games record a hole every `seconds / 9`."""
    found = []
    share = len(games) // len(steps)
    for count in steps:
        kind = f"knee: holes with {count} spectators"
        with spectators_apart(day, count):
            time.sleep(POLL_SECONDS + 2)  # the spectators connect and their polls spread out first

            async def play(batch: list[load_event.TableLink] = games[:share], kind: str = kind) -> None:
                await asyncio.gather(
                    *(
                        day.play_table(g, seconds / HOLES, random.uniform(0, 1), kind, confirm=False)
                        for g in batch
                    )
                )

            asyncio.run(play())
        games = games[share:] + games[:share]
        found.append((count, day.recorder.percentile(kind, 99)))
    return found


def parse_args() -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--instances", type=int, default=1, help="app servers behind nginx")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per app server")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker")
    parser.add_argument(
        "--hole-seconds", type=float, default=20, help="round 1: seconds between a table's holes"
    )
    parser.add_argument("--knee", default="0,500,1000,1500,2000", help="spectator counts for the knee")
    return parser.parse_args()


def prepare_event(env: dict[str, str], tables: int) -> tuple[int, str]:
    """A fresh database, an empty Redis and a two-round event of `tables` tables: (its id, the
    director's API token)."""
    load_event.fresh_database(DB_NAME, env)
    load_event.setup_django(env)
    import redis

    redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()
    return load_event.create_event(players=tables * 4, rounds=2)


def play_two_rounds(day: Day, args: argparse.Namespace) -> tuple[float, float, list[dict[str, Any]]]:
    """Round 1 paced, round 2 as one burst, each watched by the spectators and finalized by the
    director: (round 1's seconds, round 2's seconds, the standings the API answered after)."""
    base = f"/api/v1/tournaments/{day.tournament_id}/rounds/"
    round1 = load_event.tables_of(day.tournament_id, 1)
    with spectators_apart(day, args.spectators):
        time.sleep(POLL_SECONDS + 2)  # the spectators' phones open the leaderboard first
        seconds = asyncio.run(
            run_round(
                day, round1, pace=args.hole_seconds, spread=args.hole_seconds, kind="hole (round 1, paced)"
            )
        )
    asyncio.run(day.director_call("finalize", base + "1/finalize/"))
    asyncio.run(day.director_call("seat", base))
    asyncio.run(day.director_call("publish", base + "2/publish/"))
    round2 = load_event.tables_of(day.tournament_id, 2)
    with spectators_apart(day, args.spectators):
        time.sleep(POLL_SECONDS + 2)
        burst = asyncio.run(run_round(day, round2, pace=0, spread=50, kind="hole (round 2, burst)"))
    asyncio.run(day.director_call("finalize", base + "2/finalize/"))
    answered = httpx.get(
        day.base + base.replace("rounds/", "standings/"), headers=day.director, verify=False
    ).json()["standings"]
    return seconds, burst, answered


def main() -> None:
    """Run the event day behind nginx, check the database against what was acknowledged, report."""
    args = parse_args()
    env = app_env(args)
    tournament_id, token = prepare_event(env, args.tables)
    with cluster(
        Path(f"/tmp/golfclub-loadtest-{os.getpid()}"),
        env,
        instances=args.instances,
        workers=args.workers,
        threads=args.threads,
    ) as running:
        day = Day(running.url, tournament_id, token)
        seconds, burst, answered = play_two_rounds(day, args)
        games = load_event.casual_games(running.url, count=60)
        knee_points = knee(day, games, [int(n) for n in args.knee.split(",")], seconds=20)
        served = running.requests_served()
    check = load_event.check_against_acknowledged(day.acknowledged)
    check["phones that gave up (table, hole)"] = day.given_up
    same = load_event.standings_match_a_recomputation(tournament_id, answered)
    ok = report(
        day.recorder,
        args=args,
        rounds=(seconds, burst),
        check=check,
        standings_same=same,
        knee=knee_points,
        served=served,
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
