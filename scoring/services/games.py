"""Games as a whole: create one, change its ruleset or title, delete it.

Each write runs in one transaction that locks the game row first (see `_hole_writing.lock_game`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, ProtectedError, RestrictedError
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH, MAX_TITLE_LENGTH
from golfclub.core.names import name_key
from scoring.game_errors import (
    GameError,
    GameInUse,
    RulesFrozen,
)
from scoring.game_managers import manager_of
from scoring.models import (
    ChangeAction,
    Game,
    GameChange,
    Seat,
)
from scoring.rules import (
    Ruleset,
    resolve_ruleset,
)
from scoring.rules.errors import Problem, RulesError
from scoring.services._guards import Capabilities, refuse_unless_manager
from scoring.services._hole_writing import copy_game_state, lock_game, refresh_totals_and_status
from scoring.services._manager_changes import deleted_game
from scoring.services._players import clean_player_names, roster_players


def create_game(
    *,
    players: Sequence[str],
    ruleset: str | Mapping[str, Any] | Ruleset = "official",
    first_dealer: int = 0,
    owner: AbstractBaseUser | None = None,
    title: str = "",
    tokens: tuple[str, str] | None = None,
    start_key: str | None = None,
    managed_by: str = "",
    managed_label: str = "",
    followed_by: str = "",
    after_create: Sequence[Callable[[Game], None]] = (),
) -> Game:
    """Create a game with `players` in seat order (clockwise) under `ruleset` (preset or overrides).

    `first_dealer` is the seat index (0-based) of the first hole's dealer. A logged-in `owner` is
    recorded (and their roster of players reused by name, as `golfclub.core.names` compares names). The
    game gets unguessable edit and view tokens; `tokens` (edit, view) fixes them instead, for demo
    data with a known link only. A `start_key` (the start form's random key) already used answers
    the game it started and creates nothing, even for two requests at the same moment: the key is
    unique in the database. Raises `GameError` naming every problem at once: names, first dealer,
    title and ruleset.

    `managed_by` marks the game as belonging to something else (a short label such as
    "tournaments.table") and `managed_label` says how people call it ("Spring Open, round 2, table
    3"): its edit link is then a table link that scores but cannot change seats, rules, title or
    delete the game, and the manager's hole policy (`GameManager.check_hole_change`) applies.

    `followed_by` names the app keeping this game's results (a club: "clubs.game", told of every
    change, `scoring.game_managers`); its `after_create` writers get the new game in its creating
    transaction, so the game and what that app keeps of it are saved together or not at all.
    """
    names, title, resolved = checked_new_game(players, ruleset, first_dealer, title)
    owner = owner if owner is not None and owner.is_authenticated else None
    start_key = start_key or None
    if start_key is not None and (started := Game.objects.filter(start_key=start_key).first()):
        return started
    game = Game(
        title=title,
        owner=owner,
        ruleset=resolved.to_dict(),
        first_dealer=first_dealer,
        start_key=start_key,
        managed_by=managed_by,
        managed_label=managed_label,
        followed_by=followed_by,
    )
    if tokens is not None:
        game.edit_token, game.view_token = tokens
    try:
        _insert_game(game, names, after_create)
    except IntegrityError:
        started = Game.objects.filter(start_key=start_key).first() if start_key is not None else None
        if started is None:
            raise
        return started  # the same start form, submitted twice at once: the first one's game
    return game


def _insert_game(game: Game, names: Sequence[str], after_create: Sequence[Callable[[Game], None]]) -> None:
    """Save a new game, its seats (reusing the owner's roster by name) and what `after_create`
    writes of it, in one transaction."""
    with transaction.atomic():
        # The game row first: a second request with the same start key waits here on the unique
        # index until the first commits, then fails before writing anything else.
        game.save()
        roster = roster_players(game.owner, names)
        Seat.objects.bulk_create(
            Seat(game=game, player=roster[name], seat=index, name=name, name_key=name_key(name))
            for index, name in enumerate(names)
        )
        for write in after_create:
            write(game)


def checked_new_game(
    players: Sequence[str], ruleset: str | Mapping[str, Any] | Ruleset, first_dealer: Any, title: str
) -> tuple[list[str], str, Ruleset]:
    """A new game's clean names, title and resolved ruleset; else `GameError` naming every problem
    at once (names, first dealer, title and ruleset)."""
    problems: list[Problem] = []
    names: list[str] = []
    try:
        names = clean_player_names(players)
    except GameError as error:
        problems.extend(error.problems)
    if names and (
        not isinstance(first_dealer, int)
        or isinstance(first_dealer, bool)
        or not 0 <= first_dealer < len(names)
    ):
        problems.append(
            Problem(
                "first_dealer",
                _("The first dealer must be one of the seats, 0 to %(last)s.") % {"last": len(names) - 1},
            )
        )
    title = (title or "").strip()
    if len(title) > MAX_TITLE_LENGTH:
        problems.append(Problem("title", _title_too_long()))
    resolved: Ruleset | None = None
    try:
        resolved = resolve_ruleset(ruleset)
    except RulesError as error:
        problems.extend(error.problems)
    if problems or resolved is None:
        raise GameError(problems)
    return names, title, resolved


def set_game_ruleset(
    game: Game,
    ruleset: str | Mapping[str, Any] | Ruleset,
    *,
    actor: str = "",
    capabilities: Capabilities = None,
) -> Game:
    """Change the ruleset of a game whose first hole is not yet recorded.

    Raises `RulesFrozen` once cards have been dealt (seed 001: the rules cannot be changed once the
    cards have been dealt), `RulesetError` for a bad ruleset, `GameManaged` on a managed game when
    `capabilities` (what the person asking was granted) lack "manage".
    """
    resolved = resolve_ruleset(ruleset)
    with transaction.atomic():
        locked = lock_game(game)
        refuse_unless_manager(locked, capabilities, "ruleset")
        if locked.is_frozen:
            raise RulesFrozen(
                Problem(
                    "ruleset",
                    _(
                        "The rules cannot change once the cards have been dealt (seed 001: "
                        "\u201cOnce the cards have been dealt, the rules cannot be changed\u201d). "
                        "This game's first hole is already recorded."
                    ),
                )
            )
        before = locked.ruleset
        locked.ruleset = resolved.to_dict()
        locked.save(update_fields=["ruleset", "updated_at"])
        GameChange.objects.create(
            game=locked,
            action=ChangeAction.RULESET,
            actor=actor[:MAX_ACTOR_LENGTH],
            before=before,
            after=locked.ruleset,
        )
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)
    return game


def game_rename(game: Game, title: str, *, capabilities: Capabilities = None) -> Game:
    """Give a game a new title (`MAX_TITLE_LENGTH` characters at most); `GameManaged` as above."""
    title = (title or "").strip()
    if len(title) > MAX_TITLE_LENGTH:
        raise GameError(Problem("title", _title_too_long()))
    with transaction.atomic():
        locked = lock_game(game)
        refuse_unless_manager(locked, capabilities, "title")
        locked.title = title
        locked.save(update_fields=["title", "updated_at"])
        Game.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        locked.refresh_from_db(fields=["version"])
    copy_game_state(locked, game)
    return game


def delete_game(game: Game, *, capabilities: Capabilities = None) -> None:
    """Delete a game with all its holes, entries and history.

    Raises `GameManaged` on a managed game when `capabilities` lack "manage", and `GameInUse` when
    something else points at the game (a tournament's table protects its game): nothing is deleted.
    """
    try:
        with transaction.atomic():
            locked = lock_game(game)
            refuse_unless_manager(locked, capabilities, "game")
            manager_of(locked).after_change(deleted_game(locked))  # a club uncounts it, with the delete
            locked.delete()
    except (ProtectedError, RestrictedError):
        label = game.managed_label or game.managed_by
        message = (
            _("This game is part of %(what)s and cannot be deleted.") % {"what": label}
            if label
            else _("Something else refers to this game, so it cannot be deleted.")
        )
        raise GameInUse(Problem("game", message)) from None


def update_game(
    game: Game,
    *,
    title: str | None = None,
    ruleset: str | Mapping[str, Any] | Ruleset | None = None,
    actor: str = "",
    capabilities: Capabilities = None,
) -> Game:
    """Change a game's ruleset and/or title in one transaction: both are made, or neither.

    None leaves that setting as it is. The ruleset is changed first, so a refused ruleset
    (`RulesFrozen`, `RulesetError`) is reported before a refused title and nothing is written.
    """
    with transaction.atomic():
        if ruleset is not None:
            set_game_ruleset(game, ruleset, actor=actor, capabilities=capabilities)
        if title is not None:
            game_rename(game, title, capabilities=capabilities)
    return game


def _title_too_long() -> str:
    """The message for a title over `MAX_TITLE_LENGTH` characters."""
    return _("The title is too long (%(max)s characters at most).") % {"max": MAX_TITLE_LENGTH}


def lock_games(game_ids: Iterable[int]) -> dict[int, Game]:
    """Lock the rows of `game_ids` (in id order, the one lock order of games) for the caller's
    transaction, and answer them by id: an app finishing a set of games at once (a tournament's
    round) waits for a hole write in flight, and later writes see what it decided."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_games() must run inside the caller's transaction.")
    return {
        game.pk: game
        for game in Game.objects.select_for_update().filter(pk__in=list(game_ids)).order_by("pk")
    }


def delete_games(game_ids: Iterable[int]) -> int:
    """Delete the games `game_ids` with their holes, entries and history at once, for the app that
    manages them (a tournament deleted with its tables), after it let go of them: answers how many
    games went. One transaction; managed games are the caller's to delete (no capability check)."""
    with transaction.atomic():
        _deleted, by_model = Game.objects.filter(pk__in=list(game_ids)).delete()
    return by_model.get(Game._meta.label, 0)
