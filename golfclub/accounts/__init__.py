"""Accounts: log in and out, change the password, sign up (when open), and API tokens for scripts.

Accounts are optional for a table of friends (a game's link is its key); a tournament director and
their scripts need one. Views are in `views.py`, forms in `forms.py`, token writes in `tokens.py`;
`urls.py` is mounted at /accounts/.
"""
