"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('judgecalls', '0002_judgecall_pool_attachments'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='judgecall',
                    name='caller',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judge_calls', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='judgecall',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judge_calls', to='events.event'),
                ),
            ],
        ),
    ]
