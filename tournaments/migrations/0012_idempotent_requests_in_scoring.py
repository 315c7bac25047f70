"""The tournament's keyed writes move to scoring's one store (issue 35): every row is copied to
`scoring_idempotentrequest` as it is (scope, key, request hash, answer, time), its event kept as
`about` = "tournament:<id>", then this app's table is dropped. Every key stored before answers as
it did: a copy of its request is replayed, another request with it is refused."""

from django.db import migrations

COPY = """
INSERT INTO scoring_idempotentrequest
    (scope, key, method, route, request_hash, about, status, body, headers, created_at)
SELECT scope, key, method, route, request_hash,
       CASE WHEN tournament_id IS NULL THEN '' ELSE 'tournament:' || CAST(tournament_id AS VARCHAR(20)) END,
       status, body, headers, created_at
FROM tournaments_idempotentrequest
"""

COPY_BACK = """
INSERT INTO tournaments_idempotentrequest
    (scope, key, method, route, request_hash, tournament_id, status, body, headers, created_at)
SELECT scope, key, method, route, request_hash,
       CASE WHEN about LIKE 'tournament:%' THEN
           (SELECT t.id FROM tournaments_tournament t WHERE 'tournament:' || CAST(t.id AS VARCHAR(20)) = about)
       END,
       status, body, headers, created_at
FROM scoring_idempotentrequest
"""


def copy_rows(apps, schema_editor):
    """The tournament's keys into scoring's store, in one statement."""
    schema_editor.execute(COPY, params=None)  # no placeholders: nothing is interpolated


def copy_rows_back(apps, schema_editor):
    """Back: every key into the tournament's table again (its event, when it still exists)."""
    schema_editor.execute(COPY_BACK, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_idempotent_requests"),
        ("tournaments", "0011_seating_plan_and_21_rounds"),
    ]

    operations = [
        migrations.RunPython(copy_rows, copy_rows_back),
        migrations.DeleteModel(name="IdempotentRequest"),
    ]
