"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('push', '0001_push_subscriptions'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='announcement',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='announcements', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='eventpush',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pushes', to='events.event'),
                ),
            ],
        ),
    ]
