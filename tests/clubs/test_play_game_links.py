"""scoring's `game_links` seam: one linker per request field, checked before anything is written,
its writer run in the game's creating transaction; a game follows one app at most."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scoring import game_links, services
from scoring.game_errors import GameError
from scoring.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def registry() -> Iterator[None]:
    before = dict(game_links._linkers)
    yield
    game_links._linkers.clear()
    game_links._linkers.update(before)


def test_the_clubs_app_owns_club_and_members():
    assert {"club", "members"} <= game_links.linked_fields()


def test_a_field_has_one_linker(registry):
    with pytest.raises(ValueError, match="club"):
        game_links.register_game_linker(("club", "other"), lambda request: None)
    with pytest.raises(ValueError):
        game_links.register_game_linker((), lambda request: None)


def test_only_the_linkers_whose_fields_are_given_are_asked(registry):
    asked: list[game_links.LinkRequest] = []

    def linker(request: game_links.LinkRequest) -> game_links.GameLink:
        asked.append(request)
        return game_links.GameLink(followed_by="tests.game", write=lambda game: None)

    game_links.register_game_linker(("team",), linker)
    assert game_links.link_for(None, ["Ann", "Bob"], {"players": ["Ann", "Bob"]}) is None
    link = game_links.link_for(None, ["Ann", "Bob"], {"team": 4, "title": "x"})
    assert link is not None and link.followed_by == "tests.game"
    assert asked == [game_links.LinkRequest(user=None, players=("Ann", "Bob"), fields={"team": 4})]


def test_two_links_at_once_are_refused(registry):
    for field in ("team", "league"):
        game_links.register_game_linker(
            (field,), lambda request: game_links.GameLink(followed_by="x", write=lambda game: None)
        )
    with pytest.raises(GameError) as refused:
        game_links.link_for(None, ["Ann", "Bob"], {"team": 1, "league": 2})
    assert refused.value.problems[0].where == "body"


def test_a_failing_writer_leaves_no_game(registry):
    def write(game: Game) -> None:
        raise GameError("refused", where="team")

    game_links.register_game_linker(("team",), lambda r: game_links.GameLink(followed_by="x", write=write))
    link = game_links.link_for(None, ["Ann", "Bob"], {"team": 1})
    with pytest.raises(GameError):
        services.create_game(players=["Ann", "Bob"], followed_by=link.followed_by, after_create=[link.write])
    assert not Game.objects.exists()
