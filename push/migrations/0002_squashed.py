"""The push migrations 0001-0002 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``). A database that applied all of 0001-0002 counts this one as applied; one
part of the way through goes on through them, which stay until every database is past them
(docs/development.md, "Migrations").
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import draftsite.migration_operations


class Migration(migrations.Migration):
    replaces = [("push", "0001_push_subscriptions"), ("push", "0002_events_app")]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Announcement",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("text", models.CharField(max_length=200)),
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
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="announcements",
                                to="events.event",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="PushSubscription",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("endpoint", models.URLField(max_length=2000, unique=True)),
                        ("p256dh", models.CharField(max_length=200)),
                        ("auth", models.CharField(max_length=100)),
                        ("created_at", models.DateTimeField()),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="push_subscriptions",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["user_id", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="EventPush",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("pairings", models.BooleanField(default=True)),
                        ("draft_start", models.BooleanField(default=True)),
                        ("pack_waiting", models.BooleanField(default=True)),
                        ("deck_deadline", models.BooleanField(default=True)),
                        ("judge", models.BooleanField(default=True)),
                        ("round_ending", models.BooleanField(default=True)),
                        ("updated_at", models.DateTimeField()),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pushes", to="events.event"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="event_pushes",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("user", "event"), name="eventpush_unique_user_event")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PushSent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=120)),
                        ("at", models.DateTimeField()),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("user", "key"), name="pushsent_unique_user_key")
                        ],
                    },
                ),
            ],
        ),
    ]
