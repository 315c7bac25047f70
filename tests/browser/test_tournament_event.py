"""Issue 8's full browser run (Chromium at 390x844): a 12-player, 3-round event from end to end.

The director logs in on a phone, creates the tournament, imports the players as pasted CSV, then for
each round seats and publishes it. Every table then scores on its own phone (a separate browser
context, as separate phones would be) through the table link the dashboard shows: each hole typed
as totals in the live-game flow, then the board's "Confirm the scorecard" link, where the second
player listed confirms. The director finalizes each round on the dashboard; after round 3 the
standings show the expected winner first, and the database holds what the tables typed.

The settings form offers only the presets (the shortest has 6 holes), so the tournament is created
through the page and its ruleset is cut to `HOLES` holes by `services.update_tournament` before
round 1 is seated (the ruleset freezes at seating): the run stays well under a minute and a half.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scoring.models import GameStatus, HoleEntry
from tests.browser.helpers import log_in_as_director
from tests.conftest import CSP_LISTENER, PHONE, phone_pixel_ratio, screenshot
from tests.tournaments.helpers import by_number
from tournaments import services
from tournaments.models import Round, RoundStatus, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [f"P{n:02d}" for n in range(1, 13)]
ROUNDS = 3
HOLES = 2
CSV = "name,club,rating\n" + "\n".join(
    f"{name},Club {by_number(name) % 3},{1500 + by_number(name)}" for name in PLAYERS
)


def score(round_number: int, hole: int, name: str) -> int:
    """The total a player's table types for a hole: spread so that one player ends alone in front."""
    return (by_number(name) * 7 + round_number * 5 + hole * 3) % 11 + 1


def expected_totals() -> dict[str, int]:
    """Every player's event total from `score` (no ender, no penalties: the typed totals add up)."""
    return {
        name: sum(score(r, h, name) for r in range(1, ROUNDS + 1) for h in range(1, HOLES + 1))
        for name in PLAYERS
    }


