"""Check-in and drops in bulk from the players list: ticked players or everyone not yet checked in,
several drops with one reason, and the undo of a bulk action (exactly the players it changed and
that nothing changed since); refusals name each player in the way and change nobody."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import event
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.errors import TournamentError, WrongState
from tournaments.models import Entrant, EntrantStatus, EventLogEntry

pytestmark = pytest.mark.django_db


def _ids(tournament, *names: str) -> list[str]:
    return [str(tournament.entrants.get(name=name).pk) for name in names]


def _checked(tournament) -> set[str]:
    return set(tournament.entrants.filter(checked_in=True).values_list("name", flat=True))


def test_it_checks_in_the_ticked_players_in_one_go_and_logs_them() -> None:
    tournament = event(6)
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/bulk/"
    answer = client.post(url, {"action": "check_in", "players": _ids(tournament, "P01", "P02", "P03")})
    assert answer.status_code == 302
    assert _checked(tournament) == {"P01", "P02", "P03"}
    entry = EventLogEntry.objects.get(tournament=tournament, action="players_checked_in")
    assert entry.details["players"] == ["P01", "P02", "P03"]
    page = client.get(answer["Location"]).content.decode()
    assert "3 players checked in." in page and "Recent bulk actions" in page


def test_it_checks_in_everyone_not_yet_checked_in_but_not_the_dropped() -> None:
    tournament = event(5)
    services.set_checked_in(tournament, tournament.entrants.get(name="P01").pk, True)
    services.drop_entrant(tournament, tournament.entrants.get(name="P05").pk)
    answer = as_user("dora").post(f"/tournaments/{tournament.pk}/players/bulk/", {"action": "check_in_all"})
    assert answer.status_code == 302
    assert _checked(tournament) == {"P01", "P02", "P03", "P04"}
    entry = EventLogEntry.objects.get(tournament=tournament, action="players_checked_in")
    assert entry.details["players"] == ["P02", "P03", "P04"]


def test_a_refused_bulk_check_in_names_each_player_in_the_way_and_checks_in_nobody() -> None:
    tournament = event(4)
    services.drop_entrant(tournament, tournament.entrants.get(name="P02").pk)
    services.drop_entrant(tournament, tournament.entrants.get(name="P03").pk, status=EntrantStatus.WITHDRAWN)
    answer = as_user("dora").post(
        f"/tournaments/{tournament.pk}/players/bulk/",
        {"action": "check_in", "players": _ids(tournament, "P01", "P02", "P03")},
    )
    page = answer.content.decode()
    assert answer.status_code == 409
    assert "P02 is dropped: bring them back before checking them in." in page
    assert "P03 is withdrawn" in page
    assert _checked(tournament) == set()
    # The ticks are kept for the second try.
    p01 = tournament.entrants.get(name="P01").pk
    assert f'value="{p01}" form="bulk-players" id="pick-{p01}" checked' in page


def test_nothing_ticked_or_a_foreign_player_is_a_clear_400() -> None:
    tournament, other = event(3), event(3)
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/bulk/"
    none = client.post(url, {"action": "check_in"})
    assert none.status_code == 400 and "Choose at least one player." in none.content.decode()
    foreign = client.post(url, {"action": "check_in", "players": [str(other.entrants.first().pk), "x"]})
    assert foreign.status_code == 400 and "A player is named by their id" in foreign.content.decode()
    stranger = client.post(url, {"action": "check_in", "players": [str(other.entrants.first().pk)]})
    assert stranger.status_code == 400 and "in this tournament" in stranger.content.decode()
    bad = client.post(url, {"action": "explode"})
    assert bad.status_code == 400 and "Choose what to do with the players." in bad.content.decode()
    assert _checked(tournament) == set()


def test_it_drops_several_with_one_reason_and_refuses_without_one() -> None:
    tournament = event(5)
    client = as_user("dora")
    url = f"/tournaments/{tournament.pk}/players/bulk/"
    without = client.post(url, {"action": "drop", "players": _ids(tournament, "P04", "P05")})
    assert without.status_code == 400 and "Say why these players are dropped" in without.content.decode()
    assert not tournament.entrants.exclude(status=EntrantStatus.ACTIVE).exists()
    done = client.post(
        url, {"action": "drop", "reason": "Bus left", "players": _ids(tournament, "P04", "P05")}
    )
    assert done.status_code == 302
    assert set(tournament.entrants.filter(status=EntrantStatus.DROPPED).values_list("name", flat=True)) == {
        "P04",
        "P05",
    }
    assert EventLogEntry.objects.get(tournament=tournament, action="players_dropped").reason == "Bus left"


def test_undo_reverts_exactly_the_players_the_action_changed_and_not_those_changed_since() -> None:
    tournament = event(5)
    services.set_checked_in(tournament, tournament.entrants.get(name="P01").pk, True)  # before: stays
    result = services.check_in_players(tournament, everyone=True)
    assert [e.name for e in result.changed] == ["P02", "P03", "P04", "P05"]
    # Changed since: P03 checked out and in again by hand, P04 dropped.
    p03 = tournament.entrants.get(name="P03").pk
    services.set_checked_in(tournament, p03, False)
    services.set_checked_in(tournament, p03, True)
    services.drop_entrant(tournament, tournament.entrants.get(name="P04").pk)
    client = as_user("dora")
    answer = client.post(f"/tournaments/{tournament.pk}/players/bulk/{result.entry.pk}/undo/")
    assert answer.status_code == 302
    assert _checked(tournament) == {"P01", "P03", "P04"}
    page = client.get(answer["Location"]).content.decode()
    assert "2 players put back as before." in page and "P03, P04" in page
    again = client.post(f"/tournaments/{tournament.pk}/players/bulk/{result.entry.pk}/undo/")
    assert again.status_code == 409 and "undone already" in again.content.decode()


def test_undo_of_a_bulk_drop_brings_the_players_back() -> None:
    tournament = event(4)
    result = services.drop_players(tournament, _ids(tournament, "P01", "P02"), reason="late train")
    services.undo_bulk_action(tournament, result.entry.pk)
    assert not tournament.entrants.exclude(status=EntrantStatus.ACTIVE).exists()
    assert Entrant.objects.filter(tournament=tournament, left_after_round__isnull=False).count() == 0


def test_undo_of_a_check_in_refuses_a_player_seated_in_the_round_in_play() -> None:
    built = staffed_event(8, publish=False)
    tournament = built.tournament
    result = services.check_in_players(tournament, everyone=True)
    services.publish_round(tournament, 1)
    with pytest.raises(WrongState) as refused:
        services.undo_bulk_action(tournament, result.entry.pk)
    assert "is seated in the round in play: their check-in stays." in refused.value.problems[0].message
    assert len(refused.value.problems) == 8
    assert tournament.entrants.filter(checked_in=True).count() == 8


def test_a_disqualified_player_stops_a_bulk_drop() -> None:
    built = staffed_event(8)
    tournament = built.tournament
    cheat = tournament.entrants.get(name="P01")
    services.give_penalty(tournament, player=cheat.pk, offence="cheating", round_number=1)
    with pytest.raises(WrongState) as refused:
        services.drop_players(tournament, [cheat.pk, tournament.entrants.get(name="P02").pk], reason="x")
    assert refused.value.problems[0].message == "P01 is disqualified from the event."
    assert tournament.entrants.get(name="P02").status == EntrantStatus.ACTIVE
    with pytest.raises(TournamentError):
        services.check_in_players(tournament, [])


def test_officials_and_strangers_cannot_act_in_bulk() -> None:
    built = staffed_event(8, publish=False)
    url = f"/tournaments/{built.tournament.pk}/players/bulk/"
    body = {"action": "check_in_all"}
    assert as_user("olive").post(url, body).status_code == 403
    assert as_user("sam").post(url, body).status_code == 403
    assert as_user(None).post(url, body).status_code == 302  # to the login page
    assert as_user("cora").post(url, body).status_code == 302
    assert built.tournament.entrants.filter(checked_in=True).count() == 8


def test_the_players_list_reads_the_same_number_of_queries_for_12_and_120_players(
    django_assert_max_num_queries,
) -> None:
    client = as_user("dora")
    counts = {}
    for players in (12, 120):
        tournament = event(players)
        services.check_in_players(tournament, everyone=True)
        url = f"/tournaments/{tournament.pk}/players/"
        client.get(url)  # the session and the caches warm
        with django_assert_max_num_queries(12) as captured:
            page = client.get(url)
        assert page.status_code == 200 and page.content.decode().count('form="bulk-players"') == players
        counts[players] = len(captured)
    assert counts[12] == counts[120]
