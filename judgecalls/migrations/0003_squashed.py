"""The judgecalls migrations 0001-0003 in one (``replaces``): what a new database applies.

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
        ("judgecalls", "0001_judge_calls"),
        ("judgecalls", "0002_judgecall_pool_attachments"),
        ("judgecalls", "0003_events_app"),
    ]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        ("matches", "0004_squashed"),
        ("penalties", "0006_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="JudgeCall",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("reason", models.CharField(blank=True, max_length=200)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("open", "Waiting for a judge"),
                                    ("claimed", "A judge is coming"),
                                    ("escalated", "Escalated to the head judge"),
                                    ("resolved", "Resolved"),
                                ],
                                default="open",
                                max_length=10,
                            ),
                        ),
                        ("created_at", models.DateTimeField()),
                        ("claimed_at", models.DateTimeField(blank=True, null=True)),
                        ("escalated_at", models.DateTimeField(blank=True, null=True)),
                        ("resolved_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "outcome",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("ruling", "Ruling given"),
                                    ("penalty", "Penalty issued"),
                                    ("no_action", "No action"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("note", models.TextField(blank=True)),
                        ("attachments", models.JSONField(blank=True, default=list)),
                        (
                            "caller",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="judge_calls",
                                to="events.registration",
                            ),
                        ),
                        (
                            "claimed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "escalated_by",
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
                                related_name="judge_calls",
                                to="events.event",
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="matches.match",
                            ),
                        ),
                        (
                            "penalty",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="judge_calls",
                                to="penalties.penalty",
                            ),
                        ),
                        (
                            "resolved_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "seat",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="drafts.seat",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["created_at", "pk"],
                        "indexes": [models.Index(fields=["event", "status"], name="judgecalls__event_i_e67458_idx")],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "resolved"), _negated=True),
                                fields=("caller",),
                                name="judgecall_one_open_per_player",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(
                                    ("match__isnull", False),
                                    ("seat__isnull", False),
                                    models.Q(("attachments", []), _negated=True),
                                    _connector="OR",
                                ),
                                name="judgecall_has_a_place",
                            ),
                        ],
                    },
                )
            ],
        ),
    ]
