"""What a club's live game changes in its members' results and ratings, in the change's transaction.

Scoring calls `ClubGameManager.after_change` (`clubs.game_manager`, registered for "clubs.game" in
`ClubsConfig.ready()`), which calls `follow_club_game`, for every hole recorded, corrected or
deleted and every finish or reopening of a club's live game, inside the change's transaction with
the game's row locked (`scoring.game_managers`): so a result is never saved without its ratings,
nor a hole without its consequences.

- A game that finishes counts from that moment (`finished_at` = now). A game reopened (a hole
  undone, the ending resumed) stops counting; when it finishes again it counts from the new
  moment: it finished then, and the ratings follow the order games finished. Ratings from there on
  are recomputed either way.
- A counted game deleted leaves the results, and the ratings are recomputed from it on.
- A hole changed in a counted game (corrected, deleted, undone, redone) rewrites that game's
  results as the change leaves them and recomputes the ratings from that game on. Scoring tells of
  a hole's change before it refreshes the totals (and, for a deletion, sometimes before the row
  goes): the places are read from the entries, the deleted hole left out by its id.

Locks: the game's row is held; `lock_club_ratings` is taken next, last (see its docstring), and
BEFORE the seats' members are read: a member merge holding it moves those seats to the member kept,
and links read before it ends would name the deleted duplicate (its result silently dropped).
"""

from __future__ import annotations

from django.utils import timezone

from clubs.models import ClubGame, MemberResult
from clubs.services.ratings import lock_club_ratings
from clubs.services.results import CountedGame, count_games, live_game_links, uncount_games
from scoring.game_managers import ManagedChange

__all__ = ["follow_club_game"]


def follow_club_game(change: ManagedChange) -> None:
    """Count, uncount or recount the club game of `change` (one query when nothing is to be done:
    a hole recorded in a game still being played)."""
    game_id = change.game_id
    if change.kind == "finished":
        club_id = ClubGame.objects.filter(game_id=game_id).values_list("club_id", flat=True).first()
        if club_id is None:
            return
        lock_club_ratings(club_id)
        links = live_game_links([game_id]).get(game_id, {})
        if links:  # a game of guests only counts for nobody
            count_games(club_id, [CountedGame(game_id, timezone.now(), links)])
        return
    club_id = MemberResult.objects.filter(game_id=game_id).values_list("club_id", flat=True).first()
    if club_id is None:  # not counted: a game in play, or one with no linked member
        return
    if change.kind in ("reopened", "game_deleted"):
        uncount_games(club_id, [game_id])
        return
    lock_club_ratings(club_id)
    links = live_game_links([game_id]).get(game_id, {})
    deleted = change.hole_id if change.kind == "deleted" else None
    count_games(club_id, [CountedGame(game_id, None, links)], without_hole=deleted)
