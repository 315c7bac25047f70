"""What the offline app's timing benchmarks share (issue 32, item 7): a fresh database, the app
under gunicorn on loopback, a phone-sized Chromium with its CPU slowed, and the page hook that times
Save to the hole shown on the scoreboard. Playing the offline app like a player: bench/offline_play.py.

Used by bench/offline_save.py and bench/offline_sync.py (with bench/offline_play.py); tested by
tests/test_bench_offline_timing.py.
"""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = "postgres://postgres@127.0.0.1:5432"
DB_NAME = "golfclub_bench"
PHONE = {"width": 390, "height": 844}
# Installed in every page before its own scripts. After `__golfBench.arm(n)`, the next click on a
# submit button is the Save (pressed as raw input: `tap` in bench/offline_play.py); its event's
# timestamp is when the phone took the press. From then on a MutationObserver watches for hole n's
# column in a scorecard (its "correct or delete" link, the same on the offline scoreboard and the
# server's); when it is in the document, the next animation frame is awaited and then a message
# posted from it, which runs once that frame's rendering (style, layout, paint) is done: that is
# "visible". Times are on the epoch clock (performance.timeOrigin + ...), so a Save that loads a
# new page (the online form) is timed across the navigation: the armed target is kept in
# sessionStorage when the page is left, and the new page watches for it.
PAGE_HOOK = """
(() => {
  const KEY = "golfBench";
  const bench = window.__golfBench = { result: null, target: null };
  const now = () => performance.timeOrigin + performance.now();
  const stored = () => JSON.parse(sessionStorage.getItem(KEY) || "null");
  function watch(target) {
    const selector = 'table.scorecard thead a[href*="/holes/' + target.hole + '/"]';
    let seen = false;
    const observer = new MutationObserver(found);
    function found() {
      if (seen || !document.querySelector(selector)) return;
      seen = true;
      observer.disconnect();
      const domAt = now();
      requestAnimationFrame(() => {
        const frameAt = now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          bench.result = Object.assign({}, target, { domAt, frameAt, paintedAt: now(), url: location.href });
          bench.target = null;
          sessionStorage.removeItem(KEY);
        };
        channel.port2.postMessage(0);
      });
    }
    observer.observe(document, { childList: true, subtree: true });
    found();
  }
  bench.arm = (hole) => {
    bench.result = null;
    bench.target = { hole: hole, clickAt: null };
    sessionStorage.removeItem(KEY);
  };
  document.addEventListener("click", (event) => {
    const target = bench.target;
    if (!target || target.clickAt || !event.target.closest('button[type="submit"]')) return;
    target.clickAt = performance.timeOrigin + event.timeStamp;
    watch(target);
  }, true);
  // Kept for the next page only when this one is left (the online form): no storage write in the
  // Save's own time.
  addEventListener("pagehide", () => {
    if (bench.target && bench.target.clickAt) sessionStorage.setItem(KEY, JSON.stringify(bench.target));
  });
  const pending = stored();
  if (pending && pending.clickAt) { bench.target = pending; watch(pending); }
})();
"""


def percentile(values: list[float], pct: float) -> float:
    """The pct-th percentile (nearest rank) of values."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered)) - 1))]


def spread(values: list[float]) -> dict[str, float]:
    """Median, p90 and max of a list of timings."""
    return {"median": statistics.median(values), "p90": percentile(values, 90), "max": max(values)}


def machine() -> str:
    """One line about this machine: CPU, cores, load, Python."""
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    python = platform.python_version()
    return f"{model or platform.machine()}, {os.cpu_count()} cores, load {load}; Python {python}"


def environment(db_name: str) -> dict[str, str]:
    """The app's environment: production settings plus the finders for static files."""
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{db_name}",
        "DJANGO_SETTINGS_MODULE": "bench.offline_settings",
        "DEBUG": "false",
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "LOG_LEVEL": "ERROR",
        "BENCH_RATELIMITS": "0",
    }


def prepare_database(db_name: str, env: dict[str, str]) -> None:
    """Drop and recreate the benchmark's database, migrate it, make the cache table."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{db_name}"')
    for command in (["migrate", "--noinput"], ["createcachetable"]):
        command = [sys.executable, "manage.py", *command]
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)


def drop_database(db_name: str) -> None:
    """Remove the benchmark's database (the tests' runs)."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def served(env: dict[str, str], workers: int = 2) -> Iterator[str]:
    """The app under gunicorn on loopback (sync workers, as live_games.py); yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "golfclub.wsgi", "--workers", str(workers)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "warning"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 100
        while True:
            try:
                if httpx.get(f"{base}/api/v1/rulesets/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("gunicorn did not start within 30 s")
            time.sleep(0.2)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


# The browser tests' Chromium and flags (tests/conftest.py, which cannot be imported without
# Django's settings): the headless shell first, as the browser tests use.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def find_chromium() -> str | None:
    """Where Chromium is, as tests/conftest.py's chromium_path() finds it, or None."""
    candidates = (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium-headless-shell",
        shutil.which("chromium-headless-shell"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    )
    return next((c for c in candidates if c and Path(c).exists()), None)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """One headless Chromium with the browser tests' flags."""
    from playwright.sync_api import sync_playwright

    path = find_chromium()
    if path is None:
        raise SystemExit("no Chromium (apt-get install chromium-headless-shell)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def phone(browser: Any, base: str, scale: int) -> Any:
    """A new phone (390x844, touch, `scale` device pixels per CSS pixel) with the timing hook."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=scale, is_mobile=True, has_touch=True, base_url=base
    )
    context.set_default_timeout(30_000)
    context.add_init_script(PAGE_HOOK)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    return page


def throttle(page: Any, rate: float) -> float:
    """Chromium runs this page's main thread `rate` times slower (CDP), 1 = full speed; answers
    how long a fixed piece of JavaScript then takes (ms), the proof that the slowdown holds.

    The CDP session stays open: Chromium drops a session's emulation when the session detaches.
    """
    session = getattr(page, "bench_cdp", None)
    if session is None:
        session = page.bench_cdp = page.context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return calibrate(page)


def unthrottle(page: Any) -> None:
    """Full speed again, and the CDP session closed. Call it before the page loads another
    document that is to see the connection return: Chromium (156) does not fire the `online` event
    in a document loaded while a second CDP session was attached to the page (measured: the queue
    then waited for its 15 s timer), an artefact of the harness that no phone has."""
    session = getattr(page, "bench_cdp", None)
    if session is not None:
        session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        session.detach()
        page.bench_cdp = None


# A fixed piece of work (about 8 ms at full speed here), timed in the page.
def calibrate(page: Any) -> float:
    """The fixed piece of work timed in the page, best of 3 (one stall of the machine aside), ms."""
    return min(page.evaluate(CALIBRATION) for _ in range(3))


CALIBRATION = """() => {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 2e6; i++) x = (x + i * 7) % 1000003;
  return performance.now() - started + (x < 0 ? 1 : 0);
}"""
