"""The event and registration this app's models point at are the events app's now (issue 50).
State only: the tables (drafts_event, drafts_registration) and their constraints are unchanged."""

import django.db.models.deletion
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0001_initial'),
        ('sealed', '0001_initial'),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.AlterField(
                    model_name='paperpool',
                    name='builder',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='received_pool', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='paperpool',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='paper_pools', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='paperpool',
                    name='registered_by',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='registered_pool', to='events.registration'),
                ),
                migrations.AlterField(
                    model_name='poolswap',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='pool_swap', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='sealedevent',
                    name='event',
                    field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='sealed', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='sealedpack',
                    name='event',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sealed_packs', to='events.event'),
                ),
                migrations.AlterField(
                    model_name='sealedpack',
                    name='registration',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sealed_packs', to='events.registration'),
                ),
            ],
        ),
    ]
