from django.apps import AppConfig


def _book(kind: str, object_id: int) -> None:
    """Book a change's push (``push.dispatch.enqueue``, read when called: bench/push_pairings
    times it in place). Repaired pairings are pairings to a player's phone."""
    from drafts import extensions
    from push import dispatch

    dispatch.enqueue(extensions.PAIRINGS if kind == extensions.PAIRINGS_REPAIRED else kind, object_id)


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Push notifications and the installable app"

    def ready(self) -> None:
        from drafts import extensions

        # Register the tasks in every process: services book them by name (push.dispatch)
        # before Celery's lazy autodiscovery would have found them.
        from push import tasks  # noqa: F401

        # The services of the apps below push tell it of their changes after the commit
        # (drafts.extensions): they import no push.
        extensions.register_listener(
            {extensions.PAIRINGS, extensions.PAIRINGS_REPAIRED, extensions.DRAFT_START, extensions.JUDGE}, _book
        )
