"""Fran on her phone (Chromium at 390x844): signs up, logs out, logs back in, creates an API token."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.accounts.helpers import FRAN_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits_the_phone(page) -> None:
    """No sideways scrolling, and the header's controls are big enough to tap."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for control in page.locator(".site-header a, .site-header button").all():
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44, control.inner_text()


def test_fran_signs_up_logs_out_and_in_and_creates_a_token_on_her_phone(phone, settings) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    page = phone
    page.goto("/")
    page.get_by_role("link", name="Log in").tap()
    page.get_by_role("link", name="Sign up").tap()
    page.get_by_label("Username").fill("fran")
    page.get_by_label("Password:", exact=True).fill(FRAN_PASSWORD)
    page.get_by_label("Password confirmation").fill(FRAN_PASSWORD)
    page.get_by_role("button", name="Create the account").tap()
    page.get_by_text("Welcome, fran: your account is ready.").wait_for()
    fits_the_phone(page)

    page.get_by_role("button", name="Log out").tap()
    page.get_by_role("link", name="Log in").wait_for()
    assert page.get_by_role("button", name="Log out").count() == 0

    page.get_by_role("link", name="Log in").tap()
    page.get_by_label("Username").fill("fran")
    page.get_by_label("Password:", exact=True).fill(FRAN_PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.get_by_role("button", name="Log out").wait_for()

    page.get_by_role("link", name="Account").tap()
    page.get_by_text("You have no API token.").wait_for()
    page.get_by_role("button", name="Create a token").tap()
    field = page.get_by_label("Your new token. Copy it now: it is shown only this once.")
    key = field.input_value()
    assert key == Token.objects.get(user__username="fran").key
    fits_the_phone(page)

    page.reload()
    status = page.locator("[data-token-status]").inner_text()
    assert key[:4] in status and key not in page.content()
