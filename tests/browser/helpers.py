"""Small steps the phone browser tests share: where a new hole is entered, tapping the keypad."""

from __future__ import annotations

from scoring.models import Game


def hole_url(game: Game) -> str:
    """The scorer's page for entering the next hole of `game`."""
    return f"/games/e/{game.edit_token}/holes/new/"


def tap(page, *ranks: str) -> None:
    """Tap the card keypad's keys for `ranks`, in order."""
    for rank in ranks:
        page.click(f"[data-card-keypad] [data-rank='{rank}']")


def log_in_as_director(page, username: str = "dora") -> None:
    """Create `username` (the tests' password) and log in on the page; land on /tournaments/."""
    import re

    from tests.tournaments.helpers import PASSWORD, user

    user(username)
    page.goto("/accounts/login/?next=/tournaments/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/tournaments/$"))


def sign_up_from_the_login_page(page, username: str, password: str) -> None:
    """On the log-in page a "Run a tournament" tap led to: follow "Sign up" and create the account."""
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Create the account").click()
