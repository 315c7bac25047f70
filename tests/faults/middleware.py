"""Test-only pauses for the fault tests, in tests/faults/settings.py's MIDDLEWARE, never in production.

A request carrying `X-Test-Pause: <where>` (with `X-Test-Pause-Seconds`, 5 by default) writes the
serving process's pid to $FAULT_DIR/paused.pid and sleeps there, so a test can kill the worker at
that moment or let the client give up first:

before-view      before any middleware or view ran: nothing of the request was done.
in-transaction   right after the batch with the hole's INSERT, inside its transaction (not committed).
after-commit     after the whole answer was built: the hole is committed, the answer not yet sent.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

HOLE_INSERT = 'INSERT INTO "scoring_hole"'


def _pause(seconds: float) -> None:
    """Tell the test which process is paused (written whole, then renamed), and wait."""
    folder = Path(os.environ["FAULT_DIR"])
    partial = folder / f"paused.pid.{os.getpid()}"
    partial.write_text(str(os.getpid()))
    partial.rename(folder / "paused.pid")
    time.sleep(seconds)


class FaultPauseMiddleware:
    """Outermost: pause where `X-Test-Pause` says (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on, pausing before, inside the hole's transaction, or after."""
        where = request.headers.get("X-Test-Pause", "")
        seconds = float(request.headers.get("X-Test-Pause-Seconds", "5"))
        if where == "before-view":
            _pause(seconds)
        if where == "in-transaction":
            paused, executions = False, 0

            def after_hole_insert(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
                # The hole's INSERT goes in the writes' batch: written out, or (statements prepared
                # per connection, scoring/db_batch.py) the second batch of EXECUTEs, after the lock's.
                nonlocal paused, executions
                result = execute(sql, *args)
                executions += sql.startswith("EXECUTE ")
                if not paused and (HOLE_INSERT in sql or executions == 2):
                    paused = True
                    _pause(seconds)
                return result

            with connection.execute_wrapper(after_hole_insert):
                response = self.get_response(request)
        else:
            response = self.get_response(request)
        if where == "after-commit":
            _pause(seconds)
        return response
