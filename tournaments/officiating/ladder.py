"""Rule 6.3's ladder, as data: what each offence costs, step by step, counted per player across the
tournament (earlier, unrescinded offences of the same kind).

| offence | 1st | 2nd | 3rd and later |
|---|---|---|---|
| illegal move | warning | +5 points | disqualification from the round |
| cheating | disqualification from the tournament | | |
| unsportsmanlike conduct | warning | disqualification from the tournament (project decision) | |
| time violation | +2 points for each started minute over the limit, every time | | |

An official may name another step (recorded as their decision): its points are the ones the
ladder gives that step for the offence (`POINTS_IF_DECIDED` where the ladder has no points step).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tournaments.models import Offence
from tournaments.models import PenaltyStep as Step


@dataclass(frozen=True, slots=True)
class Rung:
    """One step of an offence's ladder and the points it adds to the player's event total."""

    step: Step
    points: int = 0


#: Each offence's rungs in order; the last one repeats for any later offence.
LADDERS: dict[Offence, tuple[Rung, ...]] = {
    Offence.ILLEGAL_MOVE: (Rung(Step.WARNING), Rung(Step.POINTS, 5), Rung(Step.ROUND_DQ)),
    Offence.CHEATING: (Rung(Step.EVENT_DQ),),
    Offence.UNSPORTSMANLIKE: (Rung(Step.WARNING), Rung(Step.EVENT_DQ)),
    Offence.TIME: (Rung(Step.POINTS),),  # points from the time over: `time_points`
}

#: Points of a `points` step an official decides for an offence whose ladder has none (project
#: decision: the illegal move's five).
POINTS_IF_DECIDED = 5
#: Rule 6.3: two points per minute over the time limit, a started minute counting in full.
POINTS_PER_MINUTE_OVER = 2

RULE = "6.3"


def time_points(seconds_over: int) -> int:
    """Rule 6.3's time penalty: 2 points for each started minute over (0 s over: none)."""
    return POINTS_PER_MINUTE_OVER * math.ceil(max(0, seconds_over) / 60)


def next_rung(offence: Offence | str, earlier: int, *, seconds_over: int = 0) -> Rung:
    """The rung a player reaches with one more `offence` after `earlier` unrescinded ones."""
    offence = Offence(offence)
    rungs = LADDERS[offence]
    rung = rungs[min(max(0, earlier), len(rungs) - 1)]
    if offence == Offence.TIME:
        return Rung(Step.POINTS, time_points(seconds_over))
    return rung


def decided_rung(offence: Offence | str, step: Step | str, *, seconds_over: int = 0) -> Rung:
    """The rung of a `step` an official names for `offence` instead of the ladder's next one."""
    offence, step = Offence(offence), Step(step)
    if step != Step.POINTS:
        return Rung(step)
    if offence == Offence.TIME:
        return Rung(step, time_points(seconds_over))
    points = [rung.points for rung in LADDERS[offence] if rung.step == Step.POINTS]
    return Rung(step, points[0] if points else POINTS_IF_DECIDED)
