"""The clubs' pages, under /clubs/."""

from django.urls import path

from clubs.web import play_views

app_name = "clubs"

urlpatterns: list = [
    path("<int:club_id>/games/new/", play_views.new_club_game, name="new-game"),
]
