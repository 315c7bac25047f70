"""The standings' shared-cache entry as a head and its parts (`tournaments.standings_store`): a part
another app process replaced is never answered, this process's memo answers only the parts the
shared head names, and after a hole only the changed parts are written."""

from __future__ import annotations

import pickle

import pytest
from django.core.cache import cache

from scoring import services as scoring_services
from tests.tournaments.helpers import event
from tests.tournaments.test_standings import record, seat
from tournaments import standings_store
from tournaments.models import Table, Tournament
from tournaments.standings import cached_standings, compute_standings, standings_cache_key

pytestmark = pytest.mark.django_db


def played(players: int = 12) -> Tournament:
    """An event of two finalized rounds, its standings cached."""
    tournament = event(players, rounds=2, holes=2)
    for _number in (1, 2):
        round_ = seat(tournament)
        record(tournament, round_, lambda r, h, name: (r * 7 + h * 3 + int(name[1:])) % 9 - 2)
    tournament.refresh_from_db()
    assert cached_standings(tournament) == compute_standings(tournament)
    return tournament


def corrected(tournament: Tournament) -> None:
    """Round 1's first table's hole 1 corrected (every score 5 more)."""
    table = Table.objects.filter(round__tournament=tournament, round__number=1).select_related("game")[0]
    hole = table.game.holes.get(number=1)
    entries = {name: score + 5 for name, score in hole.entries.values_list("seat__name", "score")}
    scoring_services.hole_update(table.game, 1, expected_version=None, entries=entries, ender=None)
    tournament.refresh_from_db()


def test_a_part_another_process_replaced_is_never_answered() -> None:
    tournament = played()
    key = standings_cache_key(tournament, live=True)
    head, parts = standings_store.load(key)
    assert head and parts.keys() == head["parts"].keys()
    standings_store.forget()  # another process: nothing of this entry in its memo
    cache.set(f"{key}:c0", b"another writer's chunk")
    assert standings_store.load(key) == ({}, {})
    corrected(tournament)
    assert cached_standings(tournament) == compute_standings(tournament)


def test_the_memo_answers_only_the_parts_the_shared_head_names() -> None:
    tournament = played()
    key = standings_cache_key(tournament, live=True)
    head, parts = standings_store.load(key)
    cache.delete_many([f"{key}:{name}" for name in parts])
    assert standings_store.load(key) == (head, parts)  # every part named is in this process's memo
    renamed = {**head["parts"], "c0": standings_store.digest(b"a chunk this process never saw")}
    cache.set(key, pickle.dumps({**head, "parts": renamed}))
    assert standings_store.load(key) == ({}, {})


def test_after_a_hole_only_the_changed_parts_are_written(monkeypatch) -> None:
    tournament = played(40)
    key = standings_cache_key(tournament, live=True)
    written: list[list[str]] = []
    upsert = standings_store._upsert
    monkeypatch.setattr(
        standings_store, "_upsert", lambda values: written.append(list(values)) or upsert(values)
    )
    corrected(tournament)
    assert cached_standings(tournament) == compute_standings(tournament)
    _head, parts = standings_store.load(key)
    assert written and key in written[0]
    assert f"{key}:s" not in written[0] and f"{key}:r2" not in written[0]  # unchanged: not sent again
    assert len(written[0]) < len(parts) + 1
