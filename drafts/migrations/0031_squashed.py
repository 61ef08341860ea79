"""The drafts migrations 0001-0031 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``); the role groups (0001), the stored functions as 0031 left them and the draft
card's ``document_entry`` with its trigger (0019). It stops before 0032, the events move, which
a new database applies after the other apps' squashes, as every database did. A database that
applied all of 0001-0031 counts this one as applied; one part of the way through goes on through
them, which stay until every database is past them (docs/development.md, "Migrations").
"""

import hashlib
import importlib

import django.contrib.postgres.fields
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import drafts.log_actions
import draftsite.migration_operations

# 0001: the role groups.
ROLE_GROUPS = importlib.import_module("drafts.migrations.0001_roles").ROLE_GROUPS
GROUPS = [
    "INSERT INTO auth_group (name) VALUES "
    + ", ".join(f"('{name}')" for name in ROLE_GROUPS)
    + " ON CONFLICT (name) DO NOTHING"
]
NO_GROUPS = ["DELETE FROM auth_group WHERE name IN (" + ", ".join(f"'{name}'" for name in ROLE_GROUPS) + ")"]

# The functions as 0031 left them: 0027 embeds every function, 0028 and 0031 those they change
# (None: dropped), each in creation order. Read from those files, which stay while this squash
# replaces them (with ``replaces``, copy their text here before they go). Each is created as it
# is, with the digest of its SQL in its comment (``drafts.sql.comment``); the way back drops them.
SQL_FUNCTIONS: dict[str, str] = {}
for _name in ("0027_stored_functions", "0028_engine_controls", "0031_pick_live_answers_what_it_wrote"):
    for _function, _text in importlib.import_module(f"drafts.migrations.{_name}").SQL_FUNCTIONS.items():
        if _text is None:
            SQL_FUNCTIONS.pop(_function, None)
        else:
            SQL_FUNCTIONS[_function] = _text

FUNCTIONS = [
    *SQL_FUNCTIONS.values(),
    *(
        f"COMMENT ON FUNCTION {name} IS 'drafts/sql/{name}.sql sha256:{hashlib.sha256(text.encode()).hexdigest()}'"
        for name, text in SQL_FUNCTIONS.items()
    ),
]
NO_FUNCTIONS = [f"DROP FUNCTION {name}" for name in reversed(SQL_FUNCTIONS)]

# 0019: each draft card's entry in its pod's document, kept by the trigger (no rows to fill yet).
DOCUMENT_ENTRY = [
    "ALTER TABLE drafts_draftcard ADD COLUMN document_entry json NOT NULL",
    """CREATE TRIGGER drafts_draftcard_entry BEFORE INSERT OR UPDATE OF id, card_id, printing_id, rarity, foil, is_dfc
        ON drafts_draftcard FOR EACH ROW EXECUTE FUNCTION drafts_draftcard_entry()""",
]
NO_DOCUMENT_ENTRY = [
    "DROP TRIGGER drafts_draftcard_entry ON drafts_draftcard",
    "ALTER TABLE drafts_draftcard DROP COLUMN document_entry",
]


