"""Beat's sweep finds the pods whose review or deck building is over through partial indexes.

drafts.tasks.sweep_due_pods asks every second; without an index it read every pod the site ever
had (2,500 pods, 39 blocks, at 20 finished 1,000-player events), and a site keeps them all
(issue 48). Partial: each holds only the pods in that state, a handful at any time.
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('drafts', '0028_engine_controls'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='pod',
            index=models.Index(condition=models.Q(('state', 'reviewing')), fields=['review_deadline'], name='pod_review_due'),
        ),
        migrations.AddIndex(
            model_name='pod',
            index=models.Index(condition=models.Q(('state', 'deck_building')), fields=['deck_building_deadline'], name='pod_building_due'),
        ),
    ]
