"""The decks migrations 0001-0002 in one (``replaces``): what a new database applies.

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
    replaces = [("decks", "0001_initial"), ("decks", "0002_events_app")]

    initial = True

    dependencies = [
        ("drafts", "0031_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Deck",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("format", models.CharField(max_length=12)),
                        ("main", models.JSONField(default=list)),
                        ("sideboard", models.JSONField(default=list)),
                        ("commander", models.JSONField(default=list)),
                        ("opaque_sleeves", models.BooleanField(default=False)),
                        ("checklist_cards", models.JSONField(default=list)),
                        ("source_format", models.CharField(blank=True, max_length=12)),
                        ("valid", models.BooleanField(default=False)),
                        ("check_errors", models.JSONField(default=list)),
                        ("check_warnings", models.JSONField(default=list)),
                        ("summary", models.JSONField(default=dict)),
                        ("checked_at", models.DateTimeField(blank=True, null=True)),
                        ("submitted_at", models.DateTimeField()),
                        ("updated_at", models.DateTimeField()),
                        ("version", models.PositiveIntegerField(default=1)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="decks", to="events.event"
                            ),
                        ),
                        (
                            "registration",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deck",
                                to="events.registration",
                            ),
                        ),
                        (
                            "updated_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "registration__name"],
                        "indexes": [models.Index(fields=["event", "valid"], name="decks_deck_event_i_e8c50b_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="DeckCheckSelection",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "method",
                            models.CharField(
                                choices=[
                                    ("random", "Random share of the decks (stored seed)"),
                                    ("chosen", "Chosen by the judge"),
                                ],
                                max_length=8,
                            ),
                        ),
                        ("seed", models.BigIntegerField(blank=True, null=True)),
                        ("percent", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("registration_ids", models.JSONField(default=list)),
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
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deck_check_selections",
                                to="events.event",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "-created_at", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="DeckCheck",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("deck_version", models.PositiveIntegerField()),
                        ("matches", models.BooleanField()),
                        ("findings", models.JSONField(default=list)),
                        ("notes", models.TextField(blank=True)),
                        (
                            "deck",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="checks", to="decks.deck"
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deck_checks",
                                to="events.event",
                            ),
                        ),
                        (
                            "judge",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "selection",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="checks",
                                to="decks.deckcheckselection",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "-at", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="DeckCorrection",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("reason", models.TextField()),
                        ("changes", models.JSONField(default=dict)),
                        ("before", models.JSONField(default=dict)),
                        ("after", models.JSONField(default=dict)),
                        ("valid_before", models.BooleanField(default=False)),
                        ("valid_after", models.BooleanField(default=False)),
                        (
                            "deck",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="corrections", to="decks.deck"
                            ),
                        ),
                        (
                            "judge",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["deck_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="DeckRules",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "checklist_policy",
                            models.CharField(
                                choices=[
                                    ("deck", "All or none across the deck (Innistrad rule, R12)"),
                                    ("per_name", "All copies of the same card alike (MTR 3.5)"),
                                ],
                                default="deck",
                                max_length=10,
                            ),
                        ),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="deck_rules",
                                to="events.event",
                            ),
                        ),
                    ],
                ),
                migrations.CreateModel(
                    name="SealedPool",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("cards", models.JSONField(default=list)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "entered_by",
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
                                related_name="sealed_pool",
                                to="events.registration",
                            ),
                        ),
                    ],
                ),
            ],
        ),
    ]
