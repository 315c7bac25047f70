"""Writes of live games: create a game, record, edit, delete and undo holes, change the ruleset.

Every function here runs in one transaction, locks the game row first (so hole numbers, stored
totals and the game version are computed by one writer at a time, in the database, never with a
process-local lock), gets every score from the rules engine, and then recomputes the stored totals
of every seat from the entries before it commits; recording a regular hole adds its scores to them
instead, and reads every hole only when the match may end with it. Bad input raises a `GameError`
(or another `RulesError`) naming what is wrong and where; nothing is written then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import db_batch
from scoring.game_errors import (
    ChangeNotCurrent,
    ConcurrentWrite,
    GameError,
    HoleAlreadyRecorded,
    HoleGone,
    HoleNotFound,
    IdempotencyConflict,
    MatchFinished,
    NothingToUndo,
    PlayoffHolesStale,
    PlayoffNotPending,
    RulesFrozen,
    SeatNotFound,
    StaleVersion,
)
from scoring.models import (
    ChangeAction,
    Game,
    GameChange,
    GameStatus,
    Hole,
    HoleEntry,
    IdempotencyKey,
    Player,
    Seat,
)
from scoring.names import MAX_NAME_LENGTH, InvalidName, clean_name, name_key
from scoring.rules import (
    PlayerEntry,
    Ruleset,
    check_table_cards,
    dealer_for_hole,
    format_grid,
    match_over,
    parse_grid,
    resolve_ruleset,
    score_hole,
)
from scoring.rules.errors import Problem, RulesError
from scoring.selectors import (
    HoleLine,
    MatchState,
    change_origin,
    game_ruleset,
    hole_line,
    match_state,
    redo_target_change,
    undo_target_change,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "IdempotentReplay",
    "create_game",
    "delete_game",
    "game_rename",
    "hole_delete",
    "hole_record",
    "hole_record_by_edit_token",
    "hole_update",
    "player_create",
    "player_delete",
    "player_rename",
    "redo_change",
    "seat_add",
    "seat_remove",
    "seat_rename",
    "set_game_ruleset",
    "undo_last_change",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 12
MAX_NAME = MAX_NAME_LENGTH
_ROSTER_ATTEMPTS = 3  # a roster row deleted between our insert and our read: insert again
MAX_HOLES = 500  # far beyond any real match; keeps renumbering offsets safe
_RENUMBER_OFFSET = 1000

EntryInput = Sequence[Sequence[str]] | int | Mapping[str, Any]


class IdempotentReplay(Exception):
    """Raised by `hole_record` when its Idempotency-Key was already used for the same request.

    Nothing is written; `record` holds the hole first created and the response first given.
    """

    def __init__(self, record: IdempotencyKey) -> None:
        super().__init__(record.key)
        self.record = record


# --------------------------------------------------------------------------------------------
# Games and seats


def create_game(
    *,
    players: Sequence[str],
    ruleset: str | Mapping[str, Any] | Ruleset = "official",
    first_dealer: int = 0,
    owner: AbstractBaseUser | None = None,
    title: str = "",
    tokens: tuple[str, str] | None = None,
    start_key: str | None = None,
) -> Game:
    """Create a game with `players` in seat order (clockwise) under `ruleset` (preset or overrides).

    `first_dealer` is the seat index (0-based) of the first hole's dealer. A logged-in `owner` is
    recorded (and their roster of players reused by name, as `scoring.names` compares names). The
    game gets unguessable edit and view tokens; `tokens` (edit, view) fixes them instead, for demo
    data with a known link only. A `start_key` (the start form's random key) already used answers
    the game it started and creates nothing, even for two requests at the same moment: the key is
    unique in the database. Raises `GameError` naming every problem at once: names, first dealer,
    title and ruleset.
    """
    problems: list[Problem] = []
    names: list[str] = []
    try:
        names = _clean_names(players)
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
    if len(title) > 80:
        problems.append(Problem("title", _("The title is too long (80 characters at most).")))
    resolved: Ruleset | None = None
    try:
        resolved = resolve_ruleset(ruleset)
    except RulesError as error:
        problems.extend(error.problems)
    if problems or resolved is None:
        raise GameError(problems)
    owner = owner if owner is not None and owner.is_authenticated else None
    start_key = start_key or None
    if start_key is not None and (started := Game.objects.filter(start_key=start_key).first()):
        return started
    try:
        with transaction.atomic():
            # The game row first: a second request with the same start key waits here on the
            # unique index until the first commits, then fails before writing anything else.
            game = Game(
                title=title,
                owner=owner,
                ruleset=resolved.to_dict(),
                first_dealer=first_dealer,
                start_key=start_key,
            )
            if tokens is not None:
                game.edit_token, game.view_token = tokens
            game.save()
            roster = _roster_players(owner, names)
            Seat.objects.bulk_create(
                Seat(game=game, player=roster[name], seat=index, name=name, name_key=name_key(name))
                for index, name in enumerate(names)
            )
    except IntegrityError:
        started = Game.objects.filter(start_key=start_key).first() if start_key is not None else None
        if started is None:
            raise
        return started  # the same start form, submitted twice at once: the first one's game
    return game


def set_game_ruleset(game: Game, ruleset: str | Mapping[str, Any] | Ruleset, *, actor: str = "") -> Game:
    """Change the ruleset of a game whose first hole is not yet recorded.

    Raises `RulesFrozen` once cards have been dealt (seed 001: the rules cannot be changed once the
    cards have been dealt), `RulesetError` for a bad ruleset.
    """
    resolved = resolve_ruleset(ruleset)
    with transaction.atomic():
        locked = _lock_game(game)
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
            game=locked, action=ChangeAction.RULESET, actor=actor[:80], before=before, after=locked.ruleset
        )
        _refresh(locked)
    _copy_state(locked, game)
    return game


def game_rename(game: Game, title: str) -> Game:
    """Give a game a new title (80 characters at most)."""
    title = (title or "").strip()
    if len(title) > 80:
        raise GameError(Problem("title", _("The title is too long (80 characters at most).")))
    with transaction.atomic():
        locked = _lock_game(game)
        locked.title = title
        locked.save(update_fields=["title", "updated_at"])
        Game.objects.filter(pk=locked.pk).update(version=F("version") + 1)
        locked.refresh_from_db(fields=["version"])
    _copy_state(locked, game)
    return game


def delete_game(game: Game) -> None:
    """Delete a game with all its holes, entries and history."""
    with transaction.atomic():
        _lock_game(game).delete()


def seat_add(game: Game, name: str, *, actor: str = "") -> Seat:
    """Add a player in the next seat (clockwise after the last) before the first hole is recorded."""
    with transaction.atomic():
        locked = _lock_game(game)
        _refuse_when_dealt(locked, "players", _("Players cannot join once the cards have been dealt."))
        seats = list(locked.seats.order_by("seat"))
        if len(seats) >= MAX_PLAYERS:
            raise GameError(Problem("name", _("A table holds %(n)s players at most.") % {"n": MAX_PLAYERS}))
        (clean,) = _clean_names([name], where="name", minimum=1)
        _refuse_taken_name(seats, clean, "name")
        player = _roster_players(locked.owner, [clean])[clean]  # Seat.save() sets the name key
        seat = Seat.objects.create(game=locked, player=player, seat=len(seats), name=clean)
        _refresh(locked)
    _copy_state(locked, game)
    return seat


def seat_rename(game: Game, seat_index: int, name: str) -> Seat:
    """Rename the player in seat `seat_index` (0-based); allowed at any time."""
    with transaction.atomic():
        locked = _lock_game(game)
        seats = list(locked.seats.order_by("seat"))
        seat = _seat_at(seats, seat_index)
        (clean,) = _clean_names([name], where="name", minimum=1)
        _refuse_taken_name([s for s in seats if s.pk != seat.pk], clean, "name")
        seat.name = clean
        seat.save(update_fields=["name"])  # and its name key (NamedModel.save)
        _refresh(locked)
    _copy_state(locked, game)
    return seat


def seat_remove(game: Game, seat_index: int, *, expected_id: int | None = None) -> None:
    """Remove the player in seat `seat_index` before the first hole; later seats move up one.

    With `expected_id` (the seat the client read), a repeat once that player is gone raises
    `StaleVersion` instead of removing whoever moved up into the seat.
    """
    with transaction.atomic():
        locked = _lock_game(game)
        _refuse_when_dealt(locked, "seat", _("Players cannot leave once the cards have been dealt."))
        seats = list(locked.seats.order_by("seat"))
        seat = _seat_at(seats, seat_index)
        if expected_id is not None and seat.pk != expected_id:
            raise StaleVersion(
                Problem(
                    "If-Match",
                    _(
                        "Seat %(n)s is not the player you loaded (%(name)s sits there now): that player "
                        "was already removed or the seats moved. Nothing was changed."
                    )
                    % {"n": seat_index, "name": seat.name},
                )
            )
        if len(seats) <= MIN_PLAYERS:
            raise GameError(Problem("seat", _("A game needs at least %(n)s players.") % {"n": MIN_PLAYERS}))
        seat.delete()
        later = [s for s in seats if s.seat > seat_index]
        for moved in later:  # ascending, so each target seat is already free
            moved.seat -= 1
            moved.save(update_fields=["seat"])
        # The same person keeps the first deal; if they left, the next seat clockwise takes it.
        dealer = locked.first_dealer - 1 if locked.first_dealer > seat_index else locked.first_dealer
        dealer = dealer if dealer < len(seats) - 1 else 0
        if dealer != locked.first_dealer:
            locked.first_dealer = dealer
            locked.save(update_fields=["first_dealer", "updated_at"])
        _refresh(locked)
    _copy_state(locked, game)


# --------------------------------------------------------------------------------------------
# Holes


def hole_record(
    game: Game,
    *,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    playoff: bool = False,
    blocks_marked: Mapping[str, int] | None = None,
    actor: str = "",
    idempotency_key: str | None = None,
    request_hash: str | None = None,
    respond: Callable[[HoleLine], tuple[int, Any]] | None = None,
    expected_number: int | None = None,
) -> Hole:
    """Record the next hole (or the next playoff hole) and return it.

    `entries` maps each player's name to their final grid (rows of card tokens, top row first), a
    typed hole total (int), or a dict {"cards": rows} / {"total": n} with an optional
    "blocks_marked". Every player must have an entry (for a playoff hole: exactly the contenders
    of the pending sudden death). `ender` is the name of the player who ended the hole, or None.
    `blocks_marked` counts four-of-a-kind blocks marked by hand for typed totals.

    The first hole freezes the ruleset. Raises `MatchFinished` when the match is over,
    `PlayoffNotPending` for a playoff hole no tie calls for, `RulesError`s from the engine (bad
    card, wrong shape, deck check naming rank and count), `GameError` for unknown/missing players.

    With `idempotency_key` (and the `request_hash` of the request body): a key seen before for the
    same hash raises `IdempotentReplay` carrying the first response; for another hash
    `IdempotencyConflict`. Two concurrent calls with one key never create two holes. `respond`
    turns the recorded hole into the (status, body) answered, stored with the key in the same
    transaction so that a retry gets exactly that answer.

    With `expected_number` (the hole the client filled in), a game that has moved on meanwhile
    raises `HoleAlreadyRecorded` (409): checked under the game lock, so of two phones saving the
    same hole exactly one records it. A replayed key is answered before this check.
    """
    hole = _record_hole(
        {"id": game.pk},
        caller=game,
        entries=entries,
        ender=ender,
        playoff=playoff,
        blocks_marked=blocks_marked,
        actor=actor,
        idempotency_key=idempotency_key,
        request_hash=request_hash or "",
        respond=respond,
        expected_number=expected_number,
    )
    if hole is None:
        raise Game.DoesNotExist(f"Game {game.pk} no longer exists.")
    return hole


def hole_record_by_edit_token(
    edit_token: str,
    *,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    playoff: bool = False,
    blocks_marked: Mapping[str, int] | None = None,
    actor: str = "",
    idempotency_key: str | None = None,
    request_hash: str | None = None,
    respond: Callable[[HoleLine], tuple[int, Any]] | None = None,
    expected_number: int | None = None,
) -> Hole | None:
    """`hole_record` for the game whose edit token is `edit_token`; None (nothing written) if none.

    The game is found and locked by one query, so an API request pays no separate lookup.
    """
    if not edit_token or len(edit_token) > 64:
        return None
    return _record_hole(
        {"edit_token": edit_token},
        caller=None,
        entries=entries,
        ender=ender,
        playoff=playoff,
        blocks_marked=blocks_marked,
        actor=actor,
        idempotency_key=idempotency_key,
        request_hash=request_hash or "",
        respond=respond,
        expected_number=expected_number,
    )


def hole_update(
    game: Game,
    number: int,
    *,
    expected_version: int | None,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    blocks_marked: Mapping[str, int] | None = None,
    actor: str = "",
    playoff: bool = False,
    expected_id: int | None = None,
    partial: bool = False,
    keep_ender: bool = False,
) -> Hole:
    """Replace the entries (and ender) of hole `number`, if it is still the hole the client read.

    With `partial`, `entries` (and `blocks_marked`) hold only the players who change: they are laid
    over the hole's entries as they are under the lock, so a concurrent change to another player is
    never written back with its old value. `keep_ender` keeps the hole's ender as it is then.

    `expected_id` and `expected_version` name the hole the client read (its ETag): a hole renumbered
    since (another was deleted) or changed since raises `StaleVersion` (`HoleGone` when that hole no
    longer exists). `expected_version=None` (If-Match: *) replaces whatever is current. The check is
    one conditional UPDATE under the game lock. The same players must have entries as before. The
    history keeps the before and after states.
    """
    with transaction.atomic():
        locked = _lock_game(game)
        ruleset = game_ruleset(locked)
        seats = list(locked.seats.order_by("seat"))
        hole = _named_hole(locked, number, playoff, expected_id)
        _bump_hole_version(hole, expected_version)
        before = _snapshot(hole)
        playing = {entry["seat"] for entry in before["entries"]}
        players = [s for s in seats if s.seat in playing]
        if partial:
            entries = _laid_over_snapshot(before, entries)
        if keep_ender:
            ender = before["ender"]
        scored, ender_seat = _score(seats, players, ruleset, entries, ender, blocks_marked)
        _replace_entries(hole, scored, ender_seat)
        after = _snapshot(hole)
        _log(locked, ChangeAction.UPDATE, hole, actor, before=before, after=after)
        _refresh(locked)
    _copy_state(locked, game)
    hole.refresh_from_db()
    return hole


def _laid_over_snapshot(snapshot: Mapping[str, Any], changes: Mapping[str, EntryInput]) -> dict[str, Any]:
    """The snapshot's entries as `_score` takes them, with `changes` (names matched ignoring case)
    in place of those players' entries; unknown names are kept so that `_score` names them."""
    merged: dict[str, Any] = {}
    for entry in snapshot["entries"]:
        if entry["cards"] is not None:
            merged[entry["name"]] = {"cards": entry["cards"]}
        else:
            merged[entry["name"]] = {"total": entry["total"]}
            if entry["blocks_marked"]:
                merged[entry["name"]]["blocks_marked"] = entry["blocks_marked"]
    canonical = {name_key(name): name for name in merged}
    for name, value in changes.items():
        merged[canonical.get(name_key(str(name)), str(name))] = value
    return merged


def hole_delete(
    game: Game,
    number: int,
    *,
    expected_version: int | None = None,
    actor: str = "",
    playoff: bool = False,
    expected_id: int | None = None,
) -> None:
    """Delete hole `number`; later holes move down one number. Undo brings it back.

    `expected_id` and `expected_version` name the hole the client read: once it is deleted, a
    repeat raises `HoleGone` and never deletes the hole that took its number. A hole changed since
    raises `StaleVersion`.
    """
    with transaction.atomic():
        locked = _lock_game(game)
        hole = _named_hole(locked, number, playoff, expected_id)
        if expected_version is not None:
            _bump_hole_version(hole, expected_version)
        _remove_hole(locked, hole, actor, action=ChangeAction.DELETE)
        _refresh(locked)
    _copy_state(locked, game)


def undo_last_change(game: Game, *, actor: str = "", expected_change: int | None = None) -> GameChange:
    """Revert the latest hole change not yet undone, and record the undo as a change itself.

    Undoing a recorded hole deletes it, undoing an edit restores the state before it, undoing a
    delete puts the hole back at its number; undoing a redo reverts it again. Tapping again walks
    further back. `expected_change` is the id of the change the client saw as the one to undo: a
    resent form or retried request then raises `ChangeNotCurrent` (with `already=True` when that
    change is already undone) instead of undoing one more. Raises `NothingToUndo` when none is left.
    """
    return _revert_latest(game, actor=actor, expected_change=expected_change, redo=False)


def redo_change(game: Game, *, actor: str = "", expected_change: int | None = None) -> GameChange:
    """Apply again the change the latest undo reverted, and record the redo as a change itself.

    Redo is offered until a new hole is recorded, edited or deleted; after several undos, redo
    walks forward again. `expected_change` is the id of the undo the client saw as the one to redo
    (a repeat raises `ChangeNotCurrent`). Raises `NothingToUndo` when there is nothing to redo.
    """
    return _revert_latest(game, actor=actor, expected_change=expected_change, redo=True)


def _revert_latest(game: Game, *, actor: str, expected_change: int | None, redo: bool) -> GameChange:
    """One transaction: revert the undo target (or, for `redo`, the redo target), logged as a change."""
    with transaction.atomic():
        locked = _lock_game(game)
        target = redo_target_change(locked) if redo else undo_target_change(locked)
        _check_named_change(locked, target, expected_change, redo=redo)
        if target is None:
            message = _("There is nothing to redo.") if redo else _("There is no change to undo.")
            raise NothingToUndo(Problem("redo" if redo else "undo", message))
        change = _apply_transition(
            locked,
            change_origin(target),
            forward=redo,
            actor=actor,
            action=ChangeAction.REDO if redo else ChangeAction.UNDO,
            reverts=target,
        )
        _refresh(locked)
    _copy_state(locked, game)
    return change


def _check_named_change(game: Game, target: GameChange | None, expected: int | None, *, redo: bool) -> None:
    """Refuse an undo or redo that names another change than the one to revert now."""
    if expected is None or (target is not None and target.pk == expected):
        return
    named = GameChange.objects.filter(game=game, pk=expected).select_related("undone_by").first()
    already = False
    if named is not None:
        try:
            already = named.undone_by is not None
        except GameChange.DoesNotExist:
            already = False
    if already:
        message = (
            _("That undo was already redone: nothing more was changed.")
            if redo
            else _("That change was already undone: nothing more was undone.")
        )
    else:
        message = _("The game changed meanwhile: reload it and check what to undo or redo now.")
    raise ChangeNotCurrent(Problem("change", message), already=already)


def _apply_transition(
    game: Game, original: GameChange, *, forward: bool, actor: str, action: str, reverts: GameChange
) -> GameChange:
    """Move hole `original` names from its before state to its after one (forward) or back."""
    ruleset = game_ruleset(game)
    seats = list(game.seats.order_by("seat"))
    playoff = original.is_playoff
    target_state = original.after if forward else original.before
    current_state = original.before if forward else original.after
    number = (target_state or current_state or {}).get("number", original.hole_number)
    if target_state is None:  # the hole goes away (undo a recording, redo a delete)
        hole = _hole(game, number, playoff)
        before, after = _snapshot(hole), None
        hole.delete()
        _shift_holes(game, playoff, after=number, by=-1)
    elif current_state is None:  # the hole comes back (undo a delete, redo a recording)
        _shift_holes(game, playoff, after=number - 1, by=1)
        scored, ender_seat = _rescore_snapshot(seats, ruleset, target_state)
        hole = Hole.objects.create(
            id=_free_hole_id(target_state.get("id")),
            # A version above the one it had, so a validator read before it went away never matches.
            version=int(target_state.get("version") or 0) + 1,
            game=game,
            number=number,
            is_playoff=playoff,
            dealer_seat=target_state["dealer_seat"],
            ender=ender_seat,
            created_by=target_state.get("created_by", ""),
        )
        _replace_entries(hole, scored, ender_seat, fresh=True)
        before, after = None, _snapshot(hole)
    else:  # an edit: put the other entries back
        hole = _hole(game, number, playoff)
        before = _snapshot(hole)
        Hole.objects.filter(pk=hole.pk).update(version=F("version") + 1, updated_at=timezone.now())
        scored, ender_seat = _rescore_snapshot(seats, ruleset, target_state)
        _replace_entries(hole, scored, ender_seat)
        after = _snapshot(hole)
    return GameChange.objects.create(
        game=game,
        action=action,
        hole_number=number,
        is_playoff=playoff,
        actor=actor[:80],
        before=before,
        after=after,
        undoes=reverts,
    )


def _free_hole_id(hole_id: Any) -> int | None:
    """The id a hole had, to give it again when it is put back; None (a new id) if taken or unknown."""
    if not isinstance(hole_id, int) or Hole.objects.filter(pk=hole_id).exists():
        return None
    return hole_id


def _remove_hole(game: Game, hole: Hole, actor: str, *, action: str) -> None:
    """Delete `hole` (logged with its state) and move the later holes down one number."""
    before = _snapshot(hole)
    _log(game, action, hole, actor, before=before, after=None)
    hole.delete()
    _shift_holes(game, hole.is_playoff, after=hole.number, by=-1)


# --------------------------------------------------------------------------------------------
# The roster of a logged-in user


def player_create(owner: AbstractBaseUser, name: str) -> Player:
    """Add a player to `owner`'s roster (one per name as `scoring.names` compares them).

    Two requests adding the same name at once: the database's unique (owner, name key) lets one
    in; the other gets the same `GameError` as a name already there, never an IntegrityError.
    """
    (clean,) = _clean_names([name], where="name", minimum=1)
    key = name_key(clean)
    if Player.objects.filter(owner=owner, name_key=key).exists():
        raise _on_your_list(clean)
    try:
        with transaction.atomic():  # a savepoint when called inside a transaction
            return Player.objects.create(owner=owner, name=clean)
    except IntegrityError:
        if Player.objects.filter(owner=owner, name_key=key).exists():
            raise _on_your_list(clean) from None
        raise


def player_rename(player: Player, name: str) -> Player:
    """Rename a roster player (games already played keep the name used at their table)."""
    (clean,) = _clean_names([name], where="name", minimum=1)
    key = name_key(clean)
    taken = Player.objects.filter(owner=player.owner, name_key=key).exclude(pk=player.pk)
    if taken.exists():
        raise _on_your_list(clean)
    player.name = clean
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError:
        if taken.exists():  # renamed or added to that name at the same moment
            raise _on_your_list(clean) from None
        raise
    return player


def player_delete(player: Player) -> None:
    """Remove a player from the roster; their seats in past games keep the name."""
    with transaction.atomic():
        player.delete()


# --------------------------------------------------------------------------------------------
# Internals


@dataclass(frozen=True)
class _ScoredEntry:
    seat: Seat
    cards: list[list[str]] | None
    typed_total: int | None
    blocks_marked: int
    grid_score: int
    adjustments: list[dict[str, Any]]
    score: int


def _lock_game(game: Game) -> Game:
    """The game row, locked until the transaction ends (every writer takes this lock first)."""
    return Game.objects.select_for_update().get(pk=game.pk)


def _copy_state(source: Game, target: Game) -> None:
    """Refresh the caller's Game instance with the state just committed."""
    if source is target:
        return
    for field in ("title", "ruleset", "ruleset_frozen_at", "first_dealer", "version", "status", "winners"):
        setattr(target, field, getattr(source, field))
    target.updated_at = source.updated_at


def _clean_names(names: Iterable[str], *, where: str = "players", minimum: int = MIN_PLAYERS) -> list[str]:
    """Clean and check player names (`scoring.names`): something visible, not too long, all different.

    "Different" as people read names: case, full-width letters and accents typed precomposed or
    not do not make two players. Every name that enters the database comes through here.
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise GameError(Problem(where, _("Give the players as a list of names in seat order.")))
    cleaned: list[str] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, raw in enumerate(names):
        spot = f"{where}[{index + 1}]" if where == "players" else where
        try:
            name = clean_name(raw)
        except InvalidName as bad:
            problems.append(Problem(spot, _name_problem(bad, index + 1)))
            continue
        key = name_key(name)
        if key in seen:
            problems.append(
                Problem(spot, _("%(name)s is already at the table: names must differ.") % {"name": name})
            )
        seen.add(key)
        cleaned.append(name)
    if not problems and not minimum <= len(cleaned) <= MAX_PLAYERS:
        problems.append(
            Problem(
                where,
                _("A game needs %(min)s to %(max)s players; %(n)s given.")
                % {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "n": len(cleaned)},
            )
        )
    if problems:
        raise GameError(problems)
    return cleaned


def _name_problem(bad: InvalidName, seat: int) -> str:
    """The message for a name `clean_name` refused, naming the seat."""
    if bad.reason == "too_long":
        return _("The name %(name)s is too long (%(max)s characters at most).") % {
            "name": bad.name[:MAX_NAME] + "\u2026",
            "max": MAX_NAME,
        }
    if bad.typed:  # something was typed, but only spaces and characters that show nothing
        return _("Seat %(n)s needs a name: this one has no visible characters.") % {"n": seat}
    return _("Seat %(n)s needs a name.") % {"n": seat}


def _on_your_list(name: str) -> GameError:
    return GameError(Problem("name", _("%(name)s is already on your list.") % {"name": name}))


def _roster_players(owner: AbstractBaseUser | None, names: Sequence[str]) -> dict[str, Player]:
    """The Player for each (clean) name: the owner's roster entry, created when new, or a table-only one.

    Roster entries match by name key. Two games started at once by one owner with the same new
    name both insert it with ON CONFLICT DO NOTHING (PostgreSQL waits for the other insert to
    commit or roll back), then read it back: both games share one roster Player, and neither the
    caller's transaction nor its savepoints see an IntegrityError.
    """
    now = timezone.now()
    if owner is None:
        created = Player.objects.bulk_create(
            Player(name=name, name_key=name_key(name), last_played_at=now) for name in names
        )
        return dict(zip(names, created, strict=True))
    keys = {name: name_key(name) for name in names}
    for attempt in range(_ROSTER_ATTEMPTS):
        found = {p.name_key: p for p in Player.objects.filter(owner=owner, name_key__in=keys.values())}
        missing = [name for name in names if keys[name] not in found]
        if not missing:
            break
        if attempt == _ROSTER_ATTEMPTS - 1:  # deleted again each time we read: give up cleanly
            raise ConcurrentWrite(Problem("players", _("Your list of players changed meanwhile: try again.")))
        Player.objects.bulk_create(
            (Player(owner=owner, name=name, name_key=keys[name], last_played_at=now) for name in missing),
            ignore_conflicts=True,
        )
    result = {name: found[keys[name]] for name in names}
    Player.objects.filter(pk__in=[p.pk for p in result.values()]).update(last_played_at=now)
    return result


def _refuse_when_dealt(game: Game, where: str, message: str) -> None:
    if game.holes.exists():
        raise RulesFrozen(Problem(where, message))


def _refuse_taken_name(seats: Sequence[Seat], name: str, where: str) -> None:
    if any(s.name_key == name_key(name) for s in seats):
        raise GameError(
            Problem(where, _("%(name)s is already at the table: names must differ.") % {"name": name})
        )


def _seat_at(seats: Sequence[Seat], index: int) -> Seat:
    for seat in seats:
        if seat.seat == index:
            return seat
    raise SeatNotFound(Problem("seat", _("There is no seat %(n)s at this table.") % {"n": index + 1}))


def _hole(game: Game, number: int, playoff: bool) -> Hole:
    hole = Hole.objects.filter(game=game, number=number, is_playoff=playoff).select_related("ender").first()
    if hole is None:
        label = _("playoff hole") if playoff else _("hole")
        raise HoleNotFound(
            Problem("number", _("This game has no %(label)s %(n)s.") % {"label": label, "n": number})
        )
    return hole


def _named_hole(game: Game, number: int, playoff: bool, expected_id: int | None) -> Hole:
    """Hole `number`, checked to be the hole the client read (`expected_id`) when it names one.

    Holes keep their id when renumbered, so an old form or ETag never reaches another hole.
    """
    if expected_id is None:
        return _hole(game, number, playoff)
    hole = Hole.objects.filter(game=game, pk=expected_id).select_related("ender").first()
    label = _("playoff hole") if playoff else _("hole")
    if hole is None:
        raise HoleGone(
            Problem(
                "If-Match",
                _("That %(label)s was already deleted (or undone): nothing was changed.") % {"label": label},
            )
        )
    if hole.number != number or hole.is_playoff != playoff:
        raise StaleVersion(
            Problem(
                "If-Match",
                _(
                    "The %(label)s you loaded is now %(hole)s (holes were renumbered meanwhile). "
                    "Reload and make your change again."
                )
                % {"label": label, "hole": str(hole)},
            )
        )
    return hole


def _bump_hole_version(hole: Hole, expected_version: int | None) -> None:
    """The optimistic-concurrency check: one UPDATE ... WHERE id = ? AND version = ?.

    `expected_version=None` (If-Match: *) bumps whatever version is current, under the game lock.
    """
    rows = Hole.objects.filter(pk=hole.pk)
    if expected_version is not None:
        rows = rows.filter(version=expected_version)
    changed = rows.update(version=F("version") + 1, updated_at=timezone.now())
    if changed == 0:
        current = Hole.objects.filter(pk=hole.pk).values_list("version", flat=True).first()
        raise StaleVersion(
            Problem(
                "version",
                _(
                    "%(hole)s was changed by someone else since you loaded it (your version %(yours)s, "
                    "now %(now)s). Reload it and make your change again."
                )
                % {"hole": str(hole), "yours": expected_version, "now": current},
            )
        )


def _state(game: Game, seats: Sequence[Seat], ruleset: Ruleset) -> MatchState:
    rows = HoleEntry.objects.filter(hole__game=game).values_list(
        "seat_id", "hole__is_playoff", "hole__number", "score"
    )
    return match_state(ruleset, seats, rows)


def _record_hole(
    game_lookup: dict[str, Any],
    *,
    caller: Game | None,
    idempotency_key: str | None,
    request_hash: str,
    **hole: Any,
) -> Hole | None:
    """One transaction: lock the game found by `game_lookup`, check the key, record the hole."""
    try:
        with transaction.atomic():
            locked, seen_key, seats, hole_id = _lock_game_and_key(game_lookup, idempotency_key)
            if locked is None:
                return None
            if seen_key is not None:
                _replay_or_conflict(IdempotencyKey.objects.get(pk=seen_key), request_hash)
            recorded = _hole_record_locked(
                locked,
                seats=seats,
                hole_id=hole_id,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
                **hole,
            )
    except IntegrityError:
        # The key was stored by a request that committed while this one waited for the lock (its
        # lookup ran before): the unique key refused the second hole. Answer as a retry. Without
        # a key, only reachable when two writers got past the game lock (no row locks).
        if idempotency_key:
            lookup = {f"game__{field}": value for field, value in game_lookup.items()}
            record = IdempotencyKey.objects.filter(key=idempotency_key, **lookup).first()
            if record is not None:
                _replay_or_conflict(record, request_hash)
        raise ConcurrentWrite(
            Problem("hole", _("Another hole was recorded at the same moment. Reload and try again."))
        ) from None
    if caller is not None:
        _copy_state(locked, caller)
    return recorded


# The statements every recorded hole runs are written out (see scoring/db_batch.py for why).

_quote = db_batch.quote
_GAME = _quote(Game._meta.db_table)
_SEAT = _quote(Seat._meta.db_table)
_KEY = _quote(IdempotencyKey._meta.db_table)


def _lock_game_and_key(
    game_lookup: dict[str, Any], idempotency_key: str | None
) -> tuple[Game | None, int | None, list[Seat], int | None]:
    """The game row, locked until the transaction ends, the id of `idempotency_key` if it was used
    on this game before, the game's seats in seat order, and (on PostgreSQL) the next hole's id.

    Two statements in one round trip where the driver allows it: the seats are read by the second,
    after the lock is held, so they are current even when this waited for another writer.
    """
    ((name, value),) = game_lookup.items()
    column = _quote(Game._meta.get_field(name).column)
    seen = f"(SELECT k.id FROM {_KEY} k WHERE k.game_id = g.id AND k.{_quote('key')} = %s)"
    found = seen if idempotency_key else "NULL"
    lock = f"SELECT g.*, {found} AS seen_key FROM {_GAME} g WHERE g.{column} = %s"
    db = db_batch.current()
    if db.features.has_select_for_update:
        lock += " FOR UPDATE"
    game_id = f"(SELECT id FROM {_GAME} WHERE {column} = %s)"
    seats = f"SELECT * FROM {_SEAT} WHERE game_id = {game_id} ORDER BY seat"
    lock_params = [idempotency_key, value] if idempotency_key else [value]
    hole_id: int | None = None
    with db.cursor() as cursor:
        if db_batch.sends_at_once(db):
            # A third statement takes the next hole id, so that the hole's INSERT can go out
            # with the other writes (unused if nothing is recorded, as after any rollback).
            next_hole = f"SELECT nextval(pg_get_serial_sequence('{Hole._meta.db_table}', 'id'))"
            cursor.execute(f"{lock}; {seats}; {next_hole}", [*lock_params, value])
            games = db_batch.instances(Game, cursor)
            cursor.nextset()
            table = db_batch.instances(Seat, cursor)
            cursor.nextset()
            (hole_id,) = cursor.fetchone()
        else:
            cursor.execute(lock, lock_params)
            games = db_batch.instances(Game, cursor)
            cursor.execute(seats, [value])
            table = db_batch.instances(Seat, cursor)
    if not games:
        return None, None, [], None
    return games[0], games[0].seen_key, table, hole_id


def _hole_record_locked(
    locked: Game,
    *,
    seats: list[Seat],
    hole_id: int | None,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    playoff: bool,
    blocks_marked: Mapping[str, int] | None,
    actor: str,
    idempotency_key: str | None,
    request_hash: str,
    respond: Callable[[HoleLine], tuple[int, Any]] | None,
    expected_number: int | None,
) -> Hole:
    ruleset = game_ruleset(locked)
    # The usual case, a regular hole of a match in progress, needs no other hole: every seat played
    # every regular hole, so the stored counts give the number and the stored totals grow by this
    # hole's scores. Playoff holes and refusals take the full state, recomputed from the entries.
    incremental = not playoff and locked.status == GameStatus.IN_PROGRESS
    if incremental:
        regular_holes, playoff_holes = max((s.holes_played for s in seats), default=0), 0
        players = seats
    else:
        state = _state(locked, seats, ruleset)
        regular_holes, playoff_holes = state.regular_holes, state.playoff_holes
        next_number = playoff_holes + 1 if playoff else regular_holes + 1
        if expected_number is not None and expected_number != next_number:
            # Said first: the hole saved meanwhile may be the one that ended the match or the tie.
            _refuse_moved_on(locked, expected_number, next_number, playoff, idempotency_key, request_hash)
        if playoff:
            if not state.contenders:
                raise PlayoffNotPending(
                    Problem(
                        "playoff",
                        _("No sudden death is pending: a playoff hole is only for a tie for first."),
                    )
                )
            players = [s for s in seats if s.name in state.contenders]
        else:
            if state.over:
                raise MatchFinished(
                    Problem(
                        "hole",
                        _("The match is over (%(reason)s): no more holes.") % {"reason": state.reason},
                    )
                )
            players = seats
    number = playoff_holes + 1 if playoff else regular_holes + 1
    if expected_number is not None and expected_number != number:
        _refuse_moved_on(locked, expected_number, number, playoff, idempotency_key, request_hash)
    if number > MAX_HOLES:
        raise GameError(Problem("hole", _("A game holds %(n)s holes at most.") % {"n": MAX_HOLES}))
    scored, ender_seat = _score(seats, players, ruleset, entries, ender, blocks_marked)
    deal_number = regular_holes + number if playoff else number
    hole = Hole(
        id=hole_id,
        game=locked,
        number=number,
        is_playoff=playoff,
        dealer_seat=dealer_for_hole(locked.first_dealer, deal_number, len(seats)),
        ender=ender_seat,
        created_by=actor[:80],
    )
    writes = db_batch.Writes()  # nothing written returns anything we need: sent together
    db_batch.insert([hole], returning_pk=hole_id is None, writes=writes)
    created = _replace_entries(hole, scored, ender_seat, fresh=True, writes=writes)
    _log(
        locked,
        ChangeAction.CREATE,
        hole,
        actor,
        before=None,
        after=_snapshot_of(hole, created),
        writes=writes,
    )
    if incremental:
        _add_regular_hole(locked, seats, scored, ruleset, number, writes)
    else:
        writes.send()
        if not locked.is_frozen:
            locked.ruleset_frozen_at = timezone.now()
            locked.save(update_fields=["ruleset_frozen_at", "updated_at"])
        _refresh(locked)
    answer: tuple[int | None, Any] = (None, None)
    if respond is not None:
        answer = respond(hole_line(hole, created, seats))
    if idempotency_key:
        record = IdempotencyKey(
            game=locked,
            key=idempotency_key,
            request_hash=request_hash,
            hole=hole,
            response_status=answer[0],
            response_body=answer[1],
        )
        db_batch.insert([record], writes=writes)
    writes.send()
    return hole


def _refuse_moved_on(
    game: Game, expected: int, number: int, playoff: bool, idempotency_key: str | None, request_hash: str
) -> None:
    """The client filled in hole `expected`, the game now expects hole `number`: say which.

    Unless the hole that moved the game on was this very request, sent again while the first copy
    was in flight: the key is read again here because the locking query's own look-up ran before
    it waited for the lock, so it cannot see a key committed meanwhile.
    """
    if idempotency_key:
        record = IdempotencyKey.objects.filter(game=game, key=idempotency_key).first()
        if record is not None:
            _replay_or_conflict(record, request_hash)
    label = _("Playoff hole %(n)s") if playoff else _("Hole %(n)s")
    if expected < number:
        message = _(
            "%(hole)s was just saved by someone else, so yours was not saved. Check the scoreboard; "
            "the next hole is %(next)s."
        ) % {"hole": label % {"n": expected}, "next": number}
    else:
        message = _("%(hole)s cannot be saved yet: the next hole to score is %(next)s.") % {
            "hole": label % {"n": expected},
            "next": number,
        }
    raise HoleAlreadyRecorded(Problem("number", message), saved_number=expected, next_number=number)


def _add_regular_hole(
    game: Game,
    seats: Sequence[Seat],
    scored: Sequence[_ScoredEntry],
    ruleset: Ruleset,
    number: int,
    writes: db_batch.Writes,
) -> None:
    """Add a new regular hole's scores to the stored totals (two UPDATEs) and settle the match.

    Under the game lock the seats read are current, so the totals in memory are those stored. Only
    when the match may end with this hole are every hole's scores read, for the tiebreaks.
    """
    scores = {entry.seat.pk: entry.score for entry in scored}
    for seat in seats:
        seat.total += scores[seat.pk]
        seat.holes_played += 1
    over, _reason = match_over(ruleset, number, {seat.name: seat.total for seat in seats})
    status, winners = GameStatus.IN_PROGRESS, ()
    if over:
        writes.send()  # the new hole's entries, read back with every other hole
        state = _state(game, seats, ruleset)
        status, winners = state.status, state.winners
    whens = " ".join("WHEN %s THEN %s" for _ in scores)
    writes.add(
        f"UPDATE {_SEAT} SET total = total + CASE id {whens} ELSE 0 END, holes_played = holes_played + 1 "
        "WHERE game_id = %s",
        [*(value for pair in scores.items() for value in pair), game.pk],
    )
    now = timezone.now()
    changes: dict[str, Any] = {"status": status, "winners": list(winners), "updated_at": now}
    if not game.is_frozen:
        changes["ruleset_frozen_at"] = now  # the first hole freezes the rules
    fields = [Game._meta.get_field(name) for name in changes]
    db = db_batch.current()
    writes.add(
        f"UPDATE {_GAME} SET version = version + 1, "
        + ", ".join(f"{_quote(field.column)} = %s" for field in fields)
        + " WHERE id = %s",
        [*(field.get_db_prep_save(changes[field.name], db) for field in fields), game.pk],
    )
    for name, value in changes.items():
        setattr(game, name, value)
    game.version += 1  # read under the lock: exactly the stored value now


def _replay_or_conflict(record: IdempotencyKey, request_hash: str) -> None:
    if record.request_hash != request_hash:
        raise IdempotencyConflict(
            Problem(
                "Idempotency-Key",
                _("This Idempotency-Key was already used for a different request body: use a new key."),
            )
        )
    raise IdempotentReplay(record)


def _parse_entry(value: Any, where: str) -> tuple[list[list[str]] | None, int | None, int | None]:
    """(cards, typed total, blocks marked from the entry itself) from one entry's input."""
    blocks: int | None = None
    if isinstance(value, Mapping):
        known = {"cards", "total", "blocks_marked"}
        unknown = sorted(set(value) - known)
        if unknown:
            raise GameError(Problem(f"{where}.{unknown[0]}", _("Unknown field %(f)s.") % {"f": unknown[0]}))
        if ("cards" in value) == ("total" in value):
            raise GameError(Problem(where, _("Give either the cards or a typed total, not both or neither.")))
        blocks = value.get("blocks_marked")
        value = value["cards"] if "cards" in value else value["total"]
    if isinstance(value, bool):
        raise GameError(Problem(where, _("A hole total must be a whole number.")))
    if isinstance(value, int):
        return None, value, blocks
    if isinstance(value, (list, tuple)):
        return [list(row) if isinstance(row, (list, tuple)) else row for row in value], None, blocks
    raise GameError(Problem(where, _("Give the grid as rows of cards, or the hole total as a number.")))


def _score(
    seats: Sequence[Seat],
    players: Sequence[Seat],
    ruleset: Ruleset,
    entries: Mapping[str, EntryInput],
    ender: str | None,
    blocks_marked: Mapping[str, int] | None,
) -> tuple[list[_ScoredEntry], Seat | None]:
    """Check the input against the table and score it with the engine (deck check included)."""
    if not isinstance(entries, Mapping):
        raise GameError(
            Problem("entries", _("Give the entries as a mapping of player name to grid or total."))
        )
    by_key = {name_key(s.name): s for s in seats}  # entries match players as names are compared
    wanted = {s.pk for s in players}
    problems: list[Problem] = []
    given: dict[int, tuple[str, Any]] = {}
    for name, value in entries.items():
        seat = by_key.get(name_key(str(name)))
        if seat is None:
            problems.append(
                Problem(f"entries.{name}", _("No player named %(name)s at this table.") % {"name": name})
            )
        elif seat.pk not in wanted:
            problems.append(
                Problem(
                    f"entries.{name}", _("%(name)s is not playing this playoff hole.") % {"name": seat.name}
                )
            )
        else:
            given[seat.pk] = (seat.name, value)
    for seat in players:
        if seat.pk not in given:
            problems.append(
                Problem(f"entries.{seat.name}", _("%(name)s has no entry.") % {"name": seat.name})
            )
    blocks_input = dict(blocks_marked or {})
    blocks_by_seat: dict[int, int] = {}
    for name, count in blocks_input.items():
        seat = by_key.get(name_key(str(name)))
        if seat is None or seat.pk not in wanted:
            problems.append(
                Problem(f"blocks_marked.{name}", _("No player named %(name)s in this hole.") % {"name": name})
            )
        elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(Problem(f"blocks_marked.{name}", _("The number of blocks must be 0 or more.")))
        else:
            blocks_by_seat[seat.pk] = count
    ender_seat: Seat | None = None
    if ender not in (None, ""):
        ender_seat = by_key.get(name_key(str(ender)))
        if ender_seat is None or ender_seat.pk not in wanted:
            problems.append(Problem("ender", _("No player named %(name)s in this hole.") % {"name": ender}))
    if problems:
        raise GameError(problems)
    engine_entries: list[PlayerEntry] = []
    parsed: dict[int, tuple[list[list[str]] | None, int | None, int]] = {}
    for seat in players:
        name, value = given[seat.pk]
        where = f"entries.{name}"
        try:
            cards, total, own_blocks = _parse_entry(value, where)
            blocks = blocks_by_seat.get(seat.pk, own_blocks or 0)
            if isinstance(blocks, bool) or not isinstance(blocks, int) or blocks < 0:
                raise GameError(
                    Problem(f"{where}.blocks_marked", _("The number of blocks must be 0 or more."))
                )
            grid = parse_grid(cards, where=where, jokers=ruleset.jokers > 0) if cards is not None else None
        except RulesError as error:
            problems.extend(error.problems)
            continue
        parsed[seat.pk] = (format_grid(grid) if grid is not None else None, total, blocks)
        engine_entries.append(PlayerEntry(name=seat.name, grid=grid, total=total, blocks_marked=blocks))
    if problems:
        raise GameError(problems)
    try:
        if len(players) < len(seats):
            # A playoff hole is dealt from the packs of the whole table, not of its contenders.
            grids = {e.name: e.grid for e in engine_entries if e.grid is not None}
            check_table_cards(grids, ruleset, players=len(seats))
        result = score_hole(
            engine_entries,
            ruleset,
            ender=ender_seat.name if ender_seat else None,
            check_decks=len(players) == len(seats),
        )
    except RulesError as error:
        raise type(error)(_as_entries(error.problems)) from None
    by_name = {p.name: p for p in result.players}
    scored = []
    for seat in players:
        cards, total, blocks = parsed[seat.pk]
        score = by_name[seat.name]
        scored.append(
            _ScoredEntry(
                seat=seat,
                cards=cards,
                typed_total=total,
                blocks_marked=blocks,
                grid_score=score.grid_score,
                adjustments=[
                    {"kind": a.kind, "reason": a.reason, "points": a.points, "rule": a.rule}
                    for a in score.adjustments
                ],
                score=score.score,
            )
        )
    return scored, ender_seat


def _as_entries(problems: Iterable[Problem]) -> list[Problem]:
    """The engine's paths ("grids.ann[1][2]") named as in our input ("entries.ann[1][2]")."""
    return [
        Problem("entries" + p.where[len("grids") :], p.message) if p.where.startswith("grids") else p
        for p in problems
    ]


def _replace_entries(
    hole: Hole,
    scored: Sequence[_ScoredEntry],
    ender: Seat | None,
    *,
    fresh: bool = False,
    writes: db_batch.Writes | None = None,
) -> list[HoleEntry]:
    """Write the hole's entries (replacing any) and its ender; answer the entries created."""
    if not fresh:
        hole.entries.all().delete()
        if hole.ender_id != (ender.pk if ender else None):
            Hole.objects.filter(pk=hole.pk).update(ender=ender)
            hole.ender = ender
    created = [
        HoleEntry(
            hole=hole,
            seat=s.seat,
            cards=s.cards,
            typed_total=s.typed_total,
            blocks_marked=s.blocks_marked,
            grid_score=s.grid_score,
            adjustments=s.adjustments,
            score=s.score,
        )
        for s in scored
    ]
    db_batch.insert(created, writes=writes)
    return created


def _snapshot(hole: Hole) -> dict[str, Any]:
    """A hole as JSON for the history: enough to restore it (and to show before/after)."""
    return _snapshot_of(hole, list(hole.entries.select_related("seat")))


def _snapshot_of(hole: Hole, entries: Sequence[HoleEntry]) -> dict[str, Any]:
    """The history's JSON of `hole` with these entries (each with its `seat` loaded)."""
    entries = sorted(entries, key=lambda e: e.seat.seat)
    return {
        "id": hole.pk,  # a hole put back by undo or redo keeps its id (its ETag, a retry's key)
        "version": hole.version,
        "number": hole.number,
        "playoff": hole.is_playoff,
        "dealer_seat": hole.dealer_seat,
        "ender": hole.ender.name if hole.ender_id and hole.ender else None,
        "created_by": hole.created_by,
        "entries": [
            {
                "name": e.seat.name,
                "seat": e.seat.seat,
                "cards": e.cards,
                "total": e.typed_total,
                "blocks_marked": e.blocks_marked,
                "grid_score": e.grid_score,
                "adjustments": e.adjustments,
                "score": e.score,
            }
            for e in entries
        ],
    }


def _rescore_snapshot(
    seats: Sequence[Seat], ruleset: Ruleset, snap: Mapping[str, Any]
) -> tuple[list[_ScoredEntry], Seat | None]:
    """Score a hole again from its snapshot (seats are matched by their seat index, names may change)."""
    by_index = {s.seat: s for s in seats}
    if any(e["seat"] not in by_index for e in snap["entries"]):
        raise ChangeNotCurrent(
            Problem(
                "change",
                _("The players at the table changed since this hole was recorded: it cannot be put back."),
            ),
            already=False,
        )
    players = [by_index[e["seat"]] for e in snap["entries"]]
    entries = {
        by_index[e["seat"]].name: {"cards": e["cards"]} if e["cards"] is not None else {"total": e["total"]}
        for e in snap["entries"]
    }
    blocks = {by_index[e["seat"]].name: e["blocks_marked"] for e in snap["entries"]}
    ender_name = None
    if snap.get("ender"):
        ender_seat = next((e["seat"] for e in snap["entries"] if e["name"] == snap["ender"]), None)
        ender_name = by_index[ender_seat].name if ender_seat is not None else None
    return _score(seats, players, ruleset, entries, ender_name, blocks)


def _shift_holes(game: Game, playoff: bool, *, after: int, by: int) -> None:
    """Move the holes numbered above `after` by `by` (+1 or -1) without breaking the unique number."""
    later = Hole.objects.filter(game=game, is_playoff=playoff, number__gt=after)
    # Two steps through a free range, since a unique index is checked row by row.
    later.update(number=F("number") + _RENUMBER_OFFSET)
    Hole.objects.filter(game=game, is_playoff=playoff, number__gt=after + _RENUMBER_OFFSET).update(
        number=F("number") - _RENUMBER_OFFSET + by, version=F("version") + 1
    )


def _log(
    game: Game,
    action: str,
    hole: Hole,
    actor: str,
    *,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    writes: db_batch.Writes | None = None,
) -> GameChange:
    change = GameChange(
        game=game,
        action=action,
        hole_number=hole.number,
        is_playoff=hole.is_playoff,
        actor=actor[:80],
        before=before,
        after=after,
    )
    db_batch.insert([change], returning_pk=writes is None, writes=writes)
    return change


def _refresh(game: Game) -> None:
    """Recompute every seat's stored totals and the match status from the entries; bump the version."""
    ruleset = game_ruleset(game)
    seats = list(game.seats.order_by("seat"))
    state = _state(game, seats, ruleset)
    if state.playoff_stale:
        # Raised inside the change's transaction: the change is rolled back, nothing half-done.
        raise PlayoffHolesStale(
            Problem(
                "hole",
                _(
                    "Playoff holes were played to break the tie as it stood; this change would leave them "
                    "deciding a different tie (or none). Delete the playoff holes first (Undo brings them "
                    "back), then make this change."
                ),
            )
        )
    for seat in seats:
        line = state.seats[seat.pk]
        seat.total, seat.holes_played, seat.playoff_total = line.total, line.holes_played, line.playoff_total
    Seat.objects.bulk_update(seats, ["total", "holes_played", "playoff_total"])
    now = timezone.now()
    Game.objects.filter(pk=game.pk).update(
        version=F("version") + 1, status=state.status, winners=list(state.winners), updated_at=now
    )
    game.refresh_from_db(fields=["version", "status", "winners", "updated_at", "ruleset_frozen_at"])
