"""Clubs, their owners and members, seasons, the games they count, and each member's results.

A club is a named group run by its owners (accounts). Its members are people by name (an account
may be linked later). A live game belongs to a club through `ClubGame`, each seat linked to a
member or not (`SeatMember`); a tournament belongs to a club through `Tournament.club` and its
entrants through `Entrant.member` (tournaments uses clubs, never the reverse).

`MemberResult` is what a counted (finished) game gave each of its linked members, with the rating
before and after it (openskill PlackettLuce, SPEC "Clubs, ratings and seasons"): the stats,
seasons, head-to-head and rating history are all read from it. `Member.mu`/`sigma` hold the current
rating, equal to the last result's `mu_after`/`sigma_after` (or the model's defaults with none).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from golfclub.core.limits import MAX_CLUB_NAME_LENGTH, MAX_SEASON_NAME_LENGTH
from scoring.models import NamedModel

#: The label of the games this app follows (`scoring.models.Game.followed_by`, `ClubGameManager`).
CLUB_GAME = "clubs.game"


def new_club_token() -> str:
    """An unguessable URL-safe token (a public page's link, an owner invitation)."""
    return secrets.token_urlsafe(24)


class Club(models.Model):
    """A named group of members with owners; private unless `is_public` (read-only page by link)."""

    name = models.CharField(_("name"), max_length=MAX_CLUB_NAME_LENGTH)
    is_public = models.BooleanField(_("public"), default=False)
    # The read-only link of a public club (`/clubs/p/<token>/`), unguessable.
    public_token = models.CharField(
        _("public link token"), max_length=64, unique=True, default=new_club_token
    )
    # Bumped on every change of the club itself (name, visibility, owners): its ETag for If-Match.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name


class ClubOwner(models.Model):
    """An account that runs a club: the creator, or a co-owner who accepted an invitation."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="owners")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="golf_clubs")
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("club owner")
        verbose_name_plural = _("club owners")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="club_owner_once")]

    def __str__(self) -> str:
        return f"{self.user} ({self.club})"


class OwnerInvitation(models.Model):
    """A link that makes whoever opens it (logged in) a co-owner of the club; used once."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_club_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    used_at = models.DateTimeField(_("used"), null=True, blank=True)

    class Meta:
        verbose_name = _("owner invitation")
        verbose_name_plural = _("owner invitations")

    def __str__(self) -> str:
        return str(_("Invitation to %(club)s") % {"club": self.club})


class Member(NamedModel):
    """A person of a club, by name (unique in the club by `name_key`); may be linked to an account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A retired member keeps their games and rating but is no longer offered for new games and
    # is left off the leaderboard.
    retired_at = models.DateTimeField(_("retired"), null=True, blank=True)
    # The current rating (openskill PlackettLuce): null until the first rated game.
    mu = models.FloatField(_("mu"), null=True, blank=True)
    sigma = models.FloatField(_("sigma"), null=True, blank=True)
    ordinal = models.FloatField(_("ordinal"), null=True, blank=True)  # mu - 3 * sigma, for sorting
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["club", "name_key", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name_key"],
                name="member_unique_name_per_club",
                violation_error_message=_("A member of this name is already in the club."),
            )
        ]
        indexes = [models.Index(fields=["club", "-ordinal"], name="member_leaderboard")]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A named date range of a club (both days included); its games are those finished within it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=MAX_SEASON_NAME_LENGTH)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "-start", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club"),
            models.CheckConstraint(condition=Q(start__lte=F("end")), name="season_starts_before_it_ends"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubGame(models.Model):
    """A live game that belongs to a club (its game has `followed_by` = "clubs.game")."""

    game = models.OneToOneField("scoring.Game", on_delete=models.CASCADE, related_name="club_link")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("club game")
        verbose_name_plural = _("club games")

    def __str__(self) -> str:
        return f"{self.club}: {self.game}"


class SeatMember(models.Model):
    """A live club game's seat (0-based, clockwise) played by a member; unlinked seats are guests."""

    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="seat_members")
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        verbose_name = _("seat's member")
        verbose_name_plural = _("seats' members")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_member_once_per_seat"),
            models.UniqueConstraint(fields=["game", "member"], name="seat_member_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.member} (seat {self.seat})"


class MemberResult(models.Model):
    """What one counted game gave one linked member, and their rating before and after it.

    Written when the game counts (a live game finished, a tournament round finalized) and rewritten
    from that game on when it changes. `finished_at` then `game_id` is the rating order.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="results")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="results")
    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="member_results")
    finished_at = models.DateTimeField(_("finished"))
    players = models.PositiveSmallIntegerField(_("players at the table"))
    place = models.PositiveSmallIntegerField(_("place"))  # 1 = won; shared places share the number
    total_points = models.IntegerField(_("total points"))
    holes_played = models.PositiveSmallIntegerField(_("holes played"))
    low_hole_score = models.PositiveSmallIntegerField(_("holes with the table's lowest score"))
    best_hole_score = models.IntegerField(_("best hole"), null=True, blank=True)
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))

    class Meta:
        verbose_name = _("member's result")
        verbose_name_plural = _("members' results")
        constraints = [models.UniqueConstraint(fields=["member", "game"], name="member_result_once_per_game")]
        indexes = [
            models.Index(fields=["club", "finished_at", "game"], name="result_club_order"),
            models.Index(fields=["member", "finished_at", "game"], name="result_member_order"),
            models.Index(fields=["game"], name="result_game"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.total_points} ({self.place})"

    @property
    def won(self) -> bool:
        """A first place, shared or not, is a win."""
        return self.place == 1
