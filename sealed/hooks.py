"""The one place sealed hears from matches: a player's drop (``matches.Drop`` created). A
builder who drops before registering a deck gives the pool they received back to the
organiser, in the drop's transaction. matches never imports sealed: imports go one way."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from events.access import SYSTEM
from matches.models import Drop
from sealed import services


@receiver(post_save, sender=Drop, dispatch_uid="sealed.release_dropped_builder")
def release_dropped_builder(sender, instance: Drop, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        services.release_dropped_builder(
            registration=instance.registration, actor=instance.by or SYSTEM, now=instance.at
        )
