"""Shared fixtures: API client, and a real Chromium at phone size for browser tests.

Browser tests need Debian's chromium (/usr/bin/chromium). Where none is found they are skipped
with a visible reason, unless GOLFCLUB_REQUIRE_BROWSER=1 (set by .ci/run), where they fail.
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


def phone_pixel_ratio() -> int:
    """Device pixels per CSS pixel of the emulated phone: 2, as a phone has, for the docs' pictures.

    Otherwise 1: the layout in CSS pixels, which is what the tests check, is the same, and Chromium
    paints a quarter of the pixels (the browser tests took about 30% less time).
    """
    return 2 if os.environ.get("GOLFCLUB_SCREENSHOTS") == "1" else 1


def chromium_path() -> str | None:
    """Where Chromium is, or None."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium")):
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
            pytest.fail("GOLFCLUB_REQUIRE_BROWSER=1 but no Chromium was found (apt-get install chromium)")
        pytest.skip("no Chromium at /usr/bin/chromium: browser tests skipped (apt-get install chromium)")
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
