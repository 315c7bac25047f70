"""Games, actors and a test game manager for the access-policy tests (real database).

Actors, each reaching a game through one of its links:
- view: anonymous, the view link of a friends' game;
- edit: anonymous, the edit link of a friends' game;
- table: anonymous, the edit link (table link) of a managed game;
- official: logged in as "olive", the view link of the managed game; the test manager gives view,
  score and officiate;
- director: logged in as "dora", the view link of the managed game; the test manager gives all;
- stranger: logged in as "sam", the view link of the managed game; the manager gives nothing;
- wrong: anonymous, a well-formed token no game has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from scoring import hole_policies, services
from scoring.access import Capability, TokenKind
from scoring.game_managers import (
    GameManager,
    HoleChange,
    game_managers,
    register_game_manager,
    unregister_game_manager,
)
from scoring.models import Game
from tests.committed import flush_committed

ACTORS = ("view", "edit", "table", "official", "director", "stranger", "wrong")
WRONG_TOKEN = "n0-such-game-n0-such-game-n0-such"
MANAGED_BY = "tests.table"
MANAGED_LABEL = "Spring Open, round 2, table 3"
WHO = "the test event's directors"
PROVIDER = MANAGED_BY  # the grant names the manager that added capabilities by its label
USERS = {"official": "olive", "director": "dora", "stranger": "sam"}


def staff_provider(game: Game, user: Any, token_kind: TokenKind) -> set[Capability]:
    """The test event's staff: its director may do anything, its official view, score and officiate."""
    if game.managed_by != MANAGED_BY or not user.is_authenticated:
        return set()
    if user.get_username() == "dora":
        return set(Capability.all())
    if user.get_username() == "olive":
        return {Capability.VIEW, Capability.SCORE, Capability.OFFICIATE}
    return set()


class TestEventManager(GameManager):
    """The test event as the manager of the test games (as a tournament manages its tables): what
    its staff may do (`staff`) and the table rule (`table_policy`), each switched on by its fixture."""

    def __init__(self) -> None:
        self.staff = False
        self.table_rule = False

    @property
    def name(self) -> str:  # type: ignore[override]
        """Who sets the test games' players, rules and deletion (with `staff` only)."""
        return WHO if self.staff else ""

    def capabilities(self, game: Game, user: Any, token_kind: TokenKind) -> set[Capability]:
        """The test event's staff, once `staff` is on."""
        return staff_provider(game, user, token_kind) if self.staff else set()

    def check_hole_change(self, change: HoleChange) -> None:
        """Corrections at the table until the next hole, once `table_policy` is on."""
        if self.table_rule:
            hole_policies.corrections_at_table_until_next_hole(change)


def _switched_on(part: str) -> Iterator[None]:
    """Switch `part` of the test manager on for one test, registering it for `MANAGED_BY` while any
    part is on (a test may use both fixtures)."""
    manager = game_managers().get(MANAGED_BY)
    if not isinstance(manager, TestEventManager):
        manager = TestEventManager()
        register_game_manager(MANAGED_BY, manager)
    setattr(manager, part, True)
    yield
    setattr(manager, part, False)
    if not (manager.staff or manager.table_rule):
        unregister_game_manager(MANAGED_BY)


@pytest.fixture
def staff() -> Iterator[None]:
    """The test manager's staff and name, for one test only."""
    yield from _switched_on("staff")


@pytest.fixture
def table_policy() -> Iterator[None]:
    """The tournament rule (corrections at the table until the next hole), on the test games' manager
    for one test only."""
    yield from _switched_on("table_rule")


def build(state: str, *, managed: bool = False) -> Game:
    """A game of Ann, Bob and Cy in `state`:

    - "new": no hole yet (seats can still be added and removed);
    - "played": hole 1 of 9 recorded;
    - "undone": hole 1 recorded, then undone (a redo is pending);
    - "playoff": a 2-hole game tied between Ann and Bob, playoff hole 1 tied too (sudden death pending).
    """
    ruleset: Any = {"preset": "official", "holes": 2} if state == "playoff" else "official"
    game = services.create_game(players=["Ann", "Bob", "Cy"], ruleset=ruleset)
    if managed:
        game.managed_by, game.managed_label = MANAGED_BY, MANAGED_LABEL
        game.save(update_fields=["managed_by", "managed_label"])
    if state in ("played", "undone"):
        services.hole_record(game, entries={"Ann": 5, "Bob": 12, "Cy": 3}, ender=None)
    if state == "undone":
        services.undo_last_change(game, actor="test")
    if state == "playoff":
        services.hole_record(game, entries={"Ann": 3, "Bob": 5, "Cy": 9}, ender=None)
        services.hole_record(game, entries={"Ann": 5, "Bob": 3, "Cy": 9}, ender=None)
        services.hole_record(game, entries={"Ann": 4, "Bob": 4}, ender=None, playoff=True)
    game.refresh_from_db()
    return game


STATES = ("new", "played", "undone", "playoff")
SharedGames = dict[tuple[str, bool], int]


@pytest.fixture(scope="module", name="shared_games")
def shared_games_fixture(django_db_setup: None, django_db_blocker: Any) -> Iterator[SharedGames]:
    """Every game `reach` hands out (each state, friends' and managed) and the staff users, built
    once per module and committed; their primary keys by (state, managed).

    Each test still runs in its own transaction (the `db` fixture), rolled back at its end, so what a
    test writes to these games is gone before the next one: every test starts from the games as
    `build` leaves them (tests/committed.py). Not for modules with `transactional_db` tests.
    """
    try:
        with django_db_blocker.unblock():
            games = {
                (state, managed): build(state, managed=managed).pk
                for state in STATES
                for managed in (False, True)
            }
            for name in USERS.values():
                get_user_model().objects.create_user(name, password="pw-12345-long")
        yield games
    finally:
        flush_committed(django_db_blocker)


def reach(actor: str, state: str, client: Any, shared: SharedGames | None = None) -> tuple[Game, str]:
    """The game `actor` reaches in `state` and the token in its URL, `client` logged in as the actor.

    Built for the test, or with `shared` (the `shared_games` fixture) read fresh from the database.
    """
    managed = actor not in ("view", "edit", "wrong")
    game = build(state, managed=managed) if shared is None else Game.objects.get(pk=shared[state, managed])
    if actor in USERS:
        if shared is None:
            user = get_user_model().objects.create_user(USERS[actor], password="pw-12345-long")
        else:
            user = get_user_model().objects.get(username=USERS[actor])
        client.force_login(user)
    if actor == "wrong":
        return game, WRONG_TOKEN
    return game, game.edit_token if actor in ("edit", "table") else game.view_token


def expected(statuses: tuple[int, ...], actor: str) -> int:
    """The status of `actor` in a row of ACTORS statuses."""
    return dict(zip(ACTORS, statuses, strict=True))[actor]
