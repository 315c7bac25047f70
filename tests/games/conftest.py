"""Fixtures for live-game tests: games built through the services, never by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from scoring import services
from scoring.models import Game, Hole

from .migration_helpers import migrate_to_latest

# An official (2x3) grid scoring 3: the Queens and the 7s pair in their columns, K is 0, plus the 3.
GRID_3 = [["Q", "7", "K"], ["Q", "7", "3"]]
# An official grid scoring 21: no pair; Q 10 + 5 + 4 + A 1 + 2 (-2) ... see the engine: 10+5+4+1-2+3.
GRID_21 = [["Q", "5", "4"], ["A", "2", "3"]]


@pytest.fixture
def make_game(db) -> Callable[..., Game]:
    """Create a game through the service: make_game(["ann", "bob"], ruleset="official")."""

    def make(players: Sequence[str] = ("ann", "bob"), ruleset: Any = "official", **kwargs: Any) -> Game:
        return services.create_game(players=list(players), ruleset=ruleset, **kwargs)

    return make


def typed(
    game: Game,
    *totals: int,
    ender: str | None = None,
    playoff: bool = False,
    players: Sequence[str] | None = None,
    **kwargs: Any,
) -> Hole:
    """Record a hole of typed totals, in seat order (for a playoff hole, of `players` only)."""
    names = [seat.name for seat in game.seats.order_by("seat")]
    if players is not None:
        names = [n for n in names if n in players]
    return services.hole_record(
        game, entries=dict(zip(names, totals, strict=True)), ender=ender, playoff=playoff, **kwargs
    )


@pytest.fixture
def latest_schema_afterwards() -> Iterator[None]:
    """After the test, put the database back on the latest migrations (for the migration tests)."""
    yield
    migrate_to_latest()
