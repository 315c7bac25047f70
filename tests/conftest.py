"""Shared fixtures: API client, and a real Chromium at phone size for browser tests.

Browser tests need Debian's Chromium: its headless shell (/usr/bin/chromium-headless-shell, the
build Playwright itself runs headless tests in) where installed, else the full browser
(/usr/bin/chromium). Where neither is found they are skipped with a visible reason, unless
GOLFCLUB_REQUIRE_BROWSER=1 (set by .ci/run), where they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from rest_framework.test import APIClient

# Playwright's sync API keeps an event loop in the main thread; Django's ORM calls from tests are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile || document.location.pathname}:${event.lineNumber} (${event.sample || ""})`);
});
"""
SCREENSHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def pytest_configure(config) -> None:
    """List the static files once per process, not once per test client (tests/static_files.py)."""
    from tests.static_files import scan_static_files_once

    scan_static_files_once()


# The files that take longest (seconds in a whole run, measured: docs/performance.md, issue 18), in
# that order. pytest-xdist hands whole files to its processes in collection order (`make test` turns
# off its default reordering, which puts the files with the most tests first and so sent the
# 30-second director's journey last, to one process, while the other sat idle). Sent first, the long
# files overlap; the many short ones even out the end. A file not listed only costs its own time at
# the end, so the list needs no upkeep to stay correct, only to stay fast.
SLOWEST_FILES_FIRST = (
    "tests/browser/test_director_journey.py",
    "tests/browser/test_game_flow.py",
    "tests/browser/test_phone_board.py",
    "tests/test_no_500_fuzz.py",
    "tests/games/test_totals_invariant.py",
    "tests/browser/test_phone_entry.py",
    "tests/tournaments/web/test_print_pack.py",
    "tests/browser/test_score_page.py",
    "tests/browser/test_every_page_fits_a_phone.py",
    "tests/rules/test_grid_properties.py",
    "tests/test_two_app_servers.py",
    "tests/tournaments/web/test_it_checks_permissions.py",
    "tests/api/test_schemathesis.py",
    "tests/games/test_access_matrix.py",
    "tests/faults/test_database_restart.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the slowest files first, then the other browser tests, then the rest.

    The sort is stable: within a file (and among the rest) the order pytest-django gave stays.
    """
    rank_of = {path: rank for rank, path in enumerate(SLOWEST_FILES_FIRST)}

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        if path in rank_of:
            return rank_of[path]
        return len(rank_of) + (0 if path.startswith("tests/browser/") else 1)

    items.sort(key=rank)


def phone_pixel_ratio() -> int:
    """Device pixels per CSS pixel of the emulated phone: 2, as a phone has, for the docs' pictures.

    Otherwise 1: the layout in CSS pixels, which is what the tests check, is the same, and Chromium
    paints a quarter of the pixels (the browser tests took about 30% less time).
    """
    return 2 if os.environ.get("GOLFCLUB_SCREENSHOTS") == "1" else 1


def chromium_path() -> str | None:
    """Where Chromium is, or None: CHROMIUM_PATH if set, else the headless shell, else the browser.

    The headless shell is the same Blink without the full browser's window machinery: the browser
    tests took about a quarter less time and half the CPU with it (docs/performance.md, issue 18).
    """
    candidates = (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium-headless-shell",
        shutil.which("chromium-headless-shell"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    )
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture
def api() -> APIClient:
    """A DRF test client speaking JSON."""
    return APIClient()


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """One headless Chromium for the whole run."""
    path = chromium_path()
    if path is None:
        if os.environ.get("GOLFCLUB_REQUIRE_BROWSER") == "1":
            pytest.fail(
                "GOLFCLUB_REQUIRE_BROWSER=1 but no Chromium was found"
                " (apt-get install chromium-headless-shell)"
            )
        pytest.skip(
            "no Chromium at /usr/bin/chromium-headless-shell or /usr/bin/chromium: browser tests skipped "
            "(apt-get install chromium-headless-shell)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium_browser, live_server) -> Iterator[object]:
    """A Playwright page in Chromium at 390x844 (a phone), based at the live server's URL.

    Use `phone.goto("/score/")`: relative URLs resolve against the live server.
    """
    context = chromium_browser.new_context(
        viewport=PHONE,
        device_scale_factor=phone_pixel_ratio(),
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(10_000)
    # Every browser test also holds the pages to the Content-Security-Policy: a blocked script, style
    # or attribute is reported by the page (securitypolicyviolation) and logged by Chromium.
    violations: list[str] = []
    context.expose_function("reportCspViolation", lambda text: violations.append(text))
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    page.csp_violations = violations  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
    assert not violations, f"Content-Security-Policy violations: {violations}"


def screenshot(page, name: str) -> None:
    """Save a screenshot for the user docs (docs/screenshots/NAME.png) when GOLFCLUB_SCREENSHOTS=1.

    `make screenshots` sets it; ordinary test runs leave the committed pictures alone.
    """
    if os.environ.get("GOLFCLUB_SCREENSHOTS") != "1":
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret injects a <style>, which the site's CSP rightly refuses.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), caret="initial")
