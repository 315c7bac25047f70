"""Backup and restore of one event (`manage.py export_event` / `import_event`), on PostgreSQL.

The round trip: a realistic event (three rounds, a correction, an undo and a redo in a game, a
disputed table finalized by override, penalties with a rescind, rulings, an answered call and an
open one, a drop, an extension, an Idempotency-Key) is exported, deleted with its games and its
staff's accounts, imported, and read again: the standings, the penalty ledger, the rulings, every
game's history and scoreboard and the event log are identical, the table links still work, and
the file exported again is the same file.
"""

from __future__ import annotations

import copy
import io
import json
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from golfclub.core.backup import BackupError
from scoring import services as scoring_services
from scoring.models import Game, GameChange, Hole, HoleEntry, Seat
from tests.games.test_concurrency_pg import at_once
from tests.tournaments.api.conftest import client_of, with_staff
from tests.tournaments.helpers import event, play_round, user
from tournaments import services
from tournaments.backup import checksum, export_event
from tournaments.models import (
    Entrant,
    EventLogEntry,
    OfficialCall,
    Penalty,
    Round,
    Ruling,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.restore import import_event, parse_backup
from tournaments.services.calls import answer_call, call_official, extend_table
from tournaments.standings import compute_standings

STAFF = ("dora", "cora", "olive")
#: What the second of two imports of one file at once is told (while the first runs, or after).
PLAIN_REFUSAL = re.compile(r"is being imported right now by another import_event|already in this database")
ROWS = (Tournament, Entrant, Round, Table, TableSeat, Penalty, Ruling, OfficialCall, EventLogEntry)
GAME_ROWS = (Game, Seat, Hole, HoleEntry, GameChange)


def _names(table: Table) -> list[str]:
    return list(table.game.seats.order_by("seat").values_list("name", flat=True))


def _tables(tournament: Tournament, number: int) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("game")
        .order_by("number")
    )


def _play(table: Table, holes: int, *, key: str | None = None) -> None:
    for hole in range(1, holes + 1):
        scoring_services.hole_record(
            table.game,
            entries={name: int(name[1:]) + hole for name in _names(table)},
            ender=None,
            actor="scorer",
            capabilities={"view", "score"},
            idempotency_key=key if hole == 1 else None,
            request_hash="a" * 64 if key and hole == 1 else "",
        )


def realistic_event() -> Tournament:
    """Ten players, three rounds: two finalized (one by override), the third in play."""
    dora, olive = user("dora"), user("olive")
    tournament = with_staff(event(10, rounds=3, holes=3))
    for entrant in tournament.entrants.order_by("pk")[:4]:
        services.set_checked_in(tournament, entrant.pk, True, actor=dora)
    play_round(tournament)
    services.finalize_round(tournament, 1, actor=dora)

    services.seat_next_round(tournament, actor=dora)
    services.publish_round(tournament, 2, actor=dora)
    first, *others = _tables(tournament, 2)
    _play(first, 3, key="retry-me")
    names = _names(first)
    # A correction with its reason, undone, then redone: the history holds all three.
    scoring_services.hole_update(
        first.game, 2, expected_version=None, entries={n: 9 for n in names}, ender=None, reason="typo"
    )
    scoring_services.undo_last_change(first.game, reason="wrong hole")
    scoring_services.redo_change(first.game, reason="it was right")
    services.confirm_table(first.game, names[0])
    call = call_official(first, called_by=names[1], note="the stock ran out")
    ruling = services.record_ruling(
        tournament, situation="stock_exhausted", facts={}, round_number=2, table=1, hole=2, actor=olive
    )
    answer_call(tournament, call.pk, ruling=ruling, actor=olive)
    for table in others:
        _play(table, 3)
    services.confirm_table(others[0].game, _names(others[0])[1])
    services.confirm_table(others[1].game, _names(others[1])[0], disagree=True, note="hole 3 is wrong")
    extend_table(tournament, others[1].pk, 5, reason="late start", actor=dora)
    p01, p02 = tournament.entrants.get(name="P01"), tournament.entrants.get(name="P02")
    services.give_penalty(tournament, player=p01.pk, offence="illegal_move", round_number=2, actor=olive)
    given = services.give_penalty(
        tournament, player=p01.pk, offence="illegal_move", round_number=2, actor=olive
    )
    services.rescind_penalty(tournament, given.pk, reason="appeal upheld", actor=dora)
    services.record_ruling(
        tournament, situation="over_time_limit", facts={"seconds_over": 90}, player=p02.pk, actor=olive
    )
    services.finalize_round(
        tournament, 2, override=True, reason="table 3 settled by the director", actor=dora
    )
    services.drop_entrant(tournament, tournament.entrants.get(name="P10").pk, reason="left early", actor=dora)

    services.seat_next_round(tournament, actor=dora)
    services.publish_round(tournament, 3, actor=dora)
    in_play = _tables(tournament, 3)
    _play(in_play[0], 1)
    call_official(in_play[1], called_by=_names(in_play[1])[0], note="a card was exposed")
    return Tournament.objects.get(pk=tournament.pk)


