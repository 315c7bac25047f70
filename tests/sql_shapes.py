"""A pytest plugin that writes down every distinct SQL statement the tests send, literals left out.

Used to check that a smaller run sends every statement a larger one does (issue 18: the second,
server-side-binding run of tests/games in .ci/run leaves out the two property-based files):

    SQL_SHAPES_OUT=/tmp/all DATABASE_SERVER_SIDE_BINDING=true .venv/bin/python -m pytest \\
        -p tests.sql_shapes -n 2 --dist loadfile tests/games
    SQL_SHAPES_OUT=/tmp/part ... the same, with the --deselect and -k options of .ci/run
    .venv/bin/python -m tests.sql_shapes /tmp/all /tmp/part

The last command prints the statements of the first run the second did not send. Each process
writes its own file (`OUT.gw0`, ...); statements on every connection are seen, threads' too.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEPARATOR = "\n\0\n"
_seen: set[str] = set()


def shape(sql: str) -> str:
    """The statement with its literals, numbers, savepoint names and lengths of lists made alike."""
    sql = re.sub(r"(%s|\$\d+)(\s*,\s*(%s|\$\d+))+", "%s...", sql)
    sql = re.sub(r"'[^']*'", "'?'", sql)
    sql = re.sub(r"\b\d+\b", "N", sql)
    return re.sub(r"(ROLLBACK TO |RELEASE )?SAVEPOINT \"?\w+\"?", "SAVEPOINT", sql)


def _record(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    _seen.add(shape(sql))
    return execute(sql, params, many, context)


def pytest_configure(config: Any) -> None:
    """Wrap every database connection as it is made."""
    if not os.environ.get("SQL_SHAPES_OUT"):
        return
    from django.db.backends.signals import connection_created

    def wrap(sender: Any, connection: Any, **kwargs: Any) -> None:
        if _record not in connection.execute_wrappers:
            connection.execute_wrappers.append(_record)

    connection_created.connect(wrap, weak=False)


def pytest_sessionfinish(session: Any) -> None:
    """Write this process's statements down."""
    out = os.environ.get("SQL_SHAPES_OUT")
    if out and _seen:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        Path(f"{out}.{worker}").write_text(SEPARATOR.join(sorted(_seen)))


def _read(prefix: str) -> set[str]:
    files = Path(prefix).parent.glob(Path(prefix).name + ".*")
    return {line for file in files for line in file.read_text().split(SEPARATOR)}


if __name__ == "__main__":
    everything, part = _read(sys.argv[1]), _read(sys.argv[2])
    missing = sorted(everything - part)
    print(f"{len(everything)} statements in the first run, {len(part)} in the second")
    print(f"{len(missing)} of the first run's not in the second:")
    for statement in missing:
        print("-", statement)
