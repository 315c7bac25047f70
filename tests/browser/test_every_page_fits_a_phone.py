"""Every page of tournaments, officiating and event day, walked in Chromium at 390x844 by each
persona who can see it (the director, an official, a table through its link, the public), on a
12-player event mid-round and on a finished one: no page scrolls sideways, no text is cut off (an
ellipsis, a clamp, a box hiding part of its content behind a scroll of its own), no heading breaks
a word in two.

`PAGES` lists what is walked, one line a page: `Page(route, persona, path)`; `NOT_PAGES` names the
routes that render no page of their own (writes, fragments polled into a page, files).
`test_it_walks_every_route_of_the_tournament_urls` fails when a route is added to
`tournaments/web/urls.py` without a line in one of them.

The two events are built once, and each persona's pages are visited in one browser context.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.test import Client

from scoring import services as scoring_services
from tests.browser.layout import page_problems
from tests.conftest import PHONE
from tests.tournaments.helpers import event, user
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.services.calls import call_official
from tournaments.web import urls as tournament_urls

DIRECTOR, OFFICIAL, TABLE, PUBLIC = "director", "official", "table", "public"


@dataclass(frozen=True)
class Page:
    """A page to walk: its route's name in tournaments/web/urls.py, who opens it, and its path.

    The path's {placeholders} are filled from the built events (see `_build`): {live} and {done}
    (the events mid-round and finished), {entrant}, {live_table_*} / {done_table} (table links),
    {round} (the round in play)."""

    route: str
    persona: str
    path: str


PAGES: list[Page] = [
    Page("list", DIRECTOR, "/tournaments/"),
    Page("list", PUBLIC, "/tournaments/"),
    Page("new", DIRECTOR, "/tournaments/new/"),
    Page("dashboard", DIRECTOR, "/tournaments/{live}/"),
    Page("dashboard", DIRECTOR, "/tournaments/{done}/"),
    Page("dashboard", OFFICIAL, "/tournaments/{live}/"),
    Page("settings", DIRECTOR, "/tournaments/{live}/settings/"),
    Page("club", DIRECTOR, "/tournaments/{live}/club/"),
    Page("players", DIRECTOR, "/tournaments/{live}/players/"),
    Page("players", DIRECTOR, "/tournaments/{done}/players/"),
    Page("players", OFFICIAL, "/tournaments/{live}/players/"),
    Page("players", PUBLIC, "/tournaments/{live}/players/"),
    Page("player", DIRECTOR, "/tournaments/{live}/players/{entrant}/"),
    Page("player", PUBLIC, "/tournaments/{done}/players/{done_entrant}/"),
    Page("player-status", DIRECTOR, "/tournaments/{live}/players/{entrant}/status/?action=drop"),
    Page("seating", DIRECTOR, "/tournaments/{live}/rounds/{round}/"),
    Page("seating", DIRECTOR, "/tournaments/{done}/rounds/3/"),
    Page("seating", PUBLIC, "/tournaments/{live}/rounds/{round}/"),
    Page("table-cards", DIRECTOR, "/tournaments/{live}/rounds/{round}/cards/"),
    Page("standings", DIRECTOR, "/tournaments/{live}/standings/"),
    Page("standings", DIRECTOR, "/tournaments/{done}/standings/"),
    Page("standings", PUBLIC, "/tournaments/{live}/standings/"),
    Page("log", DIRECTOR, "/tournaments/{live}/log/"),
    Page("log", OFFICIAL, "/tournaments/{done}/log/"),
    Page("officiating", DIRECTOR, "/tournaments/{live}/officiating/"),
    Page("officiating", OFFICIAL, "/tournaments/{live}/officiating/"),
    Page("officiating", OFFICIAL, "/tournaments/{done}/officiating/"),
    Page("ruling", OFFICIAL, "/tournaments/{live}/officiating/ruling/"),
    Page(
        "ruling",
        OFFICIAL,
        "/tournaments/{live}/officiating/ruling/?situation=swapped_two_grid_cards&call={call}",
    ),
    Page("ruling", DIRECTOR, "/tournaments/{live}/officiating/ruling/?situation=over_time_limit"),
    Page("rulings", OFFICIAL, "/tournaments/{live}/rulings/"),
    Page("rulings", PUBLIC, "/tournaments/{done}/rulings/"),
    Page("public", PUBLIC, "/tournaments/{live}/public/"),
    Page("public", PUBLIC, "/tournaments/{live}/public/?q=P0"),
    Page("public", PUBLIC, "/tournaments/{done}/public/"),
    Page("public", DIRECTOR, "/tournaments/{live}/public/"),
    Page("projector", PUBLIC, "/tournaments/{live}/projector/"),
    Page("projector", PUBLIC, "/tournaments/{done}/projector/"),
    Page("print-seating", DIRECTOR, "/tournaments/{live}/rounds/{round}/print/seating/"),
    Page("print-slips", DIRECTOR, "/tournaments/{live}/rounds/{round}/print/slips/"),
    Page("print-results", PUBLIC, "/tournaments/{done}/print/results/"),
    Page("paper-slip", DIRECTOR, "/tournaments/{live}/tables/{live_table_playing_id}/paper-slip/"),
    Page("print-player-qr", DIRECTOR, "/tournaments/{live}/print/players/"),
    Page("player-home", PUBLIC, "/tournaments/player/{entrant_token}/"),
    Page("player-home", DIRECTOR, "/tournaments/player/{entrant_token}/"),
    Page("player-home", PUBLIC, "/tournaments/player/{done_entrant_token}/"),
    Page("table", TABLE, "/tournaments/table/{live_table_playing}/"),
    Page("table", TABLE, "/tournaments/table/{live_table_finished}/"),
    Page("table", TABLE, "/tournaments/table/{live_table_confirmed}/"),
    Page("table", TABLE, "/tournaments/table/{done_table}/"),
    Page("table", TABLE, "/games/e/{live_table_playing}/"),  # where the table's link lands first
]

#: Routes with no page of their own, and why (each is still reached by the walk where it shows).
NOT_PAGES: dict[str, str] = {
    "dashboard-live": "the dashboard's polled part, walked with the dashboard",
    "dashboard-calls": "the dashboard's polled calls, walked with the dashboard",
    "table-officials": "the table page's polled calls and rulings, walked with the table's page",
    "staff-add": "a write (POST) from the settings page",
    "staff-remove": "a write (POST) from the settings page",
    "player-add": "a write (POST) from the players page",
    "player-import": "a write (POST) from the players page",
    "player-check-in": "a write (POST) from the players page",
    "round-seat": "a write (POST) from the dashboard",
    "round-swap": "a write (POST) from the seating page",
    "round-publish": "a write (POST) from the dashboard",
    "round-finalize": "a write (POST) from the dashboard",
    "table-clear": "a write (POST) from the dashboard",
    "table-call": "a write (POST) from the table's page",
    "officiating-calls": "the desk's polled part, walked with the desk",
    "call-close": "a write (POST) from the desk",
    "draft-confirm": "a write (POST) from the desk",
    "penalty-rescind": "a write (POST) from the desk",
    "table-extend": "a write (POST) from the desk",
    "leaderboard": "the public page's polled part, walked with the public page",
    "projector-panels": "the projector's polled part, walked with the projector",
    "export": "CSV and JSON files, no page",
    "print-pack": "a PDF, no page (its pages are the print templates' parts, walked as printouts)",
    "player-home-live": "a player's page's polled part, walked with the player's page",
    "player-home-check-in": "a write (POST) from a player's page",
    "players-bulk": "a write (POST) from the players page",
    "players-bulk-undo": "a write (POST) from the players page",
}


def _route_names() -> set[str]:
    return {pattern.name for pattern in tournament_urls.urlpatterns}


def test_it_walks_every_route_of_the_tournament_urls() -> None:
    routes = _route_names()
    walked = {page.route for page in PAGES}
    missing = sorted(routes - walked - set(NOT_PAGES))
    stale = sorted((walked | set(NOT_PAGES)) - routes)
    assert not missing, f"add a Page(...) line to PAGES (or a reason to NOT_PAGES) for: {missing}"
    assert not stale, f"these PAGES / NOT_PAGES entries name no route any more: {stale}"
    assert not walked & set(NOT_PAGES), walked & set(NOT_PAGES)


def _play(table: Table, holes: int) -> list[str]:
    names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
    for hole in range(1, holes + 1):
        scoring_services.hole_record(
            table.game, entries={n: (i * 3 + hole) % 11 for i, n in enumerate(names)}, ender=None
        )
    return names


def _tables(tournament: Tournament, number: int) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("game")
        .order_by("number")
    )


def _name_players(tournament: Tournament) -> None:
    """Real-looking names, some long: what a director imports (P01..P12 hide layout problems)."""
    names = [
        "Zoé Lefèvre-Castellanos", "Bartholomew Higginbotham", "Anna Ng", "Maximilian Oberholzer",
        "Siobhán Ní Bhriain", "Christopher Van Der Westhuizen", "Li Wei", "Margarethe Schwarzenegger",
        "Olu Adebayo-Okonkwo", "Kim Park", "Guðrún Sigurðardóttir", "Jean-Baptiste Delacroix",
    ]  # fmt: skip
    for entrant, name in zip(tournament.entrants.order_by("pk"), names, strict=False):
        entrant.name, entrant.name_key = name, name.casefold()
        entrant.club = "Golf Club of Greater Saint-Rémy-de-Provence"
        entrant.save(update_fields=["name", "name_key", "club"])


def _build() -> dict[str, object]:
    """Two 12-player, 3-round events of 9 holes: one mid-round 2, one finished."""
    dora, olive = user("dora"), user("olive")
    live = event(12, rounds=3, holes=9, time_limit_minutes=50)
    Tournament.objects.filter(pk=live.pk).update(name="Saint-Rémy-de-Provence Autumn Championship")
    live.refresh_from_db()
    _name_players(live)
    services.add_staff(live, olive.username, "official")
    services.seat_next_round(live)
    services.publish_round(live, 1)
    for table in _tables(live, 1):
        names = _play(table, 9)
        services.confirm_table(table.game, names[1])
    services.finalize_round(live, 1, actor=dora)
    services.seat_next_round(live)
    services.publish_round(live, 2)
    playing, finished, confirmed = _tables(live, 2)
    names = _play(playing, 4)
    call_official(playing, called_by=names[0], note="a card fell face up during the deal, what now?")
    _play(finished, 9)
    services.confirm_table(confirmed.game, _play(confirmed, 9)[2])
    offender = playing.seats.select_related("entrant").get(seat=2).entrant
    services.give_penalty(live, player=offender.pk, offence="illegal_move", round_number=2, actor=olive)
    services.record_ruling(
        live, situation="over_time_limit", facts={"seconds_over": 90}, player=offender.pk, actor=olive
    )

    done = event(12, rounds=3, holes=9, rulings_public=True)
    _name_players(done)
    services.add_staff(done, olive.username, "official")
    for number in (1, 2, 3):
        services.seat_next_round(done)
        services.publish_round(done, number)
        for table in _tables(done, number):
            services.confirm_table(table.game, _play(table, 9)[0])
        services.finalize_round(done, number, actor=dora)
    services.record_ruling(done, situation="stock_exhausted", facts={}, round_number=3, actor=olive)
    return {
        "live": live.pk,
        "done": done.pk,
        "round": 2,
        "entrant": offender.pk,
        "done_entrant": done.entrants.order_by("pk")[1].pk,
        "entrant_token": offender.token,
        "done_entrant_token": done.entrants.order_by("pk")[1].token,
        "call": live.calls.get().pk,
        "live_table_playing": playing.game.edit_token,
        "live_table_playing_id": playing.pk,
        "live_table_finished": finished.game.edit_token,
        "live_table_confirmed": confirmed.game.edit_token,
        "done_table": _tables(done, 3)[0].game.edit_token,
    }


def _session_cookie(username: str, base_url: str) -> dict[str, object]:
    client = Client()
    client.force_login(user(username), backend="django.contrib.auth.backends.ModelBackend")
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": base_url}  # fmt: skip


LOG_IN = {DIRECTOR: "dora", OFFICIAL: "olive", TABLE: None, PUBLIC: None}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_page_fits_a_phone_for_everyone_who_sees_it(chromium_browser, live_server) -> None:
    ids = _build()
    problems: list[str] = []
    for persona, username in LOG_IN.items():
        context = chromium_browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=live_server.url
        )
        context.set_default_timeout(10_000)
        if username:
            context.add_cookies([_session_cookie(username, live_server.url)])
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
        try:
            for walked in (p for p in PAGES if p.persona == persona):
                path = walked.path.format(**ids)
                response = page.goto(path)
                assert response is not None and response.status == 200, (
                    persona,
                    path,
                    response and response.status,
                )
                page.wait_for_load_state("load")
                found = page_problems(page)
                problems += [f"{persona} {path}: {problem}" for problem in found]
                if found and (shots := os.environ.get("GOLFCLUB_WALK_SHOTS")):  # to look at what failed
                    page.screenshot(
                        path=f"{shots}/{persona}-{walked.route}-{PAGES.index(walked)}.png", full_page=True
                    )
            assert not errors, f"JavaScript errors for {persona}: {errors}"
        finally:
            context.close()
    assert not problems, "\n".join(problems)
