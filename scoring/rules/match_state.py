"""Where a match stands: totals, match end, outcome and pending sudden death, from its recorded holes.

A pure function over a ruleset, the seats' names and the holes (regular and playoff). The live
games' services store what it returns; `scoring.selectors.match_state` loads the rows and calls it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .holes import PlayedHole, PlayerTotals, sum_totals
from .match import MatchOutcome, match_over, rank_players
from .ruleset import Ruleset

# The match's status, the values of the live game's GameStatus.
IN_PROGRESS = "in_progress"
SUDDEN_DEATH = "sudden_death"
FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MatchProgress:
    """A match computed from its holes: every player's totals, whether it is over and how it ended."""

    totals: Mapping[str, PlayerTotals]  # by name, in seat order
    regular_holes: int
    playoff_holes: int
    over: bool
    reason: str
    outcome: MatchOutcome | None  # once the regular holes are over
    status: str  # IN_PROGRESS, SUDDEN_DEATH or FINISHED
    winners: tuple[str, ...]
    contenders: tuple[str, ...]  # players of the pending sudden death, else ()
    hole_scores: Mapping[str, tuple[int, ...]]  # regular scores by name, by hole number
    playoff_scores: Mapping[str, tuple[int, ...]]  # only players who played a playoff hole
    # Playoff holes on record that no longer break the regular holes' tie: their first hole was not
    # played by exactly the players tied after the regular holes (a regular hole changed since).
    playoff_stale: bool = False
    # The players ended the match before its set end (project decision): it is over after the
    # holes played, decided by them with the ruleset's tiebreakers, as if they had been its length.
    ended_early: bool = False


def _scores_by_player(names: Sequence[str], holes: Sequence[PlayedHole]) -> dict[str, tuple[int, ...]]:
    by_number = sorted(holes, key=lambda hole: hole.number)
    return {name: tuple(hole.scores[name] for hole in by_number if name in hole.scores) for name in names}


def ended_early_reason(ruleset: Ruleset, holes_played: int) -> str:
    """Why a match the players ended early is over: "... after hole 5 of 9." (or "after hole 5.")."""
    of = f" of {ruleset.holes}" if ruleset.holes is not None else ""
    return (
        f"The players ended the match early, after hole {holes_played}{of}: the holes played decide it "
        "(project decision)."
    )


def compute_match_state(
    ruleset: Ruleset, players: Sequence[str], holes: Iterable[PlayedHole], *, ended_early: bool = False
) -> MatchProgress:
    """The state of one table's match: `players` are the seats' names in seat order, `holes` every
    recorded hole (regular and playoff, any order; playoff holes never count in the totals).

    `ended_early`: the players stopped before the match's set end. Once a regular hole is played the
    match is then over, and the holes played are ranked exactly as a full match's would be (totals,
    then the ruleset's tiebreakers, sudden death included); with no hole played it has no effect."""
    names = tuple(players)
    recorded = list(holes)
    regular = [hole for hole in recorded if not hole.playoff]
    playoff = [hole for hole in recorded if hole.playoff]
    totals = sum_totals(names, recorded)
    hole_scores = _scores_by_player(names, regular)
    playoff_scores = {name: s for name, s in _scores_by_player(names, playoff).items() if s}
    regular_count = len({hole.number for hole in regular})
    over, reason = match_over(ruleset, regular_count, {name: totals[name].total for name in names})
    early = ended_early and not over and regular_count > 0
    if early:
        over, reason = True, ended_early_reason(ruleset, regular_count)
    outcome: MatchOutcome | None = None
    status, winners, contenders = IN_PROGRESS, (), ()
    if over and names:
        outcome = rank_players(hole_scores, ruleset.tiebreakers, playoff_scores or None)
        if outcome.status == "sudden_death":
            status, contenders = SUDDEN_DEATH, tuple(outcome.contenders)
        else:
            status = FINISHED
            winners = tuple(outcome.winners) or tuple(outcome.order[0] if outcome.order else ())
    stale = False
    if playoff:
        first = min(hole.number for hole in playoff)
        played_first = {name for hole in playoff if hole.number == first for name in hole.scores}
        tied: set[str] = set()
        if over and names:
            regular_only = rank_players(hole_scores, ruleset.tiebreakers, None)
            tied = set(regular_only.contenders) if regular_only.status == "sudden_death" else set()
        stale = played_first != tied
    return MatchProgress(
        totals={name: totals[name] for name in names},
        regular_holes=regular_count,
        playoff_holes=len({hole.number for hole in playoff}),
        over=over,
        reason=reason,
        outcome=outcome,
        status=status,
        winners=winners,
        contenders=contenders,
        hole_scores=hole_scores,
        playoff_scores=playoff_scores,
        playoff_stale=stale,
        ended_early=early,
    )
