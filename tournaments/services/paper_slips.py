"""A table's paper score slip typed into its game by the staff: a dead phone never stops a round.

The staff (a director, a co-director or an official: `tournaments.access`, `Action.SCORE_TABLES`)
type each hole's scores from the slip the players signed. Holes the table's phone has not recorded
are recorded, in order, as typed hole totals; holes it has recorded are compared with the slip:

- the same scores: nothing to do;
- other scores: a conflict, shown with both, never overwritten silently. Replacing the phone's
  scores with the slip's is a correction asked for explicitly (`replace`), kept in the game's
  history with its before and after;
- a hole the phone recorded or changed after the page was read (its version differs from the one
  the page showed, as the hole pages check): a conflict too, to be checked again.

Everything is written in one transaction or nothing is: the table's tournament, round, table and
game are locked first (`tournaments.services.locks`), so a phone saving a hole meanwhile waits and
is then refused as a second phone would be ("Hole 3 was just saved by someone else"), or saved
first and the slip's entry is refused with the conflict. A round not published yet, or finalized,
refuses. Each change carries who typed it "from the paper slip" (the game's history) and one entry
of the event's log names the table and the holes. The table's link keeps working; the table then
confirms its scorecard as usual.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from golfclub.core.limits import MAX_ACTOR_LENGTH
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.models import EventLogEntry, RoundStatus, Table
from tournaments.services import locks
from tournaments.services.events import log_event

if TYPE_CHECKING:
    from scoring.models import Game


@dataclass(frozen=True)
class SlipRow:
    """One hole of the slip as typed: each player's hole score, and the version of the recorded
    hole the page showed (None when the page showed the hole not recorded yet)."""

    number: int
    scores: dict[str, int]
    seen_version: int | None = None


@dataclass(frozen=True)
class SlipConflict:
    """A hole where the slip and the phone differ: the phone's scores now (empty when the hole is
    gone) and its version, the slip's scores, and why it was not written."""

    number: int
    phone: dict[str, int]
    phone_version: int | None
    slip: dict[str, int]
    moved: bool  # the phone recorded or changed the hole after the page was read


class SlipConflicts(WrongState):
    """The slip disagrees with holes the phone recorded (409): nothing was written."""

    def __init__(self, conflicts: list[SlipConflict]) -> None:
        self.conflicts = conflicts
        problems = []
        for conflict in conflicts:
            if conflict.moved:
                text = _(
                    "Hole %(n)s was saved or changed by the table's phone while you typed: check it "
                    "against the slip, then save again."
                )
            else:
                text = _(
                    "Hole %(n)s: the phone has other scores than the slip. Fix your typing, or tick "
                    "“Replace the phone's scores” to correct them from the slip."
                )
            problems.append(Problem(f"hole-{conflict.number}", text % {"n": conflict.number}))
        super().__init__(problems)


@dataclass
class SlipEntered:
    """What the slip changed: the holes recorded and the holes corrected, by number."""

    recorded: list[int] = field(default_factory=list)
    corrected: list[int] = field(default_factory=list)


def slip_actor(username: str, role: str) -> str:
    """Who typed the slip, as the game's history shows it: "dora (director), from the paper slip"."""
    text = _("%(user)s (%(role)s), from the paper slip") % {"user": username[:40], "role": role}
    return text[:MAX_ACTOR_LENGTH]


def _refuse_unless_in_play(table: Table) -> None:
    status, number = table.round.status, table.round.number
    if status == RoundStatus.SEATED:
        raise WrongState(
            Problem(
                "round", _("Round %(n)s is not published yet: its tables score once it is.") % {"n": number}
            )
        )
    if status == RoundStatus.FINALIZED:
        raise WrongState(
            Problem(
                "round",
                _(
                    "Round %(n)s is finalized: its scorecards are closed. A director corrects a hole "
                    "from the table's game, with a reason."
                )
                % {"n": number},
            )
        )


def enter_paper_slip(
    table: Table,
    rows: Sequence[SlipRow],
    *,
    replace: bool = False,
    actor: Any = None,
    actor_text: str = "",
    capabilities: Collection[str] | None = None,
) -> SlipEntered:
    """Type `rows` of a table's paper slip into its game (one transaction, all or nothing).

    `actor` is the staff member (for the event's log), `actor_text` who they are in the game's
    history (`slip_actor`), `capabilities` what the access policy gives them on the table's game
    (its hole policy judges each write with them). Raises `SlipConflicts` (409) when the slip
    disagrees with the phone (see the module), `WrongState` when the round is not in play,
    `TournamentError` for a gap (a hole left blank before one typed), and the games' errors
    (`scoring.services`: a hole past the end of the match, a score out of bounds).
    """
    with transaction.atomic():
        locked = locks.lock_table_of_game(table.game_id)
        if locked is None:
            raise NotFoundInTournament(Problem("table", _("No such table in this tournament.")))
        _refuse_unless_in_play(locked)
        game = locked.game
        recorded = {hole.number: hole for hole in scoring_selectors.scoreboard(game).holes}
        to_record, to_correct = _compare_with_the_phone(rows, recorded, replace=replace)
        _refuse_gaps(to_record, first=len(recorded) + 1)
        done, typed = _write_slip(game, to_record, to_correct, actor_text, capabilities)
        if done.recorded or done.corrected:
            log_event(
                locked.round.tournament,
                "paper_slip_entered",
                actor=actor,
                round_number=locked.round.number,
                table=locked.number,
                recorded=done.recorded,
                corrected=done.corrected,
                hole_versions=typed,
            )
    return done


