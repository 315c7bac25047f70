"""Issue 19's must-show: a club director's first event, the whole journey in one run on phones
(Chromium at 390x844), with a projector at 1920x1080.

A visitor signs up from the home page's "Run a tournament", creates a 3-round event, imports 12
players as pasted CSV, checks in everyone at once, and follows the dashboard's next step: seat,
publish, print the round's pack (a real PDF, read back), watch. In round 1 two tables score on their
own phones (separate browser contexts, as separate phones) and the third table's phone is dead: the
director types its paper slip, and the table confirms from the director's phone. Rounds 2 and 3 are
scored on the tables' phones. A player opens their own page from their QR link between rounds.
In round 3 the leader's table calls an official; the director answers with a ruling whose penalty
disqualifies the leader from the event, is asked once more, goes back once, then confirms. The
projector is watched during round 3 at 1920x1080 (12 players), and a 200-player hall's projector
too. The standings then put the runner-up first and the disqualified leader out.

Every page on the way is checked for sideways scroll at 390 px. The database is checked at the end:
three finalized rounds, every hole as typed (on a phone or from paper), one disqualification.

The settings form offers only the presets (the shortest has 6 holes), so the tournament is created
through the page and its ruleset is cut to `HOLES` holes by `services.update_tournament` before
round 1 is seated (the ruleset freezes at seating), to keep the run short.
With `GOLFCLUB_SCREENSHOTS=1` the run saves the pictures of docs/running-a-tournament.md's journey.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from scoring.models import GameChange, GameStatus, HoleEntry
from tests.accounts.helpers import FRAN_PASSWORD
from tests.browser.helpers import sign_up_from_the_login_page
from tests.browser.projector import hall_event, walk_panels
from tests.browser.tables import table_phone, type_and_confirm
from tests.conftest import screenshot
from tests.tournaments.helpers import by_number
from tournaments import services
from tournaments.models import Entrant, Penalty, Round, RoundStatus, Ruling, Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [f"P{n:02d}" for n in range(1, 13)]
ROUNDS = 3
HOLES = 2
CSV = "name,club,rating\n" + "\n".join(
    f"{name},Club {by_number(name) % 3},{1500 + by_number(name)}" for name in PLAYERS
)


def score(round_number: int, hole: int, name: str) -> int:
    """The total typed for a player on a hole: spread so that the first two end alone in front."""
    return (by_number(name) * 7 + round_number * 5 + hole * 3) % 11 + 1


def expected_totals() -> dict[str, int]:
    """Every player's event total from `score` (no ender, and no penalty points: the typed totals add up)."""
    return {
        name: sum(score(r, h, name) for r in range(1, ROUNDS + 1) for h in range(1, HOLES + 1))
        for name in PLAYERS
    }


def fits(page) -> None:
    """The page is no wider than the phone: nothing to scroll sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def sign_up_and_create(page) -> Tournament:
    """From the home page's "Run a tournament", through signing up, to the new event's players list."""
    page.goto("/")
    fits(page)
    screenshot(page, "journey-01-home")
    page.get_by_role("main").get_by_role("link", name="Run a tournament").first.click()
    sign_up_from_the_login_page(page, "fran", FRAN_PASSWORD)
    page.wait_for_url(re.compile(r"/tournaments/new/$"))
    page.get_by_label("Name", exact=True).fill("Saturday Open")
    page.get_by_label("Rounds", exact=True).fill(str(ROUNDS))
    fits(page)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+/players/$"))
    tournament = Tournament.objects.get(name="Saturday Open")
    assert tournament.director.username == "fran"
    # Short games (see the module's docstring): the page offers presets only.
    services.update_tournament(tournament, ruleset={"preset": "official", "holes": HOLES})
    # Found again from anywhere: the menu's "Tournaments" lists the director's own event first.
    page.goto("/rules/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    first_event = page.locator("main ul.game-list").first.locator("li").first
    assert "Saturday Open" in first_event.inner_text() and "you direct it" in first_event.inner_text()
    first_event.get_by_role("link", name="Saturday Open").click()
    page.wait_for_url(re.compile(rf"/tournaments/{tournament.pk}/$"))
    return tournament


def import_and_check_in(page, tournament: Tournament) -> None:
    """The dashboard's next step leads to the players list: paste the list, check in everyone."""
    page.get_by_role("link", name="Add the players").click()
    page.get_by_label("Or paste the list").fill(CSV)
    page.get_by_role("button", name="Import the players").click()
    page.get_by_text("12 players imported").wait_for()
    page.get_by_role("button", name="Check in everyone not yet checked in").click()
    page.get_by_text("12 players checked in.").wait_for()
    fits(page)
    screenshot(page, "journey-02-checked-in")
    assert Entrant.objects.filter(tournament=tournament, checked_in=True).count() == 12


