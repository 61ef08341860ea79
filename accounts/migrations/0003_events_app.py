"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_check_in'),
        ('events', '0001_initial'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='checkin',
                    name='registration',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='check_in', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='eventcheckin',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='check_in', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='joinlink',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='join_link', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='waitlistentry',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='waitlist', to='events.event'),
                ),
            ],
        ),
    ]
