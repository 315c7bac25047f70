"""Many managed games at once: a tournament round's tables (issue 34: 250 tables seated in well
under a second). The same checks and rows as `create_game`, written in a few bulk inserts.

`create_game` saves one game and its seats per call, which costs a round of 250 tables about
0.5 s of round trips; this writes every game, every table-only player and every seat in three
inserts (`golfclub.core.bulk_insert`), inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from golfclub.core.bulk_insert import insert_rows
from golfclub.core.names import name_key
from scoring.models import Game, Player, Seat
from scoring.rules import Ruleset, resolve_ruleset
from scoring.services.games import checked_new_game


@dataclass(frozen=True)
class NewGame:
    """One game of a batch: players in seat order, the first dealer's seat, its title and label."""

    players: Sequence[str]
    first_dealer: int
    title: str = ""
    managed_label: str = ""


def create_managed_games(
    games: Sequence[NewGame], *, ruleset: str | Mapping[str, Any] | Ruleset, managed_by: str
) -> list[int]:
    """Create owner-less games managed by `managed_by` (their edit links are table links, as
    `create_game(managed_by=...)` makes them), in the order given, in one transaction, and answer
    their ids in that order.

    Each game is checked as `create_game` checks it (names, first dealer, title, ruleset) before
    anything is written; the first bad one raises its `GameError` and nothing is saved."""
    resolved = resolve_ruleset(ruleset)
    checked = [checked_new_game(spec.players, resolved, spec.first_dealer, spec.title) for spec in games]
    names = [name for seated, _title, _rules in checked for name in seated]
    keys = [name_key(name) for name in names]
    with transaction.atomic():
        game_ids = insert_rows(
            Game,
            len(games),
            per_row={
                "title": [title for _names, title, _rules in checked],
                "first_dealer": [spec.first_dealer for spec in games],
                "managed_label": [spec.managed_label for spec in games],
            },
            same={"ruleset": resolved.to_dict(), "managed_by": managed_by},
        )
        player_ids = insert_rows(
            Player,
            len(names),
            per_row={"name": names, "name_key": keys},
            same={"last_played_at": timezone.now()},
        )
        insert_rows(
            Seat,
            len(names),
            per_row={
                "game_id": [
                    gid for gid, (seated, _t, _r) in zip(game_ids, checked, strict=True) for _ in seated
                ],
                "player_id": player_ids,
                "seat": [index for seated, _t, _r in checked for index in range(len(seated))],
                "name": names,
                "name_key": keys,
            },
        )
    return game_ids
