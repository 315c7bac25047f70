"""Optimistic concurrency on the tournament API: ETags on the tournament, its players and its
rounds; If-None-Match answers 304; a stale If-Match is a 412 that writes nothing (the database is
checked), the current one goes through and the answer carries the new ETag."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import client_of
from tests.tournaments.helpers import event, play_round
from tournaments import services
from tournaments.live_versions import event_version, round_version
from tournaments.models import Entrant, EventLogEntry, Round, RoundStatus, TableSeat, Tournament

pytestmark = pytest.mark.django_db


def _url(tournament: Tournament, rest: str = "") -> str:
    return f"/api/v1/tournaments/{tournament.pk}/{rest}"


# The tournament -----------------------------------------------------------------------------------


def test_it_answers_the_tournaments_etag_and_304_while_it_is_unchanged(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    first = dora.get(_url(tournament))
    tag = first["ETag"]
    assert tag == f'"tournament-{tournament.pk}-v{event_version(tournament.pk)}"'
    again = dora.get(_url(tournament), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag
    # Anything that changes the event moves it on: the old ETag no longer answers 304.
    services.add_entrant(tournament, "Zed")
    after = dora.get(_url(tournament), HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200
    assert after["ETag"] != tag
    assert after.json()["players"] == 5


def test_it_refuses_a_settings_change_with_a_stale_if_match_and_writes_nothing(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    stale = dora.get(_url(tournament))["ETag"]
    dora.patch(_url(tournament), {"venue": "Elm Hall"}, format="json")  # someone else's change
    logged = EventLogEntry.objects.filter(tournament=tournament).count()

    refused = dora.patch(_url(tournament), {"venue": "Oak Hall"}, format="json", HTTP_IF_MATCH=stale)

    assert refused.status_code == 412, refused.content
    assert refused.json()["errors"][0]["where"] == "If-Match"
    assert "changed by someone else" in refused.json()["errors"][0]["message"]
    stored = Tournament.objects.get(pk=tournament.pk)
    assert stored.venue == "Elm Hall"
    assert EventLogEntry.objects.filter(tournament=tournament).count() == logged


def test_it_changes_the_settings_with_the_current_if_match_and_answers_the_new_etag(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    current = dora.get(_url(tournament))["ETag"]
    changed = dora.patch(_url(tournament), {"venue": "Oak Hall"}, format="json", HTTP_IF_MATCH=current)
    assert changed.status_code == 200, changed.content
    stored = Tournament.objects.get(pk=tournament.pk)
    assert stored.venue == "Oak Hall"
    assert changed["ETag"] == f'"tournament-{tournament.pk}-v{event_version(stored)}"' != current
    # The new ETag is the current one: a second change with it goes through too.
    again = dora.patch(_url(tournament), {"venue": "Ash Hall"}, format="json", HTTP_IF_MATCH=changed["ETag"])
    assert again.status_code == 200


def test_it_refuses_an_if_match_naming_another_tournament_or_no_etag(dora: APIClient) -> None:
    tournament, other = event(4, rounds=2), event(4, rounds=2)
    other_tag = dora.get(_url(other))["ETag"]
    for header in (other_tag, '"round-1-v1"', "nonsense"):
        refused = dora.patch(_url(tournament), {"venue": "Oak"}, format="json", HTTP_IF_MATCH=header)
        assert refused.status_code == 412, (header, refused.content)
    assert Tournament.objects.get(pk=tournament.pk).venue == ""
    # `*` and no header at all keep working (If-Match is optional here).
    assert dora.patch(_url(tournament), {"venue": "Oak"}, format="json", HTTP_IF_MATCH="*").status_code == 200
    assert dora.patch(_url(tournament), {"venue": "Elm"}, format="json").status_code == 200


def test_it_moves_the_tournaments_etag_when_the_staff_changes(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    tag = dora.get(_url(tournament))["ETag"]
    client_of("cora")  # the user exists
    services.add_staff(tournament, "cora", "co_director")
    assert client_of("cora").get(_url(tournament), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_it_refuses_seating_a_round_against_a_stale_tournament_etag(dora: APIClient) -> None:
    tournament = event(8, rounds=2)
    stale = dora.get(_url(tournament))["ETag"]
    services.add_entrant(tournament, "Zed")
    refused = dora.post(_url(tournament, "rounds/"), {}, format="json", HTTP_IF_MATCH=stale)
    assert refused.status_code == 412, refused.content
    assert not Round.objects.filter(tournament=tournament).exists()
    current = dora.get(_url(tournament))["ETag"]
    seated = dora.post(_url(tournament, "rounds/"), {}, format="json", HTTP_IF_MATCH=current)
    assert seated.status_code == 201, seated.content
    round_ = Round.objects.get(tournament=tournament)
    assert seated["ETag"] == f'"round-{round_.pk}-v{round_version(round_)}"'


# Players ------------------------------------------------------------------------------------------


def test_it_answers_a_players_etag_and_304_while_they_are_unchanged(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    player = Entrant.objects.filter(tournament=tournament).first()
    url = _url(tournament, f"players/{player.pk}/")
    first = dora.get(url)
    version = Tournament.objects.get(pk=tournament.pk).version
    assert first["ETag"] == f'"player-{player.pk}-v{version}"'
    assert dora.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    services.set_checked_in(tournament, player.pk, True)
    moved = dora.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200
    assert moved.json()["player"]["checked_in"] is True


def test_it_moves_a_players_etag_when_their_record_moves(dora: APIClient) -> None:
    tournament = event(4, rounds=2, holes=1)
    player = Entrant.objects.filter(tournament=tournament).first()
    url = _url(tournament, f"players/{player.pk}/")
    tag = dora.get(url)["ETag"]
    play_round(tournament)  # a round seated, published and played: their record holds it now
    moved = dora.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200
    assert len(moved.json()["rounds"]) == 1


@pytest.mark.parametrize(
    ("action", "body"),
    [("check-in", {}), ("drop", {"reason": "ill"}), ("withdraw", {}), ("reinstate", {})],
)
def test_it_refuses_a_player_change_with_a_stale_if_match_and_writes_nothing(
    dora: APIClient, action: str, body: dict
) -> None:
    tournament = event(4, rounds=2)
    player = Entrant.objects.filter(tournament=tournament).first()
    if action == "reinstate":
        services.drop_entrant(tournament, player.pk)
    stale = dora.get(_url(tournament, f"players/{player.pk}/"))["ETag"]
    services.add_entrant(tournament, "Zed")  # the event moved on meanwhile
    before = Entrant.objects.filter(pk=player.pk).values("status", "checked_in", "left_after_round").get()
    logged = EventLogEntry.objects.filter(tournament=tournament).count()

    refused = dora.post(
        _url(tournament, f"players/{player.pk}/{action}/"), body, format="json", HTTP_IF_MATCH=stale
    )

    assert refused.status_code == 412, refused.content
    assert refused.json()["errors"][0]["where"] == "If-Match"
    after = Entrant.objects.filter(pk=player.pk).values("status", "checked_in", "left_after_round").get()
    assert after == before
    assert EventLogEntry.objects.filter(tournament=tournament).count() == logged


def test_it_checks_a_player_in_with_the_current_if_match_and_answers_the_new_etag(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    player = Entrant.objects.filter(tournament=tournament).first()
    current = dora.get(_url(tournament, f"players/{player.pk}/"))["ETag"]
    done = dora.post(
        _url(tournament, f"players/{player.pk}/check-in/"), {}, format="json", HTTP_IF_MATCH=current
    )
    assert done.status_code == 200, done.content
    assert Entrant.objects.get(pk=player.pk).checked_in is True
    version = Tournament.objects.get(pk=tournament.pk).version
    assert done["ETag"] == f'"player-{player.pk}-v{version}"' != current
    dropped = dora.post(
        _url(tournament, f"players/{player.pk}/drop/"), {}, format="json", HTTP_IF_MATCH=done["ETag"]
    )
    assert dropped.status_code == 200, dropped.content
    assert Entrant.objects.get(pk=player.pk).status == "dropped"


def test_it_refuses_a_players_etag_used_for_another_player(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    first, second = Entrant.objects.filter(tournament=tournament).order_by("pk")[:2]
    tag = dora.get(_url(tournament, f"players/{first.pk}/"))["ETag"]
    refused = dora.post(_url(tournament, f"players/{second.pk}/drop/"), {}, format="json", HTTP_IF_MATCH=tag)
    assert refused.status_code == 412
    assert Entrant.objects.get(pk=second.pk).status == "active"


# Rounds -------------------------------------------------------------------------------------------


def test_it_answers_a_rounds_etag_and_304_while_it_is_unchanged(dora: APIClient) -> None:
    tournament = event(8, rounds=2, holes=1)
    round_ = services.seat_next_round(tournament)
    url = _url(tournament, "rounds/1/")
    tag = dora.get(url)["ETag"]
    assert tag == f'"round-{round_.pk}-v{round_version(round_.pk)}"'
    assert dora.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    services.publish_round(tournament, 1)
    moved = dora.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200
    assert moved.json()["status"] == "published"


def test_it_moves_a_rounds_etag_when_a_table_confirms(dora: APIClient) -> None:
    tournament = event(4, rounds=2, holes=1)
    round_ = play_round(tournament, confirm=False)
    tag = dora.get(_url(tournament, "rounds/1/"))["ETag"]
    table = round_.tables.select_related("game").get()
    services.confirm_table(table.game, table.game.seats.order_by("seat").first().name)
    moved = dora.get(_url(tournament, "rounds/1/"), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200
    assert moved.json()["tables"][0]["confirmed"] is True


def test_it_refuses_publishing_and_swapping_with_a_stale_if_match_and_writes_nothing(dora: APIClient) -> None:
    tournament = event(8, rounds=2, holes=1)
    services.seat_next_round(tournament)
    stale = dora.get(_url(tournament, "rounds/1/"))["ETag"]
    seats = list(TableSeat.objects.filter(round__tournament=tournament).order_by("table__number", "seat"))
    a, b = seats[0], seats[-1]  # two tables
    # Someone else swaps first: the round moves on.
    services.swap_players(tournament, 1, a.entrant_id, b.entrant_id, reason="friends")
    seating = sorted(TableSeat.objects.filter(round__tournament=tournament).values_list("entrant", "table"))

    swap = dora.post(
        _url(tournament, "rounds/1/swap/"),
        {"players": [a.entrant_id, b.entrant_id], "reason": "again"},
        format="json",
        HTTP_IF_MATCH=stale,
    )
    publish = dora.post(_url(tournament, "rounds/1/publish/"), {}, format="json", HTTP_IF_MATCH=stale)

    assert (swap.status_code, publish.status_code) == (412, 412), (swap.content, publish.content)
    assert (
        sorted(TableSeat.objects.filter(round__tournament=tournament).values_list("entrant", "table"))
        == seating
    )
    assert Round.objects.get(tournament=tournament).status == RoundStatus.SEATED
    current = dora.get(_url(tournament, "rounds/1/"))["ETag"]
    published = dora.post(_url(tournament, "rounds/1/publish/"), {}, format="json", HTTP_IF_MATCH=current)
    assert published.status_code == 200, published.content
    round_ = Round.objects.get(tournament=tournament)
    assert round_.status == RoundStatus.PUBLISHED
    assert published["ETag"] == f'"round-{round_.pk}-v{round_version(round_)}"' != current


def test_it_refuses_finalizing_with_a_stale_if_match_and_finalizes_with_the_current_one(
    dora: APIClient,
) -> None:
    tournament = event(4, rounds=2, holes=1)
    round_ = play_round(tournament, confirm=False)
    stale = dora.get(_url(tournament, "rounds/1/"))["ETag"]
    table = round_.tables.select_related("game").get()
    services.confirm_table(table.game, table.game.seats.order_by("seat").first().name)

    refused = dora.post(_url(tournament, "rounds/1/finalize/"), {}, format="json", HTTP_IF_MATCH=stale)
    assert refused.status_code == 412, refused.content
    assert Round.objects.get(pk=round_.pk).status == RoundStatus.PUBLISHED

    current = dora.get(_url(tournament, "rounds/1/"))["ETag"]
    done = dora.post(_url(tournament, "rounds/1/finalize/"), {}, format="json", HTTP_IF_MATCH=current)
    assert done.status_code == 200, done.content
    stored = Round.objects.get(pk=round_.pk)
    assert stored.status == RoundStatus.FINALIZED
    assert done["ETag"] == f'"round-{stored.pk}-v{round_version(stored)}"'


def test_it_answers_a_missing_round_404_before_its_if_match(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    answer = dora.post(_url(tournament, "rounds/3/publish/"), {}, format="json", HTTP_IF_MATCH='"round-1-v1"')
    assert answer.status_code == 404


# With the Idempotency-Key layer ------------------------------------------------------------------


def test_it_replays_the_first_answers_etag_with_the_same_idempotency_key(dora: APIClient) -> None:
    tournament = event(4, rounds=2)
    current = dora.get(_url(tournament))["ETag"]
    headers = {"HTTP_IF_MATCH": current, "HTTP_IDEMPOTENCY_KEY": "k-etag-1"}
    first = dora.patch(_url(tournament), {"venue": "Oak"}, format="json", **headers)
    replay = dora.patch(_url(tournament), {"venue": "Oak"}, format="json", **headers)
    assert first.status_code == replay.status_code == 200
    assert replay["Idempotent-Replayed"] == "true"
    assert replay["ETag"] == first["ETag"]
    # The replay wrote nothing: the version is the first answer's.
    assert first["ETag"] == f'"tournament-{tournament.pk}-v{event_version(tournament.pk)}"'
