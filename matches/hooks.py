"""The one place matches hears from penalties: penalties sends a signal, we apply it."""

from django.dispatch import receiver

from penalties.signals import penalty_changed


@receiver(penalty_changed, dispatch_uid="matches.apply_penalty")
def _apply_penalty(sender, penalty, **kwargs):
    from matches.services import apply_penalty

    apply_penalty(penalty)
