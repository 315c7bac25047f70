"""A club's read-only pages: its home (the leaderboard), a season's leaderboard, a member's page.

Each page is reached by id (`/clubs/<id>/...`) or by a public club's link (`/clubs/p/<token>/...`)
and reads everything from `clubs.selectors` in a fixed number of queries.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from clubs.access import club_by_public_token, club_for_user, member_of, season_of
from clubs.api.stats_bodies import season_order
from clubs.errors import ClubError
from clubs.models import Season
from clubs.selectors.leaderboard import club_leaderboard
from clubs.selectors.member_stats import member_stats
from clubs.selectors.seasons import SeasonOrder, season_games, season_leaderboard
from clubs.web.stats_charts import rating_chart
from clubs.web.stats_pages import ClubPage
from clubs.web.stats_rows import head_to_head_rows, history_rows, leaderboard_rows, season_rows

# The season table's sortable columns, in the table's order, with their headings.
SORTABLE = (
    (SeasonOrder.WINS, _("Wins")),
    (SeasonOrder.AVERAGE, _("Avg/ hole")),
    (SeasonOrder.LOW_HOLES, _("Low holes")),
    (SeasonOrder.TOTAL_POINTS, _("Points")),
    (SeasonOrder.RATING_CHANGE, _("Rating ±")),
)


def _club_home(request: HttpRequest, page: ClubPage) -> HttpResponse:
    """The leaderboard by rating, the seasons, and (owners) the ways to manage and play."""
    seasons = list(Season.objects.filter(club=page.club).order_by("-start", "pk"))
    context = {
        "page": page,
        "club": page.club,
        "board": leaderboard_rows(club_leaderboard(page.club), page.url("club") + "members/"),
        "seasons": [(season, page.url("season", season.pk)) for season in seasons],
    }
    return render(request, "clubs/stats_club.html", context)


def _season(request: HttpRequest, page: ClubPage, season_id: int) -> HttpResponse:
    """A season's leaderboard, sorted by the column asked (`?order=`), and the games it counts."""
    season = season_of(page.grant, season_id)
    try:
        order, status = season_order(request.GET.get("order")), 200
    except ClubError:
        order, status = SeasonOrder.WINS, 400  # an unknown column: the default order, said so
    count, games = season_games(season)
    context = {
        "page": page,
        "club": page.club,
        "season": season,
        "order": order,
        "bad_order": status == 400,
        "rows": season_rows(season_leaderboard(season, order), page.url("club") + "members/"),
        "columns": [(value, label, value == order) for value, label in SORTABLE],
        "game_count": count,
        "games": games,
        "home_url": page.url("club"),
    }
    return render(request, "clubs/stats_season.html", context, status=status)


def _member(request: HttpRequest, page: ClubPage, member_id: int) -> HttpResponse:
    """A member's record, rating and its chart, head-to-head, rival and nemesis, recent games."""
    member = member_of(page.grant, member_id)
    stats = member_stats(member)
    ordinals = [stats.start_ordinal, *(point.ordinal for point in stats.history)]
    context = {
        "page": page,
        "club": page.club,
        "member": member,
        "stats": stats,
        "rating": member.ordinal,
        "win_rate": round(100 * stats.record.wins / stats.record.games) if stats.record.games else None,
        "chart": rating_chart(ordinals),
        "points": history_rows(stats.history) if stats.history else "",
        "head_to_head": head_to_head_rows(stats.head_to_head, page.url("club") + "members/")
        if stats.head_to_head
        else "",
        "home_url": page.url("club"),
    }
    return render(request, "clubs/stats_member.html", context)


def club_home(request: HttpRequest, club_id: int) -> HttpResponse:
    """/clubs/<id>/."""
    return _club_home(request, ClubPage(club_for_user(request.user, club_id)))


def season_page(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """/clubs/<id>/seasons/<season_id>/."""
    return _season(request, ClubPage(club_for_user(request.user, club_id)), season_id)


def member_page(request: HttpRequest, club_id: int, member_id: int) -> HttpResponse:
    """/clubs/<id>/members/<member_id>/."""
    return _member(request, ClubPage(club_for_user(request.user, club_id)), member_id)


def public_club_home(request: HttpRequest, token: str) -> HttpResponse:
    """/clubs/p/<token>/ (a public club's read-only link)."""
    return _club_home(request, ClubPage(club_by_public_token(token, request.user), token))


def public_season_page(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """/clubs/p/<token>/seasons/<season_id>/."""
    return _season(request, ClubPage(club_by_public_token(token, request.user), token), season_id)


def public_member_page(request: HttpRequest, token: str, member_id: int) -> HttpResponse:
    """/clubs/p/<token>/members/<member_id>/."""
    return _member(request, ClubPage(club_by_public_token(token, request.user), token), member_id)
