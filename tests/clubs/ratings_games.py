"""Random club games for the ratings tests, played through scoring's real services."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from clubs.models import Club, Member, MemberResult
from scoring import services
from scoring.models import Game
from tests.clubs import ratings_oracle
from tests.clubs.factories import club_game

#: Short games: the home chain (countback, shared) and the official one (sudden death), 3 holes.
RULESETS = {
    "home": ({"preset": "basic", "holes": 3}, ratings_oracle.HOME),
    "official": ({"preset": "official", "holes": 3}, ratings_oracle.OFFICIAL),
}


def random_scores(rnd: random.Random, names: Sequence[str], holes: int) -> dict[str, list[int]]:
    """Small scores, so that totals, countbacks and holes won often tie."""
    return {name: [rnd.choice([0, 1, 2, 2, 3, 5]) for _ in range(holes)] for name in names}


@dataclass
class Played:
    """A game played and what the oracle needs of it."""

    game: Game
    kind: str
    seats: list[Member | str]
    scores: dict[str, list[int]]
    playoff: list[dict[str, int]] = field(default_factory=list)

    def linked_places(self) -> list[tuple[int, int]]:
        """(member id, place) of its linked members, by member id, as the oracle places them."""
        places = ratings_oracle.places(self.scores, RULESETS[self.kind][1], self.playoff)
        return sorted((s.pk, places[s.name]) for s in self.seats if isinstance(s, Member))


def play_random_game(club: Club, rnd: random.Random, members: Sequence[Member], kind: str) -> Played:
    """A finished game of 2 to 6 seats: random members, sometimes guests, random scores, playoff
    holes recorded until a pending sudden death is decided."""
    ruleset, _chain = RULESETS[kind]
    seats: list[Member | str] = list(rnd.sample(list(members), rnd.randint(1, min(4, len(members)))))
    for guest in range(rnd.choice([0, 0, 1, 2])):
        seats.insert(rnd.randrange(len(seats) + 1), f"Guest {guest + 1}")
    if len(seats) < 2:
        seats.append("Guest 9")
    names = [s.name if isinstance(s, Member) else s for s in seats]
    played = Played(None, kind, seats, random_scores(rnd, names, ruleset["holes"]))  # type: ignore[arg-type]
    holes = [{n: played.scores[n][i] for n in names} for i in range(ruleset["holes"])]
    game = club_game(club, seats, holes, ruleset=ruleset)
    while game.status == "sudden_death":
        leaders = [n for n, p in ratings_oracle.places(played.scores, RULESETS[kind][1]).items() if p == 1]
        hole = {n: rnd.choice([1, 2, 3]) for n in leaders}
        services.hole_record(game, entries=hole, ender=None, playoff=True)
        played.playoff.append(hole)
        game.refresh_from_db()
    assert game.is_finished
    played.game = game
    return played


def oracle_for_club(
    club: Club, games: Sequence[Played]
) -> dict[int, list[tuple[float, float, float, float]]]:
    """The oracle's ratings for the club's counted games in their stored order (finished at, then
    game id)."""
    by_id = {played.game.pk: played for played in games}
    order = (
        MemberResult.objects.filter(club=club)
        .order_by("finished_at", "game_id")
        .values_list("game_id", flat=True)
    )
    return ratings_oracle.ratings([by_id[game_id].linked_places() for game_id in dict.fromkeys(order)])


def stored_history(club: Club) -> dict[int, list[tuple[float, float, float, float]]]:
    """The stored (mu before, sigma before, mu after, sigma after) of each member's results, in order."""
    history: dict[int, list[tuple[float, float, float, float]]] = {}
    for member, *ratings in (
        MemberResult.objects.filter(club=club)
        .order_by("finished_at", "game_id")
        .values_list("member_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    ):
        history.setdefault(member, []).append(tuple(ratings))
    return history
