"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0001_initial'),
        ('events', '0001_initial'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='deck',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='decks', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='deck',
                    name='registration',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='deck', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='deckcheck',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deck_checks', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='deckcheckselection',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deck_check_selections', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='deckrules',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='deck_rules', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='sealedpool',
                    name='registration',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='sealed_pool', to='events.registration'),
                ),
            ],
        ),
    ]
