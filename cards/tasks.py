"""Celery tasks of the card catalogue: thin wrappers taking ids (cards.images does the work)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone


@shared_task(name="cards.fetch_images", ignore_result=True)
def fetch_card_images(printing_ids: list[int]) -> dict[str, int]:
    from cards import images

    return images.fetch(printing_ids, now=timezone.now())
