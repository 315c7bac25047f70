"""How many taps a table spends: starting a game, and scoring one hole of four players by keypad.

Every tap goes through `Taps.tap`, which counts it; typing names is not a tap (the keyboard is).
The figures are recorded in docs/scoring-a-game.md; these tests keep them from growing unnoticed.
"""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
# Four official grids that fit one pack together (at most two cards of a rank across them).
GRIDS = [
    [["5", "6", "K"], ["5", "6", "K"]],
    [["A", "2", "3"], ["4", "7", "8"]],
    [["9", "10", "J"], ["Q", "A", "2"]],
    [["3", "4", "7"], ["8", "9", "10"]],
]
START_TAPS = 8  # recorded in docs/scoring-a-game.md
HOLE_TAPS = 27  # recorded in docs/scoring-a-game.md


class Taps:
    """Taps on a phone page, counted."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def tap(self, locator) -> None:
        """Tap one element (a real touch event in Chromium's touch emulation) and count it."""
        locator.tap()
        self.count += 1


def start(taps: Taps) -> None:
    """From the home page to the new game's scoreboard: tap each name field and type, then go on."""
    page = taps.page
    page.goto("/")
    taps.tap(page.get_by_role("link", name="Start a game").first)
    page.wait_for_url(re.compile(r"/games/new/"))
    for index, name in enumerate(PLAYERS, start=1):
        taps.tap(page.locator(f"#player-{index}"))
        page.keyboard.type(name)
    taps.tap(page.get_by_role("button", name="Next: first dealer"))
    page.get_by_role("heading", name="Who deals first?").wait_for()
    taps.tap(page.get_by_label("2. Bob"))
    taps.tap(page.get_by_role("button", name="Start the game"))
    page.wait_for_url(re.compile(r"/games/e/[\w-]+/$"))


def test_it_starts_a_four_player_game_in_eight_taps_plus_the_names(phone):
    taps = Taps(phone)
    start(taps)
    print(f"taps to start a game of four: {taps.count} plus typing the names")
    assert taps.count <= START_TAPS


def test_it_scores_a_hole_of_four_players_by_keypad_in_twenty_seven_taps(phone):
    page = phone
    start(Taps(page))
    taps = Taps(page)
    taps.tap(page.get_by_role("link", name="Score hole 1"))
    page.wait_for_url(re.compile(r"/holes/new/$"))
    # The first empty cell is selected when the screen opens, and each card moves on to the next.
    for grid in GRIDS:
        for row in grid:
            for token in row:
                taps.tap(page.locator(f"[data-card-keypad] [data-rank='{token}']"))
    assert page.input_value("input[name='p3-2-3']") == "10"
    taps.tap(page.get_by_label("Dee", exact=True))  # who ended the hole
    taps.tap(page.get_by_role("button", name="Save hole 1"))
    page.get_by_text("Hole 1 saved").wait_for()
    print(f"taps to score one hole of four players by keypad: {taps.count}")
    assert taps.count <= HOLE_TAPS
