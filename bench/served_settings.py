"""The production settings, unchanged but for how static files are found, for the tests that serve
the app with gunicorn: tests/test_security_headers.py, tests/test_two_app_servers.py and the load
test (bench/loadtest.py).

Production serves static files from `collectstatic`'s compressed manifest; building it compresses
every file twice (gzip and Brotli), which costs about 90 s of CPU: far too much for a test of
response headers, which do not depend on it. Here the files are served from the source folders
(WhiteNoise's finders) under their plain names; every other setting is production's, read from
the same environment (DEBUG off, SECRET_KEY and ALLOWED_HOSTS set).
"""

from golfclub.settings import *  # noqa: F403

STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
