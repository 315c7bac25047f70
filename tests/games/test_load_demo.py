"""manage.py load_demo: realistic demo games with known links, loaded once however often it runs."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring import selectors
from scoring.models import Game, GameChange, GameStatus, Hole, HoleEntry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def development(settings) -> None:
    """load_demo runs only in development; the test runner turns DEBUG off."""
    settings.DEBUG = True


def test_it_loads_the_demo_games_once_and_prints_their_links():
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "/games/e/demo-friday-edit/" in out.getvalue()
    counts = (
        Game.objects.count(),
        Hole.objects.count(),
        HoleEntry.objects.count(),
        GameChange.objects.count(),
    )
    call_command("load_demo", stdout=StringIO())
    assert (
        Game.objects.count(),
        Hole.objects.count(),
        HoleEntry.objects.count(),
        GameChange.objects.count(),
    ) == counts
    assert counts[0] == 3

    friday = Game.objects.get(edit_token="demo-friday-edit")
    assert friday.status == GameStatus.FINISHED and friday.winners
    cabin = selectors.scoreboard(Game.objects.get(edit_token="demo-cabin-edit"))
    assert cabin.status == GameStatus.IN_PROGRESS and len(cabin.holes) == 4 and cabin.ruleset.rows == 3
    assert any(e.typed for e in cabin.holes[0].entries) and any(not e.typed for e in cabin.holes[0].entries)
    quick = Game.objects.get(edit_token="demo-quick-edit")
    assert [c.action for c in selectors.game_history(quick)][:2] == ["undo", "update"]


def test_it_rebuilds_the_demo_games_with_reset():
    call_command("load_demo", stdout=StringIO())
    first = Game.objects.get(edit_token="demo-friday-edit").pk
    call_command("load_demo", "--reset", stdout=StringIO())
    assert Game.objects.count() == 3 and Game.objects.get(edit_token="demo-friday-edit").pk != first


def test_it_refuses_to_load_the_demo_when_debug_is_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only runs with DEBUG=true"):
        call_command("load_demo", stdout=StringIO())
    assert not Game.objects.exists()
