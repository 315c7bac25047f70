"""What the fault tests share: the app's production environment, a private Redis, pauses, polling.

Each test starts what it breaks itself (a Redis or a PostgreSQL of its own, on a free port) and
never touches the machine's shared services.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.conf import settings

from bench.cluster import BEHIND_TLS, free_port

REDIS_SERVER = "/usr/bin/redis-server"


def shared_database_url() -> str:
    """The test database's URL, for app servers sharing it (PostgreSQL only, as in CI)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "tests.postgresql_backend":
        pytest.skip("the app servers share the test database: PostgreSQL only (as in CI)")
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def app_env(database_url: str, fault_dir: Path, **extra: str) -> dict[str, str]:
    """Production settings (with the tests' pauses) on `database_url`; `extra` adds or overrides."""
    return {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "tests.faults.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "CLIENT_IP_HEADER": "X-Forwarded-For",
        "RATELIMIT_HOLE_WRITES": "100000/m",
        "RATELIMIT_GAME_CREATE": "100000/m",
        "LOG_LEVEL": "WARNING",
        "FAULT_DIR": str(fault_dir),
        **extra,
    }


def client(base: str, address: str = "198.51.100.7", timeout: float = 30) -> httpx.Client:
    """A phone talking to `base` (an instance as nginx calls it, or nginx itself)."""
    return httpx.Client(
        base_url=base, headers=BEHIND_TLS | {"X-Forwarded-For": address}, timeout=timeout, verify=False
    )


def new_game(phone: httpx.Client, players: tuple[str, ...] = ("ann", "bob")) -> str:
    """A live game made through the API; its edit token."""
    made = phone.post("/api/v1/games/", json={"players": list(players), "ruleset": "official"})
    assert made.status_code == 201, made.text
    return made.json()["edit_token"]


def wait_for(what: str, check: Callable[[], Any], seconds: float = 20) -> Any:
    """Poll `check` until it returns something true; fail saying `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def paused_pid(fault_dir: Path) -> int:
    """The pid of the worker paused by tests/faults/middleware.py (waits until it has paused)."""
    marker = fault_dir / "paused.pid"
    return int(wait_for("a worker to pause", lambda: marker.exists() and marker.read_text()))


def clear_pause(fault_dir: Path) -> None:
    """Forget the last pause's marker before the next paused request."""
    (fault_dir / "paused.pid").unlink(missing_ok=True)


@dataclass
class PrivateRedis:
    """A redis-server of the test's own: no snapshot, no append-only file, on `port`."""

    port: int
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """Its URL, database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it and wait until it answers PING."""
        import redis

        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        probe = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.2)

        def answers() -> bool:
            try:
                return bool(probe.ping())
            except redis.ConnectionError:
                return False

        wait_for(f"redis-server on port {self.port}", answers)

    def stop(self) -> None:
        """Stop it (SIGTERM, then wait until it is gone)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        self.process = None


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A private Redis on a free port, stopped on the way out."""
    if not Path(REDIS_SERVER).exists():
        pytest.skip("no redis-server at /usr/bin/redis-server (apt-get install redis-server)")
    server = PrivateRedis(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), Path("/nonexistent"))


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb in `folder`), on `port` of loopback."""

    folder: Path
    port: int

    @property
    def url(self) -> str:
        """The URL of its `golfclub` database."""
        return f"postgres://postgres@127.0.0.1:{self.port}/golfclub"

    def _run(self, *command: str) -> subprocess.CompletedProcess:
        # PostgreSQL refuses to run as root: as the postgres user when the tests run as root.
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        return subprocess.run([*prefix, *command], check=True, capture_output=True, text=True, timeout=60)

    def pg_ctl(self, action: str, *options: str) -> None:
        """`pg_ctl <action>` on the cluster, waiting until it is done."""
        server = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(PG_BIN / "pg_ctl"), action, "-D", str(self.folder / "data"), "-w", "-o", server,
            "-l", str(self.folder / "server.log"), *options,
        )  # fmt: skip

    def create(self) -> None:
        """initdb, start, and create the empty `golfclub` database."""
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(
            str(PG_BIN / "initdb"), "-D", str(self.folder / "data"), "-U", "postgres", "--auth=trust",
            "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        self.pg_ctl("start")
        self._run(
            str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "golfclub"
        )


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private PostgreSQL in a folder of its own under /tmp (pytest's folders are root's alone,
    and the server runs as postgres), stopped (immediately) and removed on the way out."""
    if not (PG_BIN / "initdb").exists():
        pytest.skip("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
    if os.geteuid() == 0 and not shutil.which("runuser"):
        pytest.skip("running as root without runuser: PostgreSQL will not start as root")
    folder = Path(tempfile.mkdtemp(prefix="golfclub-faults-pg-"))
    server = PrivatePostgres(folder, free_port())
    try:
        server.create()
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            server.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(folder, ignore_errors=True)
