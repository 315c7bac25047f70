"""The scorecard a player attested, checked against the table's game as it stands.

A table's phone that lost its Wi-Fi lets the players attest the scorecard it shows, and sends the
confirmation later (`POST /api/v1/games/{edit_token}/confirm/`, queued after the table's holes).
By then the game may have changed: another phone of the table, or an official, corrected a hole.
A confirmation that carries what was attested (`scorecard`: each player's regular hole scores in
hole order, as the phone showed them) is refused when the server's scorecard differs, with the
first difference in words the phone can show (409), instead of confirming a card nobody saw.
Without `scorecard` a confirmation attests the game as it stands (the contract's `{"by": "Bob"}`).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_PLAYERS, TOTAL_LIMIT
from golfclub.core.names import name_key
from scoring.rules.errors import Problem
from scoring.selectors import scorecards
from tournaments.errors import TournamentError, WrongState

#: The most holes an attested scorecard may list per player (a match to a target score runs long).
MAX_ATTESTED_HOLES = 200


def clean_scorecard(value: Any) -> dict[str, list[int]] | None:
    """`value` as {name key: [hole scores]}, None when absent; `TournamentError` (400) when it is
    not an object of player names to lists of whole numbers."""
    if value is None:
        return None
    bad = TournamentError(
        Problem(
            "scorecard",
            _("scorecard must map each player's name to their hole scores (at most %(n)s whole numbers).")
            % {"n": MAX_ATTESTED_HOLES},
        )
    )
    if not isinstance(value, dict) or len(value) > MAX_PLAYERS:
        raise bad
    cleaned: dict[str, list[int]] = {}
    for name, scores in value.items():
        if not isinstance(name, str) or not isinstance(scores, list) or len(scores) > MAX_ATTESTED_HOLES:
            raise bad
        # A hole score the app could have shown: a whole number within a typed total's bounds.
        if not all(type(score) is int and -TOTAL_LIMIT <= score <= TOTAL_LIMIT for score in scores):
            raise bad
        cleaned[name_key(name)] = scores
    return cleaned


def check_attested(game_id: int, attested: dict[str, list[int]]) -> None:
    """`WrongState` (409) naming the first difference between `attested` (from `clean_scorecard`)
    and the game's regular holes as they stand; nothing when they agree (three queries)."""
    card = scorecards([game_id])[game_id]
    keys = [name_key(name) for name in card.players]
    if set(attested) != set(keys):
        raise TournamentError(
            Problem(
                "scorecard", _("The attested scorecard must list every player at this table, and only them.")
            )
        )
    server_holes = len(card.holes)
    phone_holes = max((len(scores) for scores in attested.values()), default=0)
    for index, hole in enumerate(card.holes):
        for seat, name in enumerate(card.players):
            mine = attested[keys[seat]]
            theirs = mine[index] if index < len(mine) else None
            if theirs is not None and theirs != hole.scores[seat]:
                raise _changed(
                    _("hole %(hole)s: %(name)s has %(server)s here, %(phone)s on your phone")
                    % {"hole": hole.number, "name": name, "server": hole.scores[seat], "phone": theirs}
                )
    if phone_holes != server_holes or any(len(s) != server_holes for s in attested.values()):
        raise _changed(
            _("the server has %(server)s holes, your phone showed %(phone)s")
            % {"server": server_holes, "phone": phone_holes}
        )


def _changed(difference: str) -> WrongState:
    return WrongState(
        Problem(
            "scorecard",
            _(
                "The scorecard changed since your phone showed it (%(difference)s). Check the "
                "scorecard as it stands now and confirm it again."
            )
            % {"difference": difference},
        )
    )
