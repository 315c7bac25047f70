"""Counted games written straight as `MemberResult` rows, for the stats tests and their hand-made
expectations: each game is a real scoring `Game` row; the ratings are made-up numbers that keep the
rule "after one game = before the next", so that histories and season changes can be checked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from clubs.models import Club, ClubGame, Member, MemberResult
from scoring.models import Game


@dataclass(frozen=True)
class Line:
    """One member's line of one game: place, points, holes, low holes, best hole."""

    member: Member
    place: int
    total: int
    holes: int = 9
    low: int = 0
    best: int | None = 0


def counted_game(
    club: Club, finished_at: datetime, lines: Sequence[Line], *, players: int | None = None
) -> Game:
    """A finished club game with one result per line; each member's rating moves by (players -
    2 * place + 1) in mu and shrinks sigma by 0.1, from where their previous result left it."""
    game = Game.objects.create(ruleset={}, status="finished")
    ClubGame.objects.create(game=game, club=club)
    table = players if players is not None else len(lines)
    for line in lines:
        member = Member.objects.get(pk=line.member.pk)
        mu = member.mu if member.mu is not None else 25.0
        sigma = member.sigma if member.sigma is not None else 25 / 3
        mu_after, sigma_after = mu + (table - 2 * line.place + 1), sigma - 0.1
        MemberResult.objects.create(
            club=club, member=member, game=game, finished_at=finished_at, players=table,
            place=line.place, total_points=line.total, holes_played=line.holes,
            low_hole_score=line.low, best_hole_score=line.best,
            mu_before=mu, sigma_before=sigma, mu_after=mu_after, sigma_after=sigma_after,
        )  # fmt: skip
        Member.objects.filter(pk=member.pk).update(
            mu=mu_after,
            sigma=sigma_after,
            ordinal=mu_after - 3 * sigma_after,
            rated_games=member.rated_games + 1,
        )
    return game
