"""The clubs' pages, under /clubs/."""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)

from . import stats_views

app_name = "clubs"

urlpatterns: list = [
    path("<id:club_id>/", stats_views.club_home, name="club"),
    path("<id:club_id>/seasons/<id:season_id>/", stats_views.season_page, name="season"),
    path("<id:club_id>/members/<id:member_id>/", stats_views.member_page, name="member"),
    path("p/<token:token>/", stats_views.public_club_home, name="public-club"),
    path("p/<token:token>/seasons/<id:season_id>/", stats_views.public_season_page, name="public-season"),
    path("p/<token:token>/members/<id:member_id>/", stats_views.public_member_page, name="public-member"),
]
