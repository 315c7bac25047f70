"""The tournament's server-rendered pages: the staff's (list, settings, players, dashboard, seating,
event log), the public ones (standings, a player's record) and a table's confirmation page.

Views are thin: they call `tournaments.services` for every write and check permissions only through
`tournaments.access.require`, by the `@tournament_page(action)` decorator of `access.py`.
"""
