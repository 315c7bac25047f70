"""The clubs API, under /api/v1/ (SPEC "Clubs API contract"). Ids are integers: anything else in
their place matches no route (404)."""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <id:>)
from golfclub.core.rate_limits import limit_club_creation

from . import club_views, export_views, member_write_views, season_views, stats_views

_C = "clubs/<id:club_id>/"

urlpatterns = [
    # Creating (POST) is rate-limited per client address; reading the list (GET) is not counted.
    path("clubs/", limit_club_creation(club_views.clubs), name="api-clubs"),
    path(_C, club_views.club_detail, name="api-club"),
    path(_C + "invitations/", club_views.club_invitations, name="api-club-invitations"),
    path(_C + "members/", member_write_views.members, name="api-club-members"),
    path(_C + "members/merge/", member_write_views.members_merge, name="api-club-members-merge"),
    path(_C + "seasons/", season_views.seasons, name="api-club-seasons"),
    path(_C + "seasons/<id:season_id>/", season_views.season_detail, name="api-club-season"),
    path(_C + "export/games/", export_views.export_games, name="api-club-export-games"),
    path(_C + "export/members/", export_views.export_members, name="api-club-export-members"),
    path(
        _C + "export/members/<id:member_id>/bgstats/",
        export_views.export_member_bgstats,
        name="api-club-export-member-bgstats",
    ),
    path(_C + "ratings/", stats_views.club_ratings, name="api-club-ratings"),
    path(_C + "members/<id:member_id>/", stats_views.member_detail, name="api-club-member"),
    path(
        _C + "seasons/<id:season_id>/leaderboard/",
        stats_views.season_leaderboard_view,
        name="api-club-season-leaderboard",
    ),
]