def _seen(tournament_id: int, tokens: list[str]) -> dict[str, Any]:
    """Everything people read of the event, as the API and the standings answer it."""
    dora = client_of("dora")
    base = f"/api/v1/tournaments/{tournament_id}/"
    tournament = Tournament.objects.get(pk=tournament_id)
    seen: dict[str, Any] = {
        "standings": compute_standings(tournament),
        "released": compute_standings(tournament, live=False),
        "api_standings": dora.get(base + "standings/").json(),
        "ledger": dora.get(base + "penalties/").json(),
        "rulings": dora.get(base + "rulings/").json(),
        "log": [
            (
                e.round_number,
                e.action,
                e.actor.username if e.actor else None,
                e.reason,
                e.details,
                e.created_at,
            )
            for e in EventLogEntry.objects.filter(tournament_id=tournament_id).order_by("pk")
        ],
    }
    for token in tokens:
        seen[f"history {token}"] = client_of(None).get(f"/api/v1/games/{token}/history/").json()
        seen[f"scoreboard {token}"] = client_of(None).get(f"/api/v1/games/{token}/scoreboard/").json()
    return seen


def _wipe(tournament: Tournament) -> None:
    """The crash: the event, its games and its staff's accounts are gone."""
    services.delete_tournament(tournament)
    get_user_model().objects.filter(username__in=STAFF).delete()
    assert not Game.objects.exists() and not Tournament.objects.exists()


def _counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in (*ROWS, *GAME_ROWS, get_user_model())}


def _without_stamp(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k != "exported_at"}


def _resealed(document: dict[str, Any]) -> dict[str, Any]:
    """A document edited by hand with its checksum made to match again."""
    return document | {"checksum": checksum(document["event"])}


