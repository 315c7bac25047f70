"""Conflicts in plain words (issue 32, item 5), in Chromium at 390x844 with the service worker on,
the database checked after each choice:
- a tournament round finalized (by the director, with override) while a table's phone was offline
  with a hole queued: the phone says the round was finalized, shows its version beside the
  server's, and neither choice drops anything silently;
- a hole corrected offline on one phone while another phone corrected it online (412, changed
  elsewhere): both versions shown; "keep mine" sends the phone's as a correction (held once),
  "keep the server's" leaves the server's;
- a typed total the server refuses (the game's rules changed meanwhile) and a game link that no
  longer works (the game deleted): said in plain words, nothing dropped without the player choosing.
"""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Game, Hole, HoleEntry
from tests.browser.offline_helpers import save_hole, wait_for_the_service_worker, wait_until_sent
from tests.tournaments.helpers import event_in_play, user
from tournaments import services as tournament_services
from tournaments.models import Round, RoundStatus, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bob"]
KEEP_MINE = "Keep mine (send as a correction)"
KEEP_SERVER = "Keep the server's"


def visit_then_go_offline(page, token: str) -> None:
    """The phone opens the game once with a connection (kept on the phone), then loses it."""
    page.goto(f"/games/e/{token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{token}/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.context.set_offline(True)


def enter_totals(page, path: str, totals: list[int], button: str) -> None:
    """Open the hole page at `path` (offline: the app's own form) and save these typed totals."""
    page.goto(path)
    page.wait_for_selector("[data-offline-hole-form]")
    for seat, total in enumerate(totals):
        page.fill(f"#id_p{seat}-total", str(total))
    save_hole(page, button)


def scores_of(game, number: int) -> dict[str, int]:
    hole = Hole.objects.get(game=game, number=number, is_playoff=False)
    return dict(HoleEntry.objects.filter(hole=hole).values_list("seat__name", "score"))


def conflict_rows(page) -> list[list[str]]:
    """Each player's line of the conflict box: name, this phone's score, the server's."""
    return page.locator("[data-conflict] tbody tr").evaluate_all(
        "(rows) => rows.map((tr) => [...tr.cells].map((cell) => cell.textContent.trim()))"
    )


def back_online_until_the_conflict(page) -> str:
    page.context.set_offline(False)
    box = page.locator("[data-conflict]")
    try:
        box.wait_for(timeout=20_000)
    except Exception as error:
        raise AssertionError(
            f"no conflict shown at {page.url}: {page.locator('body').inner_text()[:800]}"
        ) from error
    return box.inner_text()


@pytest.mark.parametrize("choice", [KEEP_MINE, KEEP_SERVER])
def test_a_round_finalized_while_the_tables_phone_was_offline(phone, choice) -> None:
    page = phone
    tournament = event_in_play(8, rounds=1, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    game = table.game
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    services.hole_record(game, entries={n: 3 for n in names}, ender=None, capabilities={"view", "score"})
    visit_then_go_offline(page, game.edit_token)
    phone_scores = [10 - seat for seat in range(len(names))]
    enter_totals(page, f"/games/e/{game.edit_token}/holes/new/", phone_scores, "Save hole 2")

    # Meanwhile the director enters hole 2 from the paper slip and finalizes with override.
    for other in Table.objects.filter(round=table.round).exclude(pk=table.pk).select_related("game"):
        for _ in range(2):
            services.hole_record(
                other.game,
                entries={n: 5 for n in other.game.seats.values_list("name", flat=True)},
                ender=None,
            )
    services.hole_record(game, entries={n: 1 for n in names}, ender=None)
    tournament_services.finalize_round(
        tournament, 1, override=True, reason="table 1's phone lost", actor=user("dora")
    )

    text = back_online_until_the_conflict(page)
    assert "The round was finalized before this phone's entry arrived" in text, text
    assert "Show this to the director" in text, text  # what to do next, not only what happened
    assert conflict_rows(page) == [[n, str(10 - seat), "1"] for seat, n in enumerate(names)]
    page.wait_for_timeout(500)
    assert scores_of(game, 2) == {n: 1 for n in names}

    page.get_by_role("button", name=choice).click()
    page.wait_for_timeout(1500)
    assert scores_of(game, 2) == {n: 1 for n in names}  # finalized: the server's stays
    assert Hole.objects.filter(game=game).count() == 2
    assert Round.objects.get(pk=table.round_id).status == RoundStatus.FINALIZED
    if choice == KEEP_MINE:
        # Refused again: still shown, the choice still open, the phone's version not dropped.
        assert "refused this phone's version again" in page.locator("[data-offline-status]").inner_text()
        assert conflict_rows(page) == [[n, str(10 - seat), "1"] for seat, n in enumerate(names)]
        assert "The round was finalized" in page.locator("[data-conflict]").inner_text()
    else:
        assert page.locator("[data-conflict]").count() == 0
        wait_until_sent(page)


@pytest.mark.parametrize("choice", [KEEP_MINE, KEEP_SERVER])
def test_a_hole_corrected_offline_and_online_at_once(phone, choice) -> None:
    page = phone
    game = services.create_game(players=PLAYERS, ruleset="official")
    for ann, bob in ((4, 9), (7, 2)):
        services.hole_record(game, entries={"Ann": ann, "Bob": bob}, ender=None)
    visit_then_go_offline(page, game.edit_token)
    enter_totals(page, f"/games/e/{game.edit_token}/holes/2/", [6, 6], "Save the correction")
    assert scores_of(game, 2) == {"Ann": 7, "Bob": 2}

    # Another phone corrects hole 2 online meanwhile.
    hole = Hole.objects.get(game=game, number=2)
    services.hole_update(game, 2, expected_version=hole.version, entries={"Ann": 1, "Bob": 3}, ender=None)

    text = back_online_until_the_conflict(page)
    assert "Another phone recorded this hole first" in text or "changed" in text, text
    assert conflict_rows(page) == [["Ann", "6", "1"], ["Bob", "6", "3"]]
    page.wait_for_timeout(500)
    assert scores_of(game, 2) == {"Ann": 1, "Bob": 3}  # nothing changes before the choice

    page.get_by_role("button", name=choice).click()
    wait_until_sent(page)
    kept = {"Ann": 6, "Bob": 6} if choice == KEEP_MINE else {"Ann": 1, "Bob": 3}
    assert scores_of(game, 2) == kept
    assert list(Hole.objects.filter(game=game).order_by("number").values_list("number", flat=True)) == [1, 2]
    assert page.locator("[data-conflict]").count() == 0


def test_a_typed_total_the_server_refuses_is_kept_until_the_player_chooses(phone) -> None:
    page = phone
    game = services.create_game(players=PLAYERS, ruleset="official")
    visit_then_go_offline(page, game.edit_token)
    enter_totals(
        page, f"/games/e/{game.edit_token}/holes/new/", [-4, 5], "Save hole 1"
    )  # official: -4 is fine
    services.set_game_ruleset(game, "basic")  # changed on another phone: no card below 0 now

    text = back_online_until_the_conflict(page)
    assert "did not take this phone's entry" in text or "rules were changed" in text, text
    assert "impossible" in text  # the server's own words, shown
    page.wait_for_timeout(500)
    assert not Hole.objects.filter(game=game).exists()
    page.reload()  # the server's page (online), pointing to the choice still on the phone
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.locator("[data-offline-conflicts]").get_by_role("link").click()
    box = page.locator("[data-conflict]")
    box.wait_for()
    assert conflict_rows(page) == [
        ["Ann", "\u2212" + "4", "\u2013"],
        ["Bob", "5", "\u2013"],
    ]
    page.get_by_role("button", name=KEEP_MINE).click()
    page.wait_for_timeout(1500)
    assert not Hole.objects.filter(game=game).exists()
    assert page.locator("[data-conflict]").count() == 1  # refused again, still the player's to choose
    page.get_by_role("button", name=KEEP_SERVER).click()
    wait_until_sent(page)
    assert not Hole.objects.filter(game=game).exists()


def test_a_game_link_that_no_longer_works_is_said_plainly(phone) -> None:
    page = phone
    game = services.create_game(players=PLAYERS, ruleset="official")
    services.hole_record(game, entries={"Ann": 4, "Bob": 9}, ender=None)
    token = game.edit_token
    visit_then_go_offline(page, token)
    enter_totals(page, f"/games/e/{token}/holes/new/", [2, 3], "Save hole 2")
    services.delete_game(game)

    text = back_online_until_the_conflict(page)
    assert "This game's link no longer works on the server" in text, text
    assert "Ask whoever gave you the link" in text, text
    page.wait_for_timeout(1000)
    assert page.locator("[data-conflict]").count() == 1  # kept on the phone until the player chooses
    assert not Game.objects.filter(edit_token=token).exists()
