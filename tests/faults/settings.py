"""The production settings of bench/served_settings.py, with the fault tests' pauses
(tests/faults/middleware.py) outermost. Only the fault tests' gunicorns use this module."""

from bench.served_settings import *  # noqa: F403

MIDDLEWARE = ["tests.faults.middleware.FaultPauseMiddleware", *MIDDLEWARE]  # noqa: F405
