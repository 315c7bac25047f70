"""The dashboard's next step: what the director should do now, derived from the round's state alone.

One small pure function (`next_step`) over plain facts (`TableFacts`), so that every state has a
unit test and the page never offers a step that cannot succeed:

| the event | the step |
|---|---|
| no round yet, fewer than 3 active players | register the players |
| no round yet, or the last one finalized with rounds left | seat round N |
| round N seated | review the seating and publish round N |
| round N published, no hole played anywhere | print the table cards and slips, then watch the tables |
| round N in play | watch the tables (with progress); Finalize shown disabled with the reasons |
| every table of round N over and confirmed | finalize round N |
| every round finalized | the results and the printouts |

Finalize is offered only when `tournaments.services.rounds.finalize_round` would succeed: every
table's game over and its confirmation holding for the game as it stands (not disputed).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import RoundStatus
from tournaments.web.selectors import TableLine

#: Fewer active players than this cannot be seated (`tournaments.seating`).
MIN_PLAYERS = 3


class Step(StrEnum):
    """What the director should do now."""

    PLAYERS = "players"
    SEAT = "seat"
    PUBLISH = "publish"
    PRINT = "print"
    WATCH = "watch"
    FINALIZE = "finalize"
    RESULTS = "results"


@dataclass(frozen=True)
class TableFacts:
    """What the next step needs to know of one table of the round."""

    number: int
    finished: bool
    confirmed: bool  # confirmed for the game as it stands, and not disputed
    disputed: bool
    holes_done: int
    holes_total: int | None


@dataclass(frozen=True)
class NextStep:
    """The step, the round it is about, and for a round in play its progress and why it cannot be
    finalized yet (`blockers`, empty when it can)."""

    step: Step
    round_number: int
    blockers: tuple[str, ...] = ()
    holes_done: int = 0
    holes_total: int | None = None
    tables: int = 0
    tables_finished: int = 0

    @property
    def can_finalize(self) -> bool:
        """Finalizing the round now would succeed."""
        return self.step == Step.FINALIZE


def table_facts(lines: Iterable[TableLine]) -> list[TableFacts]:
    """The facts of the dashboard's table lines (no query: the lines hold their game)."""
    return [
        TableFacts(
            number=line.table.number,
            finished=line.finished,
            confirmed=line.table.confirms(line.game.version),
            disputed=line.table.is_disputed,
            holes_done=line.holes_done,
            holes_total=line.holes_total,
        )
        for line in lines
    ]


def next_step(
    *,
    rounds_planned: int,
    rounds_seated: int,
    current_status: str | None,
    tables: Sequence[TableFacts],
    active_players: int,
) -> NextStep:
    """The director's next step. `current_status` is the last seated round's (None before round 1),
    `tables` that round's tables."""
    number = max(rounds_seated, 1)
    if current_status is None or current_status == RoundStatus.FINALIZED:
        if rounds_seated >= rounds_planned:
            return NextStep(Step.RESULTS, rounds_seated)
        if rounds_seated == 0 and active_players < MIN_PLAYERS:
            return NextStep(Step.PLAYERS, 1)
        return NextStep(Step.SEAT, rounds_seated + 1)
    if current_status == RoundStatus.SEATED:
        return NextStep(Step.PUBLISH, number)
    progress = {
        "holes_done": sum(t.holes_done for t in tables),
        "holes_total": (
            None if any(t.holes_total is None for t in tables) else sum(t.holes_total or 0 for t in tables)
        ),
        "tables": len(tables),
        "tables_finished": sum(1 for t in tables if t.finished),
    }
    blockers = finalize_blockers(tables)
    if not blockers:
        return NextStep(Step.FINALIZE, number, **progress)
    if progress["holes_done"] == 0:
        return NextStep(Step.PRINT, number, tuple(blockers), **progress)
    return NextStep(Step.WATCH, number, tuple(blockers), **progress)


def finalize_blockers(tables: Sequence[TableFacts]) -> list[str]:
    """Why the round cannot be finalized now, in words ("3 tables still playing", "table 2
    disputed"); empty when it can (the same test as `finalize_round`)."""
    if not tables:
        return [_("the round has no table")]
    playing = [t.number for t in tables if not t.finished]
    disputed = [t.number for t in tables if t.finished and t.disputed]
    waiting = [t.number for t in tables if t.finished and not t.disputed and not t.confirmed]
    reasons = []
    if playing:
        reasons.append(
            ngettext("%(n)s table still playing", "%(n)s tables still playing", len(playing))
            % {"n": len(playing)}
        )
    if disputed:
        reasons.append(
            ngettext("table %(t)s disputed", "tables %(t)s disputed", len(disputed))
            % {"t": _listed(disputed)}
        )
    if waiting:
        reasons.append(
            ngettext("table %(t)s not confirmed yet", "tables %(t)s not confirmed yet", len(waiting))
            % {"t": _listed(waiting)}
        )
    return reasons


def _listed(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)
