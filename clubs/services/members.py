"""A club's members: adding one or a pasted list, renaming, retiring, and merging two who are one person.

Names are cleaned and compared as players' names are (`golfclub.core.names`): two names with one
`name_key` are one member, and the database's unique constraint holds on it. Every write locks the
club's row first, so the uniqueness check, the member count and the write happen one at a time.
A member's edits bump `Member.version` (the ETag an edit names with If-Match).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import ClubConflict, ClubError, NotFoundInClub
from clubs.models import Club, Member, SeatMember
from clubs.services._common import check_version, lock_club
from clubs.services.ratings import lock_club_ratings
from clubs.services.results import lock_counted_games, recount_club
from golfclub.core.inputs import text_problem
from golfclub.core.limits import MAX_CLUB_MEMBERS, MAX_NAME_LENGTH, MAX_PASTED_MEMBERS
from golfclub.core.names import InvalidName, clean_name, name_key, too_long_message
from scoring.rules.errors import Problem


def clean_member_name(raw: Any) -> str:
    """The member name to store for `raw`, or `ValueError` saying what is wrong with it."""
    if isinstance(raw, str):
        unreadable = text_problem(raw)
        if unreadable:
            raise ValueError(_("The name %(problem)s.") % {"problem": unreadable})
    try:
        return clean_name(raw)
    except InvalidName as bad:
        if bad.reason == "too_long":
            raise ValueError(
                _("The name is too long: %(limit)s.")
                % {"limit": too_long_message(MAX_NAME_LENGTH, len(bad.name))}
            ) from None
        if bad.typed:
            raise ValueError(_("The name has no visible characters.")) from None
        raise ValueError(_("A member needs a name.")) from None


def _taken(club: Club, name: str, *, other_than: Member | None = None) -> Member | None:
    members = Member.objects.filter(club=club, name_key=name_key(name))
    if other_than is not None:
        members = members.exclude(pk=other_than.pk)
    return members.first()


def _taken_message(existing: Member) -> str:
    if existing.retired_at is not None:
        return _("%(name)s is already a member of this club (retired: bring them back instead).") % {
            "name": existing.name
        }
    return _("%(name)s is already a member of this club.") % {"name": existing.name}


def _check_room(club: Club, adding: int, where: str) -> None:
    count = Member.objects.filter(club=club).count()
    if count + adding > MAX_CLUB_MEMBERS:
        raise ClubError(
            Problem(
                where,
                _("A club has at most %(max)s members; it has %(n)s.")
                % {"max": MAX_CLUB_MEMBERS, "n": count},
            )
        )


def _checked_name(name: Any) -> str:
    """`name` cleaned as a member's name, or `ClubError` naming "name"."""
    try:
        return clean_member_name(name)
    except ValueError as bad:
        raise ClubError(Problem("name", str(bad))) from None


def add_member(club: Club, name: Any) -> Member:
    """A new member of `club` named `name` (`ClubError` naming "name" when bad or already there)."""
    clean = _checked_name(name)
    with transaction.atomic():
        locked = lock_club(club)
        existing = _taken(locked, clean)
        if existing is not None:
            raise ClubError(Problem("name", _taken_message(existing)))
        _check_room(locked, 1, "name")
        return Member.objects.create(club=locked, name=clean)


def _check_pasted(club: Club, names: Sequence[Any], skip_blank: bool) -> list[str]:
    """The clean new names of a pasted list, or `ClubError` naming every bad line ("names[N]", 1-based)."""
    problems: list[Problem] = []
    clean: list[str] = []
    seen: dict[str, int] = {}
    for line, raw in enumerate(names, start=1):
        if skip_blank and (not isinstance(raw, str) or not raw.strip()):
            continue
        where = f"names[{line}]"
        try:
            name = clean_member_name(raw)
        except ValueError as bad:
            problems.append(Problem(where, _("Line %(n)s: %(problem)s") % {"n": line, "problem": bad}))
            continue
        key = name_key(name)
        if key in seen:
            message = _("Line %(n)s: %(name)s is already on line %(other)s.")
            problems.append(Problem(where, message % {"n": line, "name": name, "other": seen[key]}))
            continue
        seen[key] = line
        existing = _taken(club, name)
        if existing is not None:
            message = _("Line %(n)s: %(problem)s") % {"n": line, "problem": _taken_message(existing)}
            problems.append(Problem(where, message))
            continue
        clean.append(name)
    if problems:
        raise ClubError(problems)
    return clean


