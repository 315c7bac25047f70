"""The offline download budget (issue 32, item 7): everything a phone stores to work with no
connection, compressed as production serves it, against 300 KB.

What is counted: the service worker and the manifest themselves, every file the service worker
stores at install (the static files of
scoring/web/pwa_files.py, by rule, so the engine and the offline scripts count as soon as they
exist) and the pages it stores then: the offline shell (/offline/), the "You are offline" page and
the start pages (home, new game, calculator, rules). The game and table pages a phone keeps later,
as it visits them, are not part of the install and are not counted.

How each is counted ("served" column):
- static files as WhiteNoise serves them from `collectstatic`'s CompressedManifestStaticFilesStorage:
  Brotli (the browsers that install apps all accept it over HTTPS), using WhiteNoise's own
  compressor (`whitenoise.compress.Compressor`, the same calls and the same "not worth it" rule:
  images and files that do not shrink by 5% are sent as they are); the gzip -9 size is printed too.
- pages, /sw.js and the manifest (rendered by Django, here in process): gzip -9, as a proxy in
  front compresses them (the sample nginx configuration in docs/deploy/ does not: turn on `gzip`
  there, or count the raw column, which is also printed).

Run from the repository root, with the database of DATABASE_URL migrated:
    DEBUG=true .venv/bin/python bench/offline_budget.py [--budget-kb 300]
It exits 1 when the total is over the budget. Figures in docs/performance.md ("Offline budget").
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BUDGET_KB = 300
#: Compressed sizes no smaller than this share of the original are not worth serving (WhiteNoise's rule).
WORTH_COMPRESSING = 0.95


@dataclass(frozen=True)
class Measured:
    """One thing a phone downloads at install: its address, raw size and sizes as served."""

    url: str
    raw: int
    gzip: int
    brotli: int
    served: int
    how: str


def compressed_sizes(data: bytes, name: str) -> tuple[int, int, int, str]:
    """(gzip, brotli, served, how) for a static file, as WhiteNoise's compressor treats it."""
    from whitenoise.compress import Compressor

    compressor = Compressor(quiet=True)
    gzip_size = len(compressor.compress_gzip(data))
    if not compressor.should_compress(name) or not data:
        return gzip_size, len(data), len(data), "as is"
    brotli_size = len(compressor.compress_brotli(data))
    if brotli_size / len(data) > WORTH_COMPRESSING:
        return gzip_size, brotli_size, len(data), "as is"
    return gzip_size, brotli_size, brotli_size, "brotli"


def measure_static_files() -> list[Measured]:
    """Every static file the service worker stores at install, from the project's static folder."""
    from django.templatetags.static import static

    from scoring.web.pwa_files import precached_names, static_folder

    rows = []
    for name in precached_names():
        data = (static_folder() / name).read_bytes()
        gzip_size, brotli_size, served, how = compressed_sizes(data, name)
        rows.append(Measured(static(name), len(data), gzip_size, brotli_size, served, how))
    return rows


def measure_pages(get: Callable[[str], tuple[int, bytes]]) -> tuple[list[Measured], list[str]]:
    """The pages stored at install, fetched with `get(url) -> (status, body)`; and those missing."""
    from whitenoise.compress import Compressor

    from scoring.web.pwa_views import service_worker_config

    config = service_worker_config()
    rows, missing = [], []
    for url in ["/sw.js", "/manifest.webmanifest", config["shell"], config["notice"], *config["startPages"]]:
        status, body = get(url)
        if status != 200:
            missing.append(f"{url} ({status})")
            continue
        gzip_size = len(Compressor.compress_gzip(body))
        brotli_size = len(Compressor.compress_brotli(body))
        rows.append(Measured(url, len(body), gzip_size, brotli_size, gzip_size, "gzip -9"))
    return rows, missing


def report(rows: list[Measured], missing: list[str], budget_kb: float) -> bool:
    """Print the table and the total against the budget; answer whether it fits."""
    width = max(len(row.url) for row in rows)
    print(f"{'address':<{width}}  {'raw':>8}  {'gzip -9':>8}  {'brotli':>8}  {'served':>8}  how")
    for row in rows:
        print(f"{row.url:<{width}}  {row.raw:>8}  {row.gzip:>8}  {row.brotli:>8}  {row.served:>8}  {row.how}")
    total = sum(row.served for row in rows)
    raw = sum(row.raw for row in rows)
    fits = total <= budget_kb * 1024
    for url in missing:
        print(f"not counted (does not answer 200 yet): {url}")
    print(
        f"Offline download: {len(rows)} files, {total / 1024:.1f} KB as served ({raw / 1024:.1f} KB raw) "
        f"against a budget of {budget_kb:g} KB: {'within' if fits else 'OVER'} budget"
    )
    return fits


def client_get() -> Callable[[str], tuple[int, bytes]]:
    """A GET through Django in this process (a phone's first visit: no cookies, English)."""
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="en")

    def get(url: str) -> tuple[int, bytes]:
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        return response.status_code, body

    return get


def main(argv: Sequence[str] | None = None, get: Callable[[str], tuple[int, bytes]] | None = None) -> int:
    """Measure, print, and answer 0 within the budget, 1 over it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget-kb", type=float, default=BUDGET_KB)
    args = parser.parse_args(argv)
    if get is None:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "golfclub.settings")
        import django

        django.setup()
        get = client_get()
    pages, missing = measure_pages(get)
    return 0 if report(measure_static_files() + pages, missing, args.budget_kb) else 1


if __name__ == "__main__":
    sys.exit(main())