@pytest.mark.django_db(transaction=True)
def test_it_restores_an_event_with_identical_standings_ledger_history_and_log(tmp_path: Path) -> None:
    tournament = realistic_event()
    tokens = list(
        Table.objects.filter(round__tournament=tournament).values_list("game__edit_token", flat=True)
    )
    before = _seen(tournament.pk, tokens)
    confirmations = _confirmations(tournament)
    assert any(version for _pk, version, _reason in confirmations)  # what finalize counts
    assert any(reason for _pk, _version, reason in confirmations)  # a round finalized by override
    assert before["ledger"]["penalties"] and before["rulings"]["rulings"] and len(before["log"]) > 8
    actions = {change["action"] for t in tokens for change in before[f"history {t}"]}
    assert {"create", "update", "undo", "redo"} <= actions, actions
    path = tmp_path / "spring-open.json"
    call_command("export_event", str(tournament.pk), output=str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds the tables' link tokens
    exported = json.loads(path.read_text())

    _wipe(tournament)
    said = io.StringIO()
    call_command("import_event", str(path), stderr=said)
    assert said.getvalue() == ""  # nothing to rebuild in a file written from one snapshot

    assert _seen(tournament.pk, tokens) == before
    assert _confirmations(tournament) == confirmations
    # The staff's accounts were created again, without a password (an administrator sets one).
    restored = get_user_model().objects.get(username="olive")
    assert not restored.has_usable_password()
    # Exported again, it is the same file (but for the time it was written).
    assert _without_stamp(export_event(tournament.pk)) == _without_stamp(exported)
    # The phones' links still score, and new rows take ids after the restored ones.
    table = _tables(tournament, 3)[0]
    scoring_services.hole_record(
        table.game, entries={n: 5 for n in _names(table)}, ender=None, capabilities={"view", "score"}
    )
    assert client_of(None).get(f"/api/v1/games/{table.game.edit_token}/").status_code == 200
    services.give_penalty(tournament, player=tournament.entrants.get(name="P03").pk, offence="cheating")
    fresh = services.create_tournament(director=user("dora"), name="Autumn Open", ruleset="official", seed=1)
    assert fresh.pk > tournament.pk
    # A phone retrying its request with the key it sent before the crash gets the first answer.
    retried = _tables(tournament, 2)[0]
    with pytest.raises(scoring_services.IdempotentReplay) as replay:
        _play(retried, 1, key="retry-me")
    assert replay.value.record.hole_number == 1
    assert replay.value.record.hole_id == Hole.objects.get(game=retried.game, number=1).pk
    assert Hole.objects.filter(game=retried.game).count() == 3


def _confirmations(tournament: Tournament) -> list[tuple[int, int | None, str]]:
    """Each table's confirmed scorecard version and override reason (no API shows them)."""
    return list(
        Table.objects.filter(round__tournament=tournament)
        .order_by("pk")
        .values_list("pk", "confirmed_game_version", "override_reason")
    )


@pytest.mark.django_db(transaction=True)
def test_it_refuses_an_event_the_database_holds_and_writes_nothing() -> None:
    tournament = realistic_event()
    document = export_event(tournament.pk)
    counts = _counts()
    with pytest.raises(BackupError, match="already in this database"):
        import_event(document)
    assert _counts() == counts

    # Only a table's link token is taken (another game has it): refused too, before any write.
    token = document["event"]["rounds"][0]["tables"][0]["game"]["edit_token"]
    _wipe(tournament)
    scoring_services.create_game(players=["Ann", "Bob"], tokens=(token, "x" * 32))
    counts = _counts()
    with pytest.raises(BackupError, match="game link tokens") as refused:
        import_event(document)
    assert _counts() == counts
    assert not get_user_model().objects.filter(username__in=STAFF).exists()
    assert refused.value.where == "game link tokens"


@pytest.mark.django_db
def test_it_refuses_a_cut_short_or_damaged_file_and_writes_nothing(tmp_path: Path) -> None:
    tournament = with_staff(event(6, rounds=2, holes=2))
    play_round(tournament)
    text = json.dumps(export_event(tournament.pk))
    _wipe(tournament)
    counts = _counts()

    with pytest.raises(BackupError, match="cut short or damaged"):
        import_event(parse_backup(text[: len(text) // 2]))
    truncated = tmp_path / "truncated.json"
    truncated.write_text(text[:-40])
    with pytest.raises(CommandError, match=r"Nothing was imported.*cut short"):
        call_command("import_event", str(truncated))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CommandError, match="not UTF-8"):
        call_command("import_event", str(binary))

    # A score changed: the checksum no longer matches.
    damaged = json.loads(text)
    damaged["event"]["rounds"][0]["tables"][0]["game"]["holes"][0]["entries"][0]["score"] += 10
    with pytest.raises(BackupError, match="checksum"):
        import_event(damaged)
    # Changed with the checksum made to match: the score no longer is what its grid score and
    # adjustments make, named with its table, hole and player.
    with pytest.raises(
        BackupError, match=r"Round 1, table 1: P\d\d's score in hole 1 is \d+, but"
    ) as mismatch:
        import_event(_resealed(damaged))
    assert mismatch.value.where == "event.rounds[0].tables[0].game.holes[0].entries[0].score"
    # A wrong value is named by its place in the file.
    wrong = json.loads(text)
    wrong["event"]["rounds"][0]["tables"][1]["game"]["holes"][1]["number"] = "two"
    with pytest.raises(BackupError) as named:
        import_event(_resealed(wrong))
    assert named.value.where == "event.rounds[0].tables[1].game.holes[1].number"
    missing = json.loads(text)
    del missing["event"]["entrants"][2]["status"]
    with pytest.raises(BackupError) as named:
        import_event(_resealed(missing))
    assert named.value.where == "event.entrants[2].status"
    # A seat pointing at a player of another event (an id the file does not hold).
    foreign = json.loads(text)
    foreign["event"]["rounds"][0]["tables"][0]["seats"][0]["entrant"] = 10**6
    with pytest.raises(BackupError, match="not one of the event's players"):
        import_event(_resealed(foreign))
    assert _counts() == counts


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"version": 2}, "version"),
        ({"version": "1"}, "version"),
        ({"version": True}, "version"),
        ({"format": "something-else"}, "format"),
    ],
)
def test_it_refuses_another_format_or_version(change: dict[str, Any], where: str) -> None:
    tournament = event(4, rounds=1, holes=1)
    document = export_event(tournament.pk) | change
    services.delete_tournament(tournament)
    counts = _counts()
    with pytest.raises(BackupError) as refused:
        import_event(document)
    assert refused.value.where == where
    assert _counts() == counts
    with pytest.raises(BackupError, match="an object is expected"):
        import_event([document])


