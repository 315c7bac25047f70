"""The penalty ledger of rule 6.3: give a penalty (the ladder's next step, or the step an official
decides), rescind one on appeal. Append-only: a rescinded entry stays, marked, with its reason,
and an event-log entry records who rescinded it; nothing is deleted.

Points count in the player's event total through the standings (never in a hole's score, so a
corrected or undone hole never loses them). A disqualification from the event takes the player out
of the rounds not yet seated; rescinding it (with no other standing) brings them back.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from golfclub.core.inputs import text_problem
from scoring.rules.errors import Problem
from tournaments.errors import DisqualificationToConfirm, NotFoundInTournament, TournamentError, WrongState
from tournaments.limits import MAX_NOTE
from tournaments.models import Entrant, EntrantStatus, Offence, Penalty, PenaltyStep, Tournament
from tournaments.officiating.advice import MAX_FACT_NUMBER
from tournaments.officiating.ladder import Rung, decided_rung, next_rung
from tournaments.services.entrants import entrant_in
from tournaments.services.events import bump_version, clean_reason, lock_tournament, log_event
from tournaments.services.seating_plans import refresh_seating_plan

#: The steps that take a player out (of a round, of the event): the pages ask once more first.
DISQUALIFYING = frozenset({PenaltyStep.ROUND_DQ, PenaltyStep.EVENT_DQ})


def earlier_offences(tournament: Tournament, entrant_id: int, offence: str) -> int:
    """How many unrescinded penalties of `offence` the player already has in the event."""
    return Penalty.objects.filter(
        tournament=tournament, entrant_id=entrant_id, offence=offence, rescinded_at__isnull=True
    ).count()


def proposed_rung(tournament: Tournament, entrant_id: int, offence: str, *, seconds_over: int = 0) -> Rung:
    """The step rule 6.3's ladder gives the player's next `offence` (what the app proposes)."""
    return next_rung(offence, earlier_offences(tournament, entrant_id, offence), seconds_over=seconds_over)


def give_penalty(
    tournament: Tournament,
    *,
    player: Any,
    offence: Any,
    round_number: Any = None,
    step: Any = None,
    seconds_over: Any = None,
    note: Any = "",
    actor: Any = None,
    confirmed_dq: str | None = None,
) -> Penalty:
    """Record a penalty for `player`: the ladder's next step, or `step` when an official names one
    (kept as their decision). Bad input raises `TournamentError` naming each field.

    `confirmed_dq` is for the pages, which ask before a disqualification: with it (even "") a step
    that disqualifies is written only when it is the very one confirmed (`DisqualificationToConfirm.
    token`), decided here under the tournament's lock, so a ladder that moved on since the question
    asks again; otherwise `DisqualificationToConfirm` and nothing is written. None (the API): no
    question."""
    offence, step, seconds, text = _checked_input(offence, step, seconds_over, note)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        entrant = player_of(locked, player)
        number = _round_number(locked, round_number)
        rung = _rung_to_give(locked, entrant, number, offence, step, seconds, confirmed_dq)
        penalty = Penalty.objects.create(
            tournament=locked,
            entrant=entrant,
            round_number=number,
            offence=offence,
            step=rung.step,
            points=rung.points,
            seconds_over=seconds if offence == Offence.TIME else None,
            step_decided=bool(step),
            note=text,
            given_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        if rung.step == PenaltyStep.EVENT_DQ:
            _take_out_of_the_event(locked, entrant)
            refresh_seating_plan(
                locked, reason=_("Made again after %(name)s was disqualified.") % {"name": entrant.name}
            )
        log_event(
            locked,
            "penalty_given",
            actor=actor,
            round_number=number,
            reason=text[:200],
            player=entrant.name,
            offence=offence,
            step=rung.step,
            points=rung.points,
            decided=bool(step),
            penalty=penalty.pk,
        )
        bump_version(locked.pk)
    return penalty


def _checked_input(offence: Any, step: Any, seconds_over: Any, note: Any) -> tuple[str, str | None, int, str]:
    """The offence, the step an official decided (None: the ladder's), the seconds over a time limit
    and the note, checked; `TournamentError` naming each bad one."""
    problems: list[Problem] = []
    offence = _choice(offence, "offence", Offence.values, problems)
    step = None if step in (None, "") else _choice(step, "step", PenaltyStep.values, problems)
    seconds = _seconds_over(seconds_over, offence, problems)
    text = clean_note(note, problems)
    if problems:
        raise TournamentError(problems)
    return offence, step, seconds, text


def _rung_to_give(
    locked: Tournament,
    entrant: Entrant,
    number: int | None,
    offence: str,
    step: str | None,
    seconds: int,
    confirmed_dq: str | None,
) -> Rung:
    """The ladder's step to give (the official's `step`, else the ladder's next), once it is known
    to apply: a round's disqualification names a round the player is in, an event's a player not
    already out, and a disqualification the pages ask about is the one confirmed."""
    rung = (
        decided_rung(offence, step, seconds_over=seconds)
        if step
        else proposed_rung(locked, entrant.pk, offence, seconds_over=seconds)
    )
    if rung.step == PenaltyStep.ROUND_DQ and number is None:
        raise TournamentError(Problem("round", _("A disqualification from a round names the round.")))
    if rung.step == PenaltyStep.EVENT_DQ:
        _refuse_when_disqualified(entrant)
    if rung.step == PenaltyStep.ROUND_DQ:
        _refuse_when_out_of_the_round(entrant, number)
    if confirmed_dq is not None and rung.step in DISQUALIFYING:
        question = DisqualificationToConfirm(
            player_id=entrant.pk, player=entrant.name, step=rung.step, round_number=number
        )
        if confirmed_dq != question.token:
            raise question
    return rung


def _take_out_of_the_event(locked: Tournament, entrant: Entrant) -> None:
    """A player disqualified from the event leaves it after the rounds seated so far."""
    entrant.status = EntrantStatus.DISQUALIFIED
    entrant.left_after_round = locked.round_set.count()
    entrant.bulk_action = None  # no undo of a bulk action brings a disqualified player back
    entrant.save(update_fields=["status", "left_after_round", "bulk_action"])


def _refuse_when_disqualified(entrant: Entrant) -> None:
    """One active disqualification from the event per player (held by the database too: the
    constraint `penalty_one_active_event_dq`): a second one is a wrong state, not a new penalty."""
    if (
        entrant.status == EntrantStatus.DISQUALIFIED
        or entrant.penalties.filter(step=PenaltyStep.EVENT_DQ, rescinded_at__isnull=True).exists()
    ):
        raise WrongState(
            Problem(
                "player",
                _(
                    "%(name)s is already disqualified from the tournament. If that was wrong, "
                    "rescind that disqualification first."
                )
                % {"name": entrant.name},
            )
        )


def _refuse_when_out_of_the_round(entrant: Entrant, number: int | None) -> None:
    """One active disqualification from a round per player and round: a second one (two officials
    confirming the same one from two phones) would count twice on the ladder and outlive the
    rescind of the first on appeal. Decided under the tournament's lock, as the event's."""
    if entrant.penalties.filter(
        step=PenaltyStep.ROUND_DQ, round_number=number, rescinded_at__isnull=True
    ).exists():
        raise WrongState(
            Problem(
                "player",
                _(
                    "%(name)s is already disqualified from round %(n)s. If that was wrong, rescind "
                    "that disqualification first."
                )
                % {"name": entrant.name, "n": number},
            )
        )


def rescind_penalty(tournament: Tournament, penalty_id: Any, *, reason: Any, actor: Any = None) -> Penalty:
    """Rescind a penalty on appeal, with a reason: it stays in the ledger, marked, and counts for
    nothing; a disqualification from the event lifted with no other standing brings the player back.
    Rescinding twice answers `WrongState`."""
    text = clean_reason(reason, required=_("Rescinding a penalty needs a reason (it is kept in the log)."))
    with transaction.atomic():
        locked = lock_tournament(tournament)
        penalty = _penalty(locked, penalty_id)
        if penalty.rescinded_at is not None:
            raise WrongState(Problem("penalty", _("This penalty was already rescinded.")))
        penalty.rescinded_at = timezone.now()
        penalty.rescind_reason = text
        penalty.save(update_fields=["rescinded_at", "rescind_reason"])
        entrant = penalty.entrant
        still_out = Penalty.objects.filter(
            entrant=entrant, step=PenaltyStep.EVENT_DQ, rescinded_at__isnull=True
        ).exists()
        if (
            penalty.step == PenaltyStep.EVENT_DQ
            and not still_out
            and entrant.status == EntrantStatus.DISQUALIFIED
        ):
            entrant.status = EntrantStatus.ACTIVE
            entrant.left_after_round = None
            entrant.save(update_fields=["status", "left_after_round"])
            refresh_seating_plan(
                locked,
                reason=_("Made again after %(name)s's disqualification was rescinded.")
                % {"name": entrant.name},
            )
        log_event(
            locked,
            "penalty_rescinded",
            actor=actor,
            round_number=penalty.round_number,
            reason=text,
            player=entrant.name,
            offence=penalty.offence,
            step=penalty.step,
            points=penalty.points,
            penalty=penalty.pk,
        )
        bump_version(locked.pk)
    return penalty


def _choice(value: Any, where: str, choices: list[str], problems: list[Problem]) -> str:
    if isinstance(value, str) and value in choices:
        return value
    problems.append(Problem(where, _("One of: %(choices)s.") % {"choices": ", ".join(choices)}))
    return ""


def _seconds_over(value: Any, offence: str, problems: list[Problem]) -> int:
    if offence != Offence.TIME:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_FACT_NUMBER:
        problems.append(
            Problem(
                "seconds_over",
                _("A time violation names the seconds over the limit: a whole number from 1 to %(max)s.")
                % {"max": f"{MAX_FACT_NUMBER:,}"},
            )
        )
        return 0
    return value


def clean_note(value: Any, problems: list[Problem]) -> str:
    """A note stripped, or a problem naming `note` (not text, a NUL or control character, too long)."""
    text = value.strip() if isinstance(value, str) else ""
    unreadable = text_problem(text) if isinstance(value, str) else None
    if value not in (None, "") and not isinstance(value, str):
        problems.append(Problem("note", _("The note is text.")))
    elif unreadable:  # a NUL is not "too long": say what it is (it was reported so)
        problems.append(Problem("note", _("The note %(problem)s.") % {"problem": unreadable}))
    elif len(text) > MAX_NOTE:
        problems.append(
            Problem("note", _("The note is too long (%(max)s characters at most).") % {"max": MAX_NOTE})
        )
    return text


def player_of(tournament: Tournament, player: Any) -> Entrant:
    """The player named in a body by their id: `TournamentError` (400) naming `player` if none."""
    try:
        return entrant_in(tournament, player)
    except NotFoundInTournament as error:
        # Named in the body, not the URL: a bad value (400), not a missing page.
        raise TournamentError(error.problems) from None


def _round_number(tournament: Tournament, value: Any) -> int | None:
    if value is None:
        return None
    seated = tournament.round_set.count()
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 1 <= value <= max(seated, 1)
        or not seated
    ):
        raise TournamentError(
            Problem("round", _("A round already seated: a number from 1 to %(n)s.") % {"n": seated})
            if seated
            else Problem("round", _("No round is seated yet: leave the round out."))
        )
    return value


def _penalty(tournament: Tournament, penalty_id: Any) -> Penalty:
    pk = penalty_id if isinstance(penalty_id, int) and not isinstance(penalty_id, bool) else None
    found = (
        Penalty.objects.select_related("entrant").filter(tournament=tournament, pk=pk).first()
        if pk is not None and 0 < pk < 2**63
        else None
    )
    if found is None:
        raise NotFoundInTournament(Problem("penalty", _("No such penalty in this tournament.")))
    return found
