"""Exports (CSV and JSON of the standings and of every score) and printouts (seating by name and by
table, score slips, results) and the charts: a CSV read back equals the standings API, formulas
are made inert, who may download what, queries bounded at two sizes."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.tournaments.helpers import event, play_round
from tests.tournaments.web.conftest import as_user, staffed_event
from tournaments import services
from tournaments.exports import spreadsheet_safe
from tournaments.models import Entrant, Table
from tournaments.web.charts import bins_of
from tournaments.web.event_day import score_slips

pytestmark = pytest.mark.django_db


def _finished(players: int = 8, rounds: int = 2, **settings):
    tournament = event(players, rounds=rounds, holes=2, **settings)
    for number in range(1, rounds + 1):
        play_round(tournament)
        services.finalize_round(tournament, number)
    return tournament


def _csv(response) -> list[dict[str, str]]:
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")  # a byte-order mark: spreadsheets read the accents right
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_it_neutralises_formulas_but_keeps_numbers() -> None:
    # "+44" is a number (issue 19): only text a spreadsheet would run is quoted.
    assert [spreadsheet_safe(v) for v in ("=1+1", "+44", "-x", "@SUM(A1)", "\tx", "Ann", -2, 0)] == [
        "'=1+1", "+44", "'-x", "'@SUM(A1)", "'\tx", "Ann", -2, 0,
    ]  # fmt: skip


def test_the_standings_csv_reads_back_as_the_standings_api() -> None:
    tournament = _finished()
    Entrant.objects.filter(tournament=tournament, name="P05").update(
        name="=HYPERLINK(1)", name_key="=hyperlink(1)"
    )
    response = as_user(None).get(f"/tournaments/{tournament.pk}/export/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-open-standings.csv"'
    rows = _csv(response)
    api = as_user(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()["standings"]
    assert len(rows) == len(api) == 8
    for row, line in zip(rows, api, strict=True):
        name = line["player"]["name"]
        assert row["player"] == (f"'{name}" if name.startswith("=") else name)
        assert int(row["rank"]) == line["rank"] and int(row["total"]) == line["total"]
        assert [int(row["round_1"]), int(row["round_2"])] == line["rounds"]
        assert (
            int(row["holes_won"]) == line["holes_won"]
            and int(row["penalty_points"]) == line["penalty_points"]
        )
        assert row["countback"] == line["tiebreak"]["countback"]


def test_the_scores_export_has_every_hole_and_the_penalties() -> None:
    tournament = _finished()
    p01 = tournament.entrants.get(name="P01")
    services.give_penalty(tournament, player=p01.pk, offence="time", seconds_over=61, round_number=2)
    rows = _csv(as_user("dora").get(f"/tournaments/{tournament.pk}/export/scores.csv"))
    holes = [r for r in rows if r["kind"] == "hole"]
    assert len(holes) == 8 * 2 * 2  # players x rounds x holes
    assert {(r["player"], r["round"], r["hole"]) for r in holes if r["player"] == "P01"} == {
        ("P01", "1", "1"), ("P01", "1", "2"), ("P01", "2", "1"), ("P01", "2", "2"),
    }  # fmt: skip
    assert all(int(r["score"]) == int(r["player"][1:]) + int(r["hole"]) for r in holes)
    penalty = [r for r in rows if r["kind"] == "penalty"]
    assert penalty == [penalty[0]] and penalty[0]["penalty_points"] == "4" and penalty[0]["offence"] == "time"
    data = as_user("dora").get(f"/tournaments/{tournament.pk}/export/scores.json").json()["scores"]
    assert len(data) == len(rows) and data[0]["kind"] == "hole" and isinstance(data[0]["score"], int)
    standings = as_user("dora").get(f"/tournaments/{tournament.pk}/export/standings.json").json()
    assert standings["final"] is True and len(standings["standings"]) == 8


def test_the_exports_follow_the_release_and_privacy() -> None:
    tournament = event(8, rounds=2, holes=2, standings_release="after_round")
    play_round(tournament)  # round 1 in play, not finalized: not released to the public
    public = _csv(as_user(None).get(f"/tournaments/{tournament.pk}/export/scores.csv"))
    assert [r for r in public if r["kind"] == "hole"] == []
    staff = _csv(as_user("dora").get(f"/tournaments/{tournament.pk}/export/scores.csv"))
    assert len([r for r in staff if r["kind"] == "hole"]) == 16
    private = event(4, rounds=1, public=False)
    assert as_user(None).get(f"/tournaments/{private.pk}/export/standings.csv").status_code == 404
    assert as_user(None).get(f"/tournaments/{tournament.pk}/export/everything.csv").status_code == 404
    assert as_user(None).get(f"/tournaments/{tournament.pk}/export/standings.xls").status_code == 404


def test_the_seating_printout_lists_by_name_then_by_table() -> None:
    live = staffed_event()
    page = as_user(None).get(f"/tournaments/{live.tournament.pk}/rounds/1/print/seating/").content.decode()
    assert "Seating of round 1, by name" in page and "Seating of round 1, by table" in page
    names = re.findall(r'<span class="name">([^<]+)</span>', page)
    assert names == sorted(names) and len(names) == 8
    assert "print.css" in page


def test_a_seated_round_is_printed_for_the_staff_only() -> None:
    live = staffed_event(publish=False)
    url = f"/tournaments/{live.tournament.pk}/rounds/1/print/seating/"
    assert as_user(None).get(url).status_code == 404
    assert as_user("dora").get(url).status_code == 200


def test_score_slips_give_the_seat_order_and_who_deals_each_hole() -> None:
    live = staffed_event()
    slips = score_slips(live.round)
    table = Table.objects.get(pk=live.table.pk)
    slip = next(s for s in slips if s.table == table.number)
    players = list(table.seats.order_by("seat").values_list("entrant__name", flat=True))
    first = table.game.first_dealer
    assert slip.players == players and len(slip.holes) == 2
    assert slip.holes[0] == (1, players[first], players[(first + 1) % 4])
    assert slip.holes[1] == (2, players[(first + 1) % 4], players[(first + 2) % 4])
    url = f"/tournaments/{live.tournament.pk}/rounds/1/print/slips/"
    page = as_user("dora").get(url).content.decode()
    assert page.count('class="slip"') == 2 and "Plays first" in page and "Signed (" in page
    assert as_user(None).get(url).status_code == 302  # the slips are the staff's


def test_the_results_printout_and_the_charts() -> None:
    tournament = _finished()
    page = as_user(None).get(f"/tournaments/{tournament.pk}/print/results/").content.decode()
    assert "Final results" in page and "Countback" in page and page.count("<tr") == 9
    standings = as_user(None).get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert 'class="chart distribution"' in standings and "export/scores.csv" in standings
    # 16 round scores (8 players, 2 rounds): P0n scores 2n + 3 a round.
    assert sum(count for _low, _high, count in bins_of([2 * n + 3 for n in range(1, 9)] * 2)) == 16
    p01 = tournament.entrants.get(name="P01")
    player = as_user(None).get(f"/tournaments/{tournament.pk}/players/{p01.pk}/").content.decode()
    # The cumulative chart: two rounds of 5, so points at 5 and 10 (and the start at 0).
    assert "P01: total after each round" in player and "polyline" in player
    assert "P01 10" in player  # the chart's description: the total after the last round


@pytest.mark.parametrize("players", [8, 40])
def test_the_exports_and_printouts_read_a_fixed_number_of_queries(
    players: int, django_assert_max_num_queries
) -> None:
    tournament = _finished(players)
    client = as_user("dora")
    client.get(f"/tournaments/{tournament.pk}/standings/")  # warm the session and the cache
    for path in ("export/standings.csv", "export/scores.csv", "export/scores.json", "print/results/",
                 "rounds/1/print/seating/", "rounds/1/print/slips/"):  # fmt: skip
        with django_assert_max_num_queries(12):
            response = client.get(f"/tournaments/{tournament.pk}/{path}")
            if hasattr(response, "streaming_content"):
                b"".join(response.streaming_content)
        assert response.status_code == 200, path
    json.loads(client.get(f"/tournaments/{tournament.pk}/export/standings.json").content)
