"""A round's tables created in bulk (`create_managed_games`, `golfclub.core.bulk_insert`; issue 34)
are the same rows `create_game` makes one by one: every field but the ids, tokens and times
equal, tokens unique and unguessable, nothing written when one game is bad."""

from __future__ import annotations

import pytest
from django.db import connection

from golfclub.core.bulk_insert import insert_rows
from scoring import services
from scoring.game_errors import GameError
from scoring.models import Game, Player, Seat

pytestmark = pytest.mark.django_db

VARYING = {"id", "edit_token", "view_token", "created_at", "updated_at"}


def fields_of(game: Game) -> dict:
    return {
        f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields if f.attname not in VARYING
    }


def seats_of(game: Game) -> list[tuple]:
    return list(
        game.seats.order_by("seat").values_list("seat", "name", "name_key", "player__name", "player__owner")
    )


def test_the_bulk_games_equal_the_ones_create_game_makes() -> None:
    tables = [["Ann", "Bob", "Cy", "Dee"], ["Éva", "Fred", "Gus"]]
    one_by_one = [
        services.create_game(
            players=names,
            ruleset="official",
            first_dealer=1,
            title=f"T{n}",
            managed_by="t.table",
            managed_label=f"L{n}",
        )
        for n, names in enumerate(tables)
    ]
    ids = services.create_managed_games(
        [
            services.NewGame(players=names, first_dealer=1, title=f"T{n}", managed_label=f"L{n}")
            for n, names in enumerate(tables)
        ],
        ruleset="official",
        managed_by="t.table",
    )
    in_bulk = [Game.objects.get(pk=pk) for pk in ids]
    for single, bulk in zip(one_by_one, in_bulk, strict=True):
        assert fields_of(bulk) == fields_of(single)
        assert seats_of(bulk) == seats_of(single)
        assert len(bulk.edit_token) == len(single.edit_token) == 32
    tokens = [t for g in Game.objects.all() for t in (g.edit_token, g.view_token)]
    assert len(set(tokens)) == len(tokens)  # a token per row, never one default shared


def test_a_bad_game_in_the_batch_writes_nothing() -> None:
    before = (Game.objects.count(), Seat.objects.count(), Player.objects.count())
    with pytest.raises(GameError) as caught:
        services.create_managed_games(
            [
                services.NewGame(players=["Ann", "Bob"], first_dealer=0),
                services.NewGame(players=["Cy", "Cy"], first_dealer=0),  # the same name twice
            ],
            ruleset="official",
            managed_by="t.table",
        )
    assert caught.value.problems
    assert (Game.objects.count(), Seat.objects.count(), Player.objects.count()) == before


def test_insert_rows_answers_the_ids_in_order_and_checks_its_input() -> None:
    ids = insert_rows(Player, 3, per_row={"name": ["A", "B", "C"], "name_key": ["a", "b", "c"]})
    assert [Player.objects.get(pk=pk).name for pk in ids] == ["A", "B", "C"]
    assert insert_rows(Player, 0, per_row={"name": [], "name_key": []}) == []
    with pytest.raises(ValueError, match="2 values for 3 rows"):
        insert_rows(Player, 3, per_row={"name": ["A", "B"]})
    with pytest.raises(ValueError, match="no field colour"):
        insert_rows(Player, 1, per_row={"colour": ["red"]})


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the unnest path is PostgreSQL's")
def test_one_statement_inserts_every_row(django_assert_num_queries) -> None:
    with django_assert_num_queries(1):
        insert_rows(
            Player,
            500,
            per_row={"name": [f"P{n}" for n in range(500)], "name_key": [f"p{n}" for n in range(500)]},
        )
