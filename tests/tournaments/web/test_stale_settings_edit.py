"""The settings page refuses a stale edit: the form carries the version it was read at; a submit
after another director changed a setting saves nothing and shows both versions, field by field;
saving again then keeps this director's values on purpose. Scores moving the event on alone are
no conflict."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring_services
from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user
from tournaments import services
from tournaments.live_versions import event_version
from tournaments.models import EventLogEntry, Table, Tournament

pytestmark = pytest.mark.django_db


def _form_as_read(page: str) -> dict[str, str]:
    """The settings form's fields as the page shows them (inputs, checked boxes, selected options)."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input [^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) in ("csrfmiddlewaretoken",):
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "checkbox":
            if "checked" in tag:
                data[name.group(1)] = "on"
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = chosen.group(1) if chosen else ""
    return data


def _settings(tournament: Tournament) -> str:
    return f"/tournaments/{tournament.pk}/settings/"


def test_it_refuses_a_stale_settings_edit_and_shows_both_versions() -> None:
    tournament = event(8)
    dora = as_user("dora")
    read = _form_as_read(dora.get(_settings(tournament)).content.decode())
    assert read["version"] == str(event_version(tournament.pk)) and read["read_digest"]
    # Another director (a second tab) changes the venue meanwhile.
    services.update_tournament(tournament, venue="Elm Hall")
    logged = EventLogEntry.objects.filter(tournament=tournament, action="settings").count()

    answer = dora.post(_settings(tournament), {**read, "name": "Spring Open 2", "venue": "Oak Hall"})

    assert answer.status_code == 412
    page = answer.content.decode()
    assert "Someone else changed these settings" in page
    assert "Nothing was saved" in page
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]*)</td><td>([^<]*)</td></tr>', page)
    assert ("Venue", "Oak Hall", "Elm Hall") in rows
    assert ("Name", "Spring Open 2", "Spring Open") in rows
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.name, stored.venue) == ("Spring Open", "Elm Hall")  # nothing overwritten
    assert EventLogEntry.objects.filter(tournament=tournament, action="settings").count() == logged

    # The form kept what Dora sent, now at the current version: saving it again is her choice.
    again = _form_as_read(page)
    assert (again["venue"], again["version"]) == ("Oak Hall", str(event_version(stored)))
    assert dora.post(_settings(tournament), again).status_code == 302
    stored.refresh_from_db()
    assert (stored.name, stored.venue) == ("Spring Open 2", "Oak Hall")


def test_it_saves_a_settings_edit_when_only_scores_moved_the_event_on(
    django_capture_on_commit_callbacks,
) -> None:
    tournament = event(4, rounds=2, holes=2)
    round_ = services.seat_next_round(tournament)
    services.publish_round(tournament, round_.number)
    dora = as_user("dora")
    read = _form_as_read(dora.get(_settings(tournament)).content.decode())
    table = Table.objects.select_related("game").get(round=round_)
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    with django_capture_on_commit_callbacks(execute=True):  # the tournament follows its tables
        scoring_services.hole_record(
            table.game, entries={n: 3 for n in names}, ender=None, capabilities={"view", "score"}
        )
    assert Tournament.objects.get(pk=tournament.pk).version != int(read["version"])

    assert dora.post(_settings(tournament), {**read, "venue": "Oak Hall"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).venue == "Oak Hall"


def test_it_saves_a_form_without_a_version_as_before() -> None:
    tournament = event(4)
    dora = as_user("dora")
    read = _form_as_read(dora.get(_settings(tournament)).content.decode())
    del read["version"], read["read_digest"]
    services.update_tournament(tournament, venue="Elm Hall")
    assert dora.post(_settings(tournament), {**read, "venue": "Oak Hall"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).venue == "Oak Hall"
