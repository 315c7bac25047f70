"""The static files found once per test process, as a server finds them once per process.

WhiteNoise's middleware, with `WHITENOISE_USE_FINDERS` (DEBUG, as in tests/settings.py) and without
autorefresh (pytest-django turns DEBUG off while tests run), lists every static file of every app
and reads its headers when it is built: some 230 files, about 0.1 s of CPU. A server builds its
middleware once; Django's test `Client` builds it again for every new client, and the suite makes
a client per test (pytest-django's `client`, the `as_user(...)` helpers), thousands of them. That
listing was most of the cost of a test's first request.

`scan_static_files_once()` keeps the files the first middleware found and hands the same entries
to every later one built with the same settings. The pages are served exactly as before: the same
files, the same headers, the same middleware doing the serving; only the listing is not repeated.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

# Settings that change what the listing finds or the headers it reads (WhiteNoise reads them when
# a middleware is built); an entry is reused only while all of them are the same.
_KEY_SETTINGS = (
    "STATICFILES_DIRS",
    "STATICFILES_FINDERS",
    "INSTALLED_APPS",
    "WHITENOISE_ADD_HEADERS_FUNCTION",
    "WHITENOISE_IMMUTABLE_FILE_TEST",
    "WHITENOISE_MIMETYPES",
)


def _key(middleware: Any) -> str:
    """What the listing depends on, as text (some of the settings are lists or dicts)."""
    own = (
        middleware.static_prefix,
        middleware.max_age,
        middleware.allow_all_origins,
        middleware.charset,
        middleware.index_file,
    )
    return repr((own, tuple(getattr(settings, name, None) for name in _KEY_SETTINGS)))


def scan_static_files_once() -> None:
    """Make every WhiteNoise middleware of this process reuse the first listing of its settings."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    original = WhiteNoiseMiddleware.add_files_from_finders
    if getattr(original, "scans_once", False):
        return
    found: dict[str, dict[str, Any]] = {}

    def add_files_from_finders(self: Any) -> None:
        key = _key(self)
        if key not in found:
            # List into an empty dictionary, so that only what the finders add is kept.
            kept, self.files = self.files, {}
            try:
                original(self)
                found[key] = self.files
            finally:
                self.files = kept
        self.files.update(found[key])

    add_files_from_finders.scans_once = True  # type: ignore[attr-defined]
    add_files_from_finders.__wrapped__ = original  # type: ignore[attr-defined]
    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]
