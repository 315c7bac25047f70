"""What `import_event` checks in a file before writing anything, and what it rebuilds (issue 31).

Each file is a real export, changed as the separate-query export of old wrote it while tables
scored (its checksum sealed again, as that export sealed what it read): a hole with no entries, a
hole missing a player's entry, a hole missing between two others, seat totals behind their holes.
Loaded as they were, the first made a table that could never score again (its next hole's number,
taken from the stored counts, was one already used: 409 "Another hole was recorded at the same
moment" forever, and "not playing this playoff hole" on a PUT of the empty hole). Now the
unrepairable ones are refused, naming the table, the hole and the player; the derived totals are
rebuilt from the entries, said on the command's output, and the table goes on scoring.
Two `import_event` runs of one file at once: the second is told in plain words.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from golfclub.core.backup import BackupError
from scoring import services as scoring_services
from scoring.models import Game, Hole
from tests.games.test_concurrency_pg import at_once
from tests.tournaments.helpers import event, event_in_play, play_round
from tournaments import services
from tournaments.backup import checksum, export_event
from tournaments.models import Table, Tournament
from tournaments.restore import import_event


def _sealed(document: dict[str, Any]) -> dict[str, Any]:
    return document | {"checksum": checksum(document["event"])}


def _game(document: dict[str, Any], table: int = 0) -> dict[str, Any]:
    return document["event"]["rounds"][0]["tables"][table]["game"]


def _exported_mid_round() -> dict[str, Any]:
    """A real export of 8 players at two tables, three holes played at each, then the event gone."""
    tournament = event_in_play(8, rounds=1, holes=9)
    for table in Table.objects.filter(round__tournament=tournament).select_related("game"):
        names = list(table.game.seats.order_by("seat").values_list("name", flat=True))
        for hole in (1, 2, 3):
            scoring_services.hole_record(
                table.game,
                entries={name: hole + seat for seat, name in enumerate(names)},
                ender=None,
                capabilities={"view", "score"},
            )
    document = export_event(tournament.pk)
    services.delete_tournament(tournament)
    return document


def _totals_after_two_holes(game: dict[str, Any]) -> None:
    """The seats as the old export read them when hole 3 was being saved: after two holes."""
    for seat in game["seats"]:
        seat["total"] = sum(
            e["score"] for h in game["holes"][:2] for e in h["entries"] if e["seat"] == seat["id"]
        )
        seat["holes_played"] = 2
    game["version"] -= 1


@pytest.mark.django_db
def test_a_game_row_older_than_its_holes_gets_its_version_moved_on() -> None:
    document = _exported_mid_round()
    game = _game(document)
    # The old export read the game's row, then hole 3 was saved, then the seats, entries, holes.
    game["version"] -= 1
    game["updated_at"] = game["holes"][1]["updated_at"]
    notes: list[str] = []
    import_event(_sealed(document), notes)
    assert len(notes) == 1 and notes[0].startswith("Round 1, table 1: "), notes
    assert "1 hole saved after the game's version" in notes[0]
    assert Game.objects.get(pk=game["id"]).version == game["version"] + 1
    assert Game.objects.get(pk=_game(document, 1)["id"]).version == _game(document, 1)["version"]


def _refused(document: dict[str, Any]) -> BackupError:
    with pytest.raises(BackupError) as refused:
        import_event(_sealed(document))
    assert not Tournament.objects.exists() and not Game.objects.exists()  # nothing written
    return refused.value


@pytest.mark.django_db
def test_it_refuses_a_hole_with_no_entries_naming_the_table_and_the_hole() -> None:
    document = _exported_mid_round()
    game = _game(document)
    _totals_after_two_holes(game)
    game["holes"][2]["entries"] = []  # saved between the old export's entries and holes queries
    refused = _refused(document)
    assert refused.where == "event.rounds[0].tables[0].game.holes[2].entries"
    assert refused.message.startswith("Round 1, table 1: hole 3 has no entries"), refused.message


@pytest.mark.django_db
def test_it_refuses_a_hole_missing_a_players_entry() -> None:
    document = _exported_mid_round()
    game = _game(document, 1)
    dropped = game["holes"][1]["entries"].pop(2)
    name = next(s["name"] for s in game["seats"] if s["id"] == dropped["seat"])
    refused = _refused(document)
    assert refused.where == "event.rounds[0].tables[1].game.holes[1].entries"
    assert (
        refused.message == f"Round 1, table 2: hole 2 has no entry for {name}: every player plays every hole."
    )


@pytest.mark.django_db
def test_it_refuses_hole_numbers_with_a_gap() -> None:
    document = _exported_mid_round()
    game = _game(document)
    del game["holes"][1]
    refused = _refused(document)
    assert refused.where == "event.rounds[0].tables[0].game.holes"
    assert refused.message == "Round 1, table 1: hole 2 is missing: the file holds holes 1, 3."
    twice = _exported_mid_round()
    _game(twice)["holes"][2]["number"] = 2
    refused = _refused(twice)
    assert refused.where == "event.rounds[0].tables[0].game.holes[1].number"
    assert "hole 2 is in the file twice" in refused.message


@pytest.mark.django_db(transaction=True)
def test_totals_behind_their_holes_are_rebuilt_said_and_the_table_goes_on_scoring(tmp_path: Path) -> None:
    document = _exported_mid_round()
    honest_version = _game(document)["version"]
    _totals_after_two_holes(_game(document))
    path = tmp_path / "lagging.json"
    path.write_text(json.dumps(_sealed(document)))
    said = io.StringIO()
    call_command("import_event", str(path), stdout=io.StringIO(), stderr=said)
    assert (
        "Round 1, table 1: event.rounds[0].tables[0].game: rebuilt from its holes' entries" in said.getvalue()
    )
    game = Game.objects.get(pk=_game(document)["id"])
    seats = list(game.seats.order_by("seat"))
    assert [s.holes_played for s in seats] == [3, 3, 3, 3]
    assert [s.total for s in seats] == [sum(h + seat for h in (1, 2, 3)) for seat in range(4)]
    assert game.version == honest_version  # moved on from what the file said: no old ETag matches
    names = [s.name for s in seats]
    phone = APIClient()
    url = f"/api/v1/games/{game.edit_token}/holes/"
    assert phone.post(url, {"entries": dict.fromkeys(names, 2)}, format="json").status_code == 201
    hole = Hole.objects.get(game=game, number=4, is_playoff=False)  # the table may correct its last hole
    corrected = phone.put(
        f"{url}4/",
        {"entries": dict.fromkeys(names, 5), "ender": None, "reason": "typo"},
        format="json",
        HTTP_IF_MATCH=f'"hole-{hole.pk}-v{hole.version}"',
    )
    assert corrected.status_code == 200, corrected.content
    # A file whose checksum does not match what it holds is still refused as changed or damaged.
    damaged = copy.deepcopy(document)
    damaged["event"]["tournament"]["name"] = "Changed"
    with pytest.raises(BackupError, match="changed or damaged"):
        import_event(damaged | {"checksum": document["checksum"]})


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL: two connections at once")
def test_two_import_event_runs_of_one_file_at_once_load_it_once_and_say_so_in_words(tmp_path: Path) -> None:
    tournament = event(8, rounds=1, holes=2)
    play_round(tournament)
    path = tmp_path / "event.json"
    call_command("export_event", str(tournament.pk), output=str(path), stderr=io.StringIO())

    def run() -> str:
        out = io.StringIO()
        try:
            call_command("import_event", str(path), stdout=out, stderr=io.StringIO())
        except CommandError as refused:
            return str(refused)
        return out.getvalue()

    for trial in range(6):  # the database's own words came out in most trials before
        services.delete_tournament(Tournament.objects.get(pk=tournament.pk))
        get_user_model().objects.filter(username="dora").delete()
        first, second = sorted(at_once(run, run), key=lambda said: not said.startswith("Imported"))
        assert first.startswith("Imported Spring Open as tournament"), (trial, first, second)
        assert second.startswith("Nothing was imported."), (trial, second)
        assert "duplicate key" not in second and "constraint" not in second, (trial, second)
        assert (
            "is being imported right now by another import_event" in second
            or "already in this database" in second
        ), (trial, second)
        assert Tournament.objects.count() == 1 and Game.objects.count() == 2