def _compare_with_the_phone(
    rows: Sequence[SlipRow], recorded: dict[int, Any], *, replace: bool
) -> tuple[list[SlipRow], list[tuple[SlipRow, Any]]]:
    """The slip's holes the phone has not recorded, and those to correct from the slip (with the
    phone's hole), in hole order; `SlipConflicts` when the slip and the phone disagree (see the
    module). Holes where they agree need nothing."""
    conflicts: list[SlipConflict] = []
    to_correct: list[tuple[SlipRow, Any]] = []
    to_record: list[SlipRow] = []
    for row in sorted(rows, key=lambda r: r.number):
        hole = recorded.get(row.number)
        phone = {entry.name: entry.score for entry in hole.entries} if hole else {}
        if hole is None and row.seen_version is None:
            to_record.append(row)
        elif hole is not None and phone == row.scores:
            continue  # the slip agrees with the phone
        elif hole is None or hole.version != row.seen_version:
            seen = hole.version if hole else None
            conflicts.append(SlipConflict(row.number, phone, seen, row.scores, True))
        elif not replace:
            conflicts.append(SlipConflict(row.number, phone, hole.version, row.scores, False))
        else:
            to_correct.append((row, hole))
    if conflicts:
        raise SlipConflicts(conflicts)
    return to_record, to_correct


def _refuse_gaps(to_record: list[SlipRow], *, first: int) -> None:
    """`TournamentError` unless the holes to record follow on from hole `first`, without a gap."""
    expected = first
    for row in to_record:
        if row.number != expected:
            raise TournamentError(
                Problem(
                    f"hole-{expected}",
                    _("Hole %(n)s is blank: type the holes in order, without a gap.") % {"n": expected},
                )
            )
        expected += 1


def _write_slip(
    game: Game,
    to_record: list[SlipRow],
    to_correct: list[tuple[SlipRow, Any]],
    actor_text: str,
    capabilities: Collection[str] | None,
) -> tuple[SlipEntered, dict[str, list[int]]]:
    """Correct, then record, the slip's holes through the game's services; answers what changed and
    each hole's [id, version] as the slip left it, by hole number."""
    done = SlipEntered()
    reason = _("Typed in from the paper slip")
    typed: dict[str, list[int]] = {}
    for row, hole in to_correct:
        changed = scoring_services.hole_update(
            game,
            row.number,
            expected_version=hole.version,
            expected_id=hole.id,
            entries=row.scores,
            ender=None,  # a slip has the hole's scores only, as they were written
            actor=actor_text,
            capabilities=capabilities,
            reason=reason,
        )
        done.corrected.append(row.number)
        typed[str(row.number)] = [changed.pk, changed.version]
    for row in to_record:
        created = scoring_services.hole_record(
            game,
            entries=row.scores,
            ender=None,
            actor=actor_text,
            expected_number=row.number,
            capabilities=capabilities,
        )
        done.recorded.append(row.number)
        typed[str(row.number)] = [created.pk, created.version]
    return done, typed


def typed_from_slip(table: Table, holes: Sequence[Any]) -> set[int]:
    """The numbers of `holes` (the table's recorded holes, with `id` and `version`) as a paper slip
    left them: typed in from it and not changed since by the phone (its log entries keep each
    hole's id and version; an entry from before they did names the holes only)."""
    entries = EventLogEntry.objects.filter(
        tournament_id=table.round.tournament_id,
        action="paper_slip_entered",
        round_number=table.round.number,
        details__table=table.number,
    ).values_list("details", flat=True)
    current = {hole.number: [hole.id, hole.version] for hole in holes}
    typed: set[int] = set()
    for details in entries:
        kept = details.get("hole_versions")
        if kept is None:  # logged before the holes' versions were
            named = details.get("recorded", []) + details.get("corrected", [])
            typed.update(n for n in named if n in current)
        else:
            typed.update(int(n) for n, ident in kept.items() if current.get(int(n)) == ident)
    return typed
