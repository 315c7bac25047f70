"""The clubs' pages, under /clubs/."""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <id:> and <token:>)
from golfclub.core.rate_limits import limit_club_creation

from . import (
    export_views,
    manage_club_views,
    manage_member_views,
    manage_season_views,
    play_views,
    stats_views,
)

app_name = "clubs"

_C = "<id:club_id>/"
_P = "p/<token:token>/"

urlpatterns = [
    path("", limit_club_creation(manage_club_views.club_list), name="list"),
    path("invitations/<token:token>/", manage_club_views.invitation, name="invitation"),
    path(_C + "settings/", manage_club_views.club_settings, name="settings"),
    path(_C + "settings/invite/", manage_club_views.club_invite, name="invite"),
    path(_C + "settings/public-link/", manage_club_views.club_public_link, name="public-link"),
    path(_C + "settings/owners/<id:owner_id>/remove/", manage_club_views.owner_remove, name="owner-remove"),
    path(_C + "members/", manage_member_views.members, name="members"),
    path(_C + "members/add/", manage_member_views.member_add, name="member-add"),
    path(_C + "members/paste/", manage_member_views.member_paste, name="member-paste"),
    path(_C + "members/merge/", manage_member_views.member_merge, name="member-merge"),
    path(_C + "members/<id:member_id>/rename/", manage_member_views.member_rename, name="member-rename"),
    path(_C + "members/<id:member_id>/retire/", manage_member_views.member_retire, name="member-retire"),
    path(_C + "seasons/", manage_season_views.seasons, name="seasons"),
    path(_C + "seasons/add/", manage_season_views.season_add, name="season-add"),
    path(_C + "seasons/<id:season_id>/edit/", manage_season_views.season_edit, name="season-edit"),
    path(_C + "seasons/<id:season_id>/delete/", manage_season_views.season_delete, name="season-delete"),
    path(_C + "games/new/", play_views.new_club_game, name="new-game"),
    path(_C + "export/<str:what>.<str:fmt>", export_views.export_table, name="export"),
    path(
        _C + "export/members/<id:member_id>/bgstats.json",
        export_views.export_member_bgstats,
        name="export-member-bgstats",
    ),
    # The read-only pages: by id (owners; anyone for a public club) and by a public club's link.
    path(_C, stats_views.club_home, name="club"),
    path(_C + "seasons/<id:season_id>/", stats_views.season_page, name="season"),
    path(_C + "members/<id:member_id>/", stats_views.member_page, name="member"),
    path(_P, stats_views.public_club_home, name="public-club"),
    path(_P + "seasons/<id:season_id>/", stats_views.public_season_page, name="public-season"),
    path(_P + "members/<id:member_id>/", stats_views.public_member_page, name="public-member"),
]