@pytest.mark.django_db
def test_it_refuses_a_ruleset_the_engine_cannot_read() -> None:
    tournament = event(4, rounds=1, holes=1)
    document = export_event(tournament.pk)
    services.delete_tournament(tournament)
    document["event"]["tournament"]["ruleset"] = {"preset": "no-such-preset"}
    with pytest.raises(BackupError) as refused:
        import_event(_resealed(document))
    assert refused.value.where == "event.tournament.ruleset"
    huge = export_event(event(4, rounds=1, holes=1).pk)
    huge["event"]["entrants"][0]["id"] = 10**30
    with pytest.raises(BackupError) as refused:
        import_event(_resealed(huge))
    assert refused.value.where == "event.entrants[0].id"
    with pytest.raises(BackupError, match="nests its values too deeply"):
        parse_backup("[" * 100_000)
    assert Tournament.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL: two connections at once")
def test_it_loads_the_event_once_when_two_imports_of_one_file_run_at_once() -> None:
    tournament = with_staff(event(6, rounds=1, holes=2))
    play_round(tournament)
    document = export_event(tournament.pk)
    _wipe(tournament)

    def load() -> Any:
        try:
            return import_event(copy.deepcopy(document)).pk
        except BackupError as refused:
            return refused

    results = at_once(load, load)
    assert sorted(type(r).__name__ for r in results) == ["BackupError", "int"], results
    # The second is told in plain words, never the database's "duplicate key value violates ...".
    (refused,) = [r for r in results if isinstance(r, BackupError)]
    assert PLAIN_REFUSAL.search(str(refused)) and "duplicate key" not in str(refused), refused
    assert Tournament.objects.count() == 1 and Game.objects.count() == 2
    assert get_user_model().objects.filter(username__in=STAFF).count() == 3
    assert _without_stamp(export_event(tournament.pk)) == _without_stamp(document)


@pytest.mark.django_db
def test_it_names_a_tournament_that_does_not_exist() -> None:
    with pytest.raises(CommandError, match="no tournament 999999"):
        call_command("export_event", "999999")


@pytest.mark.django_db
def test_it_exports_in_a_fixed_number_of_queries(django_assert_num_queries) -> None:
    small = event(4, rounds=1, holes=1)
    play_round(small)
    big = with_staff(event(12, rounds=2, holes=2))
    play_round(big)
    services.finalize_round(big, 1)
    play_round(big)
    with django_assert_num_queries(17) as small_queries:  # 17 since issue 34: the seating plan
        export_event(small.pk)
    with django_assert_num_queries(len(small_queries.captured_queries)):
        document = export_event(big.pk)
    assert len(document["event"]["rounds"]) == 2 and len(document["event"]["entrants"]) == 12
    assert copy.deepcopy(document)["checksum"] == checksum(document["event"])
