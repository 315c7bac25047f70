"""A game of a backup file checked for consistency before anything is written (`import_event`).

A game's holes and their entries are what was played; everything else the file stores of a game
is derived from them (each seat's total, holes played and playoff total, the game's status and
winners). A file exported by an older version while tables were scoring could hold a hole with no
entries, a hole missing a player's entry, or totals behind their holes: loaded as it was, such a
table could never score again (the next hole's number, taken from the stored counts, was one
already used: 409 "Another hole was recorded at the same moment" forever). So:

- what cannot be repaired is refused, named by its place in the file, its hole and its player:
  hole numbers with a gap or twice, a hole with no entries or without a player's entry, an entry
  of a player twice, a score that its grid score and adjustments do not make (who plays a
  playoff hole is not checked: playoff holes made stale by a corrected regular hole stay on record);
- what is derived is recomputed from the entries and replaces what the file says. When the two
  differ, or a hole was saved after the game's row (and its version) was read, the version
  moves on (so no phone's copy of the old state passes as current) and a note says what was
  rebuilt, for the person restoring to read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from golfclub.core.backup import BackupError
from scoring.models import Game, Hole, HoleEntry, Seat
from scoring.rules.errors import RulesError
from scoring.selectors import game_ruleset
from scoring.selectors.match_adapter import MatchState, match_state


@dataclass
class GameInFile:
    """One game's rows as read from the file, with where each hole and entry is in it."""

    game: Game
    where: str
    seats: list[Seat] = field(default_factory=list)
    holes: list[tuple[Hole, str]] = field(default_factory=list)
    entries: dict[int, list[tuple[HoleEntry, str]]] = field(default_factory=dict)  # by hole id


def _label(hole: Hole) -> str:
    return (_("playoff hole %(n)s") if hole.is_playoff else _("hole %(n)s")) % {"n": hole.number}


def check_holes(found: GameInFile) -> None:
    """`BackupError` naming the first thing in the game's holes that no real game can hold."""
    for playoff in (False, True):
        _check_numbers(found, playoff)
    names = {seat.pk: seat.name for seat in found.seats}
    for hole, where in sorted(found.holes, key=lambda h: (h[0].is_playoff, h[0].number)):
        entries = found.entries.get(hole.pk, [])
        players = _check_entries(hole, where, entries, names)
        if not entries:
            raise BackupError(
                f"{where}.entries",
                _("%(hole)s has no entries: the file was written while it was being saved, or damaged.")
                % {"hole": _label(hole)},
            )
        missing = [names[pk] for pk in names if pk not in players]
        if not hole.is_playoff and missing:
            raise BackupError(
                f"{where}.entries",
                _("%(hole)s has no entry for %(names)s: every player plays every hole.")
                % {"hole": _label(hole), "names": ", ".join(missing)},
            )


def _check_numbers(found: GameInFile, playoff: bool) -> None:
    """Regular (or playoff) holes numbered 1, 2, 3... each once."""
    holes = [(hole, where) for hole, where in found.holes if hole.is_playoff == playoff]
    counts = Counter(hole.number for hole, _where in holes)
    for hole, where in holes:
        if counts[hole.number] > 1:
            raise BackupError(f"{where}.number", _("%(hole)s is in the file twice.") % {"hole": _label(hole)})
    expected = range(1, len(holes) + 1)
    gap = next((n for n in expected if n not in counts), None)
    if gap is not None:
        label = _("playoff hole %(n)s") if playoff else _("hole %(n)s")
        raise BackupError(
            f"{found.where}.holes",
            _("%(hole)s is missing: the file holds %(what)s %(numbers)s.")
            % {
                "hole": label % {"n": gap},
                "what": _("playoff holes") if playoff else _("holes"),
                "numbers": ", ".join(str(n) for n in sorted(counts)),
            },
        )


