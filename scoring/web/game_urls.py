"""URLs of live games (/games/).

e/<edit token>/...  the scorer's link: everything, no account needed.
v/<view token>/...  the read-only live link: the scoreboard (refreshing itself) and the history;
                    anything else under it is refused with 403.

A token outside the token alphabet, or a number of more than 9 digits, matches no route: 404
(`scoring.converters`).
"""

from django.urls import path

from scoring import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from scoring.web import game_views

app_name = "games"

urlpatterns = [
    path("", game_views.games_list, name="list"),
    path("new/", game_views.game_new, name="new"),
    path("e/<token:token>/", game_views.game_edit, name="edit"),
    path(
        "e/<token:token>/scoreboard/",
        game_views.scoreboard_partial,
        {"can_edit": True},
        name="edit-scoreboard",
    ),
    path("e/<token:token>/holes/new/", game_views.hole_new, name="hole-new"),
    path("e/<token:token>/holes/<number:number>/", game_views.hole_edit, name="hole-edit"),
    path("e/<token:token>/holes/<number:number>/delete/", game_views.hole_delete, name="hole-delete"),
    path("e/<token:token>/playoff/new/", game_views.hole_new, {"playoff": True}, name="playoff-new"),
    path(
        "e/<token:token>/playoff/<number:number>/",
        game_views.hole_edit,
        {"playoff": True},
        name="playoff-edit",
    ),
    path(
        "e/<token:token>/playoff/<number:number>/delete/",
        game_views.hole_delete,
        {"playoff": True},
        name="playoff-delete",
    ),
    path("e/<token:token>/preview/", game_views.hole_preview, name="preview"),
    path("e/<token:token>/undo/", game_views.game_undo, name="undo"),
    path("e/<token:token>/history/", game_views.game_history, {"can_edit": True}, name="edit-history"),
    path("e/<token:token>/share/", game_views.game_share, name="share"),
    path("e/<token:token>/settings/", game_views.game_settings, name="settings"),
    path("v/<token:token>/", game_views.game_view, name="view"),
    path(
        "v/<token:token>/scoreboard/",
        game_views.scoreboard_partial,
        {"can_edit": False},
        name="view-scoreboard",
    ),
    path("v/<token:token>/history/", game_views.game_history, {"can_edit": False}, name="view-history"),
    path("v/<token:token>/<path:rest>", game_views.read_only_refusal, name="view-refuse"),
]
