"""URLs of live games (/games/).

e/<edit token>/...  the scorer's link: everything, no account needed.
v/<view token>/...  the read-only live link: the scoreboard (refreshing itself) and the history;
                    anything else under it is refused with 403.
"""

from django.urls import path

from scoring.limits import limit_game_creation, limit_hole_writes
from scoring.web import game_views

# Writes are rate-limited here (scoring/limits.py), so the views themselves know nothing of limits.
_new = limit_game_creation(game_views.game_new)
_hole_new = limit_hole_writes(game_views.hole_new)
_hole_edit = limit_hole_writes(game_views.hole_edit)
_hole_delete = limit_hole_writes(game_views.hole_delete)
_undo = limit_hole_writes(game_views.game_undo)
_redo = limit_hole_writes(game_views.game_redo)

app_name = "games"

urlpatterns = [
    path("", game_views.games_list, name="list"),
    path("new/", _new, name="new"),
    path("e/<str:token>/", game_views.game_edit, name="edit"),
    path(
        "e/<str:token>/scoreboard/", game_views.scoreboard_partial, {"can_edit": True}, name="edit-scoreboard"
    ),
    path("e/<str:token>/holes/new/", _hole_new, name="hole-new"),
    path("e/<str:token>/holes/<int:number>/", _hole_edit, name="hole-edit"),
    path("e/<str:token>/holes/<int:number>/delete/", _hole_delete, name="hole-delete"),
    path("e/<str:token>/playoff/new/", _hole_new, {"playoff": True}, name="playoff-new"),
    path("e/<str:token>/playoff/<int:number>/", _hole_edit, {"playoff": True}, name="playoff-edit"),
    path(
        "e/<str:token>/playoff/<int:number>/delete/",
        _hole_delete,
        {"playoff": True},
        name="playoff-delete",
    ),
    path("e/<str:token>/preview/", game_views.hole_preview, name="preview"),
    path("e/<str:token>/undo/", _undo, name="undo"),
    path("e/<str:token>/redo/", _redo, name="redo"),
    path("e/<str:token>/history/", game_views.game_history, {"can_edit": True}, name="edit-history"),
    path("e/<str:token>/share/", game_views.game_share, name="share"),
    path("e/<str:token>/settings/", game_views.game_settings, name="settings"),
    path("v/<str:token>/", game_views.game_view, name="view"),
    path(
        "v/<str:token>/scoreboard/",
        game_views.scoreboard_partial,
        {"can_edit": False},
        name="view-scoreboard",
    ),
    path("v/<str:token>/history/", game_views.game_history, {"can_edit": False}, name="view-history"),
    path("v/<str:token>/<path:rest>", game_views.read_only_refusal, name="view-refuse"),
]
