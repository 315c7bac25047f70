"""scoring's `game_links`: the game manager owning a request field links a new game from it
(`GameManager.link_fields`, `link_new_game`), checked before anything is written, its writer run
in the game's creating transaction; a game follows one app at most."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from scoring import game_links, services
from scoring.game_errors import GameError
from scoring.game_managers import GameManager, game_managers, register_game_manager, unregister_game_manager
from scoring.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def registry() -> Iterator[None]:
    """Forget, after the test, the managers it registered."""
    before = set(game_managers())
    yield
    for label in set(game_managers()) - before:
        unregister_game_manager(label)


class _Linker(GameManager):
    """A manager linking a new game from `fields` with `link`."""

    def __init__(self, fields: tuple[str, ...], link: Callable[[game_links.LinkRequest], object]) -> None:
        self.link_fields = fields
        self.link = link

    def link_new_game(self, request: game_links.LinkRequest):
        return self.link(request)


def test_the_clubs_app_owns_club_and_members():
    assert {"club", "members"} <= game_links.linked_fields()


def test_a_field_has_one_linker(registry):
    with pytest.raises(ValueError, match="club"):
        register_game_manager("tests.other", _Linker(("club", "other"), lambda request: None))
    with pytest.raises(ValueError):
        register_game_manager("", _Linker(("team",), lambda request: None))  # a manager needs its label


def test_only_the_linkers_whose_fields_are_given_are_asked(registry):
    asked: list[game_links.LinkRequest] = []

    def linker(request: game_links.LinkRequest) -> game_links.GameLink:
        asked.append(request)
        return game_links.GameLink(followed_by="tests.game", write=lambda game: None)

    register_game_manager("tests.game", _Linker(("team",), linker))
    assert game_links.link_for(None, ["Ann", "Bob"], {"players": ["Ann", "Bob"]}) is None
    link = game_links.link_for(None, ["Ann", "Bob"], {"team": 4, "title": "x"})
    assert link is not None and link.followed_by == "tests.game"
    assert asked == [game_links.LinkRequest(user=None, players=("Ann", "Bob"), fields={"team": 4})]


def test_two_links_at_once_are_refused(registry):
    for field in ("team", "league"):
        register_game_manager(
            f"tests.{field}",
            _Linker((field,), lambda request: game_links.GameLink(followed_by="x", write=lambda game: None)),
        )
    with pytest.raises(GameError) as refused:
        game_links.link_for(None, ["Ann", "Bob"], {"team": 1, "league": 2})
    assert refused.value.problems[0].where == "body"


def test_a_failing_writer_leaves_no_game(registry):
    def write(game: Game) -> None:
        raise GameError("refused", where="team")

    register_game_manager(
        "tests.team", _Linker(("team",), lambda r: game_links.GameLink(followed_by="x", write=write))
    )
    link = game_links.link_for(None, ["Ann", "Bob"], {"team": 1})
    with pytest.raises(GameError):
        services.create_game(players=["Ann", "Bob"], followed_by=link.followed_by, after_create=[link.write])
    assert not Game.objects.exists()