def seat_and_publish(page, tournament: Tournament, number: int) -> list[str]:
    """Seat and publish round `number` from the dashboard's next step; the tables' links."""
    page.goto(f"/tournaments/{tournament.pk}/")
    page.get_by_role("button", name=f"Seat round {number}").click()
    page.wait_for_url(re.compile(rf"/rounds/{number}/$"))
    fits(page)
    page.get_by_role("button", name=f"Publish round {number}").click()
    page.get_by_text(f"Round {number} is published").wait_for()
    links = [a.get_attribute("href") for a in page.get_by_role("link", name="Open the table's game").all()]
    assert len(links) == 3  # 12 players: three tables of four
    return links


def print_the_pack(page, tournament: Tournament, tmp_path: Path) -> None:
    """The dashboard's next step after publishing is the round's print pack: one PDF, read back."""
    page.goto(f"/tournaments/{tournament.pk}/")
    step = page.locator("#next-step")
    assert step.get_by_role("button", name="Finalize round 1").count() == 0
    fits(page)
    screenshot(page, "journey-03-print-step")
    # The pack opens in the browser's PDF viewer (inline); the same address, fetched with the
    # director's cookies, is read back page by page.
    # Drawing a PDF takes a few seconds of the server's CPU (more on a loaded test machine).
    with page.expect_response(re.compile(r"/print/pack\.pdf$"), timeout=60_000) as answer:
        step.get_by_role("link", name="Print the round's pack (PDF)").click(timeout=60_000)
    assert answer.value.status == 200 and answer.value.header_value("content-type") == "application/pdf"
    saved = tmp_path / "pack.pdf"
    saved.write_bytes(page.context.request.get(answer.value.url, timeout=60_000).body())
    pages = [" ".join((p.extract_text() or "").split()) for p in PdfReader(saved).pages]
    assert len(pages) == 1 + 3 + 3  # the seating by name, then a card and a slip per table
    assert "Seating of round 1, by name" in pages[0]
    assert all(name in pages[0] for name in PLAYERS)
    for number in (1, 2, 3):
        assert f"Round 1 · Table {number}" in pages[number] and "Seat order, clockwise" in pages[3 + number]


def type_the_paper_slip(page, tournament: Tournament, table: Table) -> list[str]:
    """The table's phone is dead: the director types its slip, then a player confirms on that phone."""
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    page.goto(f"/tournaments/{tournament.pk}/")
    page.locator(f"#table-{table.number}").get_by_role("link", name="Type in the paper slip").click()
    page.wait_for_url(re.compile(r"/paper-slip/$"))
    for hole in range(1, HOLES + 1):
        for name in names:
            page.get_by_label(f"Hole {hole}, {name}", exact=True).fill(str(score(1, hole, name)))
    fits(page)
    screenshot(page, "journey-04-paper-slip")
    page.get_by_role("button", name="Save the slip").click()
    page.get_by_text("saved from the paper slip").first.wait_for()
    page.get_by_role("link", name="The table's page (to confirm the scorecard)").click()
    page.get_by_label("Your name").select_option(names[1])
    page.get_by_role("button", name="I confirm the scorecard").click()
    page.get_by_text("Thank you: the scorecard is confirmed.").wait_for()
    return names


def finalize(page, tournament: Tournament, number: int) -> None:
    """Every table confirmed: the dashboard's next step is a live Finalize button."""
    page.goto(f"/tournaments/{tournament.pk}/")
    assert page.get_by_text("3 confirmed").first.is_visible()
    page.locator("#next-step").get_by_role("button", name=f"Finalize round {number}").click()
    page.get_by_text(f"Round {number} is finalized").wait_for()


