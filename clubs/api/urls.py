"""The clubs API, under /api/v1/ (SPEC "Clubs API contract")."""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)

from . import stats_views

_C = "clubs/<id:club_id>/"

urlpatterns: list = [
    path(_C + "ratings/", stats_views.club_ratings, name="api-club-ratings"),
    path(_C + "members/<id:member_id>/", stats_views.member_detail, name="api-club-member"),
    path(
        _C + "seasons/<id:season_id>/leaderboard/",
        stats_views.season_leaderboard_view,
        name="api-club-season-leaderboard",
    ),
]
