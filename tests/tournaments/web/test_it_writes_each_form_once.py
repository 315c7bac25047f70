"""Every tournament, officiating and table page form that writes carries a one-time key (issue 20,
must-show 2): a double tap or a browser resend lands where the first did and writes nothing; the
same key with other values writes nothing either. The race (two copies at once) is in
test_double_taps_pg.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.utils import timezone

from scoring import services as scoring_services
from scoring.models import Game, GameChange, IdempotentRequest
from tests.tournaments.helpers import user
from tests.tournaments.web.conftest import Event, as_user, staffed_event
from tests.tournaments.web.test_it_lists_creates_and_sets_up import NEW
from tournaments import services
from tournaments.models import OfficialCall, Round, Ruling, Staff
from tournaments.services.calls import call_official

KEY = "form-key-1"
# (who, url, form values, other values, htmx)
Case = tuple[str | None, str, dict[str, Any], dict[str, Any], bool]


def _everything() -> dict[str, Any]:
    """Every row of the tournaments app (its keys aside) and of the games."""
    rows: dict[str, Any] = {}
    for model in apps.get_app_config("tournaments").get_models():
        if model is not IdempotentRequest:
            rows[model._meta.label] = list(model.objects.order_by("pk").values())
    rows["games"] = list(Game.objects.order_by("pk").values())
    rows["changes"] = GameChange.objects.count()
    return rows


def _ruling_body(ev: Event) -> dict[str, Any]:
    seat = ev.table.seats.order_by("seat").first()
    return {
        "situation": "swapped_two_grid_cards",
        "fact_next_turn_begun": "yes",
        "player": seat.entrant_id,
        "round": 1,
        "table": ev.table.number,
        "hole": 1,
        "note": "seen by two players",
        "action": "record",
    }


def _finished(ev: Event) -> Event:
    """`ev` with round 1 played to the end at both tables, not confirmed."""
    for table in (ev.table, ev.other_table):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for _hole in range(2):
            scoring_services.hole_record(
                table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
            )
    return ev


def _new(ev: Event) -> Case:
    return ("dora", "/tournaments/new/", {**NEW, "name": "Autumn"}, {**NEW, "name": "Winter"}, False)


def _settings(ev: Event) -> Case:
    url = f"{ev.url}settings/"
    return (
        "dora",
        url,
        {**NEW, "venue": "Hall", "seed": "42"},
        {**NEW, "venue": "Barn", "seed": "42"},
        False,
    )


def _staff_add(ev: Event) -> Case:
    user("vic")
    body = {"username": "vic", "role": "official"}
    return ("dora", f"{ev.url}staff/", body, {**body, "role": "co_director"}, False)


def _staff_remove(ev: Event) -> Case:
    member = Staff.objects.get(tournament=ev.tournament, user__username="olive")
    return ("dora", f"{ev.url}staff/{member.pk}/remove/", {}, {"x": "1"}, False)


def _player_add(ev: Event) -> Case:
    return ("dora", f"{ev.url}players/add/", {"name": "Zed"}, {"name": "Zia"}, False)


def _player_import(ev: Event) -> Case:
    return ("dora", f"{ev.url}players/import/", {"text": "name\nZed\nZia"}, {"text": "name\nZoe"}, False)


def _check_in(ev: Event) -> Case:
    player = ev.tournament.entrants.get(name="P01")
    url = f"{ev.url}players/{player.pk}/check-in/"
    return ("dora", url, {"checked_in": "1"}, {"checked_in": "0"}, True)


def _drop(ev: Event) -> Case:
    player = ev.tournament.entrants.get(name="P01")
    url = f"{ev.url}players/{player.pk}/status/"
    return ("dora", url, {"action": "drop", "reason": "ill"}, {"action": "withdraw", "reason": "ill"}, False)


def _seat(ev: Event) -> Case:
    _finished(ev)
    services.finalize_round(ev.tournament, 1, override=True, reason="test")
    return ("dora", f"{ev.url}rounds/seat/", {}, {"again": "1"}, False)


def _publish(ev: Event) -> Case:
    return ("dora", f"{ev.url}rounds/1/publish/", {}, {"again": "1"}, False)


def _swap(ev: Event) -> Case:
    a = ev.table.seats.order_by("seat").first().entrant_id
    b = ev.other_table.seats.order_by("seat").first().entrant_id
    body = {"first": a, "second": b, "reason": "family"}
    return ("dora", f"{ev.url}rounds/1/swap/", body, {**body, "reason": "friends"}, False)


def _finalize(ev: Event) -> Case:
    _finished(ev)
    body = {"override": "1", "reason": "phones died"}
    return ("dora", f"{ev.url}rounds/1/finalize/", body, {**body, "reason": "left early"}, False)


def _clear(ev: Event) -> Case:
    _finished(ev)
    name = ev.table.seats.order_by("seat").first().entrant.name
    services.confirm_table(ev.table.game, name, disagree=True, note="hole 1 was 4")
    url = f"{ev.url}tables/{ev.table.pk}/clear/"
    return ("dora", url, {"reason": "checked"}, {"reason": "not checked"}, False)


def _confirm(ev: Event) -> Case:
    _finished(ev)
    names = list(ev.table.game.seats.order_by("seat").values_list("name", flat=True))
    url = f"/tournaments/table/{ev.table.game.edit_token}/"
    return (None, url, {"action": "confirm", "by": names[1]}, {"action": "confirm", "by": names[2]}, False)


def _call(ev: Event) -> Case:
    url = f"/tournaments/table/{ev.table.game.edit_token}/call/"
    return (None, url, {"note": "a dispute"}, {"note": "another dispute"}, False)


def _call_close(ev: Event) -> Case:
    call = call_official(ev.table, note="help")
    return ("olive", f"{ev.url}officiating/calls/{call.pk}/close/", {}, {"x": "1"}, False)


def _draft(ev: Event) -> Case:
    # The round was published 33 minutes ago with 30 to play: table 1, finishing now, is over.
    Round.objects.filter(pk=ev.round.pk).update(published_at=timezone.now() - timedelta(minutes=33))
    names = list(ev.table.game.seats.order_by("seat").values_list("name", flat=True))
    for _hole in range(2):
        scoring_services.hole_record(
            ev.table.game, entries={n: 5 for n in names}, ender=None, capabilities={"view", "score"}
        )
    return ("olive", f"{ev.url}officiating/drafts/{ev.table.pk}/", {}, {"x": "1"}, False)


def _ruling(ev: Event) -> Case:
    body = _ruling_body(ev)
    return ("olive", f"{ev.url}officiating/ruling/", body, {**body, "note": "seen by one"}, False)


def _rescind(ev: Event) -> Case:
    player = ev.tournament.entrants.get(name="P02")
    penalty = services.give_penalty(ev.tournament, player=player.pk, offence="illegal_move")
    url = f"{ev.url}penalties/{penalty.pk}/rescind/"
    return ("dora", url, {"reason": "appeal upheld"}, {"reason": "appeal"}, False)


def _extend(ev: Event) -> Case:
    url = f"{ev.url}tables/{ev.table.pk}/extend/"
    return ("dora", url, {"minutes": "5", "reason": "a long ruling"}, {"minutes": "6", "reason": "x"}, False)


#: Every form of the tournament pages that writes (tournaments/web/urls.py's POSTs).
FORMS: dict[str, Callable[[Event], Case]] = {
    "new": _new,
    "settings": _settings,
    "staff-add": _staff_add,
    "staff-remove": _staff_remove,
    "player-add": _player_add,
    "player-import": _player_import,
    "check-in": _check_in,
    "drop": _drop,
    "seat": _seat,
    "publish": _publish,
    "swap": _swap,
    "finalize": _finalize,
    "clear": _clear,
    "confirm": _confirm,
    "call": _call,
    "call-close": _call_close,
    "draft-confirm": _draft,
    "ruling": _ruling,
    "rescind": _rescind,
    "extend": _extend,
}


def _event_for(name: str) -> Event:
    # Publishing and swapping need a round seated but not yet published.
    settings = {"time_limit_minutes": 30} if name == "draft-confirm" else {}
    ev = staffed_event(publish=name not in ("publish", "swap"), **settings)
    if name in ("call", "confirm"):
        services.update_tournament(ev.tournament, public_table_links=True)
    return ev


def _post(client: Client, url: str, data: dict[str, Any], htmx: bool, key: str) -> Any:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, {**data, "idempotency_key": key}, **headers)


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(FORMS))
def test_it_lands_a_resent_form_where_the_first_did_and_writes_nothing(name: str) -> None:
    ev = _event_for(name)
    who, url, data, _other, htmx = FORMS[name](ev)
    client = as_user(who)
    untouched = _everything()
    first = _post(client, url, data, htmx, KEY)
    assert first.status_code in ((200,) if htmx else (302,)), first.content.decode()[:2000]
    before = _everything()
    assert before != untouched  # the first was carried out
    again = _post(client, url, data, htmx, KEY)
    assert again.status_code == first.status_code
    if htmx:
        assert again.content == first.content
    else:
        assert again["Location"] == first["Location"]
        shown = client.get(again["Location"]).content.decode()
        assert "sent twice: it was carried out once" in shown
    assert _everything() == before
    # Other values with the same key: nothing written either, and said.
    other = _post(client, url, _other, htmx, KEY)
    assert other.status_code == 302
    assert "already sent with other values" in client.get(other["Location"]).content.decode()
    assert _everything() == before


@pytest.mark.django_db
def test_it_keeps_nothing_for_a_form_shown_again_with_its_errors() -> None:
    ev = staffed_event()
    client = as_user("dora")
    url = f"{ev.url}players/add/"
    assert _post(client, url, {"name": ""}, False, KEY).status_code == 400
    assert not IdempotentRequest.objects.exists()
    assert _post(client, url, {"name": "Zed"}, False, KEY).status_code == 302  # corrected: carried out
    assert ev.tournament.entrants.filter(name="Zed").count() == 1


@pytest.mark.django_db
def test_it_writes_each_time_without_a_key_as_before() -> None:
    ev = staffed_event()
    client = as_user("olive")
    url = f"{ev.url}officiating/ruling/"
    for _ in range(2):
        assert client.post(url, _ruling_body(ev)).status_code == 302
    assert Ruling.objects.count() == 2


def _posting_forms(html: str) -> list[str]:
    forms = re.findall(r'<form[^>]*method="post"[^>]*>.*?</form>', html, flags=re.DOTALL | re.IGNORECASE)
    return [f for f in forms if "/accounts/logout/" not in f]


@pytest.mark.django_db
def test_it_puts_a_fresh_one_time_key_in_every_form_that_writes() -> None:
    ev = _finished(staffed_event())
    services.confirm_table(ev.table.game, ev.table.seats.first().entrant.name, disagree=True, note="x")
    services.give_penalty(ev.tournament, player=ev.tournament.entrants.first().pk, offence="illegal_move")
    OfficialCall.objects.create(tournament=ev.tournament, table=ev.other_table)
    services.update_tournament(ev.tournament, public_table_links=True)
    player = ev.tournament.entrants.first()
    unpublished = staffed_event(publish=False)
    pages = {
        "dora": [
            "/tournaments/new/",
            ev.url,
            f"{ev.url}settings/",
            f"{ev.url}players/",
            f"{ev.url}players/{player.pk}/status/?action=drop",
            f"{ev.url}rounds/1/",
            f"{ev.url}officiating/",
            f"{ev.url}officiating/ruling/?situation=swapped_two_grid_cards",
            f"{unpublished.url}rounds/1/",  # swap and publish
        ],
        None: [f"/tournaments/table/{ev.other_table.game.edit_token}/"],
    }
    seen = 0
    for who, urls in pages.items():
        client = as_user(who)
        for url in urls:
            first, second = (client.get(url).content.decode() for _ in range(2))
            forms = _posting_forms(first)
            for form in forms:
                seen += 1
                assert 'name="idempotency_key"' in form, (url, form[:300])
            keys = re.findall(r'name="idempotency_key" value="([0-9a-f]{32})"', first)
            assert len(keys) == len(forms) and not set(keys) & set(
                re.findall(r'value="([0-9a-f]{32})"', second)
            ), url
            assert len(set(keys)) == len(keys)  # one key per form
    assert seen >= 18
