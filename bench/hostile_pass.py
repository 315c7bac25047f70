"""A hostile pass against a production gunicorn on PostgreSQL and Redis (issue 31, item 10).

    .venv/bin/python bench/hostile_pass.py                    # the whole pass, about 3-5 minutes
    .venv/bin/python bench/hostile_pass.py --only replays,bad  # some scenarios only
    .venv/bin/python bench/hostile_pass.py --help

What it starts: a fresh PostgreSQL database (`--database`, dropped and migrated), a scratch
database for restores (`--scratch`), `collectstatic`, then gunicorn (`golfclub.wsgi`, 3 workers x 2
threads, the token-masking logger) with the production settings (DEBUG=false, a SECRET_KEY,
ALLOWED_HOSTS=127.0.0.1, a Redis database of its own) and Debian's nginx in front with the
repository's site file (bench/cluster.py). The clients talk to gunicorn directly (as nginx would:
`X-Forwarded-Proto: https`), each phone on its own connection and address; only the oversized
URIs go through nginx, which is what answers them in production. The event data is prepared
in-process (a director with an API token, three events) and the database is read directly to check.

The scenarios (`--only`, comma-separated):

- **replays**: every create and write (games, seats, holes, undo, redo, the roster, tournaments,
  entrants, staff, seating, publishing, penalties, a table's holes and its confirmation) sent
  `--copies` times at once by a barrier, with one `Idempotency-Key`, and again without. One object
  per key, every copy the first answer; without a key, duplicates refused or as many objects as
  2xx answers. Then every game touched: holes 1..n once, one entry per seat, totals = entries.
- **bad**: a JSON key twice (nested and top-level), hole totals no grid can score (99 and -99
  under the official 2x3 rules), a 41-character player and a 121-character event, DELETE with
  `If-Match: *`, a 300 KB body, a 9 KB path and a 20 KB query through nginx. Expected: a 4xx whose
  JSON names the field (and the limit), never a 500, nothing written.
- **faults**: 8 tables record 9 holes each while every connection of the app to the database is
  terminated (`pg_terminate_backend`) at random moments and right after the last holes are sent;
  the phones retry with their keys. A spectator polls the public leaderboard with `If-None-Match`.
  Then: every hole acknowledged and there once, the API's standings equal a recomputation (and
  each total the sum of the entries), and no ETag seen during the burst is answered 304 unless
  its board is the current one.
- **exports**: 8 tables score while `manage.py export_event` runs in a loop (`--exports` files);
  every file is imported (`import_event`) into the scratch database, its totals and standings must
  equal its entries and every restored table must record its next hole; then two `import_event`
  of one file at once: one imports, the other says why in words.
- **logs** (always): gunicorn's access and error logs hold no 500, no traceback, and none of the
  app's secret tokens (tables' and games' edit and view links, players' own links) in clear; the
  pass provokes log lines carrying them (table pages, a POST without CSRF, a bad hole body).

Prints a table of figures (requests by status, invariants checked, violations), each violation with
how to reproduce it, and writes them to `<workdir>/summary.json`. Exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import hostile_bad_input, hostile_play, hostile_replays
from bench.cluster import cluster
from bench.hostile_common import Http, Tally, games_consistent
from bench.load_event import PG, fresh_database, setup_django

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("replays", "bad", "faults", "exports")
LOGS = "gunicorn logs"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database", default="golfclub_hostile_run", help="the server's database (dropped and made afresh)"
    )
    parser.add_argument(
        "--scratch",
        default="golfclub_hostile",
        help="the database restores are checked in (dropped and made afresh)",
    )
    parser.add_argument(
        "--redis-db", type=int, default=13, help="the Redis database number the server uses (flushed first)"
    )
    parser.add_argument(
        "--copies", type=int, default=12, help="identical requests released at once per replay"
    )
    parser.add_argument(
        "--fault-events", type=int, default=5, help="events played through database cuts, one after another"
    )
    parser.add_argument("--exports", type=int, default=10, help="export_event files written during play")
    parser.add_argument(
        "--only", default=",".join(SCENARIOS), help=f"scenarios to run, of {','.join(SCENARIOS)}"
    )
    parser.add_argument(
        "--workdir", type=Path, default=ROOT / "bench" / "results" / "hostile", help="logs, files, summary"
    )
    parser.add_argument(
        "--static-from-sources",
        action="store_true",
        help="no collectstatic: production settings with static files served from their sources "
        "(bench/served_settings.py), for a quick run",
    )
    parser.add_argument(
        "--reuse-static", action="store_true", help="skip collectstatic when staticfiles/ has a manifest"
    )
    return parser.parse_args(argv)


def app_env(args: argparse.Namespace, database: str) -> dict[str, str]:
    """Production settings on `database`, Redis database `--redis-db`, addresses from X-Forwarded-For."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    }
    return env | {
        "DJANGO_SETTINGS_MODULE": "bench.served_settings"
        if args.static_from_sources
        else "golfclub.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"{PG}/{database}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{args.redis_db}",
        "CLIENT_IP_HEADER": "X-Forwarded-For",
        "CLIENT_IP_PROXY_COUNT": "1",
    }


