"""Limit/offset pages with bounds: a 30-digit ``limit`` or ``offset`` must not reach the database
(SQLite and PostgreSQL both overflow on it: a 500)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination

from draftsite.errors import DomainError

INVALID_OFFSET = "invalid_offset"
# Far beyond any list this site has, well inside a 32-bit integer.
MAX_OFFSET = 1_000_000_000


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = 500  # a larger ``limit`` is cut to this, as DRF documents for max_limit

    def get_offset(self, request):
        offset = super().get_offset(request)
        if offset > MAX_OFFSET:
            raise DomainError(
                INVALID_OFFSET,
                _("offset must be at most %(max)d.") % {"max": MAX_OFFSET},
                field=self.offset_query_param,
            )
        return offset
