"""The packs' queue index holds only the packs in a queue (holder set).

A site keeps every finished event's packs, all with no holder. With the full (holder, queue_seq)
index, statistics that found almost every holder null made the planner answer a pod's
"holder_id IS NOT NULL" through it, reading every live pack of the site to find one pod's, in
the pick and in the pod's document: 12 times the buffers per pick on a database holding 20
finished 1,000-player events (bench/pick_function --history 20 --rows). The stored functions
(0025) now read a pod's packs through pack_unique_opener and keep the live ones; this index,
partial, serves the seats' queues and the site's due clocks, and no longer grows with history.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0025_event_sealed_formats"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="pack",
            name="drafts_pack_holder__50f6e3_idx",
        ),
        migrations.AddIndex(
            model_name="pack",
            index=models.Index(
                condition=models.Q(("holder__isnull", False)), fields=["holder", "queue_seq"], name="pack_queue"
            ),
        ),
    ]