def prepare(args: argparse.Namespace, env: dict[str, str], scratch_env: dict[str, str]) -> None:
    """Fresh databases, an empty Redis database, the static files collected."""
    fresh_database(args.database, env)
    fresh_database(args.scratch, scratch_env)
    subprocess.run(["redis-cli", "-n", str(args.redis_db), "flushdb"], check=True, capture_output=True)
    if args.static_from_sources:
        return
    if not (args.reuse_static and (ROOT / "staticfiles" / "staticfiles.json").exists()):
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )


def make_events(fault_events: int) -> dict[str, object]:
    """The director (API token), an official, and the events: replays (not seated), faults and
    exports (8 tables of 4, round 1 published)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments import services

    users = get_user_model().objects
    director = users.create_user("hostile-director", password=secrets.token_urlsafe(12))
    users.create_user("hostile-official", password=secrets.token_urlsafe(12))

    def event(name: str, players: int, holes: int, *, seat: bool) -> object:
        tournament = services.create_tournament(
            director=director, name=name, ruleset={"preset": "official", "holes": holes}, rounds=2, seed=31
        )
        services.import_entrants(
            tournament, "name\n" + "\n".join(f"{name[:1]}{n:02d}" for n in range(1, players + 1))
        )
        if seat:
            services.seat_next_round(tournament)
            services.publish_round(tournament, 1)
        return tournament

    replays = event("Replays", 16, 3, seat=False)
    return {
        "token": Token.objects.create(user=director).key,
        "replays": hostile_replays.Event(
            replays.pk, list(replays.entrants.order_by("pk").values_list("pk", flat=True))
        ),
        "faults": [event(f"Faults {n + 1}", 32, 9, seat=True).pk for n in range(fault_events)],
        "exports": event("Exports", 32, 60, seat=True).pk,
    }


def provoke_log_lines(http: Http, tournament_ids: list[int]) -> None:
    """Requests whose log lines carry secrets: table pages, a table POST without CSRF (403, logged
    by Django), a bad hole body (400, logged), players' own pages."""
    from tournaments.models import Entrant, Table

    with http.client("198.51.100.200") as client:
        tables = Table.objects.filter(round__tournament_id__in=tournament_ids).select_related("game")[:6]
        for table in tables:
            token = table.game.edit_token
            http.send(client, LOGS, "GET", f"/tournaments/table/{token}/")
            http.send(client, LOGS, "POST", f"/tournaments/table/{token}/", data={"by": "x"})
            http.send(client, LOGS, "POST", f"/tournaments/table/{token}/call/", data={"note": "x"})
            http.send(
                client,
                LOGS,
                "POST",
                f"/api/v1/games/{token}/holes/",
                content="{nope",
                headers={"Content-Type": "application/json"},
            )
            http.send(client, LOGS, "GET", f"/games/v/{table.game.view_token}/")
        for entrant in Entrant.objects.filter(tournament_id__in=tournament_ids)[:4]:
            http.send(client, LOGS, "GET", f"/tournaments/player/{entrant.token}/")


def scan_logs(tally: Tally, workdir: Path) -> None:
    """No 500, no traceback, no secret token in clear in any log the server wrote."""
    from scoring.models import Game
    from tournaments.models import Entrant

    secrets_ = {t for pair in Game.objects.values_list("edit_token", "view_token") for t in pair}
    secrets_ |= set(Entrant.objects.values_list("token", flat=True))
    for log in sorted(workdir.glob("cluster/*.log")):
        text = log.read_text(errors="replace")
        lines = text.splitlines()
        served_500 = [line for line in lines if '" 500 ' in line or "Internal Server Error" in line]
        tally.check(
            LOGS, not served_500, f"{log.name}: {len(served_500)} lines with a 500", "\n".join(served_500[:3])
        )
        _tracebacks(tally, log.name, lines)
        leaked = [line for line in lines if any(token in line for token in secrets_ if len(token) >= 16)]
        tally.check(
            LOGS,
            not leaked,
            f"{log.name}: {len(leaked)} lines with a secret token in clear",
            "\n".join(_masked_sample(line, secrets_) for line in leaked[:4]),
        )
        tally.note(f"{log.name}: {len(lines)} lines")


#: Lines inside a record: an exception's "module.Name: message" (and PostgreSQL's "LINE 1:", "DETAIL:"
#: lines of it), a traceback's parts.
_INSIDE = re.compile(
    r"^(?:\s|$|Traceback|The above exception|During handling|[A-Za-z_][\w.]*: "
    r"|(?:LINE \d+|DETAIL|HINT|CONTEXT|QUERY):)"
)


