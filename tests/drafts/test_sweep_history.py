"""Beat's sweep reads the pods past their review or deck building through partial indexes,
not every pod the site ever had (issue 48: a site keeps every finished event)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from drafts.tasks import pods_past_their_stage

pytestmark = pytest.mark.django_db


def plan_of(queryset) -> str:
    with connection.cursor() as cursor:
        # The test database is tiny: a scan would be cheapest whatever the indexes. Scans off,
        # the planner still takes one (at a disabled cost) where no index can answer the query.
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = queryset.query.sql_with_params()
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_pods_past_their_stage_are_read_through_the_partial_indexes():
    plan = plan_of(pods_past_their_stage(dt.datetime(2026, 12, 6, tzinfo=dt.UTC)))
    assert "Seq Scan" not in plan, plan
    assert "pod_review_due" in plan and "pod_building_due" in plan, plan
