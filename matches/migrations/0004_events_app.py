"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('matches', '0003_report_idempotency_keys'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='drop',
                    name='registration',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='match_drop', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='eventmatchsettings',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='match_settings', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player_a',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='match',
                    name='player_b',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='matchlogentry',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_log', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='matchplayer',
                    name='registration',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='match_seats', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='reportkey',
                    name='registration',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='resultreport',
                    name='registration',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.RESTRICT, related_name='+', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='round',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_rounds', to='events.event'),
                ),
            ],
        ),
    ]
