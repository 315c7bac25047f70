"""A round's lifecycle, held on the server: seated -> published (tables score) -> finalized (locked).

- `seat_next_round` seats the active players (`tournaments.seating`, seeded by the event's seed)
  and creates each table's managed live game;
- `swap_players` exchanges two players of a seated round before it is published, with a reason;
- `publish_round` lets the tables score;
- `finalize_round` locks the round once every table's game is over and confirmed (or, with an
  override by a director, over but unconfirmed), answering `WrongState` naming the tables in the
  way otherwise.

Each is one transaction taking its locks in the one order of `tournaments.services.locks`: the
tournament, the round, its tables, their games.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from golfclub.core.bulk_insert import insert_rows
from scoring import services as scoring_services
from scoring.rules.errors import Problem
from tournaments.errors import NotFoundInTournament, TournamentError, WrongState
from tournaments.live_versions import event_version, round_version
from tournaments.models import (
    TABLE_MANAGER,
    Entrant,
    EntrantStatus,
    Round,
    RoundStatus,
    SeatingMode,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.seating import first_dealers, pairs_met, repeat_pairs, seat_round
from tournaments.services import locks
from tournaments.services.club_results import count_finalized_round
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
from tournaments.services.seating_plans import planned_round, refresh_seating_plan, seated_tables
from tournaments.services.versions import check_version


def table_ruleset(tournament: Tournament) -> dict[str, Any]:
    """The ruleset of the tables' games: the event's, but a tie at a table is never played off there
    (rule 6.1): the chain without `sudden_death`, ending in `shared`."""
    ruleset = dict(tournament.ruleset)
    chain = [method for method in ruleset.get("tiebreakers", []) if method not in ("sudden_death", "shared")]
    ruleset["tiebreakers"] = [*chain, "shared"]
    return ruleset


def seat_next_round(
    tournament: Tournament, *, actor: Any = None, expected_version: int | None = None
) -> Round:
    """Seat the next round: every active player, at tables of 4 (the rest of 3), each table a
    managed live game. A `fewest_repeats` event is seated from its seating plan (made when round 1
    is seated: `tournaments.services.seating_plans`). `WrongState` while a round is not finalized or
    when every round is seated; `TournamentError` when fewer than 3 players are active; `StaleEdit`
    when the tournament is no longer at `expected_version` (the tournament's ETag the client read)."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        check_version(_("The tournament"), event_version(locked), expected_version)
        number = _next_round_number(locked)
        names = dict(
            Entrant.objects.filter(tournament=locked, status=EntrantStatus.ACTIVE)
            .order_by("pk")
            .values_list("pk", "name")
        )
        if len(names) < 3:
            raise TournamentError(
                Problem(
                    "players",
                    _("At least 3 active players are needed to seat a round (%(n)s now).")
                    % {"n": len(names)},
                )
            )
        seated = seated_tables(locked)
        mode = locked.seating if number > 1 else "random"
        tables, dealers = _round_tables(locked, number, list(names), seated)
        repeats = repeat_pairs(tables, pairs_met(seated))
        round_ = Round.objects.create(
            tournament=locked, number=number, seating_mode=mode, seed=locked.seed, repeat_pairs=repeats
        )
        _create_tables(locked, round_, tables, dealers, names)
        log_event(locked, "round_seated", actor=actor, round_number=number, repeat_pairs=repeats, mode=mode)
        bump_version(locked.pk)  # the event's pages show the new seating (their ETag moves)
    return round_


def _next_round_number(locked: Tournament) -> int:
    """The number of the round to seat, or `WrongState` naming what is in the way."""
    last = locked.round_set.order_by("-number").first()
    if last is not None and last.status != RoundStatus.FINALIZED:
        raise WrongState(
            Problem(
                "round",
                _("Round %(n)s is %(status)s: finalize it before seating round %(next)s.")
                % {"n": last.number, "status": last.get_status_display().lower(), "next": last.number + 1},
            )
        )
    number = (last.number if last else 0) + 1
    if number > locked.rounds:
        raise WrongState(
            Problem(
                "round",
                ngettext("The %(n)s round is seated.", "All %(n)s rounds are seated.", locked.rounds)
                % {"n": locked.rounds},
            )
        )
    return number


def _round_tables(
    locked: Tournament, number: int, players: list[int], seated: list[list[list[int]]]
) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """Round `number`'s tables (entrant ids in seat order) and each table's first dealer seat: from
    the seating plan in a `fewest_repeats` event, else by `tournaments.seating.seat_round`."""
    if locked.seating == SeatingMode.FEWEST_REPEATS:
        tables = [tuple(table) for table in planned_round(locked, number, players, seated)]
        return tables, first_dealers(tables, seated)
    # Standings order for the `standings` mode (it only reads).
    from tournaments.standings import standings_order

    mode = locked.seating if number > 1 else "random"
    order = standings_order(locked) if mode == "standings" else []
    seating = seat_round(
        players, seed=locked.seed, round_number=number, mode=mode, earlier_rounds=seated, standings=order
    )
    return list(seating.tables), seating.first_dealers


def _create_tables(
    locked: Tournament,
    round_: Round,
    tables: list[tuple[int, ...]],
    dealers: tuple[int, ...],
    names: dict[int, str],
) -> None:
    """Each table of `round_` with its managed live game and its seats, in a few bulk inserts."""
    labels = [
        _("%(event)s, round %(round)s, table %(table)s")
        % {"event": locked.name, "round": round_.number, "table": index}
        for index in range(1, len(tables) + 1)
    ]
    game_ids = scoring_services.create_managed_games(
        [
            scoring_services.NewGame(
                players=[names[pk] for pk in players_at],
                first_dealer=dealer,
                title=label,
                managed_label=label,
            )
            for players_at, dealer, label in zip(tables, dealers, labels, strict=True)
        ],
        ruleset=table_ruleset(locked),
        managed_by=TABLE_MANAGER,
    )
    table_ids = insert_rows(
        Table,
        len(tables),
        per_row={"number": list(range(1, len(tables) + 1)), "game_id": game_ids},
        same={"round_id": round_.pk},
    )
    insert_rows(
        TableSeat,
        sum(map(len, tables)),
        per_row={
            "table_id": [tid for tid, players_at in zip(table_ids, tables, strict=True) for _ in players_at],
            "entrant_id": [pk for players_at in tables for pk in players_at],
            "seat": [s for players_at in tables for s in range(len(players_at))],
        },
        same={"round_id": round_.pk},
    )


def round_in(tournament: Tournament, number: Any, *, lock: bool = False) -> Round:
    """Round `number` of `tournament`, or `NotFoundInTournament` (with `lock`, locked: the
    tournament is locked first by the caller, `tournaments.services.locks`)."""
    if lock:
        return locks.lock_round(tournament, number)
    pk_ok = isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**15
    found = Round.objects.filter(tournament=tournament, number=number).first() if pk_ok else None
    if found is None:
        raise NotFoundInTournament(
            Problem("round", _("No round %(n)s in this tournament.") % {"n": str(number)[:12]})
        )
    return found


def swap_players(
    tournament: Tournament,
    number: int,
    first: Any,
    second: Any,
    *,
    reason: str,
    actor: Any = None,
    expected_version: int | None = None,
) -> Round:
    """Exchange the seats of two players of seated round `number` before it is published, with a reason.

    `expected_version` (here, in `publish_round` and `finalize_round`) is the `Round.version` the
    client read (the round's ETag): another one under the round's lock is a `StaleEdit` (412)."""
    from tournaments.services.entrants import entrant_in

    reason = clean_reason(
        reason, required=_("Say why the two players are swapped (it is kept in the event's log).")
    )
    with transaction.atomic():
        locked = lock_tournament(tournament)
        round_ = round_in(locked, number, lock=True)
        check_version(str(round_), round_version(round_), expected_version)
        if round_.status != RoundStatus.SEATED:
            raise WrongState(
                Problem("round", _("Round %(n)s is already published: its seating is final.") % {"n": number})
            )
        a, b = entrant_in(locked, first), entrant_in(locked, second)
        _exchange_seats(round_, *_seats_at_two_tables(round_, a, b), a, b)
        round_.repeat_pairs = _repeat_pairs_of(locked, round_)
        round_.version += 1
        round_.save(update_fields=["repeat_pairs", "version"])
        log_event(
            locked,
            "players_swapped",
            actor=actor,
            round_number=number,
            reason=reason,
            players=[a.name, b.name],
        )
        refresh_seating_plan(
            locked, reason=_("Made again after %(a)s and %(b)s were swapped.") % {"a": a.name, "b": b.name}
        )
        bump_version(locked.pk)
    return round_


def _seats_at_two_tables(round_: Round, a: Entrant, b: Entrant) -> tuple[TableSeat, TableSeat]:
    """The seats of `a` and `b` in `round_`; `TournamentError` unless both are seated, at two tables."""
    seat_a = TableSeat.objects.select_related("table__game").filter(round=round_, entrant=a).first()
    seat_b = TableSeat.objects.select_related("table__game").filter(round=round_, entrant=b).first()
    missing = [e.name for e, s in ((a, seat_a), (b, seat_b)) if s is None]
    if missing or seat_a is None or seat_b is None:
        raise TournamentError(
            Problem(
                "players",
                _("Not seated in round %(n)s: %(who)s.") % {"n": round_.number, "who": ", ".join(missing)},
            )
        )
    if seat_a.table_id == seat_b.table_id:
        raise TournamentError(
            Problem("players", _("%(a)s and %(b)s are at the same table.") % {"a": a.name, "b": b.name})
        )
    return seat_a, seat_b


def _exchange_seats(round_: Round, seat_a: TableSeat, seat_b: TableSeat, a: Entrant, b: Entrant) -> None:
    """`a` takes `b`'s seat and `b` takes `a`'s, in the seating and in the two tables' games."""
    # Level 4 of the lock order: both games, in id order, before either is renamed.
    scoring_services.lock_games([seat_a.table.game_id, seat_b.table.game_id])
    scoring_services.seat_rename(seat_a.table.game, seat_a.seat, b.name)
    scoring_services.seat_rename(seat_b.table.game, seat_b.seat, a.name)
    # Two updates through a free seat number would be needed for a unique (round, entrant): delete
    # and recreate the two rows instead.
    rows = [(seat_a.table_id, b.pk, seat_a.seat), (seat_b.table_id, a.pk, seat_b.seat)]
    TableSeat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
    TableSeat.objects.bulk_create(
        TableSeat(table_id=t, round=round_, entrant_id=e, seat=s) for t, e, s in rows
    )


def _repeat_pairs_of(tournament: Tournament, round_: Round) -> int:
    earlier = seated_tables(tournament)
    return repeat_pairs(earlier[round_.number - 1], pairs_met(earlier[: round_.number - 1]))


def publish_round(
    tournament: Tournament, number: int, *, actor: Any = None, expected_version: int | None = None
) -> Round:
    """Let the tables of seated round `number` score. Publishing a published round changes nothing."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        round_ = round_in(locked, number, lock=True)
        check_version(str(round_), round_version(round_), expected_version)
        if round_.status == RoundStatus.PUBLISHED:
            return round_
        if round_.status == RoundStatus.FINALIZED:
            raise WrongState(Problem("round", _("Round %(n)s is finalized.") % {"n": number}))
        round_.status = RoundStatus.PUBLISHED
        round_.published_at = timezone.now()
        round_.version += 1  # the round's answer changed: its ETag moves on
        round_.save(update_fields=["status", "published_at", "version"])
        log_event(locked, "round_published", actor=actor, round_number=number)
        bump_version(locked.pk)
    return round_


def finalize_round(
    tournament: Tournament,
    number: int,
    *,
    override: bool = False,
    reason: str = "",
    actor: Any = None,
    expected_version: int | None = None,
) -> Round:
    """Lock round `number` once every table's game is over and confirmed.

    Otherwise `WrongState` (409) naming the tables still playing, unconfirmed or disputed. With
    `override` (a director's decision, with a reason, recorded) finished but unconfirmed or
    disputed tables do not stop it; unfinished ones always do.
    """
    reason = clean_reason(
        reason, required=_("An override needs a reason (it is kept in the event's log).") if override else ""
    )
    with transaction.atomic():
        locked = lock_tournament(tournament)
        round_ = round_in(locked, number, lock=True)
        check_version(str(round_), round_version(round_), expected_version)
        if round_.status == RoundStatus.FINALIZED:
            return round_
        if round_.status == RoundStatus.SEATED:
            raise WrongState(Problem("round", _("Round %(n)s has not been published yet.") % {"n": number}))
        unconfirmed = _unconfirmed_tables(round_, override=override)
        if unconfirmed:  # each table let through keeps the director's reason (the invariant's)
            # and no confirmation of an earlier scorecard (it would read as holding once finalized).
            Table.objects.filter(round=round_, number__in=unconfirmed).update(
                override_reason=reason, confirmed_by=None, confirmed_at=None, confirmed_game_version=None
            )
        round_.status = RoundStatus.FINALIZED
        round_.finalized_at = timezone.now()
        round_.version += 1
        round_.save(update_fields=["status", "finalized_at", "version"])
        # A club's event: the tables' games count for the entrants linked to members, now.
        count_finalized_round(round_, locked.club_id)
        log_event(
            locked,
            "round_finalized_override" if unconfirmed else "round_finalized",
            actor=actor,
            round_number=number,
            reason=reason,
            unconfirmed_tables=unconfirmed,
        )
        bump_version(locked.pk)
    return round_


def _unconfirmed_tables(round_: Round, *, override: bool) -> list[int]:
    """The numbers of the round's finished tables not confirmed, once nothing stops the round's end:
    `WrongState` naming the tables still playing, and the unconfirmed ones unless `override`.

    The tables, then their games, are locked (the lock order): a confirmation or a hole write in
    flight finishes first; later ones see the round finalized (and their follower logs them)."""
    tables = locks.lock_tables(round_)
    games = scoring_services.lock_games([t.game_id for t in tables])
    playing = [t.number for t in tables if not games[t.game_id].is_finished]
    # Confirmed means confirmed for the game as it stands: one corrected since is not.
    unconfirmed = [
        t.number for t in tables if games[t.game_id].is_finished and not t.confirms(games[t.game_id].version)
    ]
    problems = []
    if playing:
        problems.append(Problem("tables", _("Tables still playing: %(t)s.") % {"t": _numbers(playing)}))
    if unconfirmed and not override:
        problems.append(
            Problem(
                "tables",
                _("Tables not confirmed by a player (or disputed): %(t)s.") % {"t": _numbers(unconfirmed)},
            )
        )
    if problems:
        raise WrongState(problems)
    return unconfirmed


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)
