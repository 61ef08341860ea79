"""The shared migration operations (draftsite.migration_operations) and the migrations' state.

``StateOnly`` moves models between apps in Django's state without re-rendering after each
change (issue 50: the events move cost most of a fresh migrate). What it leaves in the state
must be what ``SeparateDatabaseAndState`` leaves, and the migrations must still describe the
models exactly.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import migrations, models
from django.db.migrations.state import ModelState, ProjectState

from draftsite.migration_operations import StateOnly


def _state() -> ProjectState:
    state = ProjectState()
    state.add_model(ModelState("shop", "Owner", [("id", models.AutoField(primary_key=True))]))
    state.add_model(
        ModelState(
            "shop",
            "Item",
            [
                ("id", models.AutoField(primary_key=True)),
                ("owner", models.ForeignKey("shop.Owner", models.CASCADE)),
            ],
        )
    )
    state.add_model(ModelState("till", "Owner", [("id", models.AutoField(primary_key=True))]))
    return state


def _moves():
    return [
        migrations.AlterField("item", "owner", models.ForeignKey("till.Owner", models.CASCADE, related_name="items")),
        migrations.AddField("item", "name", models.CharField(max_length=20, default="")),
    ]


def test_a_state_only_move_leaves_what_separate_database_and_state_leaves_without_re_rendering():
    plain, fast = _state(), _state()
    plain.apps, fast.apps  # rendered, as the migration executor keeps them  # noqa: B018
    migrations.SeparateDatabaseAndState(state_operations=_moves()).state_forwards("shop", plain)
    StateOnly(state_operations=_moves()).state_forwards("shop", fast)
    assert "apps" in plain.__dict__ and "apps" not in fast.__dict__  # rendered again only when read
    assert fast.models == plain.models
    item = fast.apps.get_model("shop", "Item")
    assert item._meta.get_field("owner").related_model is fast.apps.get_model("till", "Owner")


def test_a_state_only_move_deconstructs_to_its_state_operations():
    operation = StateOnly(state_operations=_moves())
    name, args, kwargs = operation.deconstruct()
    assert (name, args, [type(o) for o in kwargs["state_operations"]]) == (
        "StateOnly",
        [],
        [migrations.AlterField, migrations.AddField],
    )


@pytest.mark.django_db
def test_the_migrations_describe_every_model_exactly():
    # Exits non-zero (SystemExit) when a model differs from its migrations' state.
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
