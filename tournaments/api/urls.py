"""API URLs of tournaments, under /api/v1/ (SPEC "Tournament API contract"). Ids are integers: anything
else in their place matches no route (404)."""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from golfclub.core.rate_limits import limit_hole_writes, limit_tournament_creation

from . import event_views, officiating_views, phone_views, player_views, round_views, table_views

_T = "tournaments/<id:tournament_id>/"
_P = _T + "players/<id:player_id>/"
_R = _T + "rounds/<number:number>/"

urlpatterns = [
    # Creating (POST) is rate-limited per client address; reading the list (GET) is not counted.
    path("tournaments/", limit_tournament_creation(event_views.tournaments), name="api-tournaments"),
    path(_T, event_views.tournament_detail, name="api-tournament"),
    path(_T + "staff/", event_views.staff, name="api-tournament-staff"),
    path(_T + "staff/<id:staff_id>/", event_views.staff_member, name="api-tournament-staff-member"),
    path(_T + "players/", player_views.players, name="api-tournament-players"),
    path(_T + "players/check-in/", player_views.players_check_in, name="api-tournament-players-check-in"),
    path(_P, player_views.player_detail, name="api-tournament-player"),
    path(_P + "drop/", player_views.player_drop, name="api-tournament-player-drop"),
    path(_P + "withdraw/", player_views.player_withdraw, name="api-tournament-player-withdraw"),
    path(_P + "reinstate/", player_views.player_reinstate, name="api-tournament-player-reinstate"),
    path(_P + "check-in/", player_views.player_check_in, name="api-tournament-player-check-in"),
    path(_T + "rounds/", round_views.rounds, name="api-tournament-rounds"),
    path(_R, round_views.round_detail, name="api-tournament-round"),
    path(_R + "publish/", round_views.round_publish, name="api-tournament-round-publish"),
    path(_R + "finalize/", round_views.round_finalize, name="api-tournament-round-finalize"),
    path(_R + "swap/", round_views.round_swap, name="api-tournament-round-swap"),
    path(_R + "phones/", phone_views.round_phones, name="api-tournament-round-phones"),
    path(
        _R + "tables/<number:table>/clear-dispute/",
        round_views.table_clear_dispute,
        name="api-tournament-table-clear-dispute",
    ),
    path(_T + "penalties/", officiating_views.penalties, name="api-tournament-penalties"),
    path(
        _T + "penalties/<id:penalty_id>/rescind/",
        officiating_views.penalty_rescind,
        name="api-tournament-penalty-rescind",
    ),
    path(_T + "rulings/", officiating_views.rulings, name="api-tournament-rulings"),
    path("rulings/situations/", officiating_views.situations, name="api-rulings-situations"),
    path("rulings/advise/", officiating_views.advise_view, name="api-rulings-advise"),
    path(_T + "standings/", table_views.standings, name="api-tournament-standings"),
    path(
        "games/<token:token>/confirm/", limit_hole_writes(table_views.game_confirm), name="api-game-confirm"
    ),
]
