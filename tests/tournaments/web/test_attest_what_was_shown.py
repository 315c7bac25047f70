"""The table's page confirms the scorecard it showed (issue 32: with phones sending queued holes
late, a hole may be saved or corrected while a player reads the card): a change since the page was
drawn refuses the confirmation, naming the hole, and the page shows the card as it is now."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from scoring import services as scoring_services
from tests.tournaments.web.conftest import staffed_event
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def shown_card(page: str) -> str:
    found = re.search(r'<input type="hidden" name="scorecard" value="([^"]*)">', page)
    assert found, "the form carries no scorecard"
    return html.unescape(found.group(1))


def test_a_hole_changed_while_the_card_was_read_refuses_the_confirmation() -> None:
    ev = staffed_event()
    names = list(ev.table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(2):
        scoring_services.hole_record(
            ev.table.game, entries={n: hole + i for i, n in enumerate(names)}, ender=None
        )
    client = Client()
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    card = shown_card(client.get(url).content.decode())
    # Another phone's queued correction of hole 2 arrives while the players read the card.
    scoring_services.hole_update(
        ev.table.game, 2, expected_version=1, entries=dict.fromkeys(names, 9), ender=None
    )
    refused = client.post(url, {"action": "confirm", "by": names[1], "scorecard": card}, follow=True)
    page = " ".join(refused.content.decode().split())
    assert refused.redirect_chain == [(url, 302)]
    assert "The scorecard changed since your phone showed it" in page
    assert f"(hole 2: {names[0]} has 9 here, 1 on your phone)" in page
    assert not Table.objects.get(pk=ev.table.pk).is_confirmed
    # The page now shows the card as it stands: confirming it works.
    card = shown_card(refused.content.decode())
    assert client.post(url, {"action": "confirm", "by": names[1], "scorecard": card}).status_code == 302
    assert Table.objects.get(pk=ev.table.pk).is_confirmed
