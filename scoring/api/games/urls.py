"""API URLs of live games, under /api/v1/: games by link token, their players, holes, entries and exports."""

from django.urls import URLPattern, path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from golfclub.core.rate_limits import limit_game_creation, limit_hole_writes

from .ending_views import game_end, game_resume
from .export_views import game_export_csv, game_export_json, game_results
from .game_views import game_detail, games
from .history_views import game_history, game_redo, game_scoreboard, game_undo
from .hole_views import game_hole_detail, game_hole_entries, game_hole_entry, game_holes
from .player_views import game_player_detail, game_players
from .roster_views import player_detail, players
from .turn_time_views import game_turn_times

# Writes are rate-limited here (golfclub/core/rate_limits.py): creating games per client address,
# writing holes and undo and redo per game link. Reads and the other writes pass untouched.
_games = limit_game_creation(games)
_holes = limit_hole_writes(game_holes)
_hole = limit_hole_writes(game_hole_detail)
_entries = limit_hole_writes(game_hole_entries)
_entry = limit_hole_writes(game_hole_entry)
_undo = limit_hole_writes(game_undo)
_redo = limit_hole_writes(game_redo)

_PLAYOFF = {"playoff": True}


# Each route of a hole family: (path after the family, view, name suffix).
_HOLE_ROUTES = (
    ("", _holes, "s"),
    ("<number:number>/", _hole, ""),
    ("<number:number>/entries/", _entries, "-entries"),
    ("<number:number>/entries/<number:seat>/", _entry, "-entry"),
)


def _hole_routes(kind: str, name: str, extra: dict[str, bool]) -> list[URLPattern]:
    """The routes of the holes (or the playoff holes) of a game: the list, one hole, its entries."""
    return [
        path(f"games/<token:token>/{kind}/{rest}", view, extra, name=f"api-game-{name}{suffix}")
        for rest, view, suffix in _HOLE_ROUTES
    ]


urlpatterns = [
    path("games/", _games, name="api-games"),
    path("games/<token:token>/", game_detail, name="api-game"),
    path("games/<token:token>/players/", game_players, name="api-game-players"),
    path("games/<token:token>/players/<number:seat>/", game_player_detail, name="api-game-player"),
    *_hole_routes("holes", "hole", {}),
    *_hole_routes("playoff-holes", "playoff-hole", _PLAYOFF),
    path("games/<token:token>/scoreboard/", game_scoreboard, name="api-game-scoreboard"),
    path("games/<token:token>/history/", game_history, name="api-game-history"),
    path("games/<token:token>/undo/", _undo, name="api-game-undo"),
    path("games/<token:token>/redo/", _redo, name="api-game-redo"),
    path("games/<token:token>/end/", game_end, name="api-game-end"),
    path("games/<token:token>/resume/", game_resume, name="api-game-resume"),
    path("games/<token:token>/export.csv", game_export_csv, name="api-game-export-csv"),
    path("games/<token:token>/export.json", game_export_json, name="api-game-export-json"),
    path("games/<token:token>/results/", game_results, name="api-game-results"),
    path("games/<token:token>/turn-times/", game_turn_times, name="api-game-turn-times"),
    path("players/", players, name="api-players"),
    path("players/<id:player_id>/", player_detail, name="api-player"),
]
