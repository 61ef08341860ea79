"""The matches migrations 0001-0004 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``). A database that applied all of 0001-0004 counts this one as applied; one
part of the way through goes on through them, which stay until every database is past them
(docs/development.md, "Migrations").
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import draftsite.migration_operations


class Migration(migrations.Migration):
    replaces = [
        ("matches", "0001_rounds_matches_results"),
        ("matches", "0002_match_log_action_choices"),
        ("matches", "0003_report_idempotency_keys"),
        ("matches", "0004_events_app"),
    ]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        ("penalties", "0006_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Drop",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("after_round", models.PositiveSmallIntegerField()),
                        ("reason", models.CharField(blank=True, max_length=200)),
                        ("at", models.DateTimeField()),
                        (
                            "by",
                            models.ForeignKey(
                                blank=True,
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
                                related_name="match_drop",
                                to="events.registration",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="EventMatchSettings",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "mode",
                            models.CharField(
                                choices=[
                                    ("per_pod", "Per pod (each pod plays its own rounds)"),
                                    ("event", "Across the event (Swiss over every player)"),
                                ],
                                default="per_pod",
                                max_length=10,
                            ),
                        ),
                        ("swiss_rounds", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("round_minutes", models.PositiveSmallIntegerField(default=50)),
                        (
                            "playoff_size",
                            models.PositiveSmallIntegerField(
                                choices=[(0, "No playoff"), (4, "Top 4"), (8, "Top 8")], default=0
                            ),
                        ),
                        ("seed", models.BigIntegerField()),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="match_settings",
                                to="events.event",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "event match settings",
                        "verbose_name_plural": "event match settings",
                    },
                ),
                migrations.CreateModel(
                    name="Match",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("table", models.PositiveSmallIntegerField()),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Not reported"),
                                    ("reported", "Reported, awaiting the opponent"),
                                    ("disputed", "Disputed: reports differ"),
                                    ("confirmed", "Confirmed"),
                                ],
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        ("a_wins", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("b_wins", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("draws", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("result_at", models.DateTimeField(blank=True, null=True)),
                        ("extension_minutes", models.PositiveSmallIntegerField(default=0)),
                        (
                            "player_a",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.RESTRICT, related_name="+", to="events.registration"
                            ),
                        ),
                        (
                            "player_b",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.RESTRICT,
                                related_name="+",
                                to="events.registration",
                            ),
                        ),
                        (
                            "result_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="matches", to="matches.round"
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "matches",
                        "ordering": ["round_id", "table"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("table__gt", 0)),
                                fields=("round", "table"),
                                name="match_unique_table",
                            ),
                            models.CheckConstraint(
                                condition=models.Q(("player_a", models.F("player_b")), _negated=True),
                                name="match_two_players",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="MatchPenalty",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="penalty_links",
                                to="matches.match",
                            ),
                        ),
                        (
                            "penalty",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="match_link",
                                to="penalties.penalty",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="ReportKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=64, unique=True)),
                        ("at", models.DateTimeField()),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="matches.match"
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="events.registration"
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="Round",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        (
                            "kind",
                            models.CharField(
                                choices=[("swiss", "Swiss"), ("playoff", "Playoff")], default="swiss", max_length=8
                            ),
                        ),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("paired", "Paired (not started)"),
                                    ("running", "Running"),
                                    ("finished", "Finished"),
                                ],
                                default="paired",
                                max_length=10,
                            ),
                        ),
                        ("seed", models.CharField(max_length=80)),
                        ("minutes", models.PositiveSmallIntegerField(default=50)),
                        ("paired_at", models.DateTimeField()),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("ends_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("rematches", models.PositiveSmallIntegerField(default=0)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="match_rounds",
                                to="events.event",
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="match_rounds",
                                to="drafts.pod",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "pod_id", "number"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("pod__isnull", False)),
                                fields=("pod", "number"),
                                name="round_unique_pod_number",
                            ),
                            models.UniqueConstraint(
                                condition=models.Q(("pod__isnull", True)),
                                fields=("event", "number"),
                                name="round_unique_event_number",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="MatchPlayer",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="matches.match"
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.RESTRICT,
                                related_name="match_seats",
                                to="events.registration",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="matches.round"
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("round", "registration"), name="matchplayer_once_per_round")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="MatchLogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("settings", "Settings changed"),
                                    ("paired", "Round paired"),
                                    ("repaired", "Pairings repaired"),
                                    ("started", "Round started"),
                                    ("finished", "Round closed"),
                                    ("extension", "Time extension"),
                                    ("reported", "Result reported"),
                                    ("confirmed", "Result confirmed"),
                                    ("disputed", "Reports differ"),
                                    ("entered", "Result entered"),
                                    ("corrected", "Result corrected"),
                                    ("dropped", "Player dropped"),
                                    ("penalty", "Penalty applied to the match"),
                                ],
                                max_length=40,
                            ),
                        ),
                        ("details", models.JSONField(blank=True, default=dict)),
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
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="match_log", to="events.event"
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="log",
                                to="matches.match",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="log",
                                to="matches.round",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="ResultReport",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("a_wins", models.PositiveSmallIntegerField()),
                        ("b_wins", models.PositiveSmallIntegerField()),
                        ("draws", models.PositiveSmallIntegerField(default=0)),
                        ("at", models.DateTimeField()),
                        (
                            "match",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="reports", to="matches.match"
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.RESTRICT, related_name="+", to="events.registration"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["match_id", "at", "pk"],
                        "constraints": [
                            models.UniqueConstraint(fields=("match", "registration"), name="report_once_per_player")
                        ],
                    },
                ),
            ],
        ),
    ]
