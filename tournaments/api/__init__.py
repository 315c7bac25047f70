"""The Tournament REST API under /api/v1/ (SPEC "Tournament API contract"), one module per subject:
`event_views` (tournaments, staff), `player_views` (players, CSV import, records), `round_views`
(seating, publishing, finalizing, swaps, disputes), `table_views` (a table's confirmation and the
standings). Permissions through one call at each view's top,
`tournaments.access.tournament_for_user`, only; writes through
`tournaments.services`.
"""
