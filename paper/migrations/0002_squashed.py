"""The paper migrations 0001-0002 in one (``replaces``): what a new database applies.

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
    replaces = [("paper", "0001_called_paper_draft"), ("paper", "0002_events_app")]

    initial = True

    dependencies = [
        ("cards", "0005_squashed"),
        ("drafts", "0031_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="CalledPod",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("followers_allowed", models.BooleanField(default=False)),
                        (
                            "pod",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="call", to="drafts.pod"
                            ),
                        ),
                        (
                            "flight",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="pods",
                                to="paper.flight",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="CallJump",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("step", models.PositiveSmallIntegerField()),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("repeat_pick", "Repeat the pick"),
                                    ("skip_to_review", "Skip to the review"),
                                    ("restart_round", "Restart the round"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "called_pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="jumps", to="paper.calledpod"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["called_pod_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Flight",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("started_at", models.DateTimeField()),
                        ("created_at", models.DateTimeField()),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
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
                                related_name="paper_flights",
                                to="events.event",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "number"],
                        "constraints": [
                            models.UniqueConstraint(fields=("event", "number"), name="flight_unique_number")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="CallPause",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("started_at", models.DateTimeField()),
                        ("ended_at", models.DateTimeField(blank=True, null=True)),
                        ("reason", models.CharField(max_length=200)),
                        (
                            "called_pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pauses", to="paper.calledpod"
                            ),
                        ),
                        (
                            "paused_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "resumed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "flight",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="paper.flight",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["called_pod_id", "started_at", "pk"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("ended_at__isnull", True), ("flight__isnull", True)),
                                fields=("called_pod",),
                                name="callpause_one_open_per_pod",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("ended_at__isnull", True), ("flight__isnull", False)),
                                fields=("called_pod", "flight"),
                                name="callpause_one_open_per_flight",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("ended_at__isnull", True),
                                    ("ended_at__gte", models.F("started_at")),
                                    _connector="OR",
                                ),
                                name="callpause_ends_after_start",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="PostedDfc",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("count", models.PositiveSmallIntegerField(default=1)),
                        ("posted_at", models.DateTimeField()),
                        (
                            "called_pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="posted", to="paper.calledpod"
                            ),
                        ),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="cards.card"
                            ),
                        ),
                        (
                            "seat",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="drafts.seat"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["called_pod_id", "seat_id", "posted_at", "pk"],
                        "constraints": [
                            models.UniqueConstraint(fields=("seat", "card"), name="posteddfc_unique_seat_card")
                        ],
                    },
                ),
            ],
        ),
    ]
