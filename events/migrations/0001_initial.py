"""The events app takes the draft engine's event models (issue 50): the event, its staff, their
invitations, its log and its registrations. State only: the tables keep their names (db_table:
drafts_event, ...) and their rows, and the stored functions of drafts/sql read them by name.
Their content types (and so their permissions and the admin's log) are renamed to the events
app rather than made anew; drafts 0032 takes them out of the draft engine's state."""

import django.db.models.deletion
from django.conf import settings
from draftsite.migration_operations import StateOnly
from django.db import migrations, models


MOVED = ("event", "eventstaff", "staffinvitation", "eventlogentry", "registration")


def rename_content_types(apps, schema_editor, source="drafts", target="events"):
    """The moved models' content types follow them (the rows keep their ids, so the permissions
    and admin log entries that point at them follow too)."""
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    for model in MOVED:
        if not content_types.filter(app_label=target, model=model).exists():
            content_types.filter(app_label=source, model=model).update(app_label=target)


def restore_content_types(apps, schema_editor):
    rename_content_types(apps, schema_editor, source="events", target="drafts")


class Migration(migrations.Migration):

    initial = True

    # The tables are the draft engine's (drafts 0002 and later made them): this migration moves
    # the models in the state only, so it needs none of them. It once also depended on every
    # app's migrations of before the move, to order a new database's migrations; a new database
    # now applies each app's squash instead, and those dependencies would make a cycle of them
    # (docs/development.md, "Migrations").
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        StateOnly(
            state_operations=[
                migrations.CreateModel(
                    name='Event',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200)),
                        ('date', models.DateField()),
                        ('enforcement_level', models.CharField(choices=[('regular', 'Regular'), ('competitive', 'Competitive'), ('professional', 'Professional')], default='regular', max_length=12)),
                        ('draft_format', models.CharField(choices=[('booster', 'Set booster draft'), ('cube', 'Cube draft'), ('paper', 'Paper booster draft'), ('sealed', 'Sealed'), ('paper_sealed', 'Paper sealed with pool registration')], default='booster', max_length=16)),
                        ('set_codes', models.JSONField(blank=True, default=list)),
                        ('booster_kinds', models.JSONField(blank=True, default=list)),
                        ('collation_version', models.PositiveSmallIntegerField(db_default=2, default=2)),
                        ('cube_card_ids', models.JSONField(blank=True, default=list)),
                        ('pack_size', models.PositiveSmallIntegerField(default=15)),
                        ('pick_timer', models.BooleanField(default=True)),
                        ('deck_building_minutes', models.PositiveSmallIntegerField(default=25)),
                        ('deck_format', models.CharField(choices=[('limited', 'Limited (draft or sealed)'), ('constructed', 'Constructed'), ('commander', 'Commander')], default='limited', max_length=12)),
                        ('decklist_deadline', models.DateTimeField(blank=True, null=True)),
                        ('decklists_published', models.BooleanField(default=False)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='created_events', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'drafts_event',
                        'ordering': ['-date', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='EventLogEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('at', models.DateTimeField()),
                        ('action', models.CharField(max_length=40)),
                        ('details', models.JSONField(blank=True, default=dict)),
                        ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='events.event')),
                    ],
                    options={
                        'db_table': 'drafts_eventlogentry',
                        'ordering': ['event_id', 'at', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='EventStaff',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('organiser', 'Organiser'), ('head_judge', 'Head judge'), ('judge', 'Judge')], max_length=12)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='staff', to='events.event')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='event_roles', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'drafts_eventstaff',
                    },
                ),
                migrations.CreateModel(
                    name='Registration',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('share_pick_data', models.BooleanField(default=False)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='registrations', to='events.event')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='registrations', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'drafts_registration',
                        'ordering': ['event_id', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='StaffInvitation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('organiser', 'Organiser'), ('head_judge', 'Head judge'), ('judge', 'Judge')], max_length=12)),
                        ('token', models.CharField(max_length=64, unique=True)),
                        ('created_at', models.DateTimeField()),
                        ('expires_at', models.DateTimeField()),
                        ('accepted_at', models.DateTimeField(blank=True, null=True)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('accepted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='staff_invitations', to='events.event')),
                    ],
                    options={
                        'db_table': 'drafts_staffinvitation',
                        'ordering': ['event_id', '-created_at', '-pk'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='event',
                    constraint=models.CheckConstraint(condition=models.Q(('collation_version__in', (1, 2))), name='event_collation_version_known'),
                ),
                migrations.AddConstraint(
                    model_name='eventstaff',
                    constraint=models.UniqueConstraint(fields=('event', 'user', 'role'), name='eventstaff_unique'),
                ),
                migrations.AddConstraint(
                    model_name='registration',
                    constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('event', 'user'), name='registration_unique_user'),
                ),
                migrations.AddConstraint(
                    model_name='registration',
                    constraint=models.UniqueConstraint(fields=('event', 'name'), name='registration_unique_name'),
                ),
            ],
        ),
        migrations.RunPython(rename_content_types, restore_content_types),
    ]
