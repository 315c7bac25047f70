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

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
    Table,
    TableSeat,
    Tournament,
)
from tournaments.seating import SeatingError, pairs_met, repeat_pairs, seat_round
from tournaments.services import locks
from tournaments.services.club_results import count_finalized_round
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
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
    managed live game. `WrongState` while a round is not finalized or when every round is seated;
    `TournamentError` when fewer than 3 players are active; `StaleEdit` when the tournament is no
    longer at `expected_version` (the tournament's ETag the client read)."""
    # Standings order for the `standings` mode is read before the lock (it only reads).
    from tournaments.standings import standings_order

    with transaction.atomic():
        locked = lock_tournament(tournament)
        check_version(_("The tournament"), event_version(locked), expected_version)
        rounds = list(locked.round_set.order_by("number"))
        if rounds and rounds[-1].status != RoundStatus.FINALIZED:
            last = rounds[-1]
            raise WrongState(
                Problem(
                    "round",
                    _("Round %(n)s is %(status)s: finalize it before seating round %(next)s.")
                    % {
                        "n": last.number,
                        "status": last.get_status_display().lower(),
                        "next": last.number + 1,
                    },
                )
            )
        number = len(rounds) + 1
        if number > locked.rounds:
            raise WrongState(
                Problem(
                    "round",
                    ngettext("The %(n)s round is seated.", "All %(n)s rounds are seated.", locked.rounds)
                    % {"n": locked.rounds},
                )
            )
        players = list(
            Entrant.objects.filter(tournament=locked, status=EntrantStatus.ACTIVE)
            .order_by("pk")
            .values_list("pk", "name")
        )
        names = dict(players)
        earlier = _earlier_tables(locked)
        mode = locked.seating if number > 1 else "random"
        order = standings_order(locked) if mode == "standings" else []
        try:
            seating = seat_round(
                list(names),
                seed=locked.seed,
                round_number=number,
                mode=mode,
                earlier_rounds=earlier,
                standings=order,
            )
        except SeatingError:
            raise TournamentError(
                Problem(
                    "players",
                    _("At least 3 active players are needed to seat a round (%(n)s now).")
                    % {"n": len(names)},
                )
            ) from None
        round_ = Round.objects.create(
            tournament=locked,
            number=number,
            seating_mode=mode,
            seed=locked.seed,
            repeat_pairs=seating.repeat_pairs,
        )
        ruleset = table_ruleset(locked)
        seats: list[TableSeat] = []
        for index, (players_at, dealer) in enumerate(
            zip(seating.tables, seating.first_dealers, strict=True), start=1
        ):
            game = scoring_services.create_game(
                players=[names[pk] for pk in players_at],
                ruleset=ruleset,
                first_dealer=dealer,
                title=_("%(event)s, round %(round)s, table %(table)s")
                % {"event": locked.name, "round": number, "table": index},
                managed_by=TABLE_MANAGER,
                managed_label=_("%(event)s, round %(round)s, table %(table)s")
                % {"event": locked.name, "round": number, "table": index},
            )
            table = Table.objects.create(round=round_, number=index, game=game)
            seats += [
                TableSeat(table=table, round=round_, entrant_id=pk, seat=s) for s, pk in enumerate(players_at)
            ]
        TableSeat.objects.bulk_create(seats)
        log_event(
            locked,
            "round_seated",
            actor=actor,
            round_number=number,
            repeat_pairs=seating.repeat_pairs,
            mode=mode,
        )
        bump_version(locked.pk)  # the event's pages show the new seating (their ETag moves)
    return round_


def _earlier_tables(tournament: Tournament) -> list[list[list[int]]]:
    """The tables of the rounds already seated, players in seat order (for repeats and rotation)."""
    by_table: dict[tuple[int, int], list[int]] = defaultdict(list)
    for round_number, table_id, entrant_id in (
        TableSeat.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table__number", "seat")
        .values_list("round__number", "table_id", "entrant_id")
    ):
        by_table[(round_number, table_id)].append(entrant_id)
    rounds: dict[int, list[list[int]]] = defaultdict(list)
    for (round_number, _table), players in by_table.items():
        rounds[round_number].append(players)
    return [rounds[n] for n in sorted(rounds)]


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
        seat_a = TableSeat.objects.select_related("table__game").filter(round=round_, entrant=a).first()
        seat_b = TableSeat.objects.select_related("table__game").filter(round=round_, entrant=b).first()
        missing = [e.name for e, s in ((a, seat_a), (b, seat_b)) if s is None]
        if missing or seat_a is None or seat_b is None:
            raise TournamentError(
                Problem(
                    "players",
                    _("Not seated in round %(n)s: %(who)s.") % {"n": number, "who": ", ".join(missing)},
                )
            )
        if seat_a.table_id == seat_b.table_id:
            raise TournamentError(
                Problem("players", _("%(a)s and %(b)s are at the same table.") % {"a": a.name, "b": b.name})
            )
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
        bump_version(locked.pk)
    return round_


def _repeat_pairs_of(tournament: Tournament, round_: Round) -> int:
    earlier = _earlier_tables(tournament)
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
        # The tables, then their games (the lock order): a confirmation or a hole write in flight
        # finishes first; later ones see the round finalized (and their follower logs them).
        tables = locks.lock_tables(round_)
        games = scoring_services.lock_games([t.game_id for t in tables])
        playing = [t.number for t in tables if not games[t.game_id].is_finished]
        # Confirmed means confirmed for the game as it stands: one corrected since is not.
        unconfirmed = [
            t.number
            for t in tables
            if games[t.game_id].is_finished and not t.confirms(games[t.game_id].version)
        ]
        problems = []
        if playing:
            problems.append(Problem("tables", _("Tables still playing: %(t)s.") % {"t": _numbers(playing)}))
        if unconfirmed and not override:
            problems.append(
                Problem(
                    "tables",
                    _("Tables not confirmed by a player (or disputed): %(t)s.")
                    % {"t": _numbers(unconfirmed)},
                )
            )
        if problems:
            raise WrongState(problems)
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


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)
