"""The standings ranked again after a few players' records changed, from the table ranked before.

`scoring.rules.rank_records` ranks every player: totals, then each group of players level on
(ranking group, total) settled by the tiebreak chain (`TieSettler`), then each row's columns and
"why above". At 1,000 players that is about 30 ms, most of it settling ties and writing the
countback columns of players whose records did not change. Here, when only some players' records
changed (a hole at their table) and nothing else did (the same players, groups, penalties, chain:
`tournaments.standings_cache` checks it), the new order is the old one except where those players
were or now are:

- everyone is sorted again by (ranking group, total), the event's order within a tie, exactly as
  `rank_records` splits them (`split_by_key`);
- a tied group with the same players as before, none of them changed, at the same place (first or
  not: first-place-only metrics settle only the first group) is settled as before: its order, its
  shared places, playoffs and "why above" are read from the old lines;
- any other tied group is settled by the engine's own `TieSettler`, on the same data
  `rank_records` gives it (each player's hole scores and holes won; no playoff holes);
- a changed player's columns are the engine's (`METRICS[...].column`); the others' are unchanged:
  every metric's column depends on the player alone when there are no playoff holes.

Ranks follow from the positions, as in `rank_records`. `tests/tournaments/test_standings_incremental.py`
checks the result against a computation from scratch on random events and changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from scoring.rules.tiebreak import METRICS, PLAYOFF, SHARED, TiebreakData, TieSettler
from tournaments.standings import StandingLine, Standings


@dataclass(frozen=True, slots=True)
class Changed:
    """A changed player's new record: what their line shows, and their scores for the tiebreaks."""

    total: int  # hole scores plus penalty points
    holes_played: int
    holes_won: int
    rounds: tuple[int | None, ...]
    thru: int | None
    scores: tuple[int, ...]  # sorted
    moved: bool  # their scores or holes won differ from before (else only `rounds` or `thru` may)


@dataclass(frozen=True, slots=True)
class _Place:
    """A player's place in a settled tie: who shares it, and the flags and text of their line."""

    final: int  # the index of their final group within the tie (players level after the chain)
    playoff: bool
    shared: bool
    why_above: str


def reranked(
    old: Standings,
    changed: Mapping[int, Changed],
    group_of: Mapping[int, int],
    order: Sequence[int],
    scores_of: Callable[[int], tuple[int, ...]],
) -> tuple[StandingLine, ...]:
    """`old`'s lines ranked again with the `changed` players' new records (entrant id -> record).

    `group_of` and `order` are the ranking groups and the event's order `old` was ranked with;
    `scores_of(entrant)` gives an unchanged player's hole scores (for a tie that must be settled
    again)."""
    line_of = {line.entrant_id: line for line in old.lines}
    key = {
        pk: (group_of[pk], changed[pk].total if pk in changed else line.total) for pk, line in line_of.items()
    }
    ordered = sorted(order, key=key.__getitem__)  # stable: the event's order within a tie
    context = _Context(old, line_of, changed, group_of, scores_of)
    lines: list[StandingLine] = []
    start = 0
    while start < len(ordered):
        end = start + 1
        while end < len(ordered) and key[ordered[end]] == key[ordered[start]]:
            end += 1
        pk = ordered[start]
        line = line_of[pk]
        if end - start > 1:
            lines += _settled(ordered[start:end], context, start)
        elif (
            pk not in changed
            and line.rank == start + 1
            and not (line.playoff or line.shared or line.why_above)
        ):
            lines.append(line)  # alone on its total, as before, at the same rank
        else:
            lines.append(_line(line, changed.get(pk), start + 1, _ALONE, old.tiebreakers))
        start = end
    return tuple(lines)


@dataclass(frozen=True)
class _Context:
    """What settling a tie reads, besides the tie."""

    old: Standings
    line_of: Mapping[int, StandingLine]
    changed: Mapping[int, Changed]
    group_of: Mapping[int, int]
    scores_of: Callable[[int], tuple[int, ...]]

    def run_before(self, tie: list[int]) -> tuple[StandingLine, ...] | None:
        """The old lines of `tie` when exactly these players were level before (their old lines
        next to each other, nobody else level with them), else None."""
        lines = self.old.lines
        where = sorted(self.position[pk] for pk in tie)
        low, high = where[0], where[-1]
        if high - low + 1 != len(tie):
            return None
        level = self._key(lines[low])
        if (low > 0 and self._key(lines[low - 1]) == level) or (
            high + 1 < len(lines) and self._key(lines[high + 1]) == level
        ):
            return None
        return lines[low : high + 1]

    @cached_property
    def position(self) -> dict[int, int]:
        """Each player's index in the old lines."""
        return {line.entrant_id: index for index, line in enumerate(self.old.lines)}

    def _key(self, line: StandingLine) -> tuple[int, int]:
        return self.group_of[line.entrant_id], line.total


