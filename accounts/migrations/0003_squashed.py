"""The accounts migrations 0001-0003 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``). A database that applied all of 0001-0003 counts this one as applied; one
part of the way through goes on through them, which stay until every database is past them
(docs/development.md, "Migrations").
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import draftsite.migration_operations


class Migration(migrations.Migration):
    replaces = [
        ("accounts", "0001_profiles_join_links_waitlist"),
        ("accounts", "0002_check_in"),
        ("accounts", "0003_events_app"),
    ]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="CheckIn",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        (
                            "by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "registration",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="check_in",
                                to="events.registration",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="EventCheckIn",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("is_open", models.BooleanField(default=True)),
                        ("opened_at", models.DateTimeField()),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="check_in", to="events.event"
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="JoinLink",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("token", models.CharField(max_length=64, unique=True)),
                        ("is_open", models.BooleanField(default=True)),
                        ("capacity", models.PositiveIntegerField(blank=True, null=True)),
                        ("deadline", models.DateTimeField(blank=True, null=True)),
                        ("waitlist", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField()),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="join_link", to="events.event"
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="Profile",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("display_name", models.CharField(blank=True, max_length=100, verbose_name="Display name")),
                        ("language", models.CharField(blank=True, max_length=10, verbose_name="Preferred language")),
                        (
                            "email_pairings",
                            models.BooleanField(default=False, verbose_name="Email me when pairings are posted"),
                        ),
                        (
                            "email_round_start",
                            models.BooleanField(default=False, verbose_name="Email me when a round starts"),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="profile",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="WaitlistEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("created_at", models.DateTimeField()),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="waitlist", to="events.event"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="waitlist_entries",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "created_at", "pk"],
                        "constraints": [models.UniqueConstraint(fields=("event", "user"), name="waitlist_unique_user")],
                    },
                ),
            ],
        ),
    ]
