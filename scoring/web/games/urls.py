"""URLs of live games (/games/).

e/<edit token>/...  the scorer's link: everything, no account needed.
v/<view token>/...  the read-only live link: the scoreboard (refreshing itself) and the history;
                    anything else under it is refused with 403.

A token outside the token alphabet, or a number of more than 9 digits, matches no route: 404
(`golfclub.core.converters`).
"""

from django.urls import URLPattern, path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from golfclub.core.rate_limits import limit_game_creation, limit_hole_writes
from scoring.web.games import board_views, change_views, ending_views, hole_views, start_views

# Writes are rate-limited here (golfclub/core/rate_limits.py), so the views themselves know nothing of limits.
_new = limit_game_creation(start_views.game_new)
_hole_new = limit_hole_writes(hole_views.hole_new)
_hole_edit = limit_hole_writes(hole_views.hole_edit)
_hole_delete = limit_hole_writes(hole_views.hole_delete)
_undo = limit_hole_writes(change_views.game_undo)
_redo = limit_hole_writes(change_views.game_redo)

app_name = "games"


def _hole_pages(kind: str, name: str, extra: dict[str, bool]) -> list[URLPattern]:
    """Scoring the next hole (or playoff hole), correcting one and deleting one, by the edit link."""
    base = f"e/<token:token>/{kind}/"
    return [
        path(f"{base}new/", _hole_new, extra, name=f"{name}-new"),
        path(f"{base}<number:number>/", _hole_edit, extra, name=f"{name}-edit"),
        path(f"{base}<number:number>/delete/", _hole_delete, extra, name=f"{name}-delete"),
    ]


def _pages_of_both_links(link: str, *, can_edit: bool) -> list[URLPattern]:
    """The pages the edit ("e") and the view ("v") link both have: the live scoreboard partial, the
    history, and how a recorded hole's (or playoff hole's) scores were made."""
    board, scores = ("edit-", "") if can_edit else ("view-", "view-")
    flag = {"can_edit": can_edit}
    return [
        path(
            f"{link}/<token:token>/scoreboard/",
            board_views.scoreboard_partial,
            flag,
            name=f"{board}scoreboard",
        ),
        path(f"{link}/<token:token>/history/", board_views.game_history, flag, name=f"{board}history"),
        *(
            path(
                f"{link}/<token:token>/{kind}/<number:number>/scores/",
                board_views.hole_scores,
                {**flag, "playoff": True} if playoff else flag,
                name=f"{scores}{name}-scores",
            )
            for kind, name, playoff in (("holes", "hole", False), ("playoff", "playoff", True))
        ),
    ]


urlpatterns = [
    path("", start_views.games_list, name="list"),
    path("new/", _new, name="new"),
    path("e/<token:token>/", board_views.game_edit, name="edit"),
    *_hole_pages("holes", "hole", {}),
    *_pages_of_both_links("e", can_edit=True),
    *_hole_pages("playoff", "playoff", {"playoff": True}),
    path("e/<token:token>/preview/", hole_views.hole_preview, name="preview"),
    path("e/<token:token>/undo/", _undo, name="undo"),
    path("e/<token:token>/undo/confirm/", change_views.undo_confirm, name="undo-confirm"),
    path("e/<token:token>/redo/", _redo, name="redo"),
    path("e/<token:token>/end/", ending_views.game_end, name="end"),
    path("e/<token:token>/end/confirm/", ending_views.end_confirm, name="end-confirm"),
    path("e/<token:token>/resume/", ending_views.game_resume, name="resume"),
    path("e/<token:token>/share/", board_views.game_share, name="share"),
    path("e/<token:token>/settings/", board_views.game_settings, name="settings"),
    path("v/<token:token>/", board_views.game_view, name="view"),
    *_pages_of_both_links("v", can_edit=False),
    path("v/<token:token>/<path:rest>", board_views.read_only_refusal, name="view-refuse"),
]
