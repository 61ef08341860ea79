"""Where a draft card is: the pack's ``card_ids`` or the seat's ``pile_ids`` (in order), no longer
the card row's ``pack``, ``seat`` and ``pile_position``. A pick then writes the pack and the
seat it already wrote, and no card row (docs/architecture.md, "Where a card is"). Existing
rows are carried over in both directions: a pack's cards by slot, a pile by its positions."""

import django.contrib.postgres.fields
from django.db import migrations, models

FILL_ARRAYS = [
    """UPDATE drafts_pack k SET card_ids = coalesce(
         (SELECT array_agg(c.id ORDER BY c.slot, c.id) FROM drafts_draftcard c WHERE c.pack_id = k.id), '{}')""",
    """UPDATE drafts_seat s SET pile_ids = coalesce(
         (SELECT array_agg(c.id ORDER BY c.pile_position, c.id) FROM drafts_draftcard c WHERE c.seat_id = s.id), '{}')""",
]

FILL_COLUMNS = [
    """UPDATE drafts_draftcard c SET pack_id = k.id
         FROM drafts_pack k WHERE c.id = ANY (k.card_ids)""",
    """UPDATE drafts_draftcard c SET seat_id = s.id, pile_position = u.n - 1
         FROM drafts_seat s CROSS JOIN LATERAL unnest(s.pile_ids) WITH ORDINALITY AS u(id, n)
        WHERE c.id = u.id""",
]


def array_field():
    return django.contrib.postgres.fields.ArrayField(
        base_field=models.BigIntegerField(), blank=True, default=list, size=None
    )


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0020_stored_functions"),
    ]

    # Backwards, in reverse: the columns come back empty, are filled from the arrays, and only
    # then is the in-pack-or-in-pile constraint added again.
    operations = [
        migrations.AddField(model_name="pack", name="card_ids", field=array_field()),
        migrations.AddField(model_name="seat", name="pile_ids", field=array_field()),
        migrations.RemoveConstraint(model_name="draftcard", name="draftcard_in_pack_xor_pile"),
        migrations.RunSQL(FILL_ARRAYS, reverse_sql=FILL_COLUMNS),
        migrations.RemoveIndex(model_name="draftcard", name="drafts_draf_pack_id_37f001_idx"),
        migrations.RemoveIndex(model_name="draftcard", name="drafts_draf_seat_id_487446_idx"),
        migrations.RemoveField(model_name="draftcard", name="pack"),
        migrations.RemoveField(model_name="draftcard", name="pile_position"),
        migrations.RemoveField(model_name="draftcard", name="seat"),
    ]
