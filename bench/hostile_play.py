"""The hostile pass's play under stress (bench/hostile_pass.py): 8 tables record their holes while
the database's connections are cut, or while the event is exported in a loop.

Each table's phone sends every hole with its own `Idempotency-Key` and sends it again with the same
key until it is acknowledged (201, or a replay), as the app's error answers tell it to.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.hostile_common import Http, Tally, counted_sums, games_consistent, run_threads

FAULTS = "faults mid-burst"
EXPORTS = "exports during play"
ROOT = Path(__file__).resolve().parent.parent
#: Attempts of one hole (the same key each time) before the phone gives up.
GIVE_UP = 40
#: The application_name of the pass's own connections that cut the app's.
KILLER = "hostile-pass-killer"


def score(hole: int, seat: int) -> int:
    """Small scores, some below zero: no total ends the match early."""
    return (hole * 7 + seat * 3) % 9 - 2


def tables_of(tournament_id: int) -> list[tuple[str, list[str]]]:
    """Each table of the event's round 1: its edit token and its players in seat order."""
    from tournaments.models import Table

    return [
        (t.game.edit_token, list(t.game.seats.order_by("seat").values_list("name", flat=True)))
        for t in Table.objects.filter(round__tournament_id=tournament_id, round__number=1)
        .select_related("game")
        .order_by("number")
    ]


class Phones:
    """The tables' phones: each records holes 1..`holes` with keys, retrying until acknowledged."""

    def __init__(self, http: Http, scenario: str, tables: list[tuple[str, list[str]]], holes: int) -> None:
        self.http, self.scenario, self.tables, self.holes = http, scenario, tables, holes
        self.stop = threading.Event()
        self.acknowledged: dict[str, int] = defaultdict(int)
        self.before_last_hole = threading.Event()  # fault scenario: a kill aimed at the last holes
        self.last_hole_sent: list[float] = []
        self.pace = 0.0
        self.on_last_hole: Any = None  # called (in its own thread) as each table sends its last hole

    def play(self, index: int) -> None:
        token, names = self.tables[index]
        with self.http.client(f"198.51.100.{100 + index}") as phone:
            for number in range(1, self.holes + 1):
                if self.stop.is_set():
                    return
                body = {"entries": {n: score(number, s) for s, n in enumerate(names)}, "number": number}
                key = {"Idempotency-Key": str(uuid.uuid4())}
                if number == self.holes:
                    self.last_hole_sent.append(time.monotonic())
                    if self.on_last_hole:
                        threading.Thread(target=self.on_last_hole).start()
                for attempt in range(GIVE_UP):
                    answer = self.http.send(
                        phone, self.scenario, "POST", f"/api/v1/games/{token}/holes/", json=body, headers=key
                    )
                    if answer is not None and answer.status_code == 201:
                        self.acknowledged[token] = number
                        break
                    if (
                        answer is not None
                        and answer.status_code not in (429, 503)
                        and answer.status_code < 500
                    ):
                        self.http.tally.check(
                            self.scenario,
                            False,
                            f"hole {number} refused {answer.status_code}: {answer.text[:200]}",
                            f"POST /api/v1/games/<table token>/holes/ {body} (attempt {attempt + 1})",
                        )
                        return
                    time.sleep(0.2 + random.random() * 0.3)
                else:
                    self.http.tally.check(
                        self.scenario, False, f"hole {number} never acknowledged", str(body)
                    )
                    return
                if self.pace:
                    time.sleep(self.pace * (0.5 + random.random()))


def _kill_backends(database: str) -> int:
    """Terminate every connection of the app to `database` (not the pass's own); how many."""
    import psycopg

    url = f"postgresql://postgres@127.0.0.1:5432/{database}?application_name={KILLER}"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                " AND application_name <> %s",
                [database, KILLER],
            ).fetchall()
    except psycopg.Error:
        return 0
    return len(rows)


def _spectate(http: Http, tournament_id: int, stop: threading.Event, seen: dict[str, str]) -> None:
    """A spectator polling the public leaderboard with its ETag; every (ETag, body) seen kept."""
    etag = None
    with http.client("198.51.100.90") as phone:
        while not stop.is_set():
            headers = {"If-None-Match": etag} if etag else {}
            answer = http.send(
                phone, FAULTS, "GET", f"/tournaments/{tournament_id}/public/leaderboard/", headers=headers
            )
            if answer is not None and answer.status_code == 200 and answer.headers.get("ETag"):
                etag = answer.headers["ETag"]
                seen.setdefault(etag, answer.text)
            time.sleep(0.15)


