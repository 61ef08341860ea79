"""The site's own copies of card images, so no page depends on the image host (the venue's
internet): pages point at ``/cards/images/<printing>/<face>/<key>/``; the site serves its copy
with long cache headers, or answers 404 at once (the card shows as text) and has a Celery task
fetch it once. ``manage.py fetch_card_images DSK`` fetches a set's images before the event.
Copies live in the storage CARD_IMAGE_STORAGE names (Django's storage API; disk by default),
at most CARD_IMAGE_MAX_BYTES, least recently used evicted first."""

from __future__ import annotations

import functools
import hashlib
import logging
import urllib.error
import urllib.request
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.db import transaction
from django.db.models import Sum
from django.urls import reverse

from cards.models import CardImage, Printing

log = logging.getLogger(__name__)

FACES = ("front", "back")
# A copy that could not be had is asked for again after this long (the host was down), not
# on every page view.
RETRY_AFTER = timedelta(hours=1)
# A copy's last use is written at most this often (the LRU order needs no finer grain).
TOUCH_EVERY = timedelta(hours=1)
TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}


def storage() -> Storage:
    return storages[settings.CARD_IMAGE_STORAGE]


def key_of(source_url: str) -> str:
    return hashlib.sha256(source_url.encode()).hexdigest()[:16]


def site_uris(printing_id: int, uris: dict | None) -> dict:
    """A printing's ``image_uris`` as the site's own URLs (same faces)."""
    return {
        face: reverse("card-image", args=[printing_id, face, key_of(url)])
        for face, url in (uris or {}).items()
        if face in FACES and isinstance(url, str) and url.startswith(("http://", "https://"))
    }


def copy_for(printing_id: int, face: str, key: str, now: datetime) -> tuple[CardImage | None, bool]:
    """The stored copy, or None; and whether a fetch should be asked for (first use, or the
    last attempt failed long enough ago). Books the fetch (one per copy, whoever asks)."""
    uris = Printing.objects.filter(pk=printing_id).values_list("image_uris", flat=True).first()
    source = (uris or {}).get(face) if face in FACES else None
    if not isinstance(source, str) or key_of(source) != key:
        return None, False
    row, created = CardImage.objects.get_or_create(
        printing_id=printing_id, face=face, key=key, defaults={"last_used": now}
    )
    if row.state == CardImage.State.STORED:
        if now - row.last_used > TOUCH_EVERY:
            CardImage.objects.filter(pk=row.pk).update(last_used=now)
        return row, False
    if created:
        return None, True
    stale = row.attempted_at is None or now - row.attempted_at > RETRY_AFTER
    if row.state == CardImage.State.FAILED and stale:
        # Booked by whoever flips it back to pending first.
        return None, bool(
            CardImage.objects.filter(pk=row.pk, state=CardImage.State.FAILED).update(state=CardImage.State.PENDING)
        )
    return None, False


def _download(url: str) -> tuple[bytes, str]:
    request = urllib.request.Request(url, headers={"User-Agent": "draftsite card images", "Accept": "image/*"})
    with urllib.request.urlopen(request, timeout=settings.CARD_IMAGE_FETCH_TIMEOUT) as response:
        content_type = (response.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content_type not in TYPES:
            raise ValueError(f"not an image: {content_type!r}")
        body = response.read(settings.CARD_IMAGE_MAX_FILE_BYTES + 1)
    if len(body) > settings.CARD_IMAGE_MAX_FILE_BYTES:
        raise ValueError("image too large")
    return body, content_type


def fetch(printing_ids: Iterable[int], now: datetime, force: bool = False) -> dict[str, int]:
    """Fetch the images of these printings not yet stored (each once); then evict past the
    size limit. Returns counts of stored, failed and skipped (already there) faces."""
    counts = {"stored": 0, "failed": 0, "skipped": 0}
    rows = Printing.objects.filter(pk__in=list(printing_ids)).exclude(image_uris={}).values_list("pk", "image_uris")
    for printing_id, uris in rows:
        for face, url in (uris or {}).items():
            if face not in FACES or not isinstance(url, str) or not url.startswith(("http://", "https://")):
                continue
            key = key_of(url)
            row, _ = CardImage.objects.get_or_create(
                printing_id=printing_id, face=face, key=key, defaults={"last_used": now}
            )
            if row.state == CardImage.State.STORED or (
                not force
                and row.state == CardImage.State.FAILED
                and row.attempted_at
                and now - row.attempted_at <= RETRY_AFTER
            ):
                counts["skipped"] += 1
                continue
            try:
                body, content_type = _download(url)
            except (urllib.error.URLError, OSError, ValueError) as error:
                log.info("card image %s/%s not fetched: %s", printing_id, face, error)
                CardImage.objects.filter(pk=row.pk).update(state=CardImage.State.FAILED, attempted_at=now)
                counts["failed"] += 1
                continue
            name = storage().save(f"card-images/{printing_id}-{face}-{key}.{TYPES[content_type]}", ContentFile(body))
            CardImage.objects.filter(pk=row.pk).update(
                state=CardImage.State.STORED,
                stored_name=name,
                content_type=content_type,
                size=len(body),
                attempted_at=now,
                last_used=now,
            )
            counts["stored"] += 1
    evict()
    return counts


def evict() -> int:
    """Delete the least recently used copies until the stored total fits CARD_IMAGE_MAX_BYTES.
    Returns how many were deleted (they are fetched again on their next use)."""
    limit = settings.CARD_IMAGE_MAX_BYTES
    stored = CardImage.objects.filter(state=CardImage.State.STORED)
    total = stored.aggregate(n=Sum("size"))["n"] or 0
    deleted = 0
    for pk, name, size in stored.order_by("last_used", "pk").values_list("pk", "stored_name", "size").iterator():
        if total <= limit:
            break
        with transaction.atomic():
            CardImage.objects.filter(pk=pk).delete()
            transaction.on_commit(functools.partial(_delete_file, name))
        total -= size
        deleted += 1
    return deleted


def _delete_file(name: str) -> None:
    storage().delete(name)


def printings_of_sets(set_codes: Iterable[str]) -> list[int]:
    codes = [code.upper() for code in set_codes]
    return list(Printing.objects.filter(card_set__code__in=codes).exclude(image_uris={}).values_list("pk", flat=True))
