"""manage.py load_demo: realistic demo games with known links, loaded once however often it runs."""

from __future__ import annotations

import subprocess
from io import StringIO
from pathlib import Path

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


def test_its_links_name_the_port_the_server_runs_on():
    """`make run PORT=8765` serves on 8765: the links printed must open there, not on 8000."""
    out = StringIO()
    call_command("load_demo", "--base-url", "http://127.0.0.1:8765/", stdout=out)
    printed = out.getvalue()
    assert "  edit: http://127.0.0.1:8765/games/e/demo-friday-edit/" in printed
    assert "  view: http://127.0.0.1:8765/games/v/demo-quick-view/" in printed
    assert ":8000" not in printed


def test_its_links_follow_the_environment_variable(monkeypatch):
    monkeypatch.setenv("GOLFCLUB_BASE_URL", "http://192.168.1.20:8001")
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "http://192.168.1.20:8001/games/e/demo-cabin-edit/" in out.getvalue()
    assert ":8000" not in out.getvalue()


def test_a_base_url_that_is_not_an_address_is_refused_before_anything_is_written():
    with pytest.raises(CommandError, match="--base-url must be an http"):
        call_command("load_demo", "--base-url", "8765", stdout=StringIO())
    assert not Game.objects.exists()


def test_make_run_passes_its_port_to_every_demo_command():
    """The Makefile's `run` hands the port it serves to the demo commands (a dry run, nothing runs)."""
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8765", "HOST=0.0.0.0"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = [line for line in dry.splitlines() if "load_demo" in line]
    assert len(lines) == 3, dry  # the games, the tournament and the club
    assert all("--base-url http://127.0.0.1:8765" in line for line in lines), lines
    assert "runserver 0.0.0.0:8765" in dry
