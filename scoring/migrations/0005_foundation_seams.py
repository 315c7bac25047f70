"""`scoring` as a foundation (issue 7), in one migration:

- an Idempotency-Key keeps the recorded hole's number instead of the HTTP answer first given: the
  API builds a retry's answer from the hole as it stands, and only the number is needed once the
  hole is gone (undone or deleted); existing rows get it from the stored answer's body;
- a game can belong to something else (`managed_by`, `managed_label`: a tournament's table);
- a change keeps the reason given for it when a game's manager asks for one.
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
        migrations.AddField(
            model_name="game",
            name="managed_by",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="managed by"),
        ),
        migrations.AddField(
            model_name="game",
            name="managed_label",
            field=models.CharField(blank=True, default="", max_length=200, verbose_name="managed as"),
        ),
        migrations.AddField(
            model_name="gamechange",
            name="reason",
            field=models.CharField(blank=True, default="", max_length=200, verbose_name="reason"),
        ),
    ]
