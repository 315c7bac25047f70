"""An Idempotency-Key keeps the recorded hole's number instead of the HTTP answer first given.

The API builds a retry's answer from the hole as it stands; only the number is needed once the hole
is gone (undone or deleted). Existing rows get it from the stored answer's body.
"""

from typing import Any

from django.db import migrations, models


def copy_numbers(apps: Any, schema_editor: Any) -> None:
    """Each key's hole number, read from the answer stored with it."""
    keys = apps.get_model("scoring", "IdempotencyKey")
    for record in keys.objects.filter(response_body__isnull=False).only("pk", "response_body").iterator():
        number = record.response_body.get("number") if isinstance(record.response_body, dict) else None
        if isinstance(number, int):
            keys.objects.filter(pk=record.pk).update(hole_number=number)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0004_idempotency_key_keeps_hole_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotencykey",
            name="hole_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="hole number"),
        ),
        migrations.RunPython(copy_numbers, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencykey", name="response_body"),
        migrations.RemoveField(model_name="idempotencykey", name="response_status"),
    ]
