"""One event put back from its backup file (`manage.py import_event`): the rows `tournaments.backup`
wrote, with their ids, versions and timestamps, in one transaction.

The database must not hold the event already: an id or a table link token it holds refuses the
whole file before anything is written. Users are matched by username, or created without a
password. A file that is not JSON, is cut short, is of another format or version, fails its
checksum, holds a wrong value, or a game whose holes no real game can hold (each named by its
place in the file, its table, hole and player: `scoring.services.game_file_checks`) is refused the
same way: `BackupError`, nothing written. Two imports of one event at once: one loads it, the
other is told so in words (a lock named after the tournament's id, held by the transaction).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.utils.translation import gettext as _

from golfclub.core.backup import (
    BackupError,
    Record,
    advance_id_sequences,
    database_refusal,
    import_lock,
    insert_rows,
    refuse_taken,
    user_for_username,
)
from golfclub.core.limits import INT_MAX
from golfclub.core.names import name_key
from scoring import services as scoring_services
from scoring.rules import resolve_ruleset
from scoring.rules.errors import RulesError
from tournaments.backup import checked_event, parse_backup
from tournaments.backup_plan import plan_row, save_plan
from tournaments.models import (
    Entrant,
    EntrantStatus,
    EventLogEntry,
    Offence,
    OfficialCall,
    Penalty,
    PenaltyStep,
    Round,
    RoundStatus,
    Ruling,
    SeatingMode,
    Staff,
    StaffRole,
    StandingsRelease,
    Table,
    TableSeat,
    Tournament,
    new_player_token,
)
from tournaments.standings import standings_cache_key

__all__ = ["import_event", "parse_backup"]

_MODELS = (Tournament, Staff, Entrant, Round, Table, TableSeat, Penalty, Ruling, OfficialCall, EventLogEntry)


def import_event(document: Any, notes: list[str] | None = None) -> Tournament:
    """Insert the event of a backup `document` (as `parse_backup` read it); answer its tournament.

    All or nothing: `BackupError` names what is wrong and where, and nothing is written. What was
    rebuilt from the holes (totals a file from an older version held behind them) is added to
    `notes`, each naming its table.
    """
    event = checked_event(document)
    rows = _Rows(event)
    try:
        with transaction.atomic():
            _refuse_an_import_under_way(rows.tournament)
            rows.resolve_users()
            for model, found in rows.by_model():
                refuse_taken(model, "pk", [row.pk for row in found], str(model._meta.verbose_name_plural))
            refuse_taken(Entrant, "token", [e.token for e in rows.entrants], _("player link tokens"))
            # The games first: the tables point at them (each keeps its id and its link tokens).
            game_notes: list[str] = []
            try:
                scoring_services.restore_games(rows.games, game_notes)
            except BackupError as refused:
                raise BackupError(refused.where, rows.table_named(refused.where) + refused.message) from None
            if notes is not None:
                notes.extend(rows.table_named(note) + note for note in game_notes)
            for model, found in rows.by_model():
                insert_rows(model, found)
            save_plan(rows.plan)
            advance_id_sequences(*_MODELS)
            # A standings entry cached before (the same id and version, another content) is never answered.
            tournament = rows.tournament
            transaction.on_commit(
                lambda: cache.delete_many(
                    [standings_cache_key(tournament, live=live) for live in (True, False)]
                )
            )
    except DatabaseError as refused:
        raise database_refusal(refused) from None
    return rows.tournament


def _refuse_an_import_under_way(tournament: Tournament) -> None:
    """`BackupError` when another transaction is importing this tournament right now: two imports
    of one file at once both find the database without the event, and the second would then wait
    for the first one's rows and fail on their ids. One gets through, the other is told at once."""
    if not import_lock(f"import_event:{tournament.pk}"):
        raise BackupError(
            "event",
            _(
                "Tournament %(id)s is being imported right now by another import_event: when that "
                "import ends, the event is there (or that import says why not)."
            )
            % {"id": tournament.pk},
        )


def _ruleset(record: Record) -> Any:
    """The event's resolved ruleset, which the rules engine must read."""
    ruleset = record.value("ruleset")
    try:
        resolve_ruleset(ruleset)
    except (RulesError, TypeError, ValueError):
        raise BackupError(
            f"{record.where}.ruleset", _("this is not a ruleset this version can read.")
        ) from None
    return ruleset


