"""Where a recorded hole's server time goes: the hole path and the bare insert, in-process, profiled.

    .venv/bin/python bench/hole_profile.py [--holes 900] [--limits] [--top 25]
    REDIS_URL=redis://127.0.0.1:6379/3 .venv/bin/python bench/hole_profile.py --limits

No HTTP server and no client threads: Django's test client calls the whole middleware chain and the
view in this process, against a fresh PostgreSQL database (golfclub_profile, or $HOLE_PROFILE_DB)
with the benchmark's settings (bench/settings.py: production settings, the bare view at
/bench/bare/). What it prints:
1. each path's CPU per request (process time, the mean over `--holes` requests), their ratio, the
   SQL statements and database round trips per request, and the CPU of the rate limits' counting
   alone (as the hole path counts them, timed on its own);
2. with `--top`, where the hole path's CPU goes: a table of its layers (middleware, rate limits,
   DRF, the service's steps, the answer), then cProfile's heaviest functions by own time. The
   profiler counts CPU time (not waiting for PostgreSQL) and slows what it counts, so its figures
   are larger than those of step 1: compare them within one run only.

The test client builds the request in this process, where gunicorn would parse HTTP: that part is
in neither path's figures, nor is PostgreSQL's own work (bench/live_games.py measures both sides).
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import os
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The profiling database (dropped and made anew): HOLE_PROFILE_DB names another, for a second copy
#: of the project profiling at the same time.
DB_NAME = os.environ.get("HOLE_PROFILE_DB", "golfclub_profile")
PG = "postgres://postgres@127.0.0.1:5432"


def configure(limits: bool) -> None:
    """Point Django at a fresh profiling database with the benchmark's settings."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    from bench.live_games import bench_environment

    os.environ.update(bench_environment(f"{PG}/{DB_NAME}", limits=limits))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_bare_insert (id bigserial PRIMARY KEY, body jsonb NOT NULL)")


