"""The seed copy that transactional tests get back (``tests/seed_snapshot.py``)."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from cards.models import Card, CardFace
from tests import seed_snapshot


@pytest.mark.django_db(transaction=True)
def test_the_seed_comes_back_row_for_row_after_a_committed_change():
    cards = list(Card.objects.order_by("pk").values())
    faces = CardFace.objects.count()
    content_types = list(ContentType.objects.order_by("pk").values_list("pk", "app_label", "model"))
    assert cards and faces and content_types  # the seed is there to begin with
    Card.objects.filter(pk__in=[row["id"] for row in cards[:5]]).delete()  # committed: no rollback

    seed_snapshot.restore(connection.alias, seed_snapshot.kept[connection.alias])

    assert list(Card.objects.order_by("pk").values()) == cards
    assert CardFace.objects.count() == faces
    assert list(ContentType.objects.order_by("pk").values_list("pk", "app_label", "model")) == content_types