@contextmanager
def table_phone(browser, base_url: str) -> Iterator[object]:
    """A second phone (its own browser context: no cookies of the director's), held to the CSP too."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=phone_pixel_ratio(),
        is_mobile=True,
        has_touch=True,
        base_url=base_url,
    )
    context.set_default_timeout(10_000)
    problems: list[str] = []
    context.expose_function("reportCspViolation", lambda text: problems.append(text))
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on(
        "console",
        lambda message: problems.append(message.text) if "Content Security Policy" in message.text else None,
    )
    try:
        yield page
    finally:
        context.close()
    assert not problems, f"JavaScript errors or CSP violations on a table's phone: {problems}"


def score_table(page, link: str, round_number: int, *, shot: str | None = None) -> list[str]:
    """A table's phone opens its link, types every hole's totals, then the second player confirms.

    Answers the players in seat order, as the scoreboard lists them.
    """
    page.goto(link)
    names: list[str] = []
    for hole in range(1, HOLES + 1):
        page.get_by_role("link", name=f"Score hole {hole}").click()
        page.wait_for_url(re.compile(r"/holes/new/$"))
        if not names:
            # The players in seat order ("p0" is the first seat): each legend's first text, before
            # its "· deals" and "· plays first" marks.
            names = page.evaluate(
                "() => [...document.querySelectorAll('fieldset[id^=\"player-\"] > legend')]"
                ".map((legend) => legend.firstChild.textContent.trim())"
            )
            page.fill("#scorer", names[0])
        for index, name in enumerate(names):
            page.fill(f"input[name='p{index}-total']", str(score(round_number, hole, name)))
        page.get_by_role("button", name=f"Save hole {hole}").click()
        page.get_by_text(f"Hole {hole} saved").first.wait_for()
    if shot:
        screenshot(page, shot)
    page.get_by_role("link", name="Confirm the scorecard").click()
    page.wait_for_url(re.compile(r"/tournaments/table/[\w-]+/$"))
    page.get_by_label("Your name").select_option(names[1])
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.get_by_text("Thank you: the scorecard is confirmed.").wait_for()
    return names


def test_a_twelve_player_three_round_event_runs_on_phones(phone, live_server) -> None:
    page = phone
    log_in_as_director(page)
    page.get_by_role("main").get_by_role("link", name="Run a tournament").first.click()
    page.get_by_label("Name", exact=True).fill("Autumn Open")
    page.get_by_label("Rounds", exact=True).fill(str(ROUNDS))
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/players/$"))
    tournament = Tournament.objects.get(name="Autumn Open")
    # Short games (see the module's docstring): the page offers presets only.
    services.update_tournament(tournament, ruleset={"preset": "official", "holes": HOLES})

    page.get_by_label("Or paste the list").fill(CSV)
    page.get_by_role("button", name="Import the players").click()
    page.get_by_text("12 players imported").wait_for()

    seen: dict[int, list[str]] = {}  # table pk -> players in seat order, as the table's phone saw them
    for number in range(1, ROUNDS + 1):
        page.goto(f"/tournaments/{tournament.pk}/")
        page.get_by_role("button", name=f"Seat round {number}").click()
        page.wait_for_url(re.compile(rf"/rounds/{number}/$"))
        page.get_by_role("button", name=f"Publish round {number}").click()
        page.get_by_text(f"Round {number} is published").wait_for()
        links = [
            anchor.get_attribute("href")
            for anchor in page.get_by_role("link", name="Open the table's game").all()
        ]
        assert len(links) == 3  # 12 players: three tables of four
        for index, link in enumerate(links):
            with table_phone(page.context.browser, live_server.url) as table_page:
                shot = "tournament-table" if number == 1 and index == 0 else None
                names = score_table(table_page, link, number, shot=shot)
            token = link.rstrip("/").rsplit("/", 1)[-1]
            seen[Table.objects.get(game__edit_token=token).pk] = names
        page.reload()
        assert page.get_by_text("3 confirmed").first.is_visible()
        page.get_by_role("button", name=f"Finalize round {number}").click()
        page.get_by_text(f"Round {number} is finalized").wait_for()

    totals = expected_totals()
    ranked = sorted(totals, key=totals.get)
    assert totals[ranked[0]] < totals[ranked[1]], "the scores must give one player alone in front"
    page.get_by_role("link", name="Standings").first.click()
    page.get_by_text("Final: every round is finalized.").wait_for()
    screenshot(page, "tournament-event-standings")
    first_row = page.locator("table.standings tbody tr").first
    assert ranked[0] in first_row.inner_text()
    assert str(totals[ranked[0]]) in first_row.inner_text()

    # The record: three finalized rounds, every table finished and confirmed by its second player,
    # and every seat's total the sum of the totals typed.
    assert (
        list(Round.objects.filter(tournament=tournament).values_list("status", flat=True))
        == [RoundStatus.FINALIZED] * ROUNDS
    )
    tables = Table.objects.filter(round__tournament=tournament).select_related(
        "game", "confirmed_by", "round"
    )
    assert len(tables) == 3 * ROUNDS and set(seen) == {table.pk for table in tables}
    for table in tables:
        assert table.game.status == GameStatus.FINISHED
        seats = list(table.game.seats.order_by("seat"))
        assert [seat.name for seat in seats] == seen[table.pk]  # the phone's seat order is the table's
        assert table.confirmed_by is not None and table.confirmed_by.name == seats[1].name
        for seat in seats:
            typed = [score(table.round.number, hole, seat.name) for hole in range(1, HOLES + 1)]
            entries = HoleEntry.objects.filter(seat=seat).order_by("hole__number")
            assert [(entry.typed_total, entry.score) for entry in entries] == [(t, t) for t in typed]
            assert seat.total == sum(typed)
    played = {name: 0 for name in PLAYERS}
    for table in tables:
        for seat in table.game.seats.all():
            played[seat.name] += seat.total
    assert played == totals
