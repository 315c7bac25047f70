"""The one store of keyed writes (issue 35): `IdempotentRequest` now belongs to scoring, for the games',
clubs' and tournaments' writes alike. The tournament's rows are copied here by
`tournaments.0012_idempotent_requests_in_scoring`, which then drops its own table; a key tied to
an event is kept with `about` = "tournament:<id>" (the event's deletion takes it along)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_turn_times"),
    ]

    operations = [
        migrations.CreateModel(
            name="IdempotentRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("scope", models.CharField(max_length=80, verbose_name="scope")),
                ("key", models.CharField(max_length=255, verbose_name="key")),
                ("method", models.CharField(max_length=8, verbose_name="method")),
                ("route", models.CharField(max_length=200, verbose_name="route")),
                ("request_hash", models.CharField(max_length=64, verbose_name="request hash")),
                (
                    "about",
                    models.CharField(
                        blank=True, db_index=True, default="", max_length=64, verbose_name="about"
                    ),
                ),
                ("status", models.PositiveSmallIntegerField(null=True, verbose_name="status")),
                ("body", models.TextField(blank=True, default="", verbose_name="body")),
                ("headers", models.JSONField(blank=True, default=dict, verbose_name="headers")),
                (
                    "created_at",
                    models.DateTimeField(auto_now_add=True, db_index=True, verbose_name="created"),
                ),
            ],
            options={
                "verbose_name": "idempotent request",
                "verbose_name_plural": "idempotent requests",
                "constraints": [
                    models.UniqueConstraint(fields=("scope", "key"), name="scoring_idempotent_request_key")
                ],
            },
        ),
    ]
