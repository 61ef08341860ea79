"""The cards migrations 0001-0005 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``); 0004 filled MTGO ids of the printings there were, and a new database has
none. It runs after Django's own apps, so that their changes to the user render a few models,
not every model that points at the user. A database that applied all of 0001-0005 counts this
one as applied; one part of the way through goes on through them, which stay until every
database is past them (docs/development.md, "Migrations").
"""

import django.db.models.deletion
from django.db import migrations, models

import draftsite.migration_operations


class Migration(migrations.Migration):
    replaces = [
        ("cards", "0001_initial"),
        ("cards", "0002_printing_mtgjson_uuid"),
        ("cards", "0003_localized_names"),
        ("cards", "0004_printing_mtgo_ids"),
        ("cards", "0005_card_image_copies"),
    ]

    initial = True

    dependencies = [
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("authtoken", "0004_alter_tokenproxy_options"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Card",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=300, unique=True)),
                        ("search_name", models.CharField(db_index=True, max_length=300)),
                        (
                            "layout",
                            models.CharField(
                                choices=[
                                    ("normal", "Normal"),
                                    ("transform", "Transforming double-faced"),
                                    ("modal_dfc", "Modal double-faced"),
                                    ("meld", "Meld"),
                                    ("flip", "Flip"),
                                    ("split", "Split"),
                                    ("adventure", "Adventure"),
                                    ("saga", "Saga"),
                                    ("class", "Class"),
                                    ("leveler", "Leveler"),
                                    ("other", "Other"),
                                ],
                                default="normal",
                                max_length=20,
                            ),
                        ),
                        ("color_identity", models.CharField(blank=True, max_length=5)),
                        ("oracle_id", models.UUIDField(blank=True, null=True, unique=True)),
                        ("data_hash", models.CharField(blank=True, max_length=40)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                    ],
                    options={
                        "ordering": ["name"],
                    },
                ),
                migrations.CreateModel(
                    name="CardSet",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("code", models.CharField(max_length=10, unique=True)),
                        ("name", models.CharField(max_length=200)),
                        ("release_date", models.DateField(blank=True, null=True)),
                        ("set_type", models.CharField(blank=True, max_length=40)),
                        ("parent_code", models.CharField(blank=True, max_length=10)),
                        ("booster", models.JSONField(blank=True, null=True)),
                    ],
                    options={
                        "ordering": ["code"],
                    },
                ),
                migrations.CreateModel(
                    name="ChecklistCard",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=200)),
                        (
                            "kind",
                            models.CharField(
                                choices=[("checklist", "Checklist card"), ("substitute", "Substitute card")],
                                max_length=12,
                            ),
                        ),
                        ("set_code", models.CharField(max_length=10)),
                        ("parent_set_code", models.CharField(blank=True, max_length=10)),
                        ("collector_number", models.CharField(max_length=20)),
                        ("scryfall_id", models.UUIDField(blank=True, null=True, unique=True)),
                        ("oracle_text", models.TextField(blank=True)),
                        ("search_name", models.CharField(db_index=True, max_length=200)),
                    ],
                    options={
                        "ordering": ["set_code", "collector_number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("set_code", "collector_number"), name="checklist_unique_set_number"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Printing",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("collector_number", models.CharField(blank=True, max_length=20)),
                        (
                            "rarity",
                            models.CharField(
                                choices=[
                                    ("common", "Common"),
                                    ("uncommon", "Uncommon"),
                                    ("rare", "Rare"),
                                    ("mythic", "Mythic rare"),
                                    ("special", "Special"),
                                    ("bonus", "Bonus"),
                                ],
                                default="common",
                                max_length=10,
                            ),
                        ),
                        ("scryfall_id", models.UUIDField(blank=True, null=True, unique=True)),
                        ("mtgjson_uuid", models.UUIDField(blank=True, null=True, unique=True)),
                        ("mtgo_id", models.PositiveIntegerField(blank=True, null=True)),
                        ("mtgo_foil_id", models.PositiveIntegerField(blank=True, null=True)),
                        ("image_uris", models.JSONField(blank=True, default=dict)),
                        ("in_boosters", models.BooleanField(default=True)),
                        ("data_hash", models.CharField(blank=True, max_length=40)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="printings", to="cards.card"
                            ),
                        ),
                        (
                            "card_set",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="printings",
                                to="cards.cardset",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["card_set__code", "collector_number"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("collector_number", ""), _negated=True),
                                fields=("card_set", "collector_number"),
                                name="printing_unique_set_number",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="CardImage",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("face", models.CharField(max_length=10)),
                        ("key", models.CharField(max_length=16)),
                        (
                            "state",
                            models.CharField(
                                choices=[("pending", "Pending"), ("stored", "Stored"), ("failed", "Failed")],
                                default="pending",
                                max_length=10,
                            ),
                        ),
                        ("stored_name", models.CharField(blank=True, max_length=200)),
                        ("content_type", models.CharField(blank=True, max_length=50)),
                        ("size", models.PositiveIntegerField(default=0)),
                        ("attempted_at", models.DateTimeField(blank=True, null=True)),
                        ("last_used", models.DateTimeField(db_index=True)),
                        (
                            "printing",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="image_copies",
                                to="cards.printing",
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("printing", "face", "key"), name="card_image_unique_copy")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="CardFace",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        ("name", models.CharField(max_length=200)),
                        ("search_name", models.CharField(db_index=True, max_length=200)),
                        ("mana_cost", models.CharField(blank=True, max_length=60)),
                        ("mana_value", models.FloatField(default=0)),
                        ("type_line", models.CharField(blank=True, max_length=200)),
                        ("supertypes", models.JSONField(blank=True, default=list)),
                        ("card_types", models.JSONField(blank=True, default=list)),
                        ("subtypes", models.JSONField(blank=True, default=list)),
                        ("oracle_text", models.TextField(blank=True)),
                        ("colors", models.CharField(blank=True, max_length=5)),
                        ("color_indicator", models.CharField(blank=True, max_length=5)),
                        ("power", models.CharField(blank=True, max_length=10)),
                        ("toughness", models.CharField(blank=True, max_length=10)),
                        ("loyalty", models.CharField(blank=True, max_length=10)),
                        ("defense", models.CharField(blank=True, max_length=10)),
                        ("disguise_cost", models.CharField(blank=True, max_length=60)),
                        ("morph_cost", models.CharField(blank=True, max_length=60)),
                        ("megamorph_cost", models.CharField(blank=True, max_length=60)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="faces", to="cards.card"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["card_id", "position"],
                        "constraints": [
                            models.UniqueConstraint(fields=("card", "position"), name="cardface_unique_position")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="ChecklistEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        ("printed_name", models.CharField(max_length=200)),
                        (
                            "card",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="checklist_entries",
                                to="cards.card",
                            ),
                        ),
                        (
                            "checklist",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="entries",
                                to="cards.checklistcard",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["checklist_id", "position"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("checklist", "printed_name"), name="checklistentry_unique_name"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="LocalizedName",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        ("language", models.CharField(max_length=10)),
                        ("name", models.CharField(max_length=200)),
                        ("search_name", models.CharField(db_index=True, max_length=200)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="localized_names",
                                to="cards.card",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["card_id", "position", "language", "name"],
                        "indexes": [models.Index(fields=["language", "search_name"], name="localizedname_lang_search")],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("card", "position", "language", "name"),
                                name="localizedname_unique_printed_name",
                            )
                        ],
                    },
                ),
            ],
        ),
    ]