def _tracebacks(tally: Tally, name: str, lines: list[str]) -> None:
    """A traceback under a 503 record (the database cut on purpose, answered "try again") is
    counted; any other record with a traceback is a violation."""
    records: list[list[str]] = []
    for line in lines:
        if not _INSIDE.match(line) or not records:
            records.append([line])
        else:
            records[-1].append(line)
    traced = [r for r in records if any(line.startswith("Traceback") for line in r)]
    under_503 = [r for r in traced if r[0].startswith("Service Unavailable")]
    others = Counter(r[0][:110] for r in traced if not r[0].startswith("Service Unavailable"))
    if under_503:
        tally.note(
            f"{name}: {len(under_503)} records with a traceback logged with 503 answers (database cut)"
        )
    example = next((r for r in traced if not r[0].startswith("Service Unavailable")), [])
    tally.check(
        LOGS,
        not others,
        f"{name}: {sum(others.values())} records with a traceback, not of a 503: "
        + "; ".join(f"{n} x {h!r}" for h, n in others.most_common(4)),
        "\n".join(example[-12:]),
    )


def _masked_sample(line: str, tokens: set[str]) -> str:
    """The offending line for the report, with the token itself cut to its first 4 characters."""
    for token in tokens:
        if token in line:
            line = line.replace(token, token[:4] + "…(in clear)")
    return line[:300]


def report(tally: Tally, seconds: float, workdir: Path) -> None:
    """The table of figures, each violation with its reproduction, and summary.json."""
    scenarios = sorted(set(tally.statuses) | set(tally.invariants))
    print(f"\n{'scenario':<22} {'requests':>8}  {'by status':<48} {'invariants':>10} {'violations':>10}")
    for name in scenarios:
        counts = tally.statuses.get(name, Counter())
        shown = " ".join(f"{k}:{v}" for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))
        broken = sum(1 for v in tally.violations if v.scenario == name)
        print(f"{name:<22} {sum(counts.values()):>8}  {shown:<48} {tally.invariants[name]:>10} {broken:>10}")
    total = sum(sum(c.values()) for c in tally.statuses.values())
    print(
        f"{'all':<22} {total:>8}  {'':<48} {sum(tally.invariants.values()):>10} {len(tally.violations):>10}"
    )
    print(f"\n{seconds:.0f} s. Notes:")
    for note in tally.notes:
        print(f"  - {note}")
    for number, violation in enumerate(tally.violations, 1):
        print(
            f"\nVIOLATION {number} [{violation.scenario}] {violation.what}\n"
            f"  reproduce: {violation.reproduction}"
        )
    summary = {
        "seconds": round(seconds),
        "statuses": {k: {str(s): n for s, n in v.items()} for k, v in tally.statuses.items()},
        "invariants": dict(tally.invariants),
        "violations": [vars(v) for v in tally.violations],
        "notes": tally.notes,
    }
    (workdir / "summary.json").write_text(json.dumps(summary, indent=2))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    only = set(args.only.split(","))
    started = time.monotonic()
    args.workdir.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(args.workdir / "cluster", ignore_errors=True)  # the logs scanned are this run's only
    for old in args.workdir.glob("export-*.json"):
        old.unlink()
    env, scratch_env = app_env(args, args.database), app_env(args, args.scratch)
    scratch_env["ALLOWED_HOSTS"] = "127.0.0.1,testserver"
    prepare(args, env, scratch_env)
    setup_django(env)
    events = make_events(args.fault_events)
    tally = Tally()
    with cluster(args.workdir / "cluster", env, instances=1, workers=3, threads=2) as running:
        http = Http(running.instances[0], tally, str(events["token"]))
        if "replays" in only:
            touched = hostile_replays.run_replays(http, events["replays"], args.copies)
            games_consistent(tally, hostile_replays.REPLAYS, touched)
        if "bad" in only:
            hostile_bad_input.run_bad_input(http, events["replays"])
            hostile_bad_input.run_oversized_uri(http, running.url)
        if "faults" in only:
            for tournament_id in events["faults"]:
                hostile_play.run_faults(http, tournament_id, args.database, holes=9)
        if "exports" in only:
            files = hostile_play.run_exports(
                http, events["exports"], env, args.workdir, args.exports, holes=60
            )
            tally.note(f"exports: {len(files)} files written during play")
            hostile_play.check_restores(tally, files, scratch_env)
        provoke_log_lines(http, [*events["faults"], events["exports"]])
        time.sleep(1)
    scan_logs(tally, args.workdir)
    report(tally, time.monotonic() - started, args.workdir)
    return 1 if tally.violations else 0


if __name__ == "__main__":
    sys.exit(main())
