"""Recording the next hole: the hot path, one transaction and few round trips.

`record_hole_in_transaction` locks the game (found by id or edit token) and reads its seats and any
earlier use of the Idempotency-Key in one round trip, then `write_next_hole` scores the hole and
sends every write together (the statements are in `scoring/db_statements.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Required, TypedDict, Unpack

from django.db import DatabaseError, IntegrityError, transaction
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH, MAX_HOLES
from scoring import db_statements
from scoring.game_errors import (
    ConcurrentWrite,
    GameError,
    HoleAlreadyRecorded,
    IdempotencyConflict,
    MatchFinished,
    PlayoffNotPending,
)
from scoring.hole_policies import ReasonRequired
from scoring.models import (
    ChangeAction,
    Game,
    GameStatus,
    Hole,
    IdempotentRequest,
    Seat,
)
from scoring.rules import (
    Ruleset,
    dealer_for_hole,
)
from scoring.rules.errors import Problem
from scoring.selectors import (
    HoleLine,
    game_ruleset,
    hole_line,
)
from scoring.services._entry_scoring import EntryInput, score_entries
from scoring.services._guards import Capabilities, check_hole_policy
from scoring.services._hole_totals import settle_totals_after_hole
from scoring.services._hole_writing import (
    copy_game_state,
    log_hole_change,
    match_state_from_entries,
    snapshot_with_entries,
    write_hole_entries,
)
from scoring.services.idempotency import game_key, queue_hole_key


@dataclass(frozen=True)
class RecordedHole:
    """A hole just recorded, and its line as the scoreboard shows it (built from what was written)."""

    hole: Hole
    line: HoleLine


class HoleToRecord(TypedDict, total=False):
    """What `hole_record` takes: the players' entries and who ended the hole (required), and:
    `playoff`, `blocks_marked` (blocks marked by hand for typed totals), `actor`, the request's
    `idempotency_key` and `request_hash`, `expected_number` (the hole the client filled in) and
    `capabilities` (what the access policy granted; None for the code itself)."""

    entries: Required[Mapping[str, EntryInput]]
    ender: Required[str | None]
    playoff: bool
    blocks_marked: Mapping[str, int] | None
    actor: str
    idempotency_key: str | None
    request_hash: str | None
    expected_number: int | None
    capabilities: Capabilities


_RECORDING_DEFAULTS: dict[str, Any] = {
    "playoff": False,
    "blocks_marked": None,
    "actor": "",
    "idempotency_key": None,
    "request_hash": None,
    "expected_number": None,
    "capabilities": None,
}


#: The access decision made on the game a lookup found (by its edit token): its capabilities, or it raises.
CapabilitiesOfGame = Callable[[Game], Capabilities]


class IdempotentReplay(Exception):
    """Raised by `hole_record` when its Idempotency-Key was already used for the same request.

    Nothing is written; `record` (the key in the one store, `scoring.services.idempotency`) holds
    the id and number of the hole first created.
    """

    def __init__(self, record: IdempotentRequest) -> None:
        super().__init__(record.key)
        self.record = record


def record_hole_in_transaction(
    game_lookup: dict[str, Any],
    *,
    caller: Game | None,
    decide: CapabilitiesOfGame | None = None,
    **given: Unpack[HoleToRecord],
) -> RecordedHole | None:
    """One transaction: lock the game found by `game_lookup`, check the key, record the hole.

    None (nothing written) when no game matches `game_lookup`. Tried once more when the database
    lost or refused a statement prepared on this connection (`db_statements.prepared_statement_gone`):
    the try's transaction (or savepoint, inside a caller's transaction) was rolled back whole, so
    nothing of it stays, and the second try prepares the statements again. `decide(game)`, when
    given, answers the capabilities of the request on the game found (its access decision).
    """
    try:
        return _record_hole_once(game_lookup, caller=caller, decide=decide, **given)
    except DatabaseError as error:
        if not db_statements.prepared_statement_gone(error):
            raise
    return _record_hole_once(game_lookup, caller=caller, decide=decide, **given)


def _record_hole_once(
    game_lookup: dict[str, Any],
    *,
    caller: Game | None,
    decide: CapabilitiesOfGame | None,
    **given: Unpack[HoleToRecord],
) -> RecordedHole | None:
    """`record_hole_in_transaction`, one try."""
    hole: dict[str, Any] = {**_RECORDING_DEFAULTS, **given}
    idempotency_key: str | None = hole.pop("idempotency_key")
    request_hash: str = hole.pop("request_hash") or ""
    try:
        with transaction.atomic():
            found = db_statements.lock_game_for_hole(game_lookup, idempotency_key)
            if found is None:
                return None
            locked = found.game
            if decide is not None:  # the access decision on the game found, before anything else
                hole["capabilities"] = decide(locked)
            if found.seen_key_id is not None:
                replay_or_refuse_key(IdempotentRequest.objects.get(pk=found.seen_key_id), request_hash)
            recorded = write_next_hole(
                locked,
                seats=found.seats,
                hole_id=found.next_hole_id,
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
            record = IdempotentRequest.objects.filter(key=idempotency_key, **lookup).first()
            if record is not None:
                replay_or_refuse_key(record, request_hash)
        raise ConcurrentWrite(
            Problem("hole", _("Another hole was recorded at the same moment. Reload and try again."))
        ) from None
    if caller is not None:
        copy_game_state(locked, caller)
    return recorded


def write_next_hole(
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
    expected_number: int | None,
    capabilities: Capabilities = None,
) -> RecordedHole:
    """Score the next hole (or playoff hole) of the locked game and write it with its change log,
    the stored totals and status, and the Idempotency-Key if one was given."""
    ruleset = game_ruleset(locked)
    refuse = _MovedOnRefusal(locked, expected_number, playoff, idempotency_key, request_hash)
    _refuse_if_the_round_is_locked(locked, refuse, capabilities)
    position = _next_hole_position(locked, seats, ruleset, playoff=playoff, refuse=refuse)
    number, regular_holes, players = position.number, position.regular_holes, position.players
    check_hole_policy(locked, action="record", number=number, playoff=playoff, capabilities=capabilities)
    scored, ender_seat = score_entries(seats, players, ruleset, entries, ender, blocks_marked)
    deal_number = regular_holes + number if playoff else number
    hole = Hole(
        id=hole_id,
        game=locked,
        number=number,
        is_playoff=playoff,
        dealer_seat=dealer_for_hole(locked.first_dealer, deal_number, len(seats)),
        ender=ender_seat,
        created_by=actor[:MAX_ACTOR_LENGTH],
    )
    writes = db_statements.Writes()  # nothing written returns anything we need: sent together
    db_statements.insert_hole(hole, writes=writes)
    created = write_hole_entries(hole, scored, ender_seat, fresh=True, writes=writes)
    log_hole_change(
        locked,
        ChangeAction.CREATE,
        hole,
        actor,
        before=None,
        after=snapshot_with_entries(hole, created),
        writes=writes,
    )
    settle_totals_after_hole(locked, seats, scored, ruleset, number, position.incremental, writes)
    if idempotency_key:
        queue_hole_key(hole, idempotency_key, request_hash, writes=writes)
    writes.send()
    return RecordedHole(hole=hole, line=hole_line(hole, created, seats))


def _refuse_if_the_round_is_locked(locked: Game, refuse: _MovedOnRefusal, capabilities: Capabilities) -> None:
    """A hole queued on a phone reaching a managed game that is over: a locked round (a tournament
    round finalized meanwhile) is why it is refused, said before "hole N was saved by someone else"
    (the director who entered it from the slip). A retry of a hole that did arrive is still
    answered as the first time; a director, who may change the round, hears the usual checks."""
    if refuse.expected_number is None or locked.status == GameStatus.IN_PROGRESS or not locked.managed_by:
        return
    refuse.replay_if_key_used()
    with suppress(ReasonRequired):
        check_hole_policy(
            locked,
            action="record",
            number=refuse.expected_number,
            playoff=refuse.playoff,
            capabilities=capabilities,
        )


@dataclass(frozen=True)
class _MovedOnRefusal:
    """What `refuse_hole_moved_on` needs to refuse a hole the client filled in for another number."""

    game: Game
    expected_number: int | None
    playoff: bool
    idempotency_key: str | None
    request_hash: str

    def unless(self, number: int) -> None:
        """Refuse (or replay) when the client filled in another hole than `number`."""
        if self.expected_number is not None and self.expected_number != number:
            refuse_hole_moved_on(
                self.game, self.expected_number, number, self.playoff, self.idempotency_key, self.request_hash
            )

    def replay_if_key_used(self) -> None:
        """Replay (or refuse) a request whose key is stored now: before saying the match is over or
        no playoff is pending, as a copy of the request that ended it, sent at once, would hear."""
        replay_if_key_used(self.game, self.idempotency_key, self.request_hash)


@dataclass(frozen=True)
class _NextHole:
    """Where the next hole goes: its number, the regular holes so far, who plays it."""

    number: int
    regular_holes: int
    players: list[Seat]
    incremental: bool  # a regular hole of a match in progress: totals grow by its scores


def _next_hole_position(
    game: Game, seats: list[Seat], ruleset: Ruleset, *, playoff: bool, refuse: _MovedOnRefusal
) -> _NextHole:
    """The next hole's number and players; refuses a finished match or a playoff nobody needs."""
    # The usual case, a regular hole of a match in progress, needs no other hole: every seat played
    # every regular hole, so the stored counts give the number and the stored totals grow by this
    # hole's scores. Playoff holes and refusals take the full state, recomputed from the entries.
    if not playoff and game.status == GameStatus.IN_PROGRESS:
        regular_holes = max((s.holes_played for s in seats), default=0)
        return _checked_position(_NextHole(regular_holes + 1, regular_holes, seats, True), refuse)
    state = match_state_from_entries(game, seats, ruleset)
    regular_holes, playoff_holes = state.regular_holes, state.playoff_holes
    number = playoff_holes + 1 if playoff else regular_holes + 1
    # Said first: the hole saved meanwhile may be the one that ended the match or the tie.
    refuse.unless(number)
    if playoff:
        if not state.contenders:
            refuse.replay_if_key_used()
            raise PlayoffNotPending(
                Problem(
                    "playoff", _("No sudden death is pending: a playoff hole is only for a tie for first.")
                )
            )
        players = [s for s in seats if s.name in state.contenders]
    else:
        if state.over:
            refuse.replay_if_key_used()
            raise MatchFinished(
                Problem(
                    "hole", _("The match is over (%(reason)s): no more holes.") % {"reason": state.reason}
                )
            )
        players = seats
    return _checked_position(_NextHole(number, regular_holes, players, False), refuse)


