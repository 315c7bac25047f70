"""The tournament's server-rendered pages: the staff's (list, settings, players, dashboard, seating,
event log), the public ones (standings, a player's record) and a table's confirmation page.

Views are thin: they call `tournaments.services` for every write and check permissions only through
the one access call (`tournaments.access.tournament_for_user`), made by each page's first line,
`page = tournament_page_for(request, pk, Action.X)` of `access.py`, whose refusals are raised and
answered in one place; then they read its grant (`page.can_run`, `page.sees_live_standings`).
"""
