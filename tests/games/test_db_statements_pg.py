"""The hand-written statements of `scoring.db_statements`, each checked by its effect in PostgreSQL.

The services call these on the hot path of recording a hole; here every statement runs on its own
and the rows are read back with the ORM. Skipped (with the reason) on other databases: the batch
of several statements in one round trip and the hole id taken from the sequence are PostgreSQL's.
"""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction

from scoring import db_batch, db_statements, services
from scoring.models import (
    ChangeAction,
    Game,
    GameChange,
    GameStatus,
    Hole,
    HoleEntry,
    IdempotentRequest,
    Seat,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="checks PostgreSQL statements (batched round trips, sequences, row locks): "
        "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/golfclub",
    ),
]


def _game(players: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Game:
    return services.create_game(players=list(players), ruleset="official")


def _hole(game: Game, number: int = 1, **fields: object) -> Hole:
    """A new hole of `game` inserted by `insert_hole` (its id taken from the sequence)."""
    found = db_statements.lock_game_for_hole({"id": game.pk}, None)
    assert found is not None
    hole = Hole(id=found.next_hole_id, game=game, number=number, dealer_seat=0, **fields)
    writes = db_statements.Writes()
    db_statements.insert_hole(hole, writes=writes)
    writes.send()
    return hole


@pytest.mark.django_db
def test_lock_game_for_hole_reads_the_game_its_seats_in_order_and_a_new_hole_id():
    game = _game()
    other = _game(("Dee", "Eve"))
    with transaction.atomic():
        by_id = db_statements.lock_game_for_hole({"id": game.pk}, None)
        by_token = db_statements.lock_game_for_hole({"edit_token": game.edit_token}, None)
    assert by_id is not None and by_token is not None
    for found in (by_id, by_token):
        assert found.game.pk == game.pk and found.game.version == game.version
        assert found.game.ruleset == game.ruleset and found.game.status == GameStatus.IN_PROGRESS
        assert [(s.seat, s.name, s.total) for s in found.seats] == [
            (0, "Ann", 0),
            (1, "Bob", 0),
            (2, "Cy", 0),
        ]
        assert all(isinstance(s, Seat) and s.game_id == game.pk for s in found.seats)
        assert found.seen_key_id is None
    if db_batch.sends_at_once():
        # Each call takes a fresh id from the hole table's sequence, never one in use.
        assert by_id.next_hole_id and by_token.next_hole_id and by_id.next_hole_id != by_token.next_hole_id
        assert not Hole.objects.filter(pk__in=[by_id.next_hole_id, by_token.next_hole_id]).exists()
    else:
        # Server-side binding sends one statement at a time: the hole's INSERT returns its id instead.
        assert by_id.next_hole_id is None and by_token.next_hole_id is None
    assert [s.name for s in db_statements.lock_game_for_hole({"id": other.pk}, None).seats] == ["Dee", "Eve"]


@pytest.mark.django_db
def test_lock_game_for_hole_finds_a_key_used_on_this_game_only_and_answers_none_for_no_game():
    game = _game()
    other = _game(("Dee", "Eve"))
    services.hole_record(game, entries={"Ann": 1, "Bob": 2, "Cy": 3}, ender=None, idempotency_key="k1")
    record = IdempotentRequest.objects.get(game=game, key="k1")
    assert db_statements.lock_game_for_hole({"id": game.pk}, "k1").seen_key_id == record.pk
    assert db_statements.lock_game_for_hole({"id": game.pk}, "k2").seen_key_id is None
    assert db_statements.lock_game_for_hole({"id": other.pk}, "k1").seen_key_id is None
    assert db_statements.lock_game_for_hole({"edit_token": "no-such-token"}, "k1") is None
    assert db_statements.lock_game_for_hole({"id": 0}, None) is None
    with pytest.raises(ValueError):
        db_statements.lock_game_for_hole({"title": "Friday"}, None)


@pytest.mark.django_db(transaction=True)
def test_lock_game_for_hole_holds_the_game_row_until_the_transaction_ends():
    game = _game()
    outcome: list[str] = []

    def try_lock() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(nowait=True).get(pk=game.pk)
            outcome.append("locked")
        except DatabaseError:
            outcome.append("refused")
        finally:
            connections.close_all()

    def from_another_connection() -> None:
        thread = threading.Thread(target=try_lock)
        thread.start()
        thread.join(timeout=30)

    with transaction.atomic():
        assert db_statements.lock_game_for_hole({"id": game.pk}, None) is not None
        from_another_connection()
    from_another_connection()
    assert outcome == ["refused", "locked"]


@pytest.mark.django_db
def test_insert_hole_writes_the_row_with_the_given_id_or_gets_one():
    game = _game()
    hole = _hole(game, ender=None, created_by="tester")
    stored = Hole.objects.get(pk=hole.pk)
    assert (stored.game_id, stored.number, stored.is_playoff, stored.dealer_seat) == (game.pk, 1, False, 0)
    assert stored.created_by == "tester" and stored.version == 1 and stored.created_at is not None
    # Without an id the INSERT runs at once (not queued) and answers the new id.
    writes = db_statements.Writes()
    second = Hole(game=game, number=2, dealer_seat=1)
    db_statements.insert_hole(second, writes=writes)
    assert second.pk is not None and writes.statements == []
    assert Hole.objects.get(pk=second.pk).number == 2


@pytest.mark.django_db
def test_insert_hole_entries_writes_every_entry_in_one_statement():
    game = _game()
    hole = _hole(game)
    seats = list(game.seats.order_by("seat"))
    entries = [
        HoleEntry(
            hole=hole, seat=seats[0], cards=[["2", "5", "K"], ["2", "6", "Q"]], grid_score=21, score=21
        ),
        HoleEntry(hole=hole, seat=seats[1], typed_total=7, grid_score=7, score=7),
        HoleEntry(
            hole=hole,
            seat=seats[2],
            typed_total=0,
            blocks_marked=1,
            grid_score=0,
            adjustments=[{"kind": "block", "reason": "r", "points": -10, "rule": "x"}],
            score=-10,
        ),
    ]
    writes = db_statements.Writes()
    db_statements.insert_hole_entries(entries, writes=writes)
    assert len(writes.statements) == 1 and not HoleEntry.objects.filter(hole=hole).exists()
    writes.send()
    stored = {e.seat.name: e for e in HoleEntry.objects.filter(hole=hole).select_related("seat")}
    assert stored["Ann"].cards == [["2", "5", "K"], ["2", "6", "Q"]] and stored["Ann"].typed_total is None
    assert (stored["Bob"].typed_total, stored["Bob"].score, stored["Bob"].cards) == (7, 7, None)
    assert stored["Cy"].blocks_marked == 1 and stored["Cy"].score == -10
    assert stored["Cy"].adjustments == [{"kind": "block", "reason": "r", "points": -10, "rule": "x"}]


@pytest.mark.django_db
def test_insert_game_change_runs_at_once_with_an_id_or_is_queued():
    game = _game()
    now = GameChange(game=game, action=ChangeAction.CREATE, hole_number=1, actor="a", after={"number": 1})
    db_statements.insert_game_change(now)
    assert now.pk is not None
    assert GameChange.objects.get(pk=now.pk).after == {"number": 1}
    queued = GameChange(game=game, action=ChangeAction.DELETE, hole_number=1, before={"number": 1})
    writes = db_statements.Writes()
    db_statements.insert_game_change(queued, writes=writes)
    assert GameChange.objects.filter(game=game, action=ChangeAction.DELETE).count() == 0
    writes.send()
    stored = GameChange.objects.get(game=game, action=ChangeAction.DELETE)
    assert (stored.hole_number, stored.before, stored.after, stored.is_playoff) == (
        1,
        {"number": 1},
        None,
        False,
    )


@pytest.mark.django_db
def test_insert_hole_key_stores_the_key_and_refuses_a_second_use_on_send():
    game = _game()
    hole = _hole(game)
    writes = db_statements.Writes()
    scope = f"game:{game.pk}"
    db_statements.insert_hole_key(game.pk, scope, "k1", "h" * 64, hole.pk, hole.number, writes=writes)
    writes.send()
    stored = IdempotentRequest.objects.get(game=game, key="k1")
    assert (stored.hole_id, stored.hole_number, stored.request_hash) == (hole.pk, hole.number, "h" * 64)
    assert (stored.scope, stored.method, stored.route, stored.status) == (scope, "POST", "game: hole", 201)
    db_statements.insert_hole_key(game.pk, scope, "k1", "x", None, 1, writes=writes)
    with pytest.raises(DatabaseError), transaction.atomic():
        writes.send()


@pytest.mark.django_db
def test_add_hole_scores_to_seat_totals_adds_each_seat_its_score_and_one_hole():
    game = _game()
    other = _game(("Dee", "Eve"))
    seats = {s.name: s for s in game.seats.all()}
    Seat.objects.filter(pk=seats["Ann"].pk).update(total=10, holes_played=2)
    writes = db_statements.Writes()
    db_statements.add_hole_scores_to_seat_totals(
        game.pk, {seats["Ann"].pk: 5, seats["Bob"].pk: -3, seats["Cy"].pk: 0}, writes=writes
    )
    writes.send()
    stored = {s.name: (s.total, s.holes_played) for s in game.seats.all()}
    assert stored == {"Ann": (15, 3), "Bob": (-3, 1), "Cy": (0, 1)}
    # Another game's seats are untouched.
    assert sorted(other.seats.values_list("total", "holes_played")) == [(0, 0), (0, 0)]


@pytest.mark.django_db
def test_update_game_after_hole_bumps_the_version_and_sets_the_fields_named():
    from django.utils import timezone

    game = _game()
    other = _game(("Dee", "Eve"))
    now = timezone.now()
    writes = db_statements.Writes()
    changes = {"status": GameStatus.FINISHED, "winners": ["Ann"], "updated_at": now, "ruleset_frozen_at": now}
    db_statements.update_game_after_hole(game.pk, changes, writes=writes)
    writes.send()
    stored = Game.objects.get(pk=game.pk)
    assert stored.version == game.version + 1
    assert (stored.status, stored.winners, stored.updated_at, stored.ruleset_frozen_at) == (
        GameStatus.FINISHED,
        ["Ann"],
        now,
        now,
    )
    assert stored.title == game.title and stored.ruleset == game.ruleset
    untouched = Game.objects.get(pk=other.pk)
    assert (untouched.version, untouched.status, untouched.ruleset_frozen_at) == (
        other.version,
        other.status,
        None,
    )


# What recording a hole changes in the game row (`db_statements.update_game_after_hole`).
_HOLE_CHANGES = {"version", "status", "winners", "updated_at", "ruleset_frozen_at"}


@pytest.mark.django_db
def test_no_index_of_the_game_table_holds_a_column_a_hole_changes() -> None:
    # Else every hole's UPDATE of the game row writes an entry into each index of the table
    # instead of being a HOT update (migration 0006).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indexrelid::regclass::text, a.attname FROM pg_index i "
            "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
            "WHERE i.indrelid = 'scoring_game'::regclass"
        )
        indexed = cursor.fetchall()
        # An expression or a partial index's condition would stop HOT updates as well: none here.
        cursor.execute(
            "SELECT count(*) FROM pg_index WHERE indrelid = 'scoring_game'::regclass "
            "AND (indexprs IS NOT NULL OR indpred IS NOT NULL)"
        )
        assert cursor.fetchone() == (0,)
        cursor.execute("SELECT reloptions FROM pg_class WHERE oid = 'scoring_game'::regclass")
        (options,) = cursor.fetchone()
    assert {column for _, column in indexed} >= {"id", "edit_token", "view_token", "owner_id"}
    assert [(index, column) for index, column in indexed if column in _HOLE_CHANGES] == []
    assert "fillfactor=70" in (options or [])


@pytest.mark.django_db
def test_a_hole_changes_only_columns_outside_every_index() -> None:
    game = _game()
    game.refresh_from_db()
    before = {field.attname: getattr(game, field.attname) for field in Game._meta.concrete_fields}
    services.hole_record(game, entries={"Ann": 1, "Bob": 2, "Cy": 3}, ender=None)
    game.refresh_from_db()
    changed = {name for name, value in before.items() if getattr(game, name) != value}
    assert changed and changed <= _HOLE_CHANGES
