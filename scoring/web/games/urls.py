"""URLs of live games (/games/).

e/<edit token>/...  the scorer's link: everything, no account needed.
v/<view token>/...  the read-only live link: the scoreboard (refreshing itself) and the history;
                    anything else under it is refused with 403.

A token outside the token alphabet, or a number of more than 9 digits, matches no route: 404
(`scoring.converters`).
"""

from django.urls import URLPattern, path

from scoring import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from scoring.rate_limits import limit_game_creation, limit_hole_writes
from scoring.web.games import board_views, change_views, hole_views, start_views

# Writes are rate-limited here (scoring/rate_limits.py), so the views themselves know nothing of limits.
_new = limit_game_creation(start_views.game_new)
_hole_new = limit_hole_writes(hole_views.hole_new)
_hole_edit = limit_hole_writes(hole_views.hole_edit)
_hole_delete = limit_hole_writes(hole_views.hole_delete)
_undo = limit_hole_writes(change_views.game_undo)
_redo = limit_hole_writes(change_views.game_redo)

app_name = "games"


def _score_breakdowns(link: str, *, can_edit: bool, name_prefix: str) -> list[URLPattern]:
    """How a recorded hole's (or playoff hole's) scores were made, under the edit or the view link."""
    return [
        path(
            f"{link}/<token:token>/{kind}/<number:number>/scores/",
            board_views.hole_scores,
            {"can_edit": can_edit, "playoff": playoff} if playoff else {"can_edit": can_edit},
            name=f"{name_prefix}{name}-scores",
        )
        for kind, name, playoff in (("holes", "hole", False), ("playoff", "playoff", True))
    ]


urlpatterns = [
    path("", start_views.games_list, name="list"),
    path("new/", _new, name="new"),
    path("e/<token:token>/", board_views.game_edit, name="edit"),
    path(
        "e/<token:token>/scoreboard/",
        board_views.scoreboard_partial,
        {"can_edit": True},
        name="edit-scoreboard",
    ),
    path("e/<token:token>/holes/new/", _hole_new, name="hole-new"),
    path("e/<token:token>/holes/<number:number>/", _hole_edit, name="hole-edit"),
    path("e/<token:token>/holes/<number:number>/delete/", _hole_delete, name="hole-delete"),
    *_score_breakdowns("e", can_edit=True, name_prefix=""),
    path("e/<token:token>/playoff/new/", _hole_new, {"playoff": True}, name="playoff-new"),
    path("e/<token:token>/playoff/<number:number>/", _hole_edit, {"playoff": True}, name="playoff-edit"),
    path(
        "e/<token:token>/playoff/<number:number>/delete/",
        _hole_delete,
        {"playoff": True},
        name="playoff-delete",
    ),
    path("e/<token:token>/preview/", hole_views.hole_preview, name="preview"),
    path("e/<token:token>/undo/", _undo, name="undo"),
    path("e/<token:token>/undo/confirm/", change_views.undo_confirm, name="undo-confirm"),
    path("e/<token:token>/redo/", _redo, name="redo"),
    path("e/<token:token>/history/", board_views.game_history, {"can_edit": True}, name="edit-history"),
    path("e/<token:token>/share/", board_views.game_share, name="share"),
    path("e/<token:token>/settings/", board_views.game_settings, name="settings"),
    path("v/<token:token>/", board_views.game_view, name="view"),
    path(
        "v/<token:token>/scoreboard/",
        board_views.scoreboard_partial,
        {"can_edit": False},
        name="view-scoreboard",
    ),
    path("v/<token:token>/history/", board_views.game_history, {"can_edit": False}, name="view-history"),
    *_score_breakdowns("v", can_edit=False, name_prefix="view-"),
    path("v/<token:token>/<path:rest>", board_views.read_only_refusal, name="view-refuse"),
]