def backend_cpu(pid: int) -> float:
    """CPU seconds used so far by a PostgreSQL backend of this machine (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_jobs(client, rng: random.Random, holes: int) -> list[tuple[str, int, dict]]:
    """Create enough games for `holes` holes (9 each); the holes to send, round-robin over the games."""
    from bench.live_games import PLAYERS, random_table

    tokens = []
    for _ in range((holes + 8) // 9):
        answer = client.post(
            "/api/v1/games/", {"players": PLAYERS, "ruleset": "official"}, content_type="application/json"
        )
        assert answer.status_code == 201, answer.content
        tokens.append(answer.json()["edit_token"])
    return [(token, hole, random_table(rng)) for hole in range(1, 10) for token in tokens][:holes]


def statements_per_request(send, items) -> tuple[float, float]:
    """(SQL statements, round trips to the database) per item: a batch sent in one `execute` is
    one round trip holding several statements; BEGIN and COMMIT are counted as Django runs them."""
    from django.db import connection

    counts = {"statements": 0, "trips": 0}

    def count(execute, sql, params, many, context):
        counts["trips"] += 1
        counts["statements"] += max(1, sql.count(";") + 1 - sql.rstrip().endswith(";"))
        return execute(sql, params, many, context)

    # Transactions: Django's atomic() sends BEGIN with the first statement (psycopg) and COMMIT as a
    # call of its own, not through execute: one round trip each that the wrapper does not see.
    with connection.execute_wrapper(count):
        for item in items:
            send(item)
    n = len(items)
    return counts["statements"] / n, counts["trips"] / n


# Where a hole's CPU goes, layer by layer: (label, "module:qualified name"), nested by indentation.
LAYERS = [
    ("the request, from Django's handler", "django.core.handlers.base:BaseHandler.get_response"),
    ("  the view, from URL resolution", "django.core.handlers.base:BaseHandler._get_response"),
    ("    rate limits", "golfclub.core.rate_limits:_over_limit"),
    ("    DRF dispatch", "rest_framework.views:APIView.dispatch"),
    ("      DRF initial (auth, permissions)", "rest_framework.views:APIView.initial"),
    ("      body parsed (request.data)", "rest_framework.request:Request._load_data_and_files"),
    ("      body checked (serializer)", "scoring.api.errors:validated"),
    ("      body hashed (idempotency)", "scoring.api.games.concurrency:body_hash"),
    ("      service: record the hole", "scoring.services._hole_recording:record_hole_in_transaction"),
    ("        lock game, read seats, key", "scoring.db_statements:lock_game_for_hole"),
    ("        score and write the hole", "scoring.services._hole_recording:write_next_hole"),
    ("          rules engine", "scoring.services._entry_scoring:score_entries"),
    ("          entries built, queued", "scoring.services._hole_writing:write_hole_entries"),
    ("          history row queued", "scoring.services._hole_writing:log_hole_change"),
    ("          totals and status", "scoring.services._hole_totals:add_hole_to_totals_and_settle"),
    ("          writes sent", "scoring.db_batch:Writes.send"),
    ("          answer's line", "scoring.selectors:hole_line"),
    ("      answer built", "scoring.api.games._common:hole_line_response"),
    ("    answer rendered (JSON)", "rest_framework.response:Response.rendered_content"),
]


def _code_of(where: str) -> Any:
    """The code object of "module:qualified.name"."""
    import importlib

    module, qualname = where.split(":")
    target: Any = importlib.import_module(module)
    for part in qualname.split("."):
        target = inspect.getattr_static(target, part) if isinstance(target, type) else getattr(target, part)
    if isinstance(target, property):
        target = target.fget
    return inspect.unwrap(target).__code__


def cpu_by_layer(send, items) -> dict[str, float]:
    """CPU ms per item spent inside each of `LAYERS` (inclusive), timed without a profiler.

    `sys.monitoring` calls back only on entering and leaving those few functions, so the rest of
    the code runs at full speed and the figures are those of step 1's kind, not a profiler's.
    """
    monitoring = sys.monitoring
    tool = monitoring.PROFILER_ID
    labels = {_code_of(where): label for label, where in LAYERS}
    started: dict[Any, list[int]] = {code: [] for code in labels}
    spent: dict[Any, int] = dict.fromkeys(labels, 0)
    clock = time.process_time_ns

    def enter(code: Any, _offset: int) -> None:
        started[code].append(clock())

    def leave(code: Any, _offset: int, _value: Any) -> Any:
        if started.get(code):
            spent[code] += clock() - started[code].pop()
        return None

    monitoring.use_tool_id(tool, "hole_profile")
    try:
        monitoring.register_callback(tool, monitoring.events.PY_START, enter)
        monitoring.register_callback(tool, monitoring.events.PY_RETURN, leave)
        monitoring.register_callback(tool, monitoring.events.PY_UNWIND, leave)
        monitoring.set_events(tool, monitoring.events.PY_UNWIND)  # an exception leaving a layer
        for code in labels:
            monitoring.set_local_events(tool, code, monitoring.events.PY_START | monitoring.events.PY_RETURN)
        for item in items:
            send(item)
    finally:
        for code in labels:
            monitoring.set_local_events(tool, code, 0)
        monitoring.set_events(tool, 0)
        monitoring.free_tool_id(tool)
    return {label: spent[code] / len(items) / 1e6 for code, label in labels.items()}


def parse_args() -> argparse.Namespace:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--holes", type=int, default=900, help="holes recorded (9 per game)")
    parser.add_argument("--limits", action="store_true", help="count every write against the rate limits")
    parser.add_argument(
        "--top", type=int, default=0, help="print cProfile's heaviest functions of the hole path"
    )
    parser.add_argument(
        "--sort", default="tottime", choices=["tottime", "cumulative"], help="the order of --top's table"
    )
    parser.add_argument(
        "--callers", default="", help="with --top: also who calls the functions whose name matches this"
    )
    parser.add_argument("--callees", default="", help="with --top: also what the matching functions call")
    return parser.parse_args()


Send = Callable[[Any], None]


def senders(client) -> tuple[Send, Send]:
    """(post the bare insert, post the hole) of a job `(token, hole, grids)`, each checked 201."""
    from bench.live_games import PLAYERS

    def post_bare(job: tuple) -> None:
        _token, hole, grids = job
        answer = client.post(
            "/bench/bare/", {"entries": grids, "ender": PLAYERS[hole % 4]}, content_type="application/json"
        )
        assert answer.status_code == 201

    def post_hole(job: tuple) -> None:
        token, hole, grids = job
        answer = client.post(
            f"/api/v1/games/{token}/holes/",
            {"entries": grids, "ender": PLAYERS[hole % 4]},
            content_type="application/json",
            headers={"Idempotency-Key": f"{token}-{hole}"},
        )
        assert answer.status_code == 201, answer.content

    return post_bare, post_hole


def backend_pid() -> int:
    """The process id of this connection's PostgreSQL backend."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    return backend


def cpu_per_request(send: Send, items: Sequence[Any], backend: int) -> tuple[float, float, float]:
    """(CPU ms of this process, wall ms, CPU ms of its PostgreSQL backend `backend`) per item."""
    started, cpu, db = time.perf_counter(), time.process_time(), backend_cpu(backend)
    for item in items:
        send(item)
    n = len(items)
    return (
        (time.process_time() - cpu) / n * 1000,
        (time.perf_counter() - started) / n * 1000,
        (backend_cpu(backend) - db) / n * 1000,
    )


