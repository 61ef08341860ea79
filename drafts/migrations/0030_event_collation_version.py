"""Events pin their collation version: every event already made opens its packs with version 1
(MTGJSON ``balanceColors`` ignored, as when it was created), new ones with version 2."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0029_pods_due_partial_indexes"),
    ]

    operations = [
        # The default of the column as added fills the existing rows: version 1.
        migrations.AddField(
            model_name="event",
            name="collation_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="event",
            name="collation_version",
            field=models.PositiveSmallIntegerField(db_default=2, default=2),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(collation_version__in=(1, 2)), name="event_collation_version_known"
            ),
        ),
    ]
