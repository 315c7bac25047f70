"""One store of keyed writes (issue 35): a game's own Idempotency-Keys (its holes' POSTs, its ending
or resuming) move from their table (`IdempotencyKey`) into `IdempotentRequest`, with the scope
"game:<id>", the game (its deletion takes them along), and the hole each recorded and its number
(what a replay is built from). A key that names a hole recorded it ("game: hole", 201); any other
ended or resumed the game ("game: end or resume", 200). The old table goes; going back puts every
game's key back in it (with a new id: nothing refers to one) and takes it out of the one store.
The index of `about` keeps only the rows about something (a game's keys are not written to it)."""

import django.db.models.deletion
from django.db import migrations, models

_HOLE, _ENDING = "game: hole", "game: end or resume"


def _into_the_one_store(apps, schema_editor):
    new = apps.get_model("scoring", "IdempotentRequest")._meta.db_table
    old = apps.get_model("scoring", "IdempotencyKey")._meta.db_table
    recorded = "(hole_id IS NOT NULL OR hole_number IS NOT NULL)"
    schema_editor.execute(
        f"INSERT INTO {new} (scope, key, method, route, request_hash, about, status, body, headers, "
        "created_at, game_id, hole_id, hole_number) "
        f"SELECT 'game:' || game_id, key, 'POST', CASE WHEN {recorded} THEN %s ELSE %s END, request_hash, "
        f"'', CASE WHEN {recorded} THEN 201 ELSE 200 END, '', '{{}}', created_at, game_id, hole_id, "
        f"hole_number FROM {old} ORDER BY id",
        [_HOLE, _ENDING],
    )


def _back_to_their_table(apps, schema_editor):
    new = apps.get_model("scoring", "IdempotentRequest")._meta.db_table
    old = apps.get_model("scoring", "IdempotencyKey")._meta.db_table
    schema_editor.execute(
        f"INSERT INTO {old} (game_id, key, request_hash, hole_id, hole_number, created_at) "
        f"SELECT game_id, key, request_hash, hole_id, hole_number, created_at FROM {new} "
        "WHERE game_id IS NOT NULL ORDER BY id"
    )
    schema_editor.execute(f"DELETE FROM {new} WHERE game_id IS NOT NULL")


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0011_idempotent_requests"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotentrequest",
            name="game",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="idempotent_requests",
                to="scoring.game",
                verbose_name="game",
            ),
        ),
        migrations.AddField(
            model_name="idempotentrequest",
            name="hole",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="scoring.hole",
                verbose_name="hole",
            ),
        ),
        migrations.AddField(
            model_name="idempotentrequest",
            name="hole_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="hole number"),
        ),
        migrations.AddIndex(
            model_name="idempotentrequest",
            index=models.Index(
                condition=models.Q(("game__isnull", False)), fields=["game"], name="idempotent_request_game"
            ),
        ),
        # The index of `about` keeps only the keys about something (a tournament's): a game's keys,
        # most rows, are not written to it.
        migrations.AlterField(
            model_name="idempotentrequest",
            name="about",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="about"),
        ),
        migrations.AddIndex(
            model_name="idempotentrequest",
            index=models.Index(
                condition=models.Q(("about", ""), _negated=True),
                fields=["about"],
                name="idempotent_request_about",
            ),
        ),
        migrations.RunPython(_into_the_one_store, _back_to_their_table),
        migrations.RemoveConstraint(
            model_name="idempotencykey",
            name="idempotency_unique_key",
        ),
        migrations.DeleteModel(
            name="IdempotencyKey",
        ),
    ]
