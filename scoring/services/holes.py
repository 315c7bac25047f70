"""Holes of a live game: record the next one, correct one, delete one; forget old recording keys.

Every function runs in one transaction that locks the game first, gets every score from the rules
engine and recomputes (or, for a regular recorded hole, adds to) the stored totals before it
commits. Bad input raises a `GameError` (or the engine's `RulesError`) naming what is wrong and where;
nothing is written then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Unpack

from django.db import transaction

from scoring.models import (
    ChangeAction,
    Game,
    Hole,
)
from scoring.selectors import (
    game_ruleset,
)
from scoring.services._entry_scoring import EntryInput, entries_laid_over_snapshot, score_entries
from scoring.services._guards import Capabilities, check_hole_policy
from scoring.services._hole_recording import (
    CapabilitiesOfGame,
    HoleToRecord,
    RecordedHole,
    record_hole_in_transaction,
)
from scoring.services._hole_writing import (
    bump_hole_version,
    copy_game_state,
    find_named_hole,
    lock_game,
    log_hole_change,
    refresh_totals_and_status,
    remove_hole_logged,
    snapshot_hole,
    snapshot_with_entries,
    write_hole_entries,
)


def hole_record(game: Game, **hole: Unpack[HoleToRecord]) -> Hole:
    """Record the next hole (or the next playoff hole) and return it.

    The keywords are those of `HoleToRecord` (only `entries` and `ender` are required).
    `entries` maps each player's name to their final grid (rows of card tokens, top row first), a
    typed hole total (int), or a dict {"cards": rows} / {"total": n} with an optional
    "blocks_marked". Every player must have an entry (for a playoff hole: exactly the contenders
    of the pending sudden death). `ender` is the name of the player who ended the hole, or None.
    `blocks_marked` counts four-of-a-kind blocks marked by hand for typed totals.

    The first hole freezes the ruleset. Raises `MatchFinished` when the match is over,
    `PlayoffNotPending` for a playoff hole no tie calls for, `RulesError`s from the engine (bad
    card, wrong shape, deck check naming rank and count), `GameError` for unknown/missing players.

    With `idempotency_key` (and the `request_hash` of the request body): a key seen before for the
    same hash raises `IdempotentReplay` carrying the key's record (the hole it created); for
    another hash `IdempotencyConflict`. Two concurrent calls with one key never create two holes.
    The key is stored with the hole's id and number in the same transaction.

    With `expected_number` (the hole the client filled in), a game that has moved on meanwhile
    raises `HoleAlreadyRecorded` (409): checked under the game lock, so of two phones saving the
    same hole exactly one records it. A replayed key is answered before this check.

    `capabilities` is what the person asking was granted (`scoring.access`; None for the code
    itself): a managed game's manager judges the recording with it (`GameManager.check_hole_change`)
    and may refuse (`scoring.hole_policies.HoleChangeRefused`). The new hole is told to the game's
    manager, if any, inside the transaction (`GameManager.after_change`, `scoring.game_managers`).
    """
    return hole_record_with_line(game, **hole).hole


def hole_record_with_line(game: Game, **hole: Unpack[HoleToRecord]) -> RecordedHole:
    """`hole_record`, answering the hole with its line as the scoreboard shows it, built from what
    was written under the game's lock: a caller that shows the hole (the API's answer) reads
    nothing again. Raises `Game.DoesNotExist` when the game was deleted meanwhile."""
    recorded = record_hole_in_transaction({"id": game.pk}, caller=game, **hole)
    if recorded is None:
        raise Game.DoesNotExist(f"Game {game.pk} no longer exists.")
    return recorded


def hole_record_by_edit_token(
    edit_token: str, *, decide: CapabilitiesOfGame | None = None, **hole: Unpack[HoleToRecord]
) -> RecordedHole | None:
    """`hole_record` for the game whose edit token is `edit_token`; None (nothing written) if none.

    The game is found and locked by one query, so an API request pays no separate lookup. Answers
    the hole with its line as the scoreboard shows it (built from what was written, no re-read).
    `decide(game)` is the request's access decision on the game found (`scoring.api.games.access`):
    called first under the lock, it answers the capabilities the hole is recorded with, or raises.
    """
    if not edit_token or len(edit_token) > 64:
        return None
    return record_hole_in_transaction({"edit_token": edit_token}, caller=None, decide=decide, **hole)


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
    capabilities: Capabilities = None,
    reason: str = "",
) -> Hole:
    """Replace the entries (and ender) of hole `number`, if it is still the hole the client read.

    With `partial`, `entries` (and `blocks_marked`) hold only the players who change: they are laid
    over the hole's entries as they are under the lock, so a concurrent change to another player is
    never written back with its old value. `keep_ender` keeps the hole's ender as it is then.

    `expected_id` and `expected_version` name the hole the client read (its ETag): a hole renumbered
    since (another was deleted) or changed since raises `StaleVersion` (`HoleGone` when that hole no
    longer exists). `expected_version=None` (If-Match: *) replaces whatever is current. The check is
    one conditional UPDATE under the game lock. The same players must have entries as before. The
    history keeps the before and after states, and the `reason` given.

    On a managed game the manager's hole policy judges the correction with `capabilities` and
    `reason` (e.g. after the next hole only an official, with a reason: `HoleChangeRefused`,
    `ReasonRequired`). The correction is told to the game's manager inside the transaction
    (`GameManager.after_change`).
    """
    with transaction.atomic():
        locked = lock_game(game)
        ruleset = game_ruleset(locked)
        seats = list(locked.seats.order_by("seat"))
        hole = find_named_hole(locked, number, playoff, expected_id)
        reason = check_hole_policy(
            locked, action="edit", number=number, playoff=playoff, capabilities=capabilities, reason=reason
        )
        bump_hole_version(hole, expected_version)
        before = snapshot_hole(hole)
        playing = {entry["seat"] for entry in before["entries"]}
        players = [s for s in seats if s.seat in playing]
        if partial:
            entries = entries_laid_over_snapshot(before, entries)
        if keep_ender:
            ender = before["ender"]
        scored, ender_seat = score_entries(seats, players, ruleset, entries, ender, blocks_marked)
        created = write_hole_entries(hole, scored, ender_seat)
        after = snapshot_with_entries(hole, created)  # what was just written, not read back
        log_hole_change(locked, ChangeAction.UPDATE, hole, actor, before=before, after=after, reason=reason)
        refresh_totals_and_status(locked, seats=seats)  # the seats read under this lock
    copy_game_state(locked, game)
    hole.refresh_from_db()
    return hole


def hole_delete(
    game: Game,
    number: int,
    *,
    expected_version: int | None = None,
    actor: str = "",
    playoff: bool = False,
    expected_id: int | None = None,
    capabilities: Capabilities = None,
    reason: str = "",
) -> None:
    """Delete hole `number`; later holes move down one number. Undo brings it back.

    `expected_id` and `expected_version` name the hole the client read: once it is deleted, a
    repeat raises `HoleGone` and never deletes the hole that took its number. A hole changed since
    raises `StaleVersion`. A managed game's hole policy judges it as for `hole_update`; the delete
    is told to the game's manager inside the transaction (`GameManager.after_change`).
    """
    with transaction.atomic():
        locked = lock_game(game)
        hole = find_named_hole(locked, number, playoff, expected_id)
        reason = check_hole_policy(
            locked, action="delete", number=number, playoff=playoff, capabilities=capabilities, reason=reason
        )
        if expected_version is not None:
            bump_hole_version(hole, expected_version)
        remove_hole_logged(locked, hole, actor, action=ChangeAction.DELETE, reason=reason)
        refresh_totals_and_status(locked)
    copy_game_state(locked, game)
