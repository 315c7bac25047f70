"""Stored totals always equal a recomputation from the entries, after any sequence of changes.

A hypothesis state machine records, edits, deletes and undoes holes on the real database and
checks after every step that each seat's stored total and holes played equal the engine's
`sum_totals` over its entries (and the database's own sum), and that the holes match a plain
Python model (undo pops the model's previous state).
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.db.models import Count, Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scoring import selectors, services
from scoring.models import Game, HoleEntry, Seat
from scoring.rules import PlayedHole, sum_totals

from .conftest import GRID_3, GRID_21

PLAYERS = ("ann", "bob", "cy")
# An entry: a typed total the official rules allow (-8 to 60), or one of two grids whose score the
# engine gives (3 and 21).
ENTRY = st.one_of(st.integers(min_value=-8, max_value=60), st.sampled_from([GRID_3, GRID_21]))
GRID_SCORES = {str(GRID_3): 3, str(GRID_21): 21}


def _points(value) -> int:
    return value if isinstance(value, int) else GRID_SCORES[str(value)]


class GameMachine(RuleBasedStateMachine):
    """A game under random changes, with a model of its holes (lists of scores in seat order)."""

    HOLES: int | None = None  # the match length

    @initialize()
    def start(self) -> None:
        # Adds stop at the match length, so every add is legal. At most one grid per hole (the
        # others typed), so the deck check never refuses an add.
        self.game = services.create_game(
            players=list(PLAYERS), ruleset={"preset": "official", "holes": self.HOLES}
        )
        self.holes: list[list[int]] = []
        self.undo_stack: list[list[list[int]]] = []

    def _entries(self, values: list) -> dict:
        return dict(zip(PLAYERS, values, strict=True))

    def _push(self) -> None:
        self.undo_stack.append([list(h) for h in self.holes])

    @precondition(lambda self: self.HOLES is None or len(self.holes) < self.HOLES)
    @rule(values=st.lists(ENTRY, min_size=3, max_size=3))
    def add(self, values: list) -> None:
        first_grid = next((i for i, v in enumerate(values) if not isinstance(v, int)), None)
        values = [v if isinstance(v, int) or i == first_grid else 5 for i, v in enumerate(values)]
        self._push()
        services.hole_record(self.game, entries=self._entries(values), ender=None, actor="prop")
        self.holes.append([_points(v) for v in values])

    @precondition(lambda self: self.holes)
    @rule(data=st.data(), values=st.lists(st.integers(min_value=-8, max_value=60), min_size=3, max_size=3))
    def edit(self, data, values: list[int]) -> None:
        number = data.draw(st.integers(min_value=1, max_value=len(self.holes)))
        version = selectors.hole_detail(self.game, number).version
        self._push()
        services.hole_update(
            self.game, number, expected_version=version, entries=self._entries(values), ender=None
        )
        self.holes[number - 1] = list(values)

    @precondition(lambda self: self.holes)
    @rule(data=st.data())
    def delete(self, data) -> None:
        number = data.draw(st.integers(min_value=1, max_value=len(self.holes)))
        self._push()
        services.hole_delete(self.game, number, actor="prop")
        del self.holes[number - 1]

    @precondition(lambda self: self.undo_stack)
    @rule()
    def undo(self) -> None:
        services.undo_last_change(self.game, actor="prop")
        self.holes = self.undo_stack.pop()

    @invariant()
    def stored_totals_equal_a_recomputation(self) -> None:
        # The SQL fast path (a CASE update of seat totals) against the engine's one totals function
        # over the stored entries, and against the database's own sum.
        seats = list(Seat.objects.filter(game=self.game))
        holes: dict[tuple[bool, int], dict[str, int]] = defaultdict(dict)
        for seat_id, is_playoff, number, score in HoleEntry.objects.filter(hole__game=self.game).values_list(
            "seat_id", "hole__is_playoff", "hole__number", "score"
        ):
            holes[(is_playoff, number)][str(seat_id)] = score
        engine = sum_totals(
            [str(seat.pk) for seat in seats],
            [PlayedHole(number, scores, playoff) for (playoff, number), scores in holes.items()],
        )
        for seat in seats:
            line = engine[str(seat.pk)]
            assert (seat.total, seat.holes_played, seat.playoff_total) == (
                line.total,
                line.holes_played,
                line.playoff_total,
            )
        sums = {
            row["seat_id"]: (row["total"], row["count"])
            for row in HoleEntry.objects.filter(hole__game=self.game, hole__is_playoff=False)
            .values("seat_id")
            .annotate(total=Sum("score"), count=Count("id"))
        }
        for seat in seats:
            assert (seat.total, seat.holes_played) == sums.get(seat.pk, (0, 0))

    @invariant()
    def stored_status_and_winners_equal_the_engines(self) -> None:
        game = Game.objects.get(pk=self.game.pk)
        board = selectors.scoreboard(game)
        assert (game.status, list(game.winners)) == (board.status, list(board.winners))

    @invariant()
    def holes_match_the_model(self) -> None:
        board = selectors.scoreboard(self.game)
        assert [h.number for h in board.holes] == list(range(1, len(self.holes) + 1))
        assert [[e.score for e in h.entries] for h in board.holes] == self.holes
        assert dict(board.totals) == {name: sum(h[i] for h in self.holes) for i, name in enumerate(PLAYERS)}


class ShortMatchMachine(GameMachine):
    """The same changes in a 3-hole match: holes that end it, ties, and edits that undo the end."""

    HOLES = 3


@pytest.mark.django_db
@pytest.mark.parametrize("machine", [GameMachine, ShortMatchMachine], ids=["endless", "three-holes"])
def test_it_keeps_stored_totals_equal_to_the_entries_after_random_changes(machine) -> None:
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=25,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
