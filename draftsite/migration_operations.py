"""Migration operations the apps share.

``StateOnly`` moves models between apps in Django's state only (the tables keep their names and
rows: the events app's split from the draft engine, issue 50). Django keeps the migration
state's models rendered between operations, so each state-only change of a relation re-renders
every model related to it: the events move's ~60 such changes cost most of a fresh ``migrate``
(about 4.6 of 9 s under a profiler, 6 December 2026). A state-only operation touches no table,
so nothing needs the rendered models during it: they are dropped before its changes and
rendered once, by the next operation that reads them.
"""

from __future__ import annotations

from django.db import migrations


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