def call_and_disqualify(page, browser, base_url: str, tournament: Tournament, leader: Entrant) -> None:
    """The leader's table calls an official; the ruling disqualifies the leader, asked twice."""
    table = Table.objects.get(round__tournament=tournament, round__number=ROUNDS, seats__entrant=leader)
    caller = table.game.seats.exclude(name=leader.name).order_by("seat").first().name
    with table_phone(browser, base_url) as table_page:
        table_page.goto(f"/tournaments/table/{table.game.edit_token}/")
        table_page.locator("summary", has_text="Call an official").click()
        table_page.get_by_label("Who is calling?").select_option(caller)
        table_page.get_by_label("What happened (optional)").fill(f"{leader.name} looked at a face-down card")
        table_page.get_by_role("button", name="Call an official now").click()
        table_page.get_by_text("An official was called").first.wait_for()
    page.goto(f"/tournaments/{tournament.pk}/officiating/")
    assert page.get_by_text(f"{leader.name} looked at a face-down card").is_visible()
    page.get_by_role("link", name="Answer with a ruling").click()
    page.get_by_label("Situation").select_option("looked_at_face_down_card")
    page.get_by_role("button", name="Next").click()
    page.get_by_label("Player", exact=True).select_option(str(leader.pk))
    page.get_by_role("button", name="Get the ruling").click()
    page.get_by_role("button", name="Record this ruling").click()
    # Asked once more, naming the player and the consequence; nothing recorded yet.
    page.get_by_role("heading", name=f"Disqualify {leader.name}?").wait_for()
    assert page.get_by_text(f"{leader.name} is removed from the standings").is_visible()
    fits(page)
    screenshot(page, "journey-07-disqualify")
    page.get_by_role("button", name="No, go back to the ruling").click()
    page.get_by_role("button", name="Record this ruling").wait_for()
    assert not Penalty.objects.filter(entrant=leader).exists() and not Ruling.objects.exists()
    page.get_by_role("button", name="Record this ruling").click()
    page.get_by_role("button", name=f"Yes, disqualify {leader.name} from the tournament").click()
    page.get_by_text(f"Ruling recorded: disqualified from the tournament for {leader.name}.").wait_for()
    assert page.get_by_text("No table is calling.").is_visible()


def open_own_page(browser, base_url: str, entrant: Entrant, *, expect: str, shot: str | None = None) -> None:
    """A player, on their own phone and not logged in, opens the link their QR code holds."""
    with table_phone(browser, base_url) as own:
        own.goto(f"/tournaments/player/{entrant.token}/")
        own.get_by_role("heading", name="Your table now").wait_for()
        assert re.search(expect, own.locator("main").inner_text()), own.locator("main").inner_text()
        assert own.get_by_role("button", name=f"Check in {entrant.name}").count() == 0  # staff only
        fits(own)
        if shot:
            screenshot(own, shot)


