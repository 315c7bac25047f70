"""Who may do what in a tournament: the one access policy of this app, for pages and API alike.

Roles: the tournament's `director` (its creator), `co_director` and `official` (`Staff` rows), and
everybody else. What each may do is the table `_ALLOWED`; views never test roles themselves: a view
makes ONE call at its top, `tournament_for_user(user, tournament_id, action)` (a page through
`tournaments.web.access.tournament_page_for`, which raises its refusals as pages'), and gets a
`TournamentGrant`: the tournament and what the caller may do (who sees live standings, a round's
seating, ...). A player's own link asks `player_link_grant`; list views filter with
`visible_tournaments(user)`.

The tables' games are `scoring` games: this module also answers, for the tournament's
`TableManager` (`tournaments.table_manager`), what its staff may do to them (they reach a table's
game through its view link and get what their role gives) and the hole rules (tables score only
while their round is in play; corrections after the next hole, or once the round is finalized,
need an official or a director and a reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from scoring import hole_policies
from scoring.access import Capability, TokenKind
from scoring.rules.errors import Problem
from tournaments.errors import NotAllowed, NotFoundInTournament
from tournaments.models import (
    TABLE_MANAGER,
    RoundStatus,
    Staff,
    StaffRole,
    StandingsRelease,
    Table,
    Tournament,
)

if TYPE_CHECKING:
    from scoring.game_managers import HoleChange
    from scoring.models import Game


class Role(StrEnum):
    """A user's part in one tournament."""

    DIRECTOR = "director"
    CO_DIRECTOR = "co_director"
    OFFICIAL = "official"


class Action(StrEnum):
    """Something done to a tournament."""

    VIEW = "view"  # its public pages: players, seating, released standings
    SEE_LIVE = "see_live"  # the dashboard, unreleased standings, the event log, table links
    RUN = "run"  # settings, players, seating, publishing, finalizing, overrides
    OFFICIATE = "officiate"  # penalties, rulings, late corrections with a reason
    STAFF = "staff"  # add or remove co-directors and officials
    READ_RULINGS = "read_rulings"  # the event's rulings log: the staff, and everybody when made public
    OVERRIDE = "override"  # finalize a round despite unconfirmed tables (the director only: SPEC)
    CHECK_IN = "check_in"  # mark a player present from their own page's QR (any staff member)
    SCORE_TABLES = "score_tables"  # type a table's paper slip into its game (a dead phone)


_STAFF_ACTIONS = {Action.VIEW, Action.SEE_LIVE, Action.READ_RULINGS, Action.CHECK_IN}
_ALLOWED: dict[Role, frozenset[Action]] = {
    Role.DIRECTOR: frozenset(Action),
    Role.CO_DIRECTOR: frozenset(_STAFF_ACTIONS | {Action.RUN, Action.OFFICIATE, Action.SCORE_TABLES}),
    Role.OFFICIAL: frozenset(_STAFF_ACTIONS | {Action.OFFICIATE, Action.SCORE_TABLES}),
}


@dataclass(frozen=True)
class TournamentGrant:
    """A tournament and what the person asking may do to it: the answer of `tournament_for_user`."""

    tournament: Tournament
    role: Role | None
    actions: frozenset[Action]

    def allows(self, action: Action) -> bool:
        """True when the person asking may do `action`."""
        return action in self.actions

    @property
    def can_run(self) -> bool:
        """Settings, players, seating, publishing, finalizing."""
        return Action.RUN in self.actions

    @property
    def is_staff(self) -> bool:
        """The dashboard, live standings, the log, the table links."""
        return Action.SEE_LIVE in self.actions

    @property
    def can_staff(self) -> bool:
        """Adding and removing co-directors and officials (the director only)."""
        return Action.STAFF in self.actions

    @property
    def sees_live_standings(self) -> bool:
        """Whether the standings shown count the round in play (`sees_live_standings`)."""
        return sees_live_standings(self.actions, self.tournament)

    def shows_seating(self, round_status: str) -> bool:
        """Whether a round in `round_status` shows its seating (`sees_seating`)."""
        return sees_seating(self.actions, round_status)

    @property
    def table_capabilities(self) -> frozenset[Capability]:
        """What the person asking may do to any table's game of the event (a staff member typing a
        paper slip); nothing for anyone without a role."""
        return _CAPABILITIES_BY_ROLE[self.role] if self.role is not None else frozenset()


def tournament_for_user(user: Any, tournament_id: int, action: Action) -> TournamentGrant:
    """THE access call of every tournament view, page and API: the tournament `tournament_id` with
    what `user` may do to it, when that includes `action`. Else `NotFoundInTournament` (no such
    tournament, or a private one they may not see) or `NotAllowed` (saying who may).
    Two queries at most: the tournament, the user's role."""
    grant = tournament_grant(user, tournament_id)
    if grant is None:
        raise NotFoundInTournament(Problem("tournament", _("No such tournament.")))
    refuse_unless_allowed(user, grant.actions, action)
    return grant


