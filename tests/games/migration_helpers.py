"""Running the real migrations backwards and forwards on the test database, for the migration tests."""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(target: list[tuple[str, str]]) -> Apps:
    """Migrate the test database to `target` and return the historical models as they stand there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def migrate_to_latest() -> None:
    """Put the test database back on the latest migrations (later tests need today's schema)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