def _check_entries(
    hole: Hole, where: str, entries: Sequence[tuple[HoleEntry, str]], names: dict[int, str]
) -> set[int]:
    """The seats with an entry in `hole`; `BackupError` for a seat twice or a score that does not add up."""
    players: set[int] = set()
    for entry, entry_where in entries:
        name = names[entry.seat_id]
        if entry.seat_id in players:
            raise BackupError(
                f"{entry_where}.seat",
                _("%(name)s has two entries in %(hole)s.") % {"name": name, "hole": _label(hole)},
            )
        players.add(entry.seat_id)
        points = [a.get("points") if isinstance(a, dict) else None for a in entry.adjustments]
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise BackupError(f"{entry_where}.adjustments", _("each adjustment needs its points."))
        made = entry.grid_score + sum(points)  # type: ignore[arg-type]  # ints, checked above
        if entry.score != made:
            raise BackupError(
                f"{entry_where}.score",
                _(
                    "%(name)s's score in %(hole)s is %(score)s, but the grid score and adjustments "
                    "make %(made)s: the file was changed or damaged."
                )
                % {"name": name, "hole": _label(hole), "score": entry.score, "made": made},
            )
    return players


def rebuild_derived(found: GameInFile) -> str | None:
    """Set the seats' totals and the game's status and winners to what the entries make, and move the
    game's version on when the file holds holes saved after the game's row was read.

    Answers a note naming what the file said otherwise (the game's version then moves on), or None
    when the file's values were right, as in every file written from one snapshot.
    """
    game = found.game
    state = _state_from_entries(found)
    changed = _rebuild_seats(found.seats, state)
    if game.status != state.status or list(game.winners) != list(state.winners):
        changed.append(
            _("status %(status)s (the file said %(old)s)") % {"status": state.status, "old": game.status}
        )
        game.status, game.winners = state.status, list(state.winners)
    newer = [hole.updated_at for hole, _where in found.holes if hole.updated_at > game.updated_at]
    if newer:
        # Every write of a hole stamps the game after it in its transaction: a hole saved after
        # the game's row was read (by an older export) means the game's version missed its writes.
        changed.append(
            ngettext(
                "%(count)s hole saved after the game's version %(version)s was read",
                "%(count)s holes saved after the game's version %(version)s was read",
                len(newer),
            )
            % {"count": len(newer), "version": game.version}
        )
        game.version += len(newer) - 1  # and one more below
        game.updated_at = max(newer)
    if not changed:
        return None
    game.version += 1
    return _("%(where)s: rebuilt from its holes' entries: %(changes)s.") % {
        "where": found.where,
        "changes": "; ".join(changed),
    }


def _state_from_entries(found: GameInFile) -> MatchState:
    """The match as the file's entries make it (the rules engine's totals, status and winners)."""
    try:
        ruleset = game_ruleset(found.game)
    except (RulesError, TypeError, ValueError, KeyError):
        raise BackupError(
            f"{found.where}.ruleset", _("this is not a ruleset this version can read.")
        ) from None
    holes = {hole.pk: hole for hole, _where in found.holes}
    rows = [
        (entry.seat_id, holes[hole_id].is_playoff, holes[hole_id].number, entry.score)
        for hole_id, entries in found.entries.items()
        for entry, _where in entries
    ]
    return match_state(ruleset, found.seats, rows)


def _rebuild_seats(seats: list[Seat], state: MatchState) -> list[str]:
    """Set each seat's total, holes played and playoff total to the entries'; answer a note for each
    seat whose stored values differed."""
    changed: list[str] = []
    for seat in seats:
        line = state.seats[seat.pk]
        if (seat.total, seat.holes_played, seat.playoff_total) == (
            line.total,
            line.holes_played,
            line.playoff_total,
        ):
            continue
        changed.append(
            _("%(name)s %(total)s after %(played)s holes (the file said %(old)s after %(old_played)s)")
            % {
                "name": seat.name,
                "total": line.total,
                "played": line.holes_played,
                "old": seat.total,
                "old_played": seat.holes_played,
            }
        )
        seat.total, seat.holes_played, seat.playoff_total = line.total, line.holes_played, line.playoff_total
    return changed
