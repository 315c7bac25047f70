"""The test suite's PostgreSQL backend (tests/postgresql_backend): its flush empties every table."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from scoring import services
from scoring.models import HoleEntry

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")


@pytest.mark.django_db
def test_it_runs_the_suite_on_the_deleting_backend_without_waiting_for_the_disk_or_the_jit() -> None:
    assert connection.ops.sql_flush.__module__ == "tests.postgresql_backend.base"
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone() == ("off",)
        cursor.execute("SHOW jit")
        assert cursor.fetchone() == ("off",)


@pytest.mark.django_db(transaction=True)
def test_it_flushes_rows_that_reference_each_other_and_keeps_django_truncate_for_sequences() -> None:
    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official"})
    services.hole_record(game, entries={"ann": 3, "bob": 5}, ender=None, actor="test")
    assert HoleEntry.objects.filter(hole__game=game).count() == 2

    call_command("flush", interactive=False, verbosity=0)

    refilled = {"contenttypes.ContentType", "auth.Permission"}  # by flush's post_migrate, as ever
    left = {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.managed and model._meta.label not in refilled
    }
    assert set(left) >= {"scoring.Game", "scoring.Seat", "scoring.Hole", "scoring.HoleEntry"}
    assert {label: count for label, count in left.items() if count} == {}
    statements = connection.ops.sql_flush(no_style(), ["scoring_game"], reset_sequences=True)
    assert statements == ['TRUNCATE "scoring_game" RESTART IDENTITY;']


@pytest.mark.django_db(transaction=True)
def test_its_flush_between_tests_keeps_the_content_types_and_permissions_post_migrate_would_make() -> None:
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.core.management.sql import emit_post_migrate_signal

    game = services.create_game(players=["ann", "bob"], ruleset={"preset": "official"})
    services.hole_record(game, entries={"ann": 3, "bob": 5}, ender=None, actor="test")

    # As pytest-django calls it after a `transactional_db` test (Django's TransactionTestCase).
    call_command(
        "flush", verbosity=0, interactive=False, database="default", reset_sequences=False,
        allow_cascade=False, inhibit_post_migrate=False,
    )  # fmt: skip

    kept = {"contenttypes.ContentType", "auth.Permission"}
    left = {m._meta.label: m.objects.count() for m in apps.get_models() if m._meta.label not in kept}
    assert {label: count for label, count in left.items() if count} == {}
    content_types, permissions = ContentType.objects.count(), Permission.objects.count()
    assert content_types == len(apps.get_models())
    assert permissions == 4 * len(apps.get_models())  # add, change, delete, view
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")  # what was skipped
    assert (ContentType.objects.count(), Permission.objects.count()) == (content_types, permissions)
