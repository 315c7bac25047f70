"""Settings for benchmarks: the production settings plus a bare baseline view (bench/urls.py).

Used only by bench/live_games.py, which serves the app with gunicorn on loopback.
"""

import os

from golfclub.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
# No collectstatic step in a benchmark run: plain static storage (the manifest needs collectstatic).
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
# A benchmark floods one address and one game on purpose: the abuse limits would stop it. With
# BENCH_RATELIMITS=1 (bench/live_games.py --limits) every write is still counted in the shared
# cache as in production, against rates too high to refuse anything: that measures what counting costs.
AXES_ENABLED = False
if os.environ.get("BENCH_RATELIMITS") == "1":
    RATELIMIT_GAME_CREATE = "1000000/m,1000000/h"
    RATELIMIT_HOLE_WRITES = "1000000/m,1000000/h"
else:
    RATELIMIT_ENABLE = False
