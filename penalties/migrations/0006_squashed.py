"""The penalties migrations 0001-0006 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``); the infraction catalogue (0002) and the audit trigger (0003), as SQL. A
database that applied all of 0001-0006 counts this one as applied; one part of the way through
goes on through them, which stay until every database is past them (docs/development.md,
"Migrations").
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import draftsite.migration_operations

_CATALOGUE = importlib.import_module("penalties.migrations.0002_infraction_catalogue")
_AUDIT = importlib.import_module("penalties.migrations.0003_audit_trigger")

# 0002's infraction catalogue as rows, and 0003's audit trigger: SQL, since a RunPython renders
# every model's state again. The way back drops the table, rows and all.
SEED = [
    (
        "INSERT INTO penalties_infraction (code, section, category, name, summary, default_regular,"
        " default_competitive, default_professional, upgrade_at, active)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, true)",
        [code, section, category, name, summary, regular, competitive, professional, upgrade_at],
    )
    for code, section, category, name, (regular, competitive, professional), upgrade_at, summary in _CATALOGUE.CATALOGUE
]


class Migration(migrations.Migration):
    replaces = [
        ("penalties", "0001_penalties"),
        ("penalties", "0002_infraction_catalogue"),
        ("penalties", "0003_audit_trigger"),
        ("penalties", "0004_appeal_decision_choices"),
        ("penalties", "0005_audit_action_judge_call"),
        ("penalties", "0006_events_app"),
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
                    name="Infraction",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("code", models.SlugField(max_length=60, unique=True)),
                        ("section", models.CharField(help_text='IPG section, e.g. "3.1".', max_length=10)),
                        (
                            "category",
                            models.CharField(
                                choices=[
                                    ("game_play_error", "Game Play Error"),
                                    ("tournament_error", "Tournament Error"),
                                    ("unsporting_conduct", "Unsporting Conduct"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("summary", models.TextField(blank=True, help_text="Our own one-line summary, for judges.")),
                        (
                            "default_regular",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "default_competitive",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "default_professional",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("upgrade_at", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("active", models.BooleanField(default=True)),
                    ],
                    options={
                        "ordering": ["section", "code"],
                    },
                ),
                migrations.CreateModel(
                    name="Penalty",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("match_round", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("draft_round", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("pick_number", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("description", models.TextField(help_text="What happened.")),
                        ("fix", models.TextField(blank=True, help_text="The fix applied.")),
                        ("source", models.CharField(blank=True, db_index=True, max_length=60)),
                        ("enforcement_level", models.CharField(max_length=12)),
                        (
                            "default_penalty",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "expected_penalty",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "issued_penalty",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "penalty",
                            models.CharField(
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("upgrade_reason", models.TextField(blank=True)),
                        ("deviation_reason", models.TextField(blank=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending_review", "Awaiting the head judge"),
                                    ("final", "Final"),
                                    ("withdrawn", "Withdrawn"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("judge_statement", models.TextField(blank=True)),
                        ("player_statement", models.TextField(blank=True)),
                        ("head_judge_statement", models.TextField(blank=True)),
                        ("issued_at", models.DateTimeField()),
                        ("reviewed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, related_name="penalties", to="events.event"
                            ),
                        ),
                        (
                            "infraction",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="penalties",
                                to="penalties.infraction",
                            ),
                        ),
                        (
                            "issued_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="issued_penalties",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="drafts.pod",
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="penalties",
                                to="events.registration",
                            ),
                        ),
                        (
                            "reviewed_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="reviewed_penalties",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "penalties",
                        "ordering": ["-issued_at", "-pk"],
                        "indexes": [
                            models.Index(fields=["event", "status"], name="penalties_p_event_i_753588_idx"),
                            models.Index(fields=["registration", "infraction"], name="penalties_p_registr_b8e9ba_idx"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Appeal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("statement", models.TextField()),
                        ("submitted_at", models.DateTimeField()),
                        (
                            "status",
                            models.CharField(
                                choices=[("pending", "Awaiting the head judge"), ("decided", "Decided")],
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        (
                            "decision",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("uphold", "Uphold"),
                                    ("upgrade", "Upgrade"),
                                    ("downgrade", "Downgrade"),
                                    ("withdraw", "Withdraw"),
                                ],
                                max_length=10,
                            ),
                        ),
                        ("reason", models.TextField(blank=True)),
                        ("decided_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "decided_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "submitted_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "penalty",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="appeal",
                                to="penalties.penalty",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-submitted_at"],
                    },
                ),
                migrations.CreateModel(
                    name="ReviewQueueItem",
                    fields=[],
                    options={
                        "verbose_name": "penalty awaiting review",
                        "verbose_name_plural": "review queue",
                        "proxy": True,
                        "indexes": [],
                        "constraints": [],
                    },
                    bases=("penalties.penalty",),
                ),
                migrations.CreateModel(
                    name="PenaltyAudit",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("issued", "Issued"),
                                    ("auto_upgraded", "Upgraded automatically (repeat)"),
                                    ("uphold", "Upheld"),
                                    ("upgrade", "Upgraded"),
                                    ("downgrade", "Downgraded"),
                                    ("withdraw", "Withdrawn"),
                                    ("appealed", "Appealed"),
                                    ("appeal_decided", "Appeal decided"),
                                    ("statement", "Statement added"),
                                    ("judge_call", "Linked to a judge call"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "from_penalty",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "to_penalty",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("no_penalty", "No penalty (fix only)"),
                                    ("warning", "Warning"),
                                    ("game_loss", "Game Loss"),
                                    ("match_loss", "Match Loss"),
                                    ("disqualification", "Disqualification"),
                                ],
                                max_length=20,
                            ),
                        ),
                        (
                            "from_status",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("pending_review", "Awaiting the head judge"),
                                    ("final", "Final"),
                                    ("withdrawn", "Withdrawn"),
                                ],
                                max_length=16,
                            ),
                        ),
                        (
                            "to_status",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("pending_review", "Awaiting the head judge"),
                                    ("final", "Final"),
                                    ("withdrawn", "Withdrawn"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("reason", models.TextField(blank=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "penalty",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="history",
                                to="penalties.penalty",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["at", "pk"],
                        "base_manager_name": "objects",
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("action", ""), _negated=True), name="penaltyaudit_action_set"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="DismissedSource",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("source", models.CharField(max_length=60)),
                        ("reason", models.TextField()),
                        ("dismissed_at", models.DateTimeField()),
                        (
                            "dismissed_by",
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
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="events.event"
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("event", "source"), name="dismissed_unique_source")
                        ],
                    },
                ),
            ],
        ),
        migrations.RunSQL(SEED, reverse_sql=migrations.RunSQL.noop),
        migrations.RunSQL(_AUDIT.CREATE, reverse_sql=_AUDIT.DROP),
    ]
