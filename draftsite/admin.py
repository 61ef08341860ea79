"""What every app's admin shares."""

from __future__ import annotations


class ReadOnlyAdminMixin:
    """Rows the admin shows but never adds, changes or deletes: the site's services write them
    (and keep their logs and audit trails), not the admin. For model admins and inlines alike."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