def test_a_new_director_runs_a_twelve_player_three_round_event_from_the_home_page(
    phone, live_server, settings, tmp_path
) -> None:
    settings.GOLFCLUB_SIGNUP_OPEN = True
    page, browser = phone, phone.context.browser
    tournament = sign_up_and_create(page)
    import_and_check_in(page, tournament)
    totals = expected_totals()
    ranked = sorted(totals, key=totals.get)
    assert totals[ranked[0]] < totals[ranked[1]] < totals[ranked[2]], "one leader, one runner-up"
    leader = Entrant.objects.get(tournament=tournament, name=ranked[0])

    seen: dict[int, list[str]] = {}  # table pk -> players in seat order, as the table's phone saw them
    paper_table = None
    for number in range(1, ROUNDS + 1):
        links = seat_and_publish(page, tournament, number)
        tables = {
            link: Table.objects.get(game__edit_token=link.rstrip("/").rsplit("/", 1)[-1]) for link in links
        }
        if number == 1:
            print_the_pack(page, tournament, tmp_path)
        if number == ROUNDS:
            hall = walk_panels(browser, live_server, tournament, "journey-08-projector-12-players")
            seating = hall[0]
            assert seating["title"].startswith("Seating") and seating["lines"] == 12, seating
            assert seating["smallest"] >= 40 and seating["used"] >= 0.6, seating
            assert all(not p["cut"] and not p["off"] and not p["problems"] for p in hall), hall
            call_and_disqualify(page, browser, live_server.url, tournament, leader)
        for index, (link, table) in enumerate(tables.items()):
            if number == 1 and index == 2:
                paper_table = table
                seen[table.pk] = type_the_paper_slip(page, tournament, table)
                continue
            with table_phone(browser, live_server.url) as table_page:
                shot = "journey-05-table-phone" if number == 1 and index == 0 else None
                seen[table.pk] = type_and_confirm(
                    table_page, link, holes=HOLES, score=score, round_number=number, shot=shot
                )
        if number == 1:
            page.goto(f"/tournaments/{tournament.pk}/")
            fits(page)
            screenshot(page, "journey-06-ready-to-finalize")
        finalize(page, tournament, number)
        if number == 1:
            me = Entrant.objects.get(tournament=tournament, name=ranked[4])
            open_own_page(browser, live_server.url, me, expect=r"\d+ of 12", shot="journey-09-player-page")

    # The results: the leader is out, the runner-up first.
    page.goto(f"/tournaments/{tournament.pk}/")
    page.locator("#next-step").get_by_role("link", name="See the standings").click()
    page.get_by_text("Final: every round is finalized.").wait_for()
    fits(page)
    screenshot(page, "journey-10-standings")
    first_row = page.locator("table.standings tbody tr").first
    assert ranked[1] in first_row.inner_text() and str(totals[ranked[1]]) in first_row.inner_text()
    leader_row = page.locator("table.standings tbody tr", has_text=leader.name)
    assert "DQ" in leader_row.inner_text()
    open_own_page(
        browser,
        live_server.url,
        Entrant.objects.get(pk=tournament.entrants.get(name=ranked[1]).pk),
        expect=r"1 of \d+",
    )
    open_own_page(browser, live_server.url, leader, expect=r"DQ")

    # The 200-player hall: the projector pages the names and keeps them readable.
    big = walk_panels(browser, live_server, hall_event(200), "projector-200-players")
    seating = [p for p in big if p["title"].startswith("Seating")]
    assert sum(p["lines"] for p in seating) == 200
    assert len(seating) == 5  # 40 names a panel: the longest names still fit at 24 px
    assert all(p["smallest"] >= 24 and not p["cut"] and not p["off"] and not p["problems"] for p in big)

    # The record.
    assert (
        list(Round.objects.filter(tournament=tournament).values_list("status", flat=True))
        == [RoundStatus.FINALIZED] * ROUNDS
    )
    assert Penalty.objects.get(entrant=leader).step == "event_dq" and Ruling.objects.count() == 1
    tables = Table.objects.filter(round__tournament=tournament).select_related(
        "game", "confirmed_by", "round"
    )
    assert len(tables) == 3 * ROUNDS and set(seen) == {table.pk for table in tables}
    played = dict.fromkeys(PLAYERS, 0)
    for table in tables:
        assert table.game.status == GameStatus.FINISHED
        seats = list(table.game.seats.order_by("seat"))
        assert [seat.name for seat in seats] == seen[table.pk]
        assert table.confirmed_by is not None and table.confirmed_by.name == seats[1].name
        for seat in seats:
            typed = [score(table.round.number, hole, seat.name) for hole in range(1, HOLES + 1)]
            entries = HoleEntry.objects.filter(seat=seat).order_by("hole__number")
            assert [(entry.typed_total, entry.score) for entry in entries] == [(t, t) for t in typed]
            played[seat.name] += seat.total
    assert played == totals
    # The paper slip's holes are on record as typed by the director, from the paper slip.
    changes = GameChange.objects.filter(game=paper_table.game, hole_number__isnull=False).order_by("pk")
    assert [(c.hole_number, c.actor) for c in changes] == [
        (hole, "fran (director), from the paper slip") for hole in range(1, HOLES + 1)
    ]
