"""Undo and redo against a model: any sequence of records, edits, deletes, undos and redos leaves the
holes a simple list-with-two-stacks would have, and stored totals equal to a recomputation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import services
from scoring.game_errors import NothingToUndo
from scoring.models import Game, Hole
from scoring.selectors import redo_target_change, undo_target_change

pytestmark = pytest.mark.django_db

OPS = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.integers(0, 30)),
        st.tuples(st.just("edit"), st.integers(0, 9), st.integers(0, 30)),
        st.tuples(st.just("delete"), st.integers(0, 9)),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
    ),
    max_size=14,
)


class Model:
    """The expected holes (ann's score per hole) with an undo stack and a redo stack."""

    def __init__(self) -> None:
        self.holes: list[int] = []
        self.undo: list[tuple[Any, ...]] = []
        self.redo: list[tuple[Any, ...]] = []

    def apply(self, op: tuple[Any, ...], forward: bool) -> None:
        kind = op[0]
        if kind == "create":
            if forward:
                self.holes.append(op[1])
            else:
                self.holes.pop()
        elif kind == "update":
            self.holes[op[1]] = op[3] if forward else op[2]
        elif forward:
            self.holes.pop(op[1])
        else:
            self.holes.insert(op[1], op[2])


def ann_scores(game: Game) -> list[int]:
    holes = Hole.objects.filter(game=game).order_by("number").prefetch_related("entries__seat")
    return [next(e.score for e in hole.entries.all() if e.seat.name == "ann") for hole in holes]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_it_undoes_and_redoes_like_two_stacks_and_keeps_totals_equal_to_a_recomputation(ops):
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official", "holes": None})
    model = Model()
    for op in ops:
        kind = op[0]
        if kind == "record":
            services.hole_record(game, entries={"ann": op[1], "bob": 1}, ender=None)
            op = ("create", op[1])
            model.apply(op, True)
            model.undo.append(op)
            model.redo.clear()
        elif kind in ("edit", "delete"):
            if not model.holes:
                continue
            index = op[1] % len(model.holes)
            hole = Hole.objects.get(game=game, number=index + 1)
            if kind == "edit":
                services.hole_update(
                    game, index + 1, expected_id=hole.pk, expected_version=hole.version,
                    entries={"ann": op[2], "bob": 1}, ender=None,
                )  # fmt: skip
                op = ("update", index, model.holes[index], op[2])
            else:
                services.hole_delete(game, index + 1, expected_id=hole.pk, expected_version=hole.version)
                op = ("delete", index, model.holes[index])
            model.apply(op, True)
            model.undo.append(op)
            model.redo.clear()
        elif kind == "undo":
            target = undo_target_change(game)
            if not model.undo:
                assert target is None
                with pytest.raises(NothingToUndo):
                    services.undo_last_change(game)
                continue
            services.undo_last_change(game, expected_change=target.pk)
            done = model.undo.pop()
            model.apply(done, False)
            model.redo.append(done)
        else:
            target = redo_target_change(game)
            if not model.redo:
                assert target is None
                continue
            services.redo_change(game, expected_change=target.pk)
            done = model.redo.pop()
            model.apply(done, True)
            model.undo.append(done)
        assert ann_scores(game) == model.holes, (ops, op)
    game.refresh_from_db()
    seats = dict(game.seats.values_list("name", "total"))
    assert seats == {"ann": sum(model.holes), "bob": len(model.holes)}
    assert sorted(Hole.objects.filter(game=game).values_list("number", flat=True)) == list(
        range(1, len(model.holes) + 1)
    )
