"""The clubs' pages, under /clubs/."""

from django.urls import path

from clubs.web import export_views, play_views

app_name = "clubs"

urlpatterns: list = [
    path("<int:club_id>/games/new/", play_views.new_club_game, name="new-game"),
    path("<int:club_id>/export/<str:what>.<str:fmt>", export_views.export_table, name="export"),
    path(
        "<int:club_id>/export/members/<int:member_id>/bgstats.json",
        export_views.export_member_bgstats,
        name="export-member-bgstats",
    ),
]