class Migration(migrations.Migration):
    replaces = [
        ("drafts", "0001_roles"),
        ("drafts", "0002_events_pods"),
        ("drafts", "0003_event_deck_format"),
        ("drafts", "0004_event_draft_format_paper"),
        ("drafts", "0005_staff_invitations_event_log"),
        ("drafts", "0006_pick_function"),
        ("drafts", "0007_pick_function_indexed"),
        ("drafts", "0008_pod_log_actions"),
        ("drafts", "0009_seat_queue_plpgsql"),
        ("drafts", "0010_settle_function"),
        ("drafts", "0011_stored_functions"),
        ("drafts", "0012_pick_data_opt_in_and_public_logs"),
        ("drafts", "0013_settling_in_the_database"),
        ("drafts", "0014_stored_functions"),
        ("drafts", "0015_pod_log_actions_of_other_apps"),
        ("drafts", "0016_stored_functions"),
        ("drafts", "0017_fewer_indexes_on_the_pick_path"),
        ("drafts", "0018_stored_functions"),
        ("drafts", "0019_draftcard_document_entry"),
        ("drafts", "0020_stored_functions"),
        ("drafts", "0021_cards_in_arrays"),
        ("drafts", "0022_stored_functions"),
        ("drafts", "0023_stored_functions"),
        ("drafts", "0024_event_booster_kinds_draftcard_pack_slot"),
        ("drafts", "0025_event_sealed_formats"),
        ("drafts", "0026_queue_index_of_live_packs"),
        ("drafts", "0027_stored_functions"),
        ("drafts", "0028_engine_controls"),
        ("drafts", "0029_pods_due_partial_indexes"),
        ("drafts", "0030_event_collation_version"),
        ("drafts", "0031_pick_live_answers_what_it_wrote"),
    ]

    initial = True

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("cards", "0005_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Event",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=200)),
                        ("date", models.DateField()),
                        (
                            "enforcement_level",
                            models.CharField(
                                choices=[
                                    ("regular", "Regular"),
                                    ("competitive", "Competitive"),
                                    ("professional", "Professional"),
                                ],
                                default="regular",
                                max_length=12,
                            ),
                        ),
                        (
                            "draft_format",
                            models.CharField(
                                choices=[
                                    ("booster", "Set booster draft"),
                                    ("cube", "Cube draft"),
                                    ("paper", "Paper booster draft"),
                                    ("sealed", "Sealed"),
                                    ("paper_sealed", "Paper sealed with pool registration"),
                                ],
                                default="booster",
                                max_length=16,
                            ),
                        ),
                        ("set_codes", models.JSONField(blank=True, default=list)),
                        ("cube_card_ids", models.JSONField(blank=True, default=list)),
                        ("pack_size", models.PositiveSmallIntegerField(default=15)),
                        ("pick_timer", models.BooleanField(default=True)),
                        ("deck_building_minutes", models.PositiveSmallIntegerField(default=25)),
                        ("decklists_published", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "deck_format",
                            models.CharField(
                                choices=[
                                    ("limited", "Limited (draft or sealed)"),
                                    ("constructed", "Constructed"),
                                    ("commander", "Commander"),
                                ],
                                default="limited",
                                max_length=12,
                            ),
                        ),
                        ("decklist_deadline", models.DateTimeField(blank=True, null=True)),
                        ("booster_kinds", models.JSONField(blank=True, default=list)),
                        ("collation_version", models.PositiveSmallIntegerField(db_default=2, default=2)),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="created_events",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-date", "name"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("collation_version__in", (1, 2))),
                                name="event_collation_version_known",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="EventLogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("action", models.CharField(max_length=40)),
                        ("details", models.JSONField(blank=True, default=dict)),
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
                                on_delete=django.db.models.deletion.CASCADE, related_name="log", to="drafts.event"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="EventStaff",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[("organiser", "Organiser"), ("head_judge", "Head judge"), ("judge", "Judge")],
                                max_length=12,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="staff", to="drafts.event"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="event_roles",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("event", "user", "role"), name="eventstaff_unique")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Pod",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("seed", models.BigIntegerField()),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("not_started", "Not started"),
                                    ("drafting", "Drafting"),
                                    ("paused", "Paused"),
                                    ("reviewing", "Reviewing between rounds"),
                                    ("deck_building", "Deck building"),
                                    ("done", "Done"),
                                ],
                                default="not_started",
                                max_length=16,
                            ),
                        ),
                        (
                            "paused_from",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("not_started", "Not started"),
                                    ("drafting", "Drafting"),
                                    ("paused", "Paused"),
                                    ("reviewing", "Reviewing between rounds"),
                                    ("deck_building", "Deck building"),
                                    ("done", "Done"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("paused_remaining_ms", models.BigIntegerField(blank=True, null=True)),
                        ("round", models.PositiveSmallIntegerField(default=0)),
                        ("review_deadline", models.DateTimeField(blank=True, null=True)),
                        ("deck_building_deadline", models.DateTimeField(blank=True, null=True)),
                        ("queue_seq", models.BigIntegerField(default=0)),
                        ("version", models.BigIntegerField(default=0)),
                        ("spectator_token", models.CharField(blank=True, max_length=40)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("logs_public", models.BooleanField(default=False)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pods", to="drafts.event"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "number"],
                        "indexes": [
                            models.Index(
                                condition=models.Q(("state", "reviewing")),
                                fields=["review_deadline"],
                                name="pod_review_due",
                            ),
                            models.Index(
                                condition=models.Q(("state", "deck_building")),
                                fields=["deck_building_deadline"],
                                name="pod_building_due",
                            ),
                        ],
                        "constraints": [models.UniqueConstraint(fields=("event", "number"), name="pod_unique_number")],
                    },
                ),
                migrations.CreateModel(
                    name="Pack",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("round", models.PositiveSmallIntegerField()),
                        ("queue_seq", models.BigIntegerField(default=0)),
                        ("arrived_at", models.DateTimeField(blank=True, null=True)),
                        ("initial_size", models.PositiveSmallIntegerField()),
                        ("picks_made", models.PositiveSmallIntegerField(default=0)),
                        ("deadline", models.DateTimeField(blank=True, null=True)),
                        ("remaining_ms", models.BigIntegerField(blank=True, null=True)),
                        ("removed", models.JSONField(blank=True, default=list)),
                        (
                            "card_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), blank=True, default=list, size=None
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="packs",
                                to="drafts.pod",
                            ),
                        ),
                        (
                            "holder",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="held_packs",
                                to="drafts.seat",
                            ),
                        ),
                        (
                            "opener",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="opened_packs",
                                to="drafts.seat",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "round", "opener__position"],
                        "indexes": [
                            models.Index(
                                condition=models.Q(("holder__isnull", False)),
                                fields=["holder", "queue_seq"],
                                name="pack_queue",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(fields=("pod", "round", "opener"), name="pack_unique_opener")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="DraftCard",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("slot", models.PositiveSmallIntegerField(default=0)),
                        ("is_dfc", models.BooleanField(default=False)),
                        ("rarity", models.CharField(blank=True, max_length=10)),
                        ("foil", models.BooleanField(default=False)),
                        ("pack_slot", models.CharField(blank=True, default="", max_length=40)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="cards.card"
                            ),
                        ),
                        (
                            "printing",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="cards.printing",
                            ),
                        ),
                        (
                            "opened_in",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="opened_cards",
                                to="drafts.pack",
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cards",
                                to="drafts.pod",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "pk"],
                        "indexes": [models.Index(fields=["pod", "is_dfc"], name="drafts_draf_pod_id_d0d568_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="PodLogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("action", models.CharField(choices=drafts.log_actions.log_action_choices, max_length=40)),
                        ("details", models.JSONField(blank=True, default=dict)),
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
                            "pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="log", to="drafts.pod"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Registration",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("share_pick_data", models.BooleanField(default=False)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registrations",
                                to="drafts.event",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="registrations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "name"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("user__isnull", False)),
                                fields=("event", "user"),
                                name="registration_unique_user",
                            ),
                            models.UniqueConstraint(fields=("event", "name"), name="registration_unique_name"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Seat",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        ("is_automatic", models.BooleanField(default=False)),
                        ("ready", models.BooleanField(default=False)),
                        ("last_pick_at", models.DateTimeField(blank=True, null=True)),
                        ("pile_cover", models.CharField(blank=True, max_length=20)),
                        (
                            "pile_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), blank=True, default=list, size=None
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="drafts.pod"
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="seats",
                                to="drafts.registration",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "position"],
                        "constraints": [
                            models.UniqueConstraint(fields=("pod", "position"), name="seat_unique_position"),
                            models.UniqueConstraint(
                                condition=models.Q(("registration__isnull", False)),
                                fields=("registration",),
                                name="seat_unique_registration",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Pick",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("round", models.PositiveSmallIntegerField()),
                        ("pick_number", models.PositiveSmallIntegerField()),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("manual", "Picked by the player"),
                                    ("timeout", "Picked automatically when the timer ran out"),
                                    ("automatic", "Picked by an automatic drafter"),
                                    ("last_card", "Last card of the pack, passed automatically"),
                                ],
                                default="manual",
                                max_length=10,
                            ),
                        ),
                        ("made_at", models.DateTimeField()),
                        ("pack_contents", models.JSONField(default=list)),
                        (
                            "draft_card",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pick", to="drafts.draftcard"
                            ),
                        ),
                        (
                            "made_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pack",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="picks",
                                to="drafts.pack",
                            ),
                        ),
                        (
                            "seat",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="picks",
                                to="drafts.seat",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["seat_id", "round", "pick_number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("seat", "round", "pick_number"), name="pick_unique_seat_round_number"
                            ),
                            models.UniqueConstraint(fields=("pack", "pick_number"), name="pick_unique_pack_number"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="StaffInvitation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[("organiser", "Organiser"), ("head_judge", "Head judge"), ("judge", "Judge")],
                                max_length=12,
                            ),
                        ),
                        ("token", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField()),
                        ("expires_at", models.DateTimeField()),
                        ("accepted_at", models.DateTimeField(blank=True, null=True)),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "accepted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
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
                                related_name="staff_invitations",
                                to="drafts.event",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "-created_at", "-pk"],
                    },
                ),
            ],
        ),
        # SQL, not RunPython: a RunPython renders every model's state again.
        migrations.RunSQL(GROUPS, reverse_sql=NO_GROUPS),
        migrations.RunSQL(FUNCTIONS, reverse_sql=NO_FUNCTIONS),
        migrations.RunSQL(DOCUMENT_ENTRY, reverse_sql=NO_DOCUMENT_ENTRY),
    ]
