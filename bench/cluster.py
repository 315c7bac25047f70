"""Several app servers behind nginx on loopback, as an event that outgrew one machine runs them.

`cluster(...)` starts N gunicorn instances of golfclub.wsgi, each a separate process group on its
own port with the same environment (one PostgreSQL database, one Redis), and Debian's nginx in
front with the repository's own site file (docs/deploy/nginx-golfclub.conf): only its ports, its
certificate (a self-signed one made here) and its file paths are swapped in; every proxy setting
is the file's. Used by tests/test_two_app_servers.py and the load test.

Each instance writes its own access log (`Cluster.access_logs`), so a test can tell that every
instance answered.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SITE_FILE = ROOT / "docs" / "deploy" / "nginx-golfclub.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
#: Sent by nginx to the app; a client talking to an instance directly sends it too.
BEHIND_TLS = {"X-Forwarded-Proto": "https"}


@dataclass
class Cluster:
    """The running cluster: nginx's HTTPS address and each instance's own (plain HTTP) address."""

    url: str
    instances: list[str]
    access_logs: list[Path]
    proxy_log: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    def requests_served(self) -> list[int]:
        """How many requests each instance has logged so far."""
        return [len(log.read_text().splitlines()) if log.exists() else 0 for log in self.access_logs]


def free_port() -> int:
    """A TCP port free on loopback right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def nginx_available() -> bool:
    """Whether Debian's nginx is installed (the project's scripts install it: .ci/run)."""
    return Path(NGINX).exists()


def render_site(site: str, *, upstreams: list[int], listen: int, cert: Path, key: Path, logs: Path) -> str:
    """The site file with the cluster's ports and certificate; refuses a file whose shape changed."""

    def swap(pattern: str, replacement: str, text: str, count: int = 1) -> str:
        result, made = re.subn(pattern, replacement, text, flags=re.MULTILINE)
        if made != count:
            raise ValueError(f"{SITE_FILE.name}: expected {count} match(es) of {pattern!r}, found {made}")
        return result

    servers = "".join(f"    server 127.0.0.1:{port} max_fails=3 fail_timeout=5s;\n" for port in upstreams)
    site = swap(r"(?:^    server 127\.0\.0\.1:\d+ .*;\n)+", servers, site)
    site = swap(r"^    listen 443 ssl;$", f"    listen 127.0.0.1:{listen} ssl;", site)
    site = swap(r"^    ssl_certificate .*;$", f"    ssl_certificate {cert};", site)
    site = swap(r"^    ssl_certificate_key .*;$", f"    ssl_certificate_key {key};", site)
    site = swap(r"^    access_log /var/log/nginx/(\S+) ", rf"    access_log {logs}/\1 ", site)
    site = swap(r"^proxy_cache_path /var/lib/nginx/golfclub-cache ", f"proxy_cache_path {logs}/cache ", site)
    site = swap(r"^    server_name golf\.example\.com;$", "    server_name 127.0.0.1;", site, count=2)
    # Plain HTTP's redirecting server is left out: loopback has no port 80 to give.
    return swap(r"^server \{\n    listen 80;\n(?:.*\n)*?\}\n?", "", site)


def _nginx_conf(workdir: Path, site: str) -> str:
    return f"""user root;
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    client_body_temp_path {workdir}/body;
    proxy_temp_path {workdir}/proxy;
    fastcgi_temp_path {workdir}/fastcgi;
    uwsgi_temp_path {workdir}/uwsgi;
    scgi_temp_path {workdir}/scgi;
{site}
}}
"""


def _self_signed(workdir: Path) -> tuple[Path, Path]:
    cert, key = workdir / "cert.pem", workdir / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def _wait_until_up(url: str, proc: subprocess.Popen, what: str, *, verify: bool = True) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{url}/api/v1/rulesets/", headers=BEHIND_TLS, timeout=5, verify=verify)
            return
        except httpx.TransportError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.2)


def _stop(proc: subprocess.Popen) -> None:
    """Stop a process and its whole group, and wait until every member is gone (a worker still
    exiting holds its database connection, which would keep the database from being dropped)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 15
    while True:
        proc.poll()
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            deadline = time.monotonic() + 5
        time.sleep(0.05)
    proc.wait()


@contextmanager
def cluster(
    workdir: Path,
    env: Mapping[str, str],
    *,
    instances: int = 2,
    workers: int = 1,
    threads: int = 1,
) -> Iterator[Cluster]:
    """Start `instances` gunicorns (each `workers` x `threads`) with `env`, and nginx in front.

    `env` is the app's whole environment (DATABASE_URL, REDIS_URL, SECRET_KEY, ALLOWED_HOSTS must
    include 127.0.0.1, DJANGO_SETTINGS_MODULE...). Stops everything on the way out.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    ports = [free_port() for _ in range(instances)]
    listen = free_port()
    logs = [workdir / f"instance-{n + 1}-access.log" for n in range(instances)]
    running: list[subprocess.Popen] = []
    try:
        for port, log in zip(ports, logs, strict=True):
            proc = subprocess.Popen(
                [
                    *(sys.executable, "-m", "gunicorn", "golfclub.wsgi", "--bind", f"127.0.0.1:{port}"),
                    *("--workers", str(workers), "--threads", str(threads), "--access-logfile", str(log)),
                    *("--logger-class", "golfclub.gunicorn_logging.TokenMaskingLogger"),
                ],
                cwd=ROOT,
                env=dict(env),
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=open(workdir / f"instance-{port}-error.log", "w"),  # noqa: SIM115 (closed with the process)
            )
            running.append(proc)
        for port, proc in zip(ports, running, strict=True):
            _wait_until_up(f"http://127.0.0.1:{port}", proc, f"gunicorn on port {port}")
        cert, key = _self_signed(workdir)
        site = render_site(
            SITE_FILE.read_text(), upstreams=ports, listen=listen, cert=cert, key=key, logs=workdir
        )
        (workdir / "nginx.conf").write_text(_nginx_conf(workdir, site))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(workdir), "-c", str(workdir / "nginx.conf"), "-g", "daemon off;"],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        running.append(nginx)
        _wait_until_up(f"https://127.0.0.1:{listen}", nginx, "nginx", verify=False)
        yield Cluster(
            url=f"https://127.0.0.1:{listen}",
            instances=[f"http://127.0.0.1:{port}" for port in ports],
            access_logs=logs,
            proxy_log=workdir / "golfclub-access.log",
            processes=running,
        )
    finally:
        for proc in reversed(running):
            _stop(proc)
