"""Drop the single-column indexes that a composite index leading with the same column makes
redundant: each is one more index entry written by every pick (bench/pick_function).

Django's AlterField would also drop and re-add the foreign keys, checking every row under a
lock; only the indexes go here.
"""

import django.db.models.deletion
from django.db import migrations, models

# (table, index): the names Django gave them (deterministic) and the column each covers.
REDUNDANT = (
    ("drafts_draftcard", "drafts_draftcard_pack_id_1f7dbcf3", "pack_id"),  # (pack_id, slot)
    ("drafts_draftcard", "drafts_draftcard_seat_id_42f5f81f", "seat_id"),  # (seat_id, pile_position)
    ("drafts_draftcard", "drafts_draftcard_pod_id_642886f1", "pod_id"),  # (pod_id, is_dfc)
    ("drafts_pack", "drafts_pack_holder_id_380db5db", "holder_id"),  # (holder_id, queue_seq)
    ("drafts_pack", "drafts_pack_pod_id_b676790e", "pod_id"),  # pack_unique_opener (pod_id, round, opener_id)
    ("drafts_pick", "drafts_pick_pack_id_0aa44d5c", "pack_id"),  # pick_unique_pack_number (pack_id, pick_number)
    ("drafts_pick", "drafts_pick_seat_id_c9e9b540", "seat_id"),  # pick_unique_seat_round_number (seat_id, ...)
)


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0016_stored_functions"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    reverse_sql=f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("{column}")',
                )
                for table, index, column in REDUNDANT
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="draftcard",
                    name="pack",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="cards",
                        to="drafts.pack",
                    ),
                ),
                migrations.AlterField(
                    model_name="draftcard",
                    name="pod",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="cards",
                        to="drafts.pod",
                    ),
                ),
                migrations.AlterField(
                    model_name="draftcard",
                    name="seat",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pile",
                        to="drafts.seat",
                    ),
                ),
                migrations.AlterField(
                    model_name="pack",
                    name="holder",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="held_packs",
                        to="drafts.seat",
                    ),
                ),
                migrations.AlterField(
                    model_name="pack",
                    name="pod",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="packs",
                        to="drafts.pod",
                    ),
                ),
                migrations.AlterField(
                    model_name="pick",
                    name="pack",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="picks",
                        to="drafts.pack",
                    ),
                ),
                migrations.AlterField(
                    model_name="pick",
                    name="seat",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="picks",
                        to="drafts.seat",
                    ),
                ),
            ],
        ),
    ]