def limits_cpu(requests: int, backend: int) -> tuple[float, float, float]:
    """`cpu_per_request` of the counting alone: what `limited` does for one hole write (every rate
    of the setting), `requests` times."""
    from django.test import RequestFactory

    from golfclub.core.rate_limits import _over_limit, _token_key

    request = RequestFactory().post("/api/v1/games/x/holes/")

    class Match:
        kwargs = {"token": "profile-token"}

    request.resolver_match = Match()

    def count(_item: Any) -> None:
        _over_limit(request, "hole-writes", "RATELIMIT_HOLE_WRITES", _token_key)

    return cpu_per_request(count, range(requests), backend)


def profiled(send: Send, items: Sequence[Any]) -> cProfile.Profile:
    """cProfile of `send` over `items`, on CPU time only (waiting for PostgreSQL is not ours)."""
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for item in items:
        send(item)
    profiler.disable()
    return profiler


@dataclass
class Figures:
    """What one run measured (see the module's docstring, steps 1 and 2)."""

    requests: int
    per_request: dict[str, tuple[float, float, float]]  # name -> (CPU here, wall, CPU of PG) in ms
    sql: dict[str, tuple[float, float]]  # "bare", "hole" -> (statements, round trips) per request
    layers: dict[str, float]
    profile: cProfile.Profile | None


def measure(args: argparse.Namespace) -> Figures:
    """Warm both paths, then time them, count their SQL, time the hole's layers and profile it."""
    from django.conf import settings
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    rng = random.Random(2026)
    client = Client(REMOTE_ADDR="10.0.0.1")
    jobs = make_jobs(client, rng, args.holes)
    post_bare, post_hole = senders(client)
    for job in jobs[:5]:  # warm both paths: imports, connections, the first statements
        post_bare(job)
    post_hole(jobs[0])
    jobs = jobs[1:]
    backend = backend_pid()
    sql = {"bare": statements_per_request(post_bare, jobs[:9])}
    per_request = {"bare insert": cpu_per_request(post_bare, jobs[9:], backend)}
    sql["hole"] = statements_per_request(post_hole, jobs[:9])
    per_request["hole"] = cpu_per_request(post_hole, jobs[9:], backend)
    # Second and third passes over new games: the same work, timed layer by layer, then profiled.
    layers = cpu_by_layer(post_hole, make_jobs(client, rng, args.holes))
    profile = profiled(post_hole, make_jobs(client, rng, args.holes)) if args.top else None
    counting = args.limits and settings.RATELIMIT_ENABLE
    per_request["counting the limits alone"] = limits_cpu(len(jobs), backend) if counting else (0.0,) * 3
    return Figures(len(jobs), per_request, sql, layers, profile)


def print_figures(args: argparse.Namespace, figures: Figures) -> None:
    """Step 1's table, the ratio, the SQL counts and the layers."""
    from django.conf import settings

    cache_backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"{figures.requests} requests each, one at a time in-process; cache: {cache_backend}; "
        f"rate limits {'counted' if args.limits else 'off'}"
    )
    print(f"{'per request (ms)':<28}{'CPU here':>10}{'wall':>10}{'CPU of PG':>10}")
    for name, (cpu, wall, db) in figures.per_request.items():
        print(f"{name:<28}{cpu:>10.2f}{wall:>10.2f}{db:>10.2f}")
    bare, hole = figures.per_request["bare insert"], figures.per_request["hole"]
    print(f"ratio bare/hole: CPU {bare[0] / hole[0]:.2f}, wall {bare[1] / hole[1]:.2f}")
    (bare_statements, bare_trips), (hole_statements, hole_trips) = figures.sql["bare"], figures.sql["hole"]
    print(
        f"SQL statements / round trips per request: bare {bare_statements:.1f} / {bare_trips:.1f}, "
        f"hole {hole_statements:.1f} / {hole_trips:.1f}"
    )
    print("\nwhere a hole's CPU goes (ms per request, each layer with what it calls)")
    for label, ms in figures.layers.items():
        print(f"{label:<44}{ms:>8.3f}")


def print_profile(args: argparse.Namespace, profiler: cProfile.Profile) -> None:
    """Step 2's cProfile table (with --callers and --callees when asked)."""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).sort_stats(args.sort)
    stats.print_stats(args.top)
    if args.callers:
        stats.print_callers(args.callers)
    if args.callees:
        stats.print_callees(args.callees)
    order = "own CPU time" if args.sort == "tottime" else "CPU time with what they call"
    print(f"\ncProfile of the hole path, heaviest by {order} (inflated by the profiler):" + out.getvalue())


def main() -> None:
    """Profile the two paths and print the figures."""
    args = parse_args()
    configure(args.limits)
    figures = measure(args)
    print_figures(args, figures)
    if figures.profile is not None:
        print_profile(args, figures.profile)


if __name__ == "__main__":
    main()
