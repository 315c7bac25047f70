"""The clubs API, under /api/v1/ (SPEC "Clubs API contract")."""

from django.urls import path

from clubs.api import export_views

urlpatterns: list = [
    path("clubs/<int:club_id>/export/games/", export_views.export_games, name="api-club-export-games"),
    path("clubs/<int:club_id>/export/members/", export_views.export_members, name="api-club-export-members"),
    path(
        "clubs/<int:club_id>/export/members/<int:member_id>/bgstats/",
        export_views.export_member_bgstats,
        name="api-club-export-member-bgstats",
    ),
]
