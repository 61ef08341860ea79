"""The sealed migrations 0001-0002 in one (``replaces``): what a new database applies.

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
    replaces = [("sealed", "0001_initial"), ("sealed", "0002_events_app")]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        ("judgecalls", "0003_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="PoolSwap",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("seed", models.BigIntegerField()),
                        ("assignments", models.JSONField(default=list)),
                        ("at", models.DateTimeField()),
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
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pool_swap", to="events.event"
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="SealedEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("boosters", models.JSONField(default=list)),
                        ("paper", models.BooleanField(default=False)),
                        ("seed", models.BigIntegerField()),
                        ("opened_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="sealed", to="events.event"
                            ),
                        ),
                        (
                            "opened_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="PaperPool",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("cards", models.JSONField(default=list)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("registered", "Registered"),
                                    ("assigned", "Handed to a builder"),
                                    ("confirmed", "Confirmed by its builder"),
                                    ("disputed", "Disputed: a judge is called"),
                                    ("unassigned", "Back with the organiser"),
                                ],
                                default="registered",
                                max_length=12,
                            ),
                        ),
                        ("updated_at", models.DateTimeField()),
                        (
                            "builder",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="received_pool",
                                to="events.registration",
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="paper_pools",
                                to="events.event",
                            ),
                        ),
                        (
                            "judge_call",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="judgecalls.judgecall",
                            ),
                        ),
                        (
                            "registered_by",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registered_pool",
                                to="events.registration",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "registered_by__name"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("builder", models.F("registered_by")), _negated=True),
                                name="paperpool_not_own",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="SealedPack",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("set_code", models.CharField(max_length=10)),
                        ("kind", models.CharField(blank=True, max_length=20)),
                        ("cards", models.JSONField(default=list)),
                        ("removed", models.JSONField(blank=True, default=list)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="sealed_packs",
                                to="events.event",
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="sealed_packs",
                                to="events.registration",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["registration_id", "number"],
                        "constraints": [
                            models.UniqueConstraint(fields=("registration", "number"), name="sealedpack_unique_number")
                        ],
                    },
                ),
            ],
        ),
    ]
