"""The Content-Security-Policy holds on every kind of page, and the `phone` fixture catches breaches."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_sends_a_strict_policy_and_the_pages_pass_it(phone) -> None:
    response = phone.goto("/score/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy and "object-src 'none'" in policy
    for url in ("/", "/rules/", "/games/", "/games/new/", "/accounts/login/", "/no-such-page/"):
        phone.goto(url)
    phone.wait_for_timeout(200)
    assert phone.csp_violations == []


def test_it_shows_the_api_docs_without_violations(phone) -> None:
    phone.goto("/api/docs/")
    # Redoc has drawn the schema (loaded through connect-src 'self') into the page.
    phone.locator("redoc, #redoc-container").get_by_text("Golf club API").first.wait_for(
        state="attached", timeout=20_000
    )
    phone.wait_for_timeout(500)
    assert phone.csp_violations == []


def test_it_catches_a_violation_in_the_phone_fixture(phone) -> None:
    phone.goto("/score/")
    phone.evaluate("document.body.setAttribute('style', 'color: red')")
    phone.wait_for_timeout(200)
    assert phone.csp_violations, "an inline style attribute should have been reported"
    phone.csp_violations.clear()  # expected here; any other test fails on one
