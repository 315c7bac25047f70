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


# The files that take longest (seconds in a whole run, measured: docs/performance.md, issue 18).
# pytest-xdist hands whole files to its processes in collection order (`make test` turns off its
# default reordering, which puts the files with the most tests first and so sent the 30-second
# director's journey last, to one process, while the other sat idle). Sent first, the long files
# overlap and the many short ones even out the end. Browser files alternate with the others: a
# browser test waits on Chromium for about half its time (two of them side by side left a fifth of
# the machine idle), which the other process fills with work of its own. A file not listed only
# costs its own time near the end, so the list needs no upkeep to stay correct, only to stay fast.
SLOWEST_FILES_FIRST = (
    "tests/browser/test_director_journey.py",
    "tests/test_no_500_fuzz.py",
    "tests/test_offline_engine.py",  # 100,000 engine cases in Python, then in node (about 45 s)
    "tests/browser/test_game_flow.py",
    "tests/games/test_totals_invariant.py",
    "tests/browser/test_phone_board.py",
    "tests/tournaments/web/test_print_pack.py",
    "tests/browser/test_phone_entry.py",
    "tests/games/test_access_matrix.py",
    "tests/browser/test_score_page.py",
    "tests/tournaments/web/test_it_checks_permissions.py",
    "tests/browser/test_every_page_fits_a_phone.py",
    "tests/test_two_app_servers.py",
    "tests/browser/test_tap_counts.py",
    "tests/rules/test_grid_properties.py",
    "tests/browser/test_csp.py",
    "tests/tournaments/api/test_permissions.py",
    "tests/api/test_schemathesis.py",
    "tests/faults/test_interrupted_writes.py",
    "tests/faults/test_database_restart.py",
)


def file_order(files: list[str]) -> list[str]:
    """The order to run `files` in: `SLOWEST_FILES_FIRST`, then the others in collection order with
    the remaining browser files spread over the first three quarters of them (none at the end)."""
    listed = [path for path in SLOWEST_FILES_FIRST if path in files]
    rest = [path for path in files if path not in SLOWEST_FILES_FIRST]
    browser = [path for path in rest if path.startswith("tests/browser/")]
    others = [path for path in rest if not path.startswith("tests/browser/")]
    spacing = 0.75 * len(others) / max(len(browser), 1)
    keyed = [(float(index), path) for index, path in enumerate(others)]
    keyed += [((index + 0.5) * spacing, path) for index, path in enumerate(browser)]
    return listed + [path for _, path in sorted(keyed, key=lambda pair: pair[0])]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run whole files in `file_order`.

    The sort is stable: within a file the order pytest-django gave (transactional tests last) stays.
    """

    def path_of(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    order = file_order(list(dict.fromkeys(path_of(item) for item in items)))
    position = {path: index for index, path in enumerate(order)}
    items.sort(key=lambda item: position[path_of(item)])


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
