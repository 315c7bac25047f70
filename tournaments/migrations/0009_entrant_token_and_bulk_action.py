"""Each player's personal link token (their own page and its QR) and the bulk action that last
changed them (undo of a bulk check-in or drop).

The players already registered get a token each, then the column becomes unique and required."""

import secrets

from django.db import migrations, models

import tournaments.models


def give_tokens(apps, schema_editor) -> None:  # noqa: ANN001  (a migration's signature)
    Entrant = apps.get_model("tournaments", "Entrant")
    pending = []
    for entrant in Entrant.objects.filter(token__isnull=True).only("pk").iterator():
        entrant.token = secrets.token_urlsafe(24)
        pending.append(entrant)
        if len(pending) >= 1000:
            Entrant.objects.bulk_update(pending, ["token"])
            pending = []
    Entrant.objects.bulk_update(pending, ["token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_idempotent_requests"),
    ]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="token",
            field=models.CharField(max_length=64, null=True, verbose_name="personal link token"),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entrant",
            name="token",
            field=models.CharField(
                default=tournaments.models.new_player_token,
                max_length=64,
                unique=True,
                verbose_name="personal link token",
            ),
        ),
        migrations.AddField(
            model_name="entrant",
            name="bulk_action",
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name="last bulk action"),
        ),
    ]