def run_faults(http: Http, tournament_id: int, database: str, holes: int) -> None:
    """8 tables record every hole while the app's database connections are cut at random moments
    and right as the last holes are sent; then standings, leaderboard ETags and games are checked."""
    from django.db import connections

    tables = tables_of(tournament_id)
    connections.close_all()  # this process's own connection is not the app's: keep it out of the kills
    phones = Phones(http, FAULTS, tables, holes)
    stop, seen, kills = threading.Event(), {}, [0, 0]

    def cut() -> None:
        kills[0] += _kill_backends(database)
        kills[1] += 1

    def cut_soon() -> None:  # a table sends its last hole: cut every 10 ms while it is saved and after
        for _ in range(15):
            time.sleep(0.01)
            cut()

    def killer() -> None:
        while not stop.is_set():
            time.sleep(0.1 + random.random() * 0.4)
            cut()

    phones.on_last_hole = cut_soon
    phones.pace = 0.1

    background = [
        threading.Thread(target=killer),
        threading.Thread(target=_spectate, args=(http, tournament_id, stop, seen)),
    ]
    for thread in background:
        thread.start()
    try:
        run_threads([lambda n=n: phones.play(n) for n in range(len(tables))])
    finally:
        time.sleep(0.5)
        kills[0] += _kill_backends(database)  # one more cut right after the last hole's answer
        stop.set()
        for thread in background:
            thread.join()
    http.tally.note(f"faults: {kills[1]} cuts terminated {kills[0]} database connections during the burst")
    _check_after_faults(http, tournament_id, tables, phones, seen)


def _check_after_faults(
    http: Http, tournament_id: int, tables: list, phones: Phones, seen: dict[str, str]
) -> None:
    """Every hole there once; the standings (API) equal a recomputation; no 304 to a stale ETag."""
    from scoring.models import Game

    tally = http.tally
    for token, _names in tables:
        tally.check(
            FAULTS,
            phones.acknowledged[token] == phones.holes,
            f"table <token {token[:4]}…>: {phones.acknowledged[token]} of {phones.holes} holes acknowledged",
        )
    ids = list(Game.objects.filter(edit_token__in=[t for t, _n in tables]).values_list("pk", flat=True))
    games_consistent(tally, FAULTS, ids)
    with http.client("198.51.100.91") as phone:
        answer = http.send(phone, FAULTS, "GET", f"/api/v1/tournaments/{tournament_id}/standings/")
        current = http.send(phone, FAULTS, "GET", f"/tournaments/{tournament_id}/public/leaderboard/")
        stale = []
        for etag, body in seen.items():
            if current is not None and etag == current.headers.get("ETag"):
                if body != current.text:  # one tag for two boards: the tag did not move with the data
                    stale.append(etag)
                continue
            again = http.send(
                phone,
                FAULTS,
                "GET",
                f"/tournaments/{tournament_id}/public/leaderboard/",
                headers={"If-None-Match": etag},
            )
            if (
                again is not None
                and again.status_code == 304
                and current is not None
                and body != current.text
            ):
                stale.append(etag)
    tally.check(
        FAULTS,
        not stale,
        f"public leaderboard: {len(stale)} ETag(s) seen during the burst answered 304 or still current "
        f"though their board is not the current one: {stale[:3]}",
        f"GET /tournaments/{tournament_id}/public/leaderboard/ If-None-Match: {stale[:1]} -> 304",
    )
    tally.note(f"faults: {len(seen)} leaderboard ETags seen during the burst, each asked again after it")
    standings_equal_recomputation(
        tally, FAULTS, tournament_id, answer.json()["standings"] if answer else None
    )


