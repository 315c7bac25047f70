"""The read API's answers built from the stats selectors, in the shapes of their serializers.

The serializers (`clubs.api.serializers_stats`) are the answers' schema; the bodies are built here
as plain dicts of the same fields and types, not run through them: at 200 members or 200 games a
DRF serializer's per-field work costs tens of milliseconds. tests/clubs/test_stats_api.py checks
that each body equals its serializer's rendering of it."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from clubs.errors import ClubError
from clubs.selectors.head_to_head import HeadToHead
from clubs.selectors.leaderboard import LeaderboardRow
from clubs.selectors.member_stats import DEFAULT_MU, DEFAULT_SIGMA, MemberStats
from clubs.selectors.records import Record
from clubs.selectors.seasons import SeasonOrder, SeasonRow
from scoring.rules.errors import Problem


def ratings_body(board: list[LeaderboardRow]) -> dict[str, Any]:
    """The rated members of `board` (already by ordinal, highest first)."""
    lines = [
        {
            "member": {"id": row.member_id, "name": row.name},
            "mu": row.mu,
            "sigma": row.sigma,
            "ordinal": row.ordinal,
            "games": row.games,
        }
        for row in board
        if row.ordinal is not None
    ]
    return {"ratings": lines}


def _record_fields(record: Record) -> dict[str, Any]:
    return {
        "games": record.games,
        "wins": record.wins,
        "holes_played": record.holes_played,
        "total_points": record.total_points,
        "average_per_hole": record.average_per_hole,
        "low_hole_score": record.low_hole_score,
        "best_hole_score": record.best_hole_score,
    }


def _meeting(row: HeadToHead | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "member": {"id": row.member_id, "name": row.name},
        "games": row.games,
        "ahead": row.ahead,
        "behind": row.behind,
        "tied": row.tied,
    }


def member_body(stats: MemberStats) -> dict[str, Any]:
    """A member's stats as `GET /api/v1/clubs/{id}/members/{member_id}/` answers them."""
    member = stats.member
    mu = member.mu if member.mu is not None else DEFAULT_MU
    sigma = member.sigma if member.sigma is not None else DEFAULT_SIGMA
    return {
        "id": member.pk,
        "name": member.name,
        **_record_fields(stats.record),
        "rating": {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma},
        "rating_history": [
            {"game": p.game_id, "mu": p.mu, "sigma": p.sigma, "ordinal": p.ordinal} for p in stats.history
        ],
        "head_to_head": [_meeting(row) for row in stats.head_to_head],
        "retired": member.retired_at is not None,
        "average_seconds_per_turn": stats.average_turn_seconds,
        "rival": _meeting(stats.rival),
        "nemesis": _meeting(stats.nemesis),
    }


def season_body(rows: list[SeasonRow]) -> dict[str, Any]:
    """A season's leaderboard as the API answers it."""
    return {
        "rows": [
            {
                "member": {"id": row.member_id, "name": row.name},
                **_record_fields(row.record),
                "rating_change": row.rating_change,
            }
            for row in rows
        ]
    }


def season_order(value: str | None) -> SeasonOrder:
    """The `?order=` of a season leaderboard (default: wins); anything else is a 400 naming it."""
    if value in (None, ""):
        return SeasonOrder.WINS
    try:
        return SeasonOrder(value)
    except ValueError:
        choices = ", ".join(order.value for order in SeasonOrder)
        raise ClubError(Problem("order", _("Sort by one of: %(choices)s.") % {"choices": choices})) from None
