"""A tournament table's phone loses its Wi-Fi mid-round (issue 32, item 3, the phone's side), in
Chromium at 390x844 with the service worker on: it scores the remaining hole and the players attest
the scorecard offline; back online, the hole and then the confirmation reach the server, in order
(database checked: both holes once each, the table confirmed by the player who attested).
"""

from __future__ import annotations

import pytest

from scoring import services as scoring_services
from scoring.models import Hole, HoleEntry
from tests.browser.offline_helpers import save_hole, wait_for_the_service_worker, wait_until_sent
from tests.tournaments.helpers import event_in_play
from tournaments.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_table_scores_its_last_hole_and_attests_the_scorecard_offline(phone) -> None:
    page = phone
    tournament = event_in_play(8, rounds=1, holes=2)
    table = Table.objects.filter(round__tournament=tournament).select_related("game").order_by("number")[0]
    game = table.game
    names = list(game.seats.order_by("seat").values_list("name", flat=True))
    first = {name: seat + 1 for seat, name in enumerate(names)}
    scoring_services.hole_record(game, entries=first, ender=None, capabilities={"view", "score"})

    page.goto(f"/games/e/{game.edit_token}/")
    wait_for_the_service_worker(page)
    page.goto(f"/games/e/{game.edit_token}/")
    page.wait_for_selector("[data-offline-capture][data-offline-kept]", state="attached")
    page.context.set_offline(True)

    page.goto(f"/games/e/{game.edit_token}/holes/new/")
    page.wait_for_selector("[data-offline-hole-form]")
    for seat in range(len(names)):
        page.fill(f"#id_p{seat}-total", str(10 - seat))
    save_hole(page, "Save hole 2")
    assert "Table of" in page.locator(".game-managed").inner_text()
    page.get_by_role("link", name="Confirm the scorecard").click()
    page.select_option("#id_by", names[1])
    page.get_by_role("button", name="I confirm").click()
    page.wait_for_selector("[data-offline-board]")
    assert "on this phone" in page.locator("[data-offline-status]").inner_text()
    assert not Hole.objects.filter(game=game, number=2).exists()
    table.refresh_from_db()
    assert table.confirmed_by is None

    page.context.set_offline(False)
    wait_until_sent(page)
    assert list(Hole.objects.filter(game=game).order_by("number").values_list("number", flat=True)) == [1, 2]
    entries = HoleEntry.objects.filter(hole__game=game, hole__number=2)
    second = dict(entries.values_list("seat__name", "score"))
    assert second == {name: 10 - seat for seat, name in enumerate(names)}
    table.refresh_from_db()
    assert table.confirmed_by is not None and table.confirmed_by.name == names[1]
    assert table.is_confirmed