def add_members(club: Club, names: Sequence[Any], *, skip_blank: bool = False) -> list[Member]:
    """New members of `club`, one per name, in the order given; all or nothing.

    A bad name, a name twice in the list or a name already in the club is a `ClubError` naming each
    such line (`names[N]`, 1-based as pasted), and nobody is added. `skip_blank` (a pasted text's
    empty lines) leaves blank names out rather than refusing them; lines keep their numbers.
    """
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise ClubError(Problem("names", _("Give the names as a list.")))
    if len(names) > MAX_PASTED_MEMBERS:
        raise ClubError(
            Problem(
                "names",
                _("At most %(max)s names at once; %(n)s given.")
                % {"max": MAX_PASTED_MEMBERS, "n": len(names)},
            )
        )
    with transaction.atomic():
        locked = lock_club(club)
        clean = _check_pasted(locked, names, skip_blank)
        if not clean:
            raise ClubError(Problem("names", _("Give at least one name.")))
        _check_room(locked, len(clean), "names")
        members = [Member(club=locked, name=name, name_key=name_key(name)) for name in clean]
        return Member.objects.bulk_create(members)


def _locked_member(club: Club, member: Member) -> Member:
    found = Member.objects.select_for_update().filter(club=club, pk=member.pk).first()
    if found is None:
        raise NotFoundInClub(Problem("member", _("No such member in this club.")))
    return found


def rename_member(club: Club, member: Member, name: Any, *, version: int | None = None) -> Member:
    """Rename `member` (`version`: the one the client read; `StaleVersion` when another edit came first)."""
    clean = _checked_name(name)
    with transaction.atomic():
        locked = lock_club(club)
        row = _locked_member(locked, member)
        check_version(row.name, row.version, version)
        if clean == row.name:
            return row
        existing = _taken(locked, clean, other_than=row)
        if existing is not None:
            raise ClubError(Problem("name", _taken_message(existing)))
        row.name = clean
        row.version = F("version") + 1
        row.save(update_fields=["name", "version"])
        row.refresh_from_db()
    return row


def retire_member(club: Club, member: Member, retired: bool, *, version: int | None = None) -> Member:
    """Retire `member` (kept with their games and rating, no longer offered for new games nor on the
    leaderboard) or, with `retired` False, bring them back."""
    with transaction.atomic():
        row = _locked_member(lock_club(club), member)
        check_version(row.name, row.version, version)
        if (row.retired_at is not None) == bool(retired):
            return row
        row.retired_at = timezone.now() if retired else None
        row.version = F("version") + 1
        row.save(update_fields=["retired_at", "version"])
        row.refresh_from_db()
    return row


def _check_mergeable(keep: Member, duplicate: Member) -> None:
    """`ClubConflict` when the two sat in one game or played one tournament: merged, they would play
    against themselves."""
    shared = (
        SeatMember.objects.filter(member=duplicate, game__seat_members__member=keep)
        .select_related("game")
        .first()
    )
    if shared is not None:
        message = _("%(keep)s and %(dup)s both played %(game)s: they are two people, not one.")
        raise ClubConflict(
            Problem("duplicate", message % {"keep": keep.name, "dup": duplicate.name, "game": shared.game})
        )
    entrant = (
        duplicate.entrants.filter(tournament__entrants__member=keep).select_related("tournament").first()
    )
    if entrant is not None:
        message = _("%(keep)s and %(dup)s both played %(game)s: they are two people, not one.")
        raise ClubConflict(
            Problem(
                "duplicate", message % {"keep": keep.name, "dup": duplicate.name, "game": entrant.tournament}
            )
        )


def merge_members(club: Club, keep: Member, duplicate: Member) -> Member:
    """Merge `duplicate` into `keep` (one person entered twice): the duplicate's seats in games and
    tournament entries become `keep`'s, the duplicate is deleted and the club's results and ratings
    are counted again from the games as they now stand. Returns `keep`."""
    with transaction.atomic():
        locked = lock_club(club)
        lock_counted_games(locked.pk)  # before the ratings' lock, as every ratings writer (see there)
        # The ratings' lock before any member row: a game finishing meanwhile writes members' rows
        # holding it, so taking it later could wait on a writer that waits on us (a deadlock).
        lock_club_ratings(locked.pk)
        kept = _locked_member(locked, keep)
        gone = _locked_member(locked, duplicate)
        if kept.pk == gone.pk:
            raise ClubConflict(Problem("duplicate", _("Choose two different members to merge.")))
        _check_mergeable(kept, gone)
        SeatMember.objects.filter(member=gone).update(member=kept)
        gone.entrants.update(member=kept)
        if kept.user_id is None and gone.user_id is not None:
            kept.user_id = gone.user_id
        kept.version = F("version") + 1
        kept.save(update_fields=["user", "version"])
        gone.delete()
        recount_club(locked)  # the kept member's games, the duplicate's among them, count again
        kept.refresh_from_db()
    return kept
