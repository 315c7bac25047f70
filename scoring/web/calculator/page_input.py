"""What the scoring page's form says beyond its rules (`forms.RulesForm`): the mode, the players
with their names and cards, who ended the hole and whether Score was pressed; and the query string
that shows the same page again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from golfclub.core.inputs import int_or_none
from golfclub.core.limits import CALCULATOR_PAGE_MAX_PLAYERS, MAX_NAME_LENGTH, MIN_PLAYERS
from golfclub.core.names import name_key, too_long_message
from scoring.rules import Ruleset
from scoring.web.grid_entry import cell_name, read_tokens

from .forms import DEFAULT_PRESET, MODES, RulesForm, grid_shape, read_rules


@dataclass
class PlayerInput:
    """One player of the page: seat number (1-based), typed name, and the tokens of their grid."""

    number: int
    name: str
    tokens: list[list[str]]
    name_error: str = ""

    @property
    def prefix(self) -> str:
        """The grid-entry prefix of this player's cells: cell-<number>."""
        return f"cell-{self.number}"

    @property
    def display_name(self) -> str:
        """The typed name, or "Player N"."""
        return self.name or _("Player %(number)d") % {"number": self.number}


@dataclass
class ScoreInput:
    """What the form says: mode, rules, players, who ended the hole, whether Score was pressed."""

    mode: str
    rules: RulesForm
    ruleset: Ruleset | None
    rows: int
    cols: int
    players: list[PlayerInput] = field(default_factory=list)
    ender: int | None = None
    submitted: bool = False

    @property
    def ender_name(self) -> str | None:
        """The display name of the player who ended the hole, or None."""
        for player in self.players:
            if player.number == self.ender:
                return player.display_name
        return None

    @property
    def has_name_errors(self) -> bool:
        """True when a player's name needs fixing before the hole can be scored."""
        return any(player.name_error for player in self.players)


def _int(value: Any, default: int) -> int:
    """The whole number `value` holds (ASCII digits, see `golfclub.core.inputs`), else `default`."""
    number = int_or_none(value)
    return default if number is None else number


def read_score_input(data: Mapping[str, Any]) -> ScoreInput:
    """Read the whole page from a GET or POST QueryDict (an empty one gives a fresh page).

    In hole mode, `action` "add-player" adds a seat and "remove-player-<n>" removes seat n, keeping
    everyone else's name and cards (later seats move up).
    """
    mode = data.get("mode") if data.get("mode") in MODES else "grid"
    rules, ruleset = read_rules(data)
    rows, cols = grid_shape(rules, ruleset)
    submitted = "score" in data
    if mode == "grid":
        players = [PlayerInput(1, "", read_tokens(data, "cell-1", rows, cols))]
        return ScoreInput(mode, rules, ruleset, rows, cols, players, submitted=submitted)

    count = min(max(_int(data.get("players"), MIN_PLAYERS), MIN_PLAYERS), CALCULATOR_PAGE_MAX_PLAYERS)
    numbers = list(range(1, count + 1))
    action = str(data.get("action") or "")
    if action == "add-player" and count < CALCULATOR_PAGE_MAX_PLAYERS:
        numbers.append(count + 1)
    elif action.startswith("remove-player-") and count > MIN_PLAYERS:
        removed = _int(action.removeprefix("remove-player-"), 0)
        if removed in numbers:
            numbers.remove(removed)
    ender_number = _int(data.get("ender"), 0)
    ender_seat: int | None = None
    players = []
    for seat, number in enumerate(numbers, start=1):
        name = str(data.get(f"name-{number}", "") or "").strip()
        players.append(PlayerInput(seat, name, read_tokens(data, f"cell-{number}", rows, cols)))
        if number == ender_number:
            ender_seat = seat
    _check_names(players)
    return ScoreInput(mode, rules, ruleset, rows, cols, players, ender_seat, submitted=submitted)


def _check_names(players: list[PlayerInput]) -> None:
    """Two players cannot share a name: the hole's scores are keyed by name. A name past the limit
    is refused with it, never cut."""
    seen: dict[str, PlayerInput] = {}
    for player in players:
        if len(player.display_name) > MAX_NAME_LENGTH:
            player.name_error = _("The name is too long: %(limit)s.") % {
                "limit": too_long_message(MAX_NAME_LENGTH, len(player.display_name))
            }
            continue
        key = name_key(player.display_name)  # as names are compared everywhere (`golfclub.core.names`)
        if key in seen:
            player.name_error = _('Two players are called "%(name)s": give each a different name.') % {
                "name": player.display_name
            }
        else:
            seen[key] = player


def page_query(page: ScoreInput) -> QueryDict:
    """The query string that shows this page again: mode, rules (all controls only when adjusted), players,
    cards and ender. Actions ("add-player", Score) are not repeated, so reloading is safe."""
    query = QueryDict(mutable=True)
    if page.mode != "grid":
        query["mode"] = page.mode
    preset = str(page.rules["preset"].value() or DEFAULT_PRESET)
    if preset != DEFAULT_PRESET or page.ruleset is None or page.ruleset.overrides:
        query["preset"] = preset
    if page.ruleset is None or page.ruleset.overrides:
        for name in page.rules.fields:
            if name == "preset":
                continue
            value = page.rules[name].value()
            if isinstance(value, (list, tuple)):
                query.setlist(name, [str(item) for item in value])
            elif isinstance(value, bool) or value is None:
                if value:
                    query[name] = "on"
            else:
                query[name] = str(value)
    if page.mode == "hole":
        query["players"] = str(len(page.players))
    for player in page.players:
        if player.name:
            query[f"name-{player.number}"] = player.name
        for r, row in enumerate(player.tokens, start=1):
            for c, token in enumerate(row, start=1):
                if token:
                    query[cell_name(player.prefix, r, c)] = token
    if page.ender is not None:
        query["ender"] = str(page.ender)
    return query