def tournament_grant(user: Any, tournament_id: int) -> TournamentGrant | None:
    """The tournament `tournament_id` and everything `user` may do to it, nothing checked yet (None
    when there is no such tournament): `tournament_for_user` without its refusal, for the pages'
    access call, whose refusal page names the tournament."""
    found = Tournament.objects.filter(pk=tournament_id).first() if tournament_id < 2**63 else None
    return grant_on(user, found) if found is not None else None


def grant_on(user: Any, tournament: Tournament) -> TournamentGrant:
    """Everything `user` may do to `tournament` (already loaded: reached by a player's link)."""
    role = role_of(user, tournament)
    return TournamentGrant(tournament, role, allowed_actions(user, tournament, role))


def player_link_grant(user: Any, tournament: Tournament) -> TournamentGrant:
    """What the holder of a player's own link may do: see the event as the public does (even a
    private one: the link is the key), plus whatever their role gives."""
    grant = grant_on(user, tournament)
    return TournamentGrant(tournament, grant.role, grant.actions | {Action.VIEW})


def sees_live_standings(actions: frozenset[Action], tournament: Tournament) -> bool:
    """Who sees live standings: whether someone who may do `actions` sees the round in play counted
    (the staff always; the public when the director releases the standings live, else over the
    finalized rounds only). Every page, export and API answer of standings asks this one rule."""
    return Action.SEE_LIVE in actions or tournament.standings_release == StandingsRelease.LIVE


def role_of(user: Any, tournament: Tournament) -> Role | None:
    """`user`'s role in `tournament` (None for anyone else); at most one query."""
    if user is None or not user.is_authenticated:
        return None
    if tournament.director_id == user.pk:
        return Role.DIRECTOR
    staff_role = Staff.objects.filter(tournament=tournament, user=user).values_list("role", flat=True).first()
    return Role(staff_role) if staff_role else None


def allowed_actions(user: Any, tournament: Tournament, role: Role | str | None = "") -> frozenset[Action]:
    """Everything `user` may do to `tournament` (pass `role` when already known)."""
    if role == "":
        role = role_of(user, tournament)
    if role is not None:
        return _ALLOWED[Role(role)]
    if not tournament.public:
        return frozenset()
    return (
        frozenset({Action.VIEW, Action.READ_RULINGS})
        if tournament.rulings_public
        else frozenset({Action.VIEW})
    )


def require(user: Any, tournament: Tournament, action: Action) -> Role | None:
    """Answer `user`'s role when they may do `action`; else raise `NotFoundInTournament` when they may
    not even see the (private) tournament, `NotAllowed` otherwise."""
    role = role_of(user, tournament)
    refuse_unless_allowed(user, allowed_actions(user, tournament, role), action)
    return role


def refuse_unless_allowed(user: Any, actions: frozenset[Action], action: Action) -> None:
    """Nothing when `action` is among `actions` (what `user` may do to a tournament); else
    `NotFoundInTournament` when they may not even see it (private), `NotAllowed` saying who may."""
    if action in actions:
        return
    if Action.VIEW not in actions:
        raise NotFoundInTournament(Problem("tournament", _("No such tournament.")))
    if not user.is_authenticated:
        raise NotAllowed(
            Problem("tournament", _("Log in as one of the tournament's directors or officials."))
        )
    if action is Action.OVERRIDE:  # a co-director runs the event, but this is the director's alone
        raise NotAllowed(
            Problem(
                "override",
                _(
                    "Only the tournament's director may override: finalizing a round over unconfirmed "
                    "tables is theirs alone."
                ),
            )
        )
    raise NotAllowed(
        Problem("tournament", _("Only the tournament's %(who)s may do this.") % {"who": _who(action)})
    )


def sees_seating(actions: frozenset[Action], round_status: str) -> bool:
    """Whether someone who may do `actions` sees a round's seating (its tables and who sits where).

    A round is public once published: before, its seating may still change (swaps) and players
    must not act on it, so only the staff see it. The printouts, the seating page, the API's round
    and player record all ask this one rule.
    """
    return round_status != RoundStatus.SEATED or Action.SEE_LIVE in actions


def require_seating(grant: TournamentGrant, round_status: str, number: int) -> None:
    """Nothing when the person of `grant` may see round `number`'s seating; else
    `NotFoundInTournament` (a 404, as for a round that does not exist yet: nothing to see)."""
    if not grant.shows_seating(round_status):
        raise NotFoundInTournament(
            Problem("round", _("Round %(n)s's seating is not public yet.") % {"n": number})
        )


