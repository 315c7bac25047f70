"""The live preview and the save score a hole through one pipeline (`services.score_hole_entries`).

Before, the preview checked a half-filled hole's cards against the packs of the players entered so
far (one pack for two of four players, where packs go by the player count), while the save checks
them against the packs of the whole table: the preview refused cards the save then stored.
"""

from __future__ import annotations

import re

import pytest

from scoring import services
from scoring.models import Hole

pytestmark = pytest.mark.django_db

ANN = [["K", "K", "K"], ["2", "3", "4"]]
BOB = [["K", "K", "5"], ["6", "7", "9"]]  # five kings in all: more than one pack, within two


def cells(index: int, grid: list[list[str]]) -> dict[str, str]:
    """The hole form's cell fields of player `index` for `grid`."""
    return {f"p{index}-{r}-{c}": token for r, row in enumerate(grid, 1) for c, token in enumerate(row, 1)}


def text(response) -> str:
    """The response body as a person reads it: tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_preview_shows_the_scores_the_save_stores_for_a_half_filled_table_of_four(client):
    game = services.create_game(players=["Ann", "Bob", "Cy", "Dee"], ruleset="basic")
    filled = {**cells(0, ANN), **cells(1, BOB)}
    preview = text(client.post(f"/games/e/{game.edit_token}/preview/?hole=new&playoff=0", filled))
    assert "pack holds only" not in preview  # four players play with two packs
    saved = client.post(
        f"/games/e/{game.edit_token}/holes/new/", {**filled, "p2-total": "7", "p3-total": "9"}
    )
    assert saved.status_code == 302
    scores = {e.seat.name: e.score for e in Hole.objects.get(game=game).entries.select_related("seat")}
    assert f"Ann {scores['Ann']} " in preview and f"Bob {scores['Bob']} " in preview


def test_the_pipeline_checks_the_cards_against_the_packs_of_the_whole_table():
    from scoring.rules import DeckError, resolve_ruleset

    ruleset = resolve_ruleset("basic")  # packs by players: one for two, two for four
    entries = [services.EntryToScore(name="Ann", cards=ANN), services.EntryToScore(name="Bob", cards=BOB)]
    scored = services.score_hole_entries(entries, ruleset, ender=None, table_size=4)
    assert [p.name for p in scored.score.players] == ["Ann", "Bob"]
    assert scored.cards["Ann"] == ANN
    with pytest.raises(DeckError) as refused:
        services.score_hole_entries(entries, ruleset, ender=None, table_size=2)
    assert all(p.where.startswith("entries") for p in refused.value.problems)


def test_the_pipeline_names_every_unreadable_entry_in_order():
    from scoring.rules import resolve_ruleset
    from scoring.rules.errors import Problem

    ruleset = resolve_ruleset("official")
    entries = [
        services.EntryToScore(name="Ann", cards=[["1Z", "K", "K"], ["2", "3", "4"]]),
        services.EntryToScore(name="Bob", refused=[Problem("entries.Bob", "Give the grid as rows.")]),
        services.EntryToScore(name="Cy", total=5),
    ]
    with pytest.raises(services.GameError) as refused:
        services.score_hole_entries(entries, ruleset, ender=None, table_size=3)
    assert [p.where.split("[")[0] for p in refused.value.problems] == ["entries.Ann", "entries.Bob"]
