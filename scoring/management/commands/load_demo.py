"""manage.py load_demo: three demo games with known links (idempotent; `make run` calls it).

Every hole is dealt from real shuffled packs (with suits, so the exact-card check holds), then each
player improves their grid for a few turns by drawing from the stock and keeping the swap the
engine scores lowest, so the grids look like the end of a real hole. A fixed seed makes the same
games every time; a game whose demo link already exists is left as it is (use --reset to rebuild).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from golfclub.core.demo_links import add_base_url_argument, demo_base_url
from scoring import selectors, services
from scoring.models import Game
from scoring.rules import RANKS, SUITS, Ruleset, grid_total


@dataclass(frozen=True)
class DemoGame:
    """One demo game: its known link tokens, players, ruleset, and how far it is played."""

    slug: str
    title: str
    players: tuple[str, ...]
    ruleset: str | dict[str, Any]
    holes: int | None  # None: play to the end (playoffs included)
    typed_seat: int | None = None  # a player whose totals were typed instead of the cards
    first_dealer: int = 0

    @property
    def tokens(self) -> tuple[str, str]:
        """The demo's edit and view tokens (fixed, so the printed links never change)."""
        return f"demo-{self.slug}-edit", f"demo-{self.slug}-view"


DEMOS = (
    DemoGame("friday", "Friday night", ("Ann", "Bob", "Chloé", "Dev"), "official", None),
    DemoGame(
        "cabin",
        "Cabin weekend",
        ("Eli", "Fran", "Gus", "Hana", "Ivo"),
        "nine-card",
        4,
        typed_seat=3,
        first_dealer=2,
    ),
    DemoGame(
        "quick",
        "Quick one before dinner",
        ("Jo", "Kai", "Lu"),
        {"preset": "basic", "holes": 6, "ender_penalty": {"kind": "lowest_score"}},
        2,
    ),
)


def _pack(ruleset: Ruleset, players: int) -> list[str]:
    """Every card of the packs in play for this table, with suits; jokers without."""
    decks = ruleset.decks_for(players)
    cards = [rank + suit for rank in RANKS if rank != "X" for suit in SUITS] * decks
    return cards + ["X"] * (ruleset.jokers * decks)


def _play_hole(ruleset: Ruleset, players: int, rng: random.Random) -> list[list[list[str]]]:
    """Deal a hole and let every player improve their grid greedily (scored by the engine)."""
    stock = _pack(ruleset, players)
    rng.shuffle(stock)
    size = ruleset.rows * ruleset.cols
    hands = [[stock.pop() for _ in range(size)] for _ in range(players)]

    def as_grid(hand: list[str]) -> list[list[str]]:
        return [hand[r * ruleset.cols : (r + 1) * ruleset.cols] for r in range(ruleset.rows)]

    discards: list[str] = []
    # Rounds of draws before someone ends the hole: about one per card in the grid.
    for _ in range(rng.randint(size - 2, size + 1)):
        for hand in hands:
            if not stock:  # the stock ran out: shuffle the discards into a new one (rule 4.1)
                stock, discards = discards, []
                rng.shuffle(stock)
            drawn = stock.pop()
            best, best_at = grid_total(as_grid(hand), ruleset), None
            for position in range(size):
                trial = [*hand[:position], drawn, *hand[position + 1 :]]
                total = grid_total(as_grid(trial), ruleset)
                if total < best:
                    best, best_at = total, position
            if best_at is None:
                discards.append(drawn)
            else:
                discards.append(hand[best_at])
                hand[best_at] = drawn
    return [as_grid(hand) for hand in hands]


class Command(BaseCommand):
    """Load the demo games (idempotent) and print their links."""

    help = "Create three demo games with known links (skips those already there; --reset rebuilds them)."

    def add_arguments(self, parser: CommandParser) -> None:
        """--reset deletes the demo games first; --base-url is where the printed links point."""
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo games and create them again."
        )
        add_base_url_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        """Create what is missing and print every demo link; refuse outside development."""
        if not settings.DEBUG:
            # The demo links are fixed and printed in the README: on a public server anyone could
            # edit those games. `make run` sets DEBUG=true; production leaves it unset.
            raise CommandError(
                "load_demo only runs with DEBUG=true (development): its games have fixed, public "
                "edit links. Set DEBUG=true for a local server, never on a public one."
            )
        base_url = demo_base_url(options.get("base_url"))
        for demo in DEMOS:
            edit, view = demo.tokens
            found = selectors.game_for_token(edit)
            existing = found.game if found is not None and found.can_edit else None
            if existing is not None and options["reset"]:
                services.delete_game(existing)
                existing = None
            if existing is None:
                with transaction.atomic():
                    game = self._create(demo)
                self.stdout.write(f"Created {demo.title}: {game.get_status_display()}")
            else:
                self.stdout.write(f"{demo.title} is already there.")
            self.stdout.write(f"  edit: {base_url}/games/e/{edit}/")
            self.stdout.write(f"  view: {base_url}/games/v/{view}/")

    def _create(self, demo: DemoGame) -> Game:
        rng = random.Random(demo.slug)
        game = services.create_game(
            players=list(demo.players),
            ruleset=demo.ruleset,
            first_dealer=demo.first_dealer,
            title=demo.title,
            tokens=demo.tokens,
        )
        ruleset = selectors.game_ruleset(game)
        played = 0
        while demo.holes is None or played < demo.holes:
            board = selectors.scoreboard(game)
            if board.next_hole is None:
                break
            names = board.next_hole.players
            grids = _play_hole(ruleset, len(demo.players), rng)
            entries: dict[str, Any] = {}
            for seat, name in enumerate(demo.players):
                if name not in names:
                    continue
                if seat == demo.typed_seat:
                    entries[name] = grid_total(grids[seat], ruleset)  # the table only wrote the total down
                else:
                    entries[name] = grids[seat]
            ender = min(names, key=lambda n: grid_total(grids[demo.players.index(n)], ruleset))
            services.hole_record(
                game, entries=entries, ender=ender, playoff=board.next_hole.is_playoff, actor=demo.players[0]
            )
            played += 1
        if demo.slug == "quick":
            # A correction and its undo, so the history shows both.
            hole = selectors.hole_detail(game, 1)
            entries = {e.name: e.cards if e.cards is not None else e.typed_total for e in hole.entries}
            entries[demo.players[1]] = 30
            services.hole_update(
                game, 1, expected_version=hole.version, entries=entries, ender=hole.ender, actor="Kai"
            )
            services.undo_last_change(game, actor="Jo")
        game.refresh_from_db()
        return game