def standings_equal_recomputation(tally: Tally, scenario: str, tournament_id: int, answered: Any) -> None:
    """The API's standings equal `compute_standings` run afresh, and each player's total equals the
    sum of their entries (the holes the round counts) plus their penalty points."""
    from tournaments.models import TableSeat, Tournament
    from tournaments.standings import compute_standings

    fresh = compute_standings(Tournament.objects.get(pk=tournament_id), live=True)
    tally.check(
        scenario,
        answered == [line.to_api() for line in fresh.lines],
        "GET .../standings/ differs from a recomputation",
        f"GET /api/v1/tournaments/{tournament_id}/standings/ vs compute_standings(live=True)",
    )
    seat_of = {
        (game, seat): entrant
        for game, seat, entrant in TableSeat.objects.filter(round__tournament_id=tournament_id).values_list(
            "table__game_id", "seat", "entrant_id"
        )
    }
    sums = {seat_of[where]: points for where, points in counted_sums(list({g for g, _s in seat_of})).items()}
    for line in answered or []:
        expected = sums.get(line["player"]["id"], 0) + (line["penalty_points"] or 0)
        tally.check(
            scenario,
            line["total"] == expected,
            f"{line['player']['name']}: standings total {line['total']}, entries sum to {expected}",
            f"GET /api/v1/tournaments/{tournament_id}/standings/",
        )


def run_exports(
    http: Http, tournament_id: int, env: dict[str, str], workdir: Path, exports: int, holes: int
) -> list[Path]:
    """8 tables score while `manage.py export_event` runs in a loop; the files written."""
    tables = tables_of(tournament_id)
    # The last hole is never played: every file then holds tables that must go on scoring.
    phones = Phones(http, EXPORTS, tables, holes - 1)
    phones.pace = 0.6
    files: list[Path] = []

    def export_loop() -> None:
        time.sleep(1.0)
        while len(files) < exports and not all(phones.acknowledged[t] == holes - 1 for t, _n in tables):
            path = workdir / f"export-{len(files) + 1:02d}.json"
            done = subprocess.run(
                [sys.executable, "manage.py", "export_event", str(tournament_id), "--output", str(path)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            http.tally.check(
                EXPORTS,
                done.returncode == 0,
                f"export_event failed: {done.stderr[-300:]}",
                f"manage.py export_event {tournament_id}",
            )
            if done.returncode == 0:
                files.append(path)
        phones.stop.set()

    run_threads([export_loop, *[lambda n=n: phones.play(n) for n in range(len(tables))]])
    return files


def check_restores(tally: Tally, files: list[Path], scratch_env: dict[str, str]) -> None:
    """Every file imported (`manage.py import_event`) into the scratch database and checked there
    (bench/hostile_restore.py); then one file imported twice at once."""
    for path in files:
        done = subprocess.run(
            [sys.executable, "-m", "bench.hostile_restore", str(path)],
            cwd=ROOT,
            env=scratch_env,
            capture_output=True,
            text=True,
        )
        for line in done.stdout.splitlines():
            if line.startswith("CHECKED "):
                tally.invariants[EXPORTS] += int(line.split()[1])
            elif line.startswith("VIOLATION "):
                tally.check(
                    EXPORTS, False, f"{path.name}: {line[10:]}", f"manage.py import_event {path.name}"
                )
        tally.check(
            EXPORTS,
            done.returncode in (0, 1),
            f"{path.name}: the restore check crashed: {done.stderr[-400:]}",
            f"python -m bench.hostile_restore {path}",
        )
    if files:
        _two_imports_at_once(tally, files[-1], scratch_env)


def _two_imports_at_once(tally: Tally, path: Path, scratch_env: dict[str, str]) -> None:
    """Two `import_event` of one file at once: one imports, the other says so in plain words."""
    command = [sys.executable, "manage.py", "import_event", str(path)]
    runs = [
        subprocess.Popen(
            command, cwd=ROOT, env=scratch_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [(run.wait(), *run.communicate()) for run in runs]
    codes = sorted(code for code, _out, _err in outputs)
    words = " | ".join(err.strip()[-300:] for code, _out, err in outputs if code)
    tally.check(
        EXPORTS,
        codes[0] == 0 and codes[1] != 0,
        f"two import_event at once exited {codes}",
        f"2 x manage.py import_event {path.name} at once: {words}",
    )
    tally.check(
        EXPORTS,
        "duplicate key" not in words and "Traceback" not in words,
        f"the second import_event said: {words}",
        f"2 x manage.py import_event {path.name} at once",
    )
    subprocess.run(
        [sys.executable, "-m", "bench.hostile_restore", "--clear"], cwd=ROOT, env=scratch_env, check=False
    )


def digest(text: str) -> str:
    """A short fingerprint of a body, for the report."""
    return hashlib.sha256(text.encode()).hexdigest()[:12]
