"""The round clock, held on the server: a round's time starts when it is published and runs for the
tournament's `time_limit_minutes`, plus a table's `extra_minutes` (an extension). Everything is
computed from stored times, so the clock survives a restart and reads the same on every app
instance; pages count down from the deadline the server gives them.

With a per-hole limit (`hole_time_limit_minutes`), each hole's clock runs from the table's last
hole. A table that finished after its deadline ran `seconds_over` the limit: rule 6.3's time violation
(2 points per started minute), drafted for an official to confirm (`time_drafts`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.selectors import game_progress, games_progress
from tournaments.models import Round, RoundStatus, Table, Tournament


@dataclass(frozen=True)
class Clock:
    """A round's (or a table's) clock at `now`."""

    deadline: datetime.datetime | None  # None: no limit, or the round not published yet
    now: datetime.datetime
    # Why the clock no longer counts ("Round finalized", "Table finished"), or "" while it does.
    stopped: str = ""

    @property
    def running(self) -> bool:
        """There is a deadline to count down to, and the play it times is not over."""
        return self.deadline is not None and not self.stopped

    @property
    def seconds_left(self) -> int:
        """Whole seconds to the deadline (0 once passed; 0 without a deadline)."""
        if self.deadline is None:
            return 0
        return max(0, int((self.deadline - self.now).total_seconds()))

    @property
    def seconds_over(self) -> int:
        """Whole seconds past the deadline (0 before it, or without one)."""
        if self.deadline is None:
            return 0
        return max(0, int((self.now - self.deadline).total_seconds()))


def deadline_of(tournament: Tournament, round_: Round, extra_minutes: int = 0) -> datetime.datetime | None:
    """When `round_`'s time runs out (for a table given `extra_minutes`); None without a limit or
    before the round is published."""
    if not tournament.time_limit_minutes or round_.published_at is None:
        return None
    return round_.published_at + datetime.timedelta(minutes=tournament.time_limit_minutes + extra_minutes)


def _stopped(round_: Round, *, finished: bool = False) -> str:
    """Why a clock with a deadline stops: its round is finalized, or its table's game is over."""
    if round_.status == RoundStatus.FINALIZED:
        return _("Round finalized")
    return _("Table finished") if finished else ""


def round_clock(tournament: Tournament, round_: Round, *, now: datetime.datetime | None = None) -> Clock:
    """The round's clock (without any table's extension); stopped once the round is finalized."""
    deadline = deadline_of(tournament, round_)
    return Clock(deadline, now or timezone.now(), _stopped(round_) if deadline else "")


def table_clock(
    tournament: Tournament,
    round_: Round,
    table: Table,
    *,
    finished: bool = False,
    now: datetime.datetime | None = None,
) -> Clock:
    """A table's clock: the round's, plus the table's extension; stopped once the round is
    finalized or the table's game is over (`finished`)."""
    deadline = deadline_of(tournament, round_, table.extra_minutes)
    return Clock(deadline, now or timezone.now(), _stopped(round_, finished=finished) if deadline else "")


def hole_clock(
    tournament: Tournament, round_: Round, table: Table, *, now: datetime.datetime | None = None
) -> Clock:
    """The current hole's clock at a table, when the event limits each hole: from the table's last
    regular hole (or the round's start for the first) plus the per-hole limit. One query."""
    if not tournament.hole_time_limit_minutes or round_.published_at is None:
        return Clock(None, now or timezone.now())
    progress = game_progress(table.game_id)
    last = progress.last_hole_at if progress else None
    start = max(last, round_.published_at) if last else round_.published_at
    return Clock(
        start + datetime.timedelta(minutes=tournament.hole_time_limit_minutes), now or timezone.now()
    )


@dataclass(frozen=True)
class TimeDraft:
    """A finished table that ran over its deadline: the time penalty an official may confirm."""

    table: Table
    finished_at: datetime.datetime
    seconds_over: int


def time_drafts(tournament: Tournament, round_: Round) -> list[TimeDraft]:
    """The finished tables of `round_` whose last regular hole came after their deadline (two
    queries). A table drops out of the list once its players' time penalties for the round exist
    (the services skip drafts already given: `tournaments.services.calls.give_time_penalties`)."""
    if deadline_of(tournament, round_) is None:
        return []
    tables = list(Table.objects.filter(round=round_))
    progress = games_progress([t.game_id for t in tables])
    drafts = []
    for table in tables:
        if not progress[table.game_id].finished:
            continue
        last = progress[table.game_id].last_hole_at
        deadline = deadline_of(tournament, round_, table.extra_minutes)
        if last is not None and deadline is not None and last > deadline:
            drafts.append(TimeDraft(table, last, int((last - deadline).total_seconds())))
    return drafts
