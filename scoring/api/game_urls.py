"""API URLs of live games, under /api/v1/: games by link token, their players, holes, entries and exports."""

from django.urls import path

from . import game_views

_PLAYOFF = {"playoff": True}

urlpatterns = [
    path("games/", game_views.games, name="api-games"),
    path("games/<str:token>/", game_views.game_detail, name="api-game"),
    path("games/<str:token>/players/", game_views.game_players, name="api-game-players"),
    path("games/<str:token>/players/<int:seat>/", game_views.game_player_detail, name="api-game-player"),
    path("games/<str:token>/holes/", game_views.game_holes, name="api-game-holes"),
    path("games/<str:token>/holes/<int:number>/", game_views.game_hole_detail, name="api-game-hole"),
    path(
        "games/<str:token>/holes/<int:number>/entries/",
        game_views.game_hole_entries,
        name="api-game-hole-entries",
    ),
    path(
        "games/<str:token>/holes/<int:number>/entries/<int:seat>/",
        game_views.game_hole_entry,
        name="api-game-hole-entry",
    ),
    path("games/<str:token>/playoff-holes/", game_views.game_holes, _PLAYOFF, name="api-game-playoff-holes"),
    path(
        "games/<str:token>/playoff-holes/<int:number>/",
        game_views.game_hole_detail,
        _PLAYOFF,
        name="api-game-playoff-hole",
    ),
    path(
        "games/<str:token>/playoff-holes/<int:number>/entries/",
        game_views.game_hole_entries,
        _PLAYOFF,
        name="api-game-playoff-hole-entries",
    ),
    path(
        "games/<str:token>/playoff-holes/<int:number>/entries/<int:seat>/",
        game_views.game_hole_entry,
        _PLAYOFF,
        name="api-game-playoff-hole-entry",
    ),
    path("games/<str:token>/scoreboard/", game_views.game_scoreboard, name="api-game-scoreboard"),
    path("games/<str:token>/history/", game_views.game_history, name="api-game-history"),
    path("games/<str:token>/undo/", game_views.game_undo, name="api-game-undo"),
    path("games/<str:token>/redo/", game_views.game_redo, name="api-game-redo"),
    path("games/<str:token>/export.csv", game_views.game_export_csv, name="api-game-export-csv"),
    path("games/<str:token>/export.json", game_views.game_export_json, name="api-game-export-json"),
    path("games/<str:token>/results/", game_views.game_results, name="api-game-results"),
    path("players/", game_views.players, name="api-players"),
    path("players/<int:player_id>/", game_views.player_detail, name="api-player"),
]
