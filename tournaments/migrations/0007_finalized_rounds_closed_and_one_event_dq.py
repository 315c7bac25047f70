"""Invariants held by the database (issue 20): one active event DQ per player, a table confirmed or
disputed (never both), a round finalized exactly with its time, and every table of a finalized
round confirmed or overridden with its reason (a PostgreSQL constraint trigger: it spans rows).

Rows written before these held are brought in line first, each change said in its own words."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import F, Q

DUPLICATE_DQ = "A second disqualification of a player already disqualified (rescinded by the upgrade)."
UNRECORDED_OVERRIDE = "Finalized unconfirmed before the reason was kept on the table (upgrade)."

CHECK_FUNCTION = """
CREATE OR REPLACE FUNCTION tournaments_finalized_round_closed() RETURNS trigger AS $$
DECLARE
    the_round bigint;
BEGIN
    IF TG_TABLE_NAME = 'tournaments_round' THEN
        the_round := NEW.id;
    ELSE
        the_round := NEW.round_id;
    END IF;
    IF EXISTS (
        SELECT 1 FROM tournaments_round r JOIN tournaments_table t ON t.round_id = r.id
        WHERE r.id = the_round AND r.status = 'finalized'
          AND NOT ((t.confirmed_at IS NOT NULL AND t.disputed_at IS NULL) OR t.override_reason <> '')
    ) THEN
        RAISE EXCEPTION 'Round % is finalized with a table neither confirmed nor overridden.', the_round
            USING ERRCODE = 'check_violation', CONSTRAINT = 'round_finalized_tables_closed';
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE CONSTRAINT TRIGGER round_finalized_tables_closed
    AFTER INSERT OR UPDATE ON tournaments_round DEFERRABLE INITIALLY IMMEDIATE
    FOR EACH ROW WHEN (NEW.status = 'finalized') EXECUTE FUNCTION tournaments_finalized_round_closed();
CREATE CONSTRAINT TRIGGER table_of_finalized_round_closed
    AFTER INSERT OR UPDATE ON tournaments_table DEFERRABLE INITIALLY IMMEDIATE
    FOR EACH ROW EXECUTE FUNCTION tournaments_finalized_round_closed();
"""

DROP_CHECK = """
DROP TRIGGER IF EXISTS table_of_finalized_round_closed ON tournaments_table;
DROP TRIGGER IF EXISTS round_finalized_tables_closed ON tournaments_round;
DROP FUNCTION IF EXISTS tournaments_finalized_round_closed();
"""


def bring_rows_in_line(apps, schema_editor):
    """Rows written before the invariants held: rescind a doubled DQ (the first stays), give a
    finalized round its time, keep a disputed table disputed, name an unrecorded override."""
    Penalty = apps.get_model("tournaments", "Penalty")
    Round = apps.get_model("tournaments", "Round")
    Table = apps.get_model("tournaments", "Table")
    EventLogEntry = apps.get_model("tournaments", "EventLogEntry")
    seen: set[int] = set()
    active = Penalty.objects.filter(step="event_dq", rescinded_at__isnull=True).order_by("created_at", "pk")
    for penalty in active:
        if penalty.entrant_id in seen:
            Penalty.objects.filter(pk=penalty.pk).update(
                rescinded_at=penalty.created_at, rescind_reason=DUPLICATE_DQ
            )
        seen.add(penalty.entrant_id)
    finalized = Round.objects.filter(status="finalized")
    finalized.filter(finalized_at__isnull=True).update(finalized_at=F("seated_at"))
    Round.objects.exclude(status="finalized").update(finalized_at=None)
    Table.objects.filter(confirmed_at__isnull=False, disputed_at__isnull=False).update(
        confirmed_at=None, confirmed_by=None
    )
    Table.objects.filter(confirmed_at__isnull=True).update(confirmed_by=None)
    open_tables = Table.objects.filter(round__status="finalized", override_reason="").filter(
        Q(confirmed_at__isnull=True) | Q(disputed_at__isnull=False)
    )
    for table in open_tables.select_related("round"):
        entry = (
            EventLogEntry.objects.filter(
                tournament_id=table.round.tournament_id,
                round_number=table.round.number,
                action="round_finalized_override",
            )
            .exclude(reason="")
            .order_by("-created_at")
            .first()
        )
        Table.objects.filter(pk=table.pk).update(
            override_reason=entry.reason if entry else UNRECORDED_OVERRIDE
        )


def add_check(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CHECK_FUNCTION, params=None)


def drop_check(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_CHECK, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_foundation_seams"),
        ("tournaments", "0006_round_version"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="override_reason",
            field=models.CharField(
                blank=True, default="", max_length=200, verbose_name="finalized unconfirmed because"
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="confirmed_game_version",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="confirmed version"),
        ),
        migrations.RunPython(bring_rows_in_line, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="penalty",
            constraint=models.UniqueConstraint(
                condition=models.Q(("rescinded_at__isnull", True), ("step", "event_dq")),
                fields=("entrant",),
                name="penalty_one_active_event_dq",
                violation_error_message="This player is already disqualified from the tournament.",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("finalized_at__isnull", False), ("status", "finalized")),
                    models.Q(
                        models.Q(("status", "finalized"), _negated=True), ("finalized_at__isnull", True)
                    ),
                    _connector="OR",
                ),
                name="round_finalized_with_its_time",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("confirmed_at__isnull", False), ("disputed_at__isnull", False), _negated=True
                ),
                name="table_confirmed_or_disputed_not_both",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("confirmed_by__isnull", True), ("confirmed_at__isnull", False), _connector="OR"
                ),
                name="table_confirmer_with_its_time",
            ),
        ),
        migrations.RunPython(add_check, drop_check),
    ]
