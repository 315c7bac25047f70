"""Settings for the test suite: the project's settings in development shape, limits raised.

The project defaults to production when DEBUG is unset; tests want development-shaped settings
(no HTTPS redirect for the test client, a known SECRET_KEY) unless a test asks otherwise
(tests/test_deploy.py runs manage.py with production settings in a subprocess). pytest-django
still turns DEBUG off while tests run, as in production.

Many tests create games and holes by the dozen within seconds: the rate limits are raised far
above that here. Tests of the limits themselves lower them with the `settings` fixture.
"""

import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "tests-only-insecure-key")

from golfclub.settings import *  # noqa: F403

RATELIMIT_GAME_CREATE = "100000/m"
RATELIMIT_HOLE_WRITES = "100000/m"
RATELIMIT_TOURNAMENT_CREATE = "100000/m"
RATELIMIT_CLUB_CREATE = "100000/m"
RATELIMIT_SIGNUP = "100000/m"

# The phone-contact note (one statement on a table link's first request in 30 s) is off here: the
# query budgets of the pages and API count their views alone. tests/games/test_phone_contact.py and
# the dashboard's tests turn it on and measure its own cost.
GOLFCLUB_PHONE_CONTACT = False

# Logging in hashes the password: the lockout tests log in dozens of times.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# On PostgreSQL the suite uses Django's backend with a cheaper flush between `transactional_db`
# tests (DELETE instead of TRUNCATE: tests/postgresql_backend/base.py says why).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "tests.postgresql_backend"  # noqa: F405
    # A test's commit need not wait for the disk: the test database is thrown away after the run.
    # No JIT compilation of queries: the tests' tables are small but never analyzed, so the planner's
    # guesses put some statements over `jit_above_cost`, and compiling them cost more than it saved
    # (four heavy files: 31 s instead of 32.4-33 s; docs/performance.md, issue 18).
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off -c jit=off"  # noqa: F405

# The suite's `flush` (tests/management/commands/flush.py): after the `DELETE` flush above, which
# keeps the content types and permissions, the `post_migrate` handlers that remake them are skipped.
INSTALLED_APPS = [*INSTALLED_APPS, "tests"]  # noqa: F405