def _checked_position(position: _NextHole, refuse: _MovedOnRefusal) -> _NextHole:
    """`position`, once the client's hole number and the game's size limit allow it."""
    refuse.unless(position.number)
    if position.number > MAX_HOLES:
        raise GameError(Problem("hole", _("A game holds %(n)s holes at most.") % {"n": MAX_HOLES}))
    return position


def refuse_hole_moved_on(
    game: Game, expected: int, number: int, playoff: bool, idempotency_key: str | None, request_hash: str
) -> None:
    """The client filled in hole `expected`, the game now expects hole `number`: say which.

    Unless the hole that moved the game on was this very request, sent again while the first copy
    was in flight: the key is read again here because the locking query's own look-up ran before
    it waited for the lock, so it cannot see a key committed meanwhile.
    """
    replay_if_key_used(game, idempotency_key, request_hash)
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


def replay_if_key_used(game: Game, idempotency_key: str | None, request_hash: str) -> None:
    """`replay_or_refuse_key` if `idempotency_key` is stored for `game` now.

    Read again here because the locking query's own look-up ran before it waited for the lock, so
    it cannot see a key that a copy of this request committed meanwhile.
    """
    record = game_key(game.pk, idempotency_key)
    if record is not None:
        replay_or_refuse_key(record, request_hash)


def replay_or_refuse_key(record: IdempotentRequest, request_hash: str) -> None:
    """A key used before: `IdempotentReplay` for the same request body, else `IdempotencyConflict`."""
    if record.request_hash != request_hash:
        raise IdempotencyConflict(
            Problem(
                "Idempotency-Key",
                _("This Idempotency-Key was already used for a different request body: use a new key."),
            )
        )
    raise IdempotentReplay(record)
