"""The project's own app: creates the database cache table whenever `manage.py migrate` runs."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate


def create_cache_table(using: str = "default", **kwargs: Any) -> None:
    """Run `createcachetable` (idempotent): the rate-limit counters live there unless REDIS_URL is set.

    Hooked to `post_migrate` so that every way of setting up a database (`make run`, a deployment's
    `migrate`, the test database) has the table without a separate step anyone could forget.
    """
    call_command("createcachetable", database=using, verbosity=0)


class GolfclubConfig(AppConfig):
    """Site-wide pieces that belong to no feature app."""

    name = "golfclub"
    verbose_name = "Golf club site"

    def ready(self) -> None:
        """Connect the cache-table hook once per process."""
        post_migrate.connect(create_cache_table, sender=self, dispatch_uid="golfclub-create-cache-table")
