"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('penalties', '0005_audit_action_judge_call'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='dismissedsource',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='penalty',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='penalty',
                    name='registration',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='events.registration'),
                ),
            ],
        ),
    ]
