"""What the service worker keeps on a phone: the static files by rule, their URLs and a version.

The list is made by rule, not by hand, so a new page script, offline script or vendored library
joins it when its file is added:

- `css/*.css`, every `js/**/*.js` (the page scripts, the engine, the offline app and its queue),
  `vendor/*.js` (htmx, idb-keyval) and `icons/*.png`, from the project's own static folder;
- named by `django.templatetags.static.static()`, so production's `ManifestStaticFilesStorage`
  gives the hashed URLs its pages use (cache-first is then safe: a changed file is a new URL).

The version is a hash of the URLs, of every listed file's bytes and of the templates the service
worker stores at install (the offline shell and the "no connection" page): the service worker's
body changes with it, so a phone updates when any of them changes, in development too (where the
URLs are not hashed). It is computed once per change: the files' sizes and modification times are
checked on each request (a few `stat` calls), their bytes read again only when one changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static

#: Static files a phone needs with no connection, by rule (glob patterns under the static folder).
PRECACHE_RULES = ("css/*.css", "js/**/*.js", "vendor/*.js", "icons/*.png")
#: Scripts the service worker loads itself for Background Sync, in this order, when they exist.
SYNC_SCRIPT_RULES = (
    "vendor/idb-keyval-*.js",
    "js/offline/store.js",
    "js/offline/sync-http.js",
    "js/offline/sync-resolve.js",
    "js/offline/sync.js",
    # The offline app's reading of a hole form, for a form posted while the browser believed it was
    # online and whose request failed: the worker queues it (issue 32).
    "js/offline/app-model.js",
    "js/offline/app-form.js",
    "js/offline/app-capture.js",
)
#: Templates of the pages stored at install whose change must reach phones (with the files above).
STORED_PAGE_TEMPLATES = ("base.html", "_site_brand_and_nav.html", "offline/*.html", "pwa/*.html")


@dataclass(frozen=True)
class Precache:
    """The static URLs to store at install, the Background Sync scripts, and their version hash."""

    urls: tuple[str, ...]
    sync_scripts: tuple[str, ...]
    version: str


def static_folder() -> Path:
    """The project's own static folder (the first of STATICFILES_DIRS: static/)."""
    return Path(settings.STATICFILES_DIRS[0])


def template_folder() -> Path:
    """The project's templates folder (the first of TEMPLATES' DIRS: templates/)."""
    return Path(settings.TEMPLATES[0]["DIRS"][0])


def _matching(folder: Path, rules: tuple[str, ...]) -> list[str]:
    """The files under `folder` matching any of `rules`, as POSIX paths relative to it, sorted per rule."""
    names: list[str] = []
    for rule in rules:
        for path in sorted(folder.glob(rule)):
            name = path.relative_to(folder).as_posix()
            if path.is_file() and name not in names:
                names.append(name)
    return names


def precached_names() -> list[str]:
    """The static file names (relative to the static folder) the service worker stores at install."""
    return _matching(static_folder(), PRECACHE_RULES)


def _stamp(paths: list[Path]) -> tuple[tuple[str, int, int], ...]:
    """What tells that a file changed without reading it: its path, size and modification time."""
    stamps = []
    for path in paths:
        info = path.stat()
        stamps.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(stamps)


_computed: dict[tuple, Precache] = {}


def precache() -> Precache:
    """The current list and version (computed again only when a file, a URL or the storage changed)."""
    names = precached_names()
    sync_names = _matching(static_folder(), SYNC_SCRIPT_RULES)
    files = [static_folder() / name for name in names]
    templates = [template_folder() / name for name in _matching(template_folder(), STORED_PAGE_TEMPLATES)]
    urls = tuple(static(name) for name in names)
    key = (urls, _stamp(files + templates))
    if key not in _computed:
        digest = hashlib.sha256()
        for url, path in zip(urls + tuple(str(t) for t in templates), files + templates, strict=True):
            digest.update(url.encode() + b"\0" + path.read_bytes() + b"\0")
        _computed.clear()  # one entry: the previous state is never asked for again
        _computed[key] = Precache(
            urls=urls,
            sync_scripts=tuple(static(name) for name in sync_names),
            version=digest.hexdigest()[:16],
        )
    return _computed[key]