_ALONE = _Place(0, False, False, "")


def _settled(tie: list[int], context: _Context, above: int) -> list[StandingLine]:
    """The lines of one tie (players level on group and total, in the event's order), placed after
    `above` lines: as before when the same players were level at the same place (first or not)
    and none of them moved, else settled by the engine."""
    old, changed = context.old, context.changed
    run = None
    if not any(pk in changed and changed[pk].moved for pk in tie):
        run = context.run_before(tie)
    if (
        run is not None
        and context.position[run[0].entrant_id] == above
        and not any(pk in changed for pk in tie)
    ):
        return list(run)  # the same players level at the same place: the very same lines
    if run is not None and (context.position[run[0].entrant_id] == 0) == (above == 0):
        ordered, places = _as_before(run)
    else:
        ordered, places = _settle(
            tie, above == 0, old.tiebreakers, context.line_of, changed, context.scores_of
        )
    lines: list[StandingLine] = []
    rank = above + 1
    for index, pk in enumerate(ordered):
        place = places[pk]
        if index and place.final != places[ordered[index - 1]].final:
            rank = above + index + 1
        lines.append(_line(context.line_of[pk], changed.get(pk), rank, place, old.tiebreakers))
    return lines


def _as_before(run: Sequence[StandingLine]) -> tuple[list[int], dict[int, _Place]]:
    """A tie settled as before: its old order, final groups (by shared rank) and flags."""
    places: dict[int, _Place] = {}
    final = 0
    for index, line in enumerate(run):
        if index and line.rank != run[index - 1].rank:
            final += 1
        places[line.entrant_id] = _Place(final, line.playoff, line.shared, line.why_above)
    return [line.entrant_id for line in run], places


def _settle(
    tie: list[int],
    first: bool,
    chain: tuple[str, ...],
    line_of: Mapping[int, StandingLine],
    changed: Mapping[int, Changed],
    scores_of: Callable[[int], tuple[int, ...]],
) -> tuple[list[int], dict[int, _Place]]:
    """A tie settled by the engine's `TieSettler`, as `rank_records` settles it."""
    names = {line_of[pk].name: pk for pk in tie}
    data = _data(tie, line_of, changed, scores_of)
    settler = TieSettler(data)
    finals = settler.settle(tuple(line_of[pk].name for pk in tie), chain, first=first)
    flat = [name for group in finals for name in group]
    places: dict[int, _Place] = {}
    position = 0
    for index, group in enumerate(finals):
        held = settler.held.get(group)
        for name in group:
            position += 1
            below = flat[position] if position < len(flat) else None
            why = settler.why_above(name, below) if below is not None and below not in group else ""
            # Only a tie among complete records can go to a playoff or share a place.
            complete = line_of[names[name]].complete
            playoff, shared = held == PLAYOFF and complete, held == SHARED and complete
            places[names[name]] = _Place(index, playoff, shared, why)
    return [names[name] for name in flat], places


def _data(
    players: Sequence[int],
    line_of: Mapping[int, StandingLine],
    changed: Mapping[int, Changed],
    scores_of: Callable[[int], tuple[int, ...]],
) -> TiebreakData:
    """What the metrics read for `players`: their hole scores and holes won (no playoff holes)."""
    regular: dict[str, tuple[int, ...]] = {}
    won: dict[str, int] = {}
    for pk in players:
        name = line_of[pk].name
        if pk in changed:
            regular[name], won[name] = changed[pk].scores, changed[pk].holes_won
        else:
            regular[name], won[name] = scores_of(pk), line_of[pk].holes_won
    return TiebreakData(regular=regular, won=won, playoff_holes=())


def _line(
    line: StandingLine, new: Changed | None, rank: int, place: _Place, chain: tuple[str, ...]
) -> StandingLine:
    """`line` at its new place (the same object when nothing of it moved), with `new`'s record."""
    shown = (rank, place.playoff, place.shared, place.why_above)
    if new is None and shown == (line.rank, line.playoff, line.shared, line.why_above):
        return line
    columns = line.columns
    if new is not None and new.moved:
        data = TiebreakData(regular={line.name: new.scores}, won={line.name: new.holes_won}, playoff_holes=())
        alone = (line.name,)  # a column depends on the player alone when there are no playoff holes
        columns = tuple((m, METRICS[m].column(line.name, alone, data)) for m in dict.fromkeys(chain))
    record = line if new is None else new
    return StandingLine(
        rank,
        line.entrant_id,
        line.name,
        line.club,
        line.status,
        record.total,
        line.penalty_points,
        record.rounds,
        record.holes_played,
        record.holes_won,
        line.complete,
        line.disqualified,
        place.playoff,
        place.shared,
        columns,
        place.why_above,
        record.thru,
        line.late_entry,
    )
