"""judgecalls 0001-0002 in one (``replaces``), its models created with one render of the migration
state (``drafts.migration_operations.CreateModels``): what a new database applies (docs/development.md,
"Migrations")."""
import django.db.models.deletion
import drafts.migration_operations
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('judgecalls', '0001_judge_calls'),
        ('judgecalls', '0002_judgecall_pool_attachments'),
    ]

    dependencies = [
        ('drafts', '0011_stored_functions'),
        ('drafts', '0025_event_sealed_formats'),
        ('matches', '0002_match_log_action_choices'),
        ('penalties', '0004_appeal_decision_choices'),
        ('penalties', '0005_audit_action_judge_call'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        drafts.migration_operations.CreateModels(
            operations=[migrations.CreateModel(
                name='JudgeCall',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('reason', models.CharField(blank=True, max_length=200)),
                    ('status', models.CharField(choices=[('open', 'Waiting for a judge'), ('claimed', 'A judge is coming'), ('escalated', 'Escalated to the head judge'), ('resolved', 'Resolved')], default='open', max_length=10)),
                    ('created_at', models.DateTimeField()),
                    ('claimed_at', models.DateTimeField(blank=True, null=True)),
                    ('escalated_at', models.DateTimeField(blank=True, null=True)),
                    ('resolved_at', models.DateTimeField(blank=True, null=True)),
                    ('outcome', models.CharField(blank=True, choices=[('ruling', 'Ruling given'), ('penalty', 'Penalty issued'), ('no_action', 'No action')], max_length=10)),
                    ('note', models.TextField(blank=True)),
                    ('attachments', models.JSONField(blank=True, default=list)),
                    ('caller', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judge_calls', to='drafts.registration')),
                    ('claimed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('escalated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judge_calls', to='drafts.event')),
                    ('match', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.match')),
                    ('penalty', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='judge_calls', to='penalties.penalty')),
                    ('resolved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ('seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='drafts.seat')),
                ],
                options={
                    'ordering': ['created_at', 'pk'],
                    'indexes': [models.Index(fields=['event', 'status'], name='judgecalls__event_i_e67458_idx')],
                    'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'resolved'), _negated=True), fields=('caller',), name='judgecall_one_open_per_player'), models.CheckConstraint(condition=models.Q(('match__isnull', False), ('seat__isnull', False), models.Q(('attachments', []), _negated=True), _connector='OR'), name='judgecall_has_a_place')],
                },
            )],
        ),
    ]
