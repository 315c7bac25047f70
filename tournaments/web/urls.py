"""URLs of the tournament pages (/tournaments/).

<pk>/...            an event's pages, each beginning with `tournaments.web.access.tournament_page_for`;
table/<edit token>/ a table's confirmation page, reached through the table's link.
"""

from django.urls import path

from golfclub.core import converters  # noqa: F401  (registers <token:>, <number:>, <id:>)
from golfclub.core.rate_limits import limit_hole_writes, limit_tournament_creation
from tournaments.web import (
    club_views,
    event_day_views,
    event_views,
    export_views,
    officiating_views,
    paper_slip_views,
    player_page_views,
    player_views,
    print_pack,
    round_views,
    standings_views,
    table_views,
)

app_name = "tournaments"

urlpatterns = [
    path("", event_views.tournament_list, name="list"),
    path("new/", limit_tournament_creation(event_views.tournament_new), name="new"),
    path("table/<token:token>/", limit_hole_writes(table_views.table_confirm), name="table"),
    path("table/<token:token>/call/", limit_hole_writes(table_views.table_call), name="table-call"),
    path("table/<token:token>/officials/", table_views.table_officials, name="table-officials"),
    path("player/<token:token>/", player_page_views.player_home, name="player-home"),
    path("player/<token:token>/live/", player_page_views.player_home_live, name="player-home-live"),
    path(
        "player/<token:token>/check-in/", player_page_views.player_home_check_in, name="player-home-check-in"
    ),
    path("<id:pk>/print/players/", player_page_views.player_qr_sheet, name="print-player-qr"),
    path("<id:pk>/", round_views.dashboard, name="dashboard"),
    path("<id:pk>/live/", round_views.dashboard_live, name="dashboard-live"),
    path("<id:pk>/calls/live/", round_views.dashboard_calls, name="dashboard-calls"),
    path("<id:pk>/settings/", event_views.tournament_settings, name="settings"),
    path("<id:pk>/club/", club_views.tournament_club, name="club"),
    path("<id:pk>/staff/", event_views.staff_add, name="staff-add"),
    path("<id:pk>/staff/<id:staff_id>/remove/", event_views.staff_remove, name="staff-remove"),
    path("<id:pk>/players/", player_views.players, name="players"),
    path("<id:pk>/players/add/", player_views.player_add, name="player-add"),
    path("<id:pk>/players/import/", player_views.player_import, name="player-import"),
    path("<id:pk>/players/bulk/", player_views.players_bulk, name="players-bulk"),
    path(
        "<id:pk>/players/bulk/<id:entry_id>/undo/", player_views.players_bulk_undo, name="players-bulk-undo"
    ),
    path("<id:pk>/players/<id:entrant_id>/", standings_views.player_detail, name="player"),
    path("<id:pk>/players/<id:entrant_id>/check-in/", player_views.player_check_in, name="player-check-in"),
    path("<id:pk>/players/<id:entrant_id>/status/", player_views.player_status, name="player-status"),
    path("<id:pk>/rounds/seat/", round_views.round_seat, name="round-seat"),
    path("<id:pk>/rounds/<number:number>/", round_views.round_seating, name="seating"),
    path("<id:pk>/rounds/<number:number>/swap/", round_views.round_swap, name="round-swap"),
    path("<id:pk>/rounds/<number:number>/publish/", round_views.round_publish, name="round-publish"),
    path("<id:pk>/rounds/<number:number>/finalize/", round_views.round_finalize, name="round-finalize"),
    path("<id:pk>/rounds/<number:number>/cards/", round_views.table_cards, name="table-cards"),
    path("<id:pk>/tables/<id:table_id>/clear/", round_views.table_clear, name="table-clear"),
    path("<id:pk>/tables/<id:table_id>/paper-slip/", paper_slip_views.paper_slip, name="paper-slip"),
    path("<id:pk>/standings/", standings_views.standings, name="standings"),
    path("<id:pk>/log/", standings_views.event_log, name="log"),
    path("<id:pk>/officiating/", officiating_views.desk, name="officiating"),
    path("<id:pk>/officiating/calls/", officiating_views.desk_calls, name="officiating-calls"),
    path("<id:pk>/officiating/ruling/", officiating_views.ruling, name="ruling"),
    path("<id:pk>/officiating/calls/<id:call_id>/close/", officiating_views.call_close, name="call-close"),
    path("<id:pk>/officiating/drafts/<id:table_id>/", officiating_views.draft_confirm, name="draft-confirm"),
    path(
        "<id:pk>/penalties/<id:penalty_id>/rescind/",
        officiating_views.penalty_rescind,
        name="penalty-rescind",
    ),
    path("<id:pk>/tables/<id:table_id>/extend/", officiating_views.table_extend, name="table-extend"),
    path("<id:pk>/rulings/", officiating_views.rulings, name="rulings"),
    path("<id:pk>/public/", event_day_views.public_page, name="public"),
    path("<id:pk>/public/leaderboard/", event_day_views.leaderboard, name="leaderboard"),
    path("<id:pk>/projector/", event_day_views.projector, name="projector"),
    path("<id:pk>/projector/panels/", event_day_views.projector_panels, name="projector-panels"),
    path("<id:pk>/export/<slug:what>.<slug:fmt>", export_views.export, name="export"),
    path("<id:pk>/rounds/<number:number>/print/seating/", export_views.print_seating, name="print-seating"),
    path("<id:pk>/rounds/<number:number>/print/slips/", export_views.print_slips, name="print-slips"),
    path("<id:pk>/rounds/<number:number>/print/pack.pdf", print_pack.print_pack, name="print-pack"),
    path("<id:pk>/print/results/", export_views.print_results, name="print-results"),
]
