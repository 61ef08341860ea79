"""Migration operations the apps share.

``StateOnly`` moves models between apps in Django's state only (the tables keep their names and
rows: the events app's split from the draft engine, issue 50). Django keeps the migration
state's models rendered between operations, so each state-only change of a relation re-renders
every model related to it: the events move's ~60 such changes cost most of a fresh ``migrate``
(about 4.6 of 9 s under a profiler, 6 December 2026). A state-only operation touches no table,
so nothing needs the rendered models during it: they are dropped before its changes and
rendered once, by the next operation that reads them.

``CreateModels``: several ``CreateModel`` operations as one. Each ``CreateModel`` renders again
every model its new model reaches through relations (for a model that points at the user or an
event: nearly all of them), so a migration that creates ten models renders the project ten
times. ``CreateModels`` adds its models to the state and renders them once; the tables and the
state are those of the same ``CreateModel`` operations run one by one (the squash tests compare
``pg_dump --schema-only`` of both). The squashes and the initial migrations use it.
"""

from __future__ import annotations

from django.db import migrations
from django.db.migrations.operations.base import Operation
from django.db.migrations.operations.models import CreateModel
from django.db.migrations.state import ModelState


class StateOnly(migrations.SeparateDatabaseAndState):
    """``SeparateDatabaseAndState`` with state operations only, applied without re-rendering."""

    def __init__(self, state_operations):
        super().__init__(state_operations=state_operations)

    def state_forwards(self, app_label, state):
        # ProjectState.apps is a cached property: without it, reload_model only marks the
        # model changed (django.db.migrations.state.ProjectState.reload_model).
        state.__dict__.pop("apps", None)
        super().state_forwards(app_label, state)

    def deconstruct(self):
        return self.__class__.__qualname__, [], {"state_operations": self.state_operations}


class CreateModels(Operation):
    """The ``CreateModel`` operations given, in order (each may point at the ones before it)."""

    reduces_to_sql = True
    reversible = True

    def __init__(self, operations: list[CreateModel]) -> None:
        if not all(type(operation) is CreateModel for operation in operations):
            raise TypeError("CreateModels takes CreateModel operations only")
        self.operations = list(operations)

    def deconstruct(self):
        return (self.__class__.__qualname__, [], {"operations": self.operations})

    def state_forwards(self, app_label, state):
        keys = []
        for operation in self.operations:
            if (app_label, operation.name_lower) in state.models:
                # Only when Django goes back to a migration a squash replaced: it then builds the
                # state from a graph that holds both the squash and the migrations it replaced,
                # and the squash's models must not overwrite theirs midway.
                continue
            model = ModelState(
                app_label,
                operation.name,
                list(operation.fields),
                dict(operation.options),
                tuple(operation.bases),
                list(operation.managers),
            )
            key = (app_label, model.name_lower)
            # ProjectState.add_model without its reload of the rendered models...
            state.models[key] = model
            if state._relations is not None:
                state.resolve_model_relations(key)
            keys.append(key)
        # ... which happens once, for all of them (as add_model does it: not delayed).
        state.reload_models(keys, delay=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        for operation in self.operations:
            operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        for operation in reversed(self.operations):
            operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def describe(self):
        return "Create models " + ", ".join(operation.name for operation in self.operations)

    @property
    def migration_name_fragment(self):
        return "_".join(operation.migration_name_fragment for operation in self.operations)

    def references_model(self, name, app_label):
        return any(operation.references_model(name, app_label) for operation in self.operations)

    def reduce(self, operation, app_label):
        return False
