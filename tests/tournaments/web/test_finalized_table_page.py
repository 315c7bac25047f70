"""A finalized round's table page: its scorecard is closed, the link can neither confirm nor
disagree (issue 20, finding 5), and says so instead of offering the form."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.web.conftest import staffed_event
from tests.tournaments.web.test_it_confirms_at_the_table import finish
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_it_closes_the_table_page_of_a_finalized_round(client: Client) -> None:
    ev = staffed_event()
    names = finish(ev.table)
    finish(ev.other_table)
    services.confirm_table(ev.other_table.game, ev.other_table.game.seats.first().name)
    services.finalize_round(ev.tournament, 1, override=True, reason="the hall closed")
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    page = client.get(url).content.decode()
    assert "Round 1 is finalized: its scorecards are closed." in page
    assert "I confirm the scorecard" not in page and "I disagree" not in page
    for action in ("confirm", "disagree"):
        refused = client.post(url, {"action": action, "by": names[1], "note": "late"}, follow=True)
        assert refused.redirect_chain == [(url, 302)]  # post/redirect/get: the page says why
        assert "finalized" in refused.content.decode()
    table = Table.objects.get(pk=ev.table.pk)
    assert not table.is_confirmed and not table.is_disputed
    assert table.override_reason == "the hall closed"