class _Rows:
    """The rows of an event's file, each value checked, references kept inside the event."""

    def __init__(self, event: Record) -> None:
        self.event = event
        t = event.record("tournament")
        self.usernames: dict[str, str] = {}  # where -> username, resolved in `resolve_users`
        self.tournament = Tournament(
            id=t.number("id", low=1),
            name=t.text("name", blank=False),
            date=t.day("date", null=True),
            venue=t.text("venue"),
            ruleset=_ruleset(t),
            rounds=t.number("rounds", low=1),
            seating=t.choice("seating", SeatingMode.values),
            seed=t.number("seed", low=-(2**63)),
            tiebreakers=t.array("tiebreakers"),
            time_limit_minutes=t.number("time_limit_minutes", null=True),
            hole_time_limit_minutes=t.number("hole_time_limit_minutes", null=True),
            standings_release=t.choice("standings_release", StandingsRelease.values),
            public=t.flag("public"),
            public_table_links=t.flag("public_table_links"),
            rulings_public=t.flag("rulings_public"),
            version=t.number("version", low=1),
            created_at=t.moment("created_at"),
            updated_at=t.moment("updated_at"),
        )
        self._director = (t.text("director", blank=False), f"{t.where}.director")
        self.staff = [self._staff(s) for s in event.records("staff")]
        self.entrants = [self._entrant(e) for e in event.records("entrants")]
        self.entrant_ids = {e.pk for e in self.entrants}
        self.rounds: list[Round] = []
        self.tables: list[Table] = []
        self.seats: list[TableSeat] = []
        self.games: list[Record] = []
        self.table_labels: dict[str, str] = {}  # a game's place in the file -> "Round 2, table 3"
        for r in event.records("rounds"):
            self._round(r)
        self.penalties = [self._penalty(p) for p in event.records("penalties")]
        penalty_ids = {p.pk for p in self.penalties}
        self.rulings = [self._ruling(r, penalty_ids) for r in event.records("rulings")]
        ruling_ids = {r.pk for r in self.rulings}
        table_ids = {t.pk for t in self.tables}
        self.calls = [self._call(c, table_ids, ruling_ids) for c in event.records("calls")]
        self.log = [self._log_entry(e) for e in event.records("log")]
        self.plan = plan_row(event, self.tournament, self.entrant_ids)

    def by_model(self) -> list[tuple[type, list[Any]]]:
        """The rows to insert, by model, in an order that inserts what is pointed at first."""
        return [
            (Tournament, [self.tournament]),
            (Staff, self.staff),
            (Entrant, self.entrants),
            (Round, self.rounds),
            (Table, self.tables),
            (TableSeat, self.seats),
            (Penalty, self.penalties),
            (Ruling, self.rulings),
            (OfficialCall, self.calls),
            (EventLogEntry, self.log),
        ]

    def table_named(self, where: str) -> str:
        """ "Round 2, table 3: " when `where` is in that table's game, else ""."""
        return next(
            (
                label
                for place, label in self.table_labels.items()
                if where.startswith(f"{place}.") or where.startswith(f"{place}:") or where == place
            ),
            "",
        )

    def resolve_users(self) -> None:
        """Every user the file names, matched by username or created (once each)."""
        users: dict[str, Any] = {}

        def user(name: str | None, where: str) -> Any:
            if name is None:
                return None
            if name not in users:
                users[name] = user_for_username(name, where)
            return users[name]

        self.tournament.director = user(*self._director)
        for row in [*self.staff, *self.penalties, *self.rulings, *self.calls, *self.log]:
            for field, (name, where) in row._usernames.items():
                setattr(row, field, user(name, where))

    def _named(self, row: Any, record: Record, key: str, field: str, *, null: bool = True) -> None:
        found = (record.text(key, null=null), f"{record.where}.{key}")
        row._usernames = {**getattr(row, "_usernames", {}), field: found}

    def _entrant_of(self, record: Record, key: str, *, null: bool = False) -> int | None:
        entrant_id = record.number(key, null=null, low=1)
        if entrant_id is not None and entrant_id not in self.entrant_ids:
            raise BackupError(f"{record.where}.{key}", _("this player is not one of the event's players."))
        return entrant_id

    def _staff(self, s: Record) -> Staff:
        row = Staff(
            id=s.number("id", low=1),
            tournament=self.tournament,
            role=s.choice("role", StaffRole.values),
            added_at=s.moment("added_at"),
        )
        self._named(row, s, "user", "user", null=False)
        return row

    def _entrant(self, e: Record) -> Entrant:
        row = Entrant(
            id=e.number("id", low=1),
            tournament=self.tournament,
            name=e.text("name", blank=False),
            club=e.text("club"),
            rating=e.number("rating", null=True, low=-(2**31)),
            status=e.choice("status", EntrantStatus.values),
            checked_in=e.flag("checked_in"),
            entered_before_round=e.number("entered_before_round"),
            left_after_round=e.number("left_after_round", null=True),
            registered_at=e.moment("registered_at"),
            # A file written before players had personal links holds none: they get new ones.
            token=_token(e) if e.has("token") else new_player_token(),
            bulk_action=e.number("bulk_action", null=True) if e.has("bulk_action") else None,
        )
        row.name_key = name_key(row.name)
        return row

    def _round(self, r: Record) -> None:
        round_ = Round(
            id=r.number("id", low=1),
            tournament=self.tournament,
            number=r.number("number", low=1),
            status=r.choice("status", RoundStatus.values),
            seating_mode=r.choice("seating_mode", SeatingMode.values),
            seed=r.number("seed", low=-(2**63)),
            repeat_pairs=r.number("repeat_pairs"),
            seated_at=r.moment("seated_at"),
            published_at=r.moment("published_at", null=True),
            finalized_at=r.moment("finalized_at", null=True),
            version=r.number("version", low=1),
        )
        self.rounds.append(round_)
        for t in r.records("tables"):
            game = t.record("game")
            table = Table(
                id=t.number("id", low=1),
                round=round_,
                number=t.number("number", low=1),
                game_id=game.number("id", low=1),
                confirmed_by_id=self._entrant_of(t, "confirmed_by", null=True),
                confirmed_at=t.moment("confirmed_at", null=True),
                # The scorecard's version the table confirmed: finalize counts only a confirmation
                # of the game as it stands.
                confirmed_game_version=(
                    t.number("confirmed_game_version", null=True, high=INT_MAX)
                    if t.has("confirmed_game_version")
                    else None
                ),
                disputed_by_id=self._entrant_of(t, "disputed_by", null=True),
                dispute_note=t.text("dispute_note"),
                disputed_at=t.moment("disputed_at", null=True),
                extra_minutes=t.number("extra_minutes"),
                # Files written before the reason was exported have none (their rounds finalized
                # with an override then fail the database's check, naming the round).
                override_reason=t.text("override_reason") if t.has("override_reason") else "",
            )
            self.tables.append(table)
            self.games.append(game)
            self.table_labels[game.where] = _("Round %(round)s, table %(table)s: ") % {
                "round": round_.number,
                "table": table.number,
            }
            for s in t.records("seats"):
                self.seats.append(
                    TableSeat(
                        id=s.number("id", low=1),
                        table=table,
                        round=round_,
                        entrant_id=self._entrant_of(s, "entrant"),
                        seat=s.number("seat"),
                    )
                )

    def _penalty(self, p: Record) -> Penalty:
        row = Penalty(
            id=p.number("id", low=1),
            tournament=self.tournament,
            entrant_id=self._entrant_of(p, "entrant"),
            round_number=p.number("round_number", null=True, low=1),
            offence=p.choice("offence", Offence.values),
            step=p.choice("step", PenaltyStep.values),
            points=p.number("points"),
            seconds_over=p.number("seconds_over", null=True),
            step_decided=p.flag("step_decided"),
            note=p.text("note"),
            created_at=p.moment("created_at"),
            rescinded_at=p.moment("rescinded_at", null=True),
            rescind_reason=p.text("rescind_reason"),
        )
        self._named(row, p, "given_by", "given_by")
        return row

    def _ruling(self, r: Record, penalty_ids: set[int]) -> Ruling:
        penalty = r.number("penalty", null=True, low=1)
        if penalty is not None and penalty not in penalty_ids:
            raise BackupError(f"{r.where}.penalty", _("this penalty is not in the event's ledger."))
        row = Ruling(
            id=r.number("id", low=1),
            tournament=self.tournament,
            situation=r.text("situation", blank=False),
            facts=r.value("facts"),
            ruling=r.text("ruling"),
            citations=r.array("citations"),
            correction=r.text("correction"),
            offence=r.choice("offence", Offence.values, blank=True),
            entrant_id=self._entrant_of(r, "entrant", null=True),
            penalty_id=penalty,
            round_number=r.number("round_number", null=True, low=1),
            table_number=r.number("table_number", null=True),
            hole_number=r.number("hole_number", null=True),
            note=r.text("note"),
            created_at=r.moment("created_at"),
        )
        self._named(row, r, "official", "official")
        return row

    def _call(self, c: Record, table_ids: set[int], ruling_ids: set[int]) -> OfficialCall:
        table, ruling = c.number("table", low=1), c.number("ruling", null=True, low=1)
        if table not in table_ids:
            raise BackupError(f"{c.where}.table", _("this table is not one of the event's tables."))
        if ruling is not None and ruling not in ruling_ids:
            raise BackupError(f"{c.where}.ruling", _("this ruling is not in the event's rulings log."))
        row = OfficialCall(
            id=c.number("id", low=1),
            tournament=self.tournament,
            table_id=table,
            called_by=c.text("called_by"),
            note=c.text("note"),
            created_at=c.moment("created_at"),
            answered_at=c.moment("answered_at", null=True),
            ruling_id=ruling,
        )
        self._named(row, c, "answered_by", "answered_by")
        return row

    def _log_entry(self, e: Record) -> EventLogEntry:
        row = EventLogEntry(
            id=e.number("id", low=1),
            tournament=self.tournament,
            round_number=e.number("round_number", null=True, low=1),
            action=e.text("action", blank=False),
            reason=e.text("reason"),
            details=e.value("details"),
            created_at=e.moment("created_at"),
        )
        self._named(row, e, "actor", "actor")
        return row


def _token(e: Record) -> str:
    """A player's link token as the file holds it: URL-safe text of 64 characters at most."""
    token = e.text("token", blank=False)
    if len(token) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in token):
        raise BackupError(
            f"{e.where}.token", _("a link token (URL-safe text, 64 characters at most) is expected.")
        )
    return token
