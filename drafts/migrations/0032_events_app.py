"""The events platform left the draft engine for the events app (issue 50): the draft engine's
event models leave its state, and its pods and seats point at events' models. State only: the
tables keep their names (db_table) and their rows; the other apps' links moved first."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_events_app'),
        ('decks', '0002_events_app'),
        ('drafts', '0031_pick_live_answers_what_it_wrote'),
        ('events', '0001_initial'),
        ('judgecalls', '0003_events_app'),
        ('matches', '0004_events_app'),
        ('paper', '0002_events_app'),
        ('penalties', '0006_events_app'),
        ('push', '0002_events_app'),
        ('sealed', '0002_events_app'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.RemoveField(
                    model_name='eventlogentry',
                    name='event',
                ),
                migrations.AlterField(
                    model_name='pod',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pods', to='events.event'),
                ),
                migrations.RemoveField(
                    model_name='registration',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='staffinvitation',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='eventstaff',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='eventlogentry',
                    name='actor',
                ),
                migrations.RemoveField(
                    model_name='eventstaff',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='registration',
                    name='user',
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='registration',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='events.registration'),
                ),
                migrations.RemoveField(
                    model_name='staffinvitation',
                    name='accepted_by',
                ),
                migrations.RemoveField(
                    model_name='staffinvitation',
                    name='created_by',
                ),
                migrations.DeleteModel(
                    name='Event',
                ),
                migrations.DeleteModel(
                    name='EventLogEntry',
                ),
                migrations.DeleteModel(
                    name='EventStaff',
                ),
                migrations.DeleteModel(
                    name='Registration',
                ),
                migrations.DeleteModel(
                    name='StaffInvitation',
                ),
            ],
        ),
    ]