def _who(action: Action) -> str:
    if action is Action.STAFF:
        return _("director")
    if action in (Action.OFFICIATE, Action.SCORE_TABLES):
        return _("directors and officials")
    if action is Action.RUN:
        return _("directors")
    return _("staff")


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` may see: the public ones, and those they direct or help run."""
    if user is None or not user.is_authenticated:
        return Tournament.objects.filter(public=True)
    return Tournament.objects.filter(Q(public=True) | Q(director=user) | Q(staff__user=user)).distinct()


def staffed_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` directs or helps run (their own list)."""
    if user is None or not user.is_authenticated:
        return Tournament.objects.none()
    return Tournament.objects.filter(Q(director=user) | Q(staff__user=user)).distinct()


def roles_in(user: Any, tournaments: list[Tournament]) -> dict[int, str]:
    """`user`'s role in each of `tournaments` by id, in one query (none for anonymous users): the
    lists' `role` column."""
    if user is None or not user.is_authenticated or not tournaments:
        return {}
    roles = {t.pk: "director" for t in tournaments if t.director_id == user.pk}
    for pk, role in Staff.objects.filter(
        user=user, tournament_id__in=[t.pk for t in tournaments]
    ).values_list("tournament_id", "role"):
        roles.setdefault(pk, role)
    return roles


# --------------------------------------------------------------------------------------------
# The tables' games: what `TableManager` answers `scoring` (their staff's access, their hole rules)


_CAPABILITIES_BY_ROLE: dict[Role, frozenset[Capability]] = {
    Role.DIRECTOR: Capability.all(),
    Role.CO_DIRECTOR: Capability.all(),
    Role.OFFICIAL: frozenset({Capability.VIEW, Capability.SCORE, Capability.OFFICIATE}),
}


def table_staff_capabilities(game: Game, user: Any, token_kind: TokenKind) -> frozenset[Capability]:
    """What a director or official may do to a table's game (`TableManager.capabilities`).

    Answers at once, without a query, for every game that is not a tournament's table and for
    anonymous users; otherwise one query finds the user's role in the table's tournament.
    """
    if game.managed_by != TABLE_MANAGER or user is None or not user.is_authenticated:
        return frozenset()
    tournament = (
        Tournament.objects.filter(round_set__tables__game=game).only("pk", "director_id", "public").first()
    )
    if tournament is None:
        return frozenset()
    role = role_of(user, tournament)
    return _CAPABILITIES_BY_ROLE[role] if role is not None else frozenset()


def table_hole_policy(change: HoleChange) -> None:
    """When a table's holes may be recorded and corrected (`TableManager.check_hole_change`).

    - a seated round does not score yet, a finalized one is locked: only a director changes it
      then, with a reason, by correcting holes (never deleting one, nor undoing or redoing a
      change: its games stay over, its scorecards closed);
    - while the round is in play, a hole is corrected at the table until the next hole is
      recorded, later only by an official or a director with a reason (kept in the history);
    - a tie at a table is not played off there: the event's standings break it.
    """
    row = Table.objects.filter(game_id=change.game_id).values_list("round__status", "round__number").first()
    if row is None:
        return
    status, number = row
    capabilities = change.capabilities
    if change.playoff and capabilities is not None:
        raise hole_policies.HoleChangeRefused(
            _("A tie at a tournament table is not played off there: the event's standings break it."),
            where="playoff",
        )
    if status == RoundStatus.SEATED and capabilities is not None:
        raise hole_policies.HoleChangeRefused(
            _("Round %(n)s is seated but not started: the tables can score once the director publishes it.")
            % {"n": number},
            where="round",
        )
    if status == RoundStatus.FINALIZED and capabilities is not None:
        _only_a_directors_correction(change, capabilities, number)
        return
    hole_policies.corrections_at_table_until_next_hole(change)


def _only_a_directors_correction(change: HoleChange, capabilities: frozenset[str], number: int) -> None:
    """In finalized round `number`, a hole changes only by a director's correction, with a reason."""
    if Capability.MANAGE not in capabilities:
        raise hole_policies.HoleChangeRefused(
            _("Round %(n)s is finalized: only a director can change its scores, with a reason.")
            % {"n": number},
            where="round",
        )
    if change.action in ("undo", "redo"):
        # Undo and redo move a hole back or forth whole: undoing the last recording takes the
        # hole away and reopens the game (the round's promise: every scorecard closed).
        raise hole_policies.HoleChangeRefused(
            _(
                "Round %(n)s is finalized: its scorecards are closed, so undo and redo are off. "
                "A director can still correct a hole, with a reason."
            )
            % {"n": number},
            where=change.action,
        )
    if change.action == "delete":
        # A finalized round's games stay over: its holes are corrected, never taken away.
        raise hole_policies.HoleChangeRefused(
            _(
                "Round %(n)s is finalized: its holes are corrected, not deleted (the game would "
                "no longer be over)."
            )
            % {"n": number},
            where="hole",
        )
    if not change.reason.strip():
        raise hole_policies.ReasonRequired(
            _("Say why a score of finalized round %(n)s is being changed.") % {"n": number},
            where="reason",
        )


def staff_role_choices() -> list[tuple[str, str]]:
    """The roles a director can give (for forms and the API)."""
    return [(value, str(label)) for value, label in StaffRole.choices]
