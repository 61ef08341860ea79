from django.apps import AppConfig


class PushConfig(AppConfig):
    name = "push"
    verbose_name = "Push notifications and the installable app"

    def ready(self) -> None:
        # Register the tasks in every process: services book them by name (push.dispatch)
        # before Celery's lazy autodiscovery would have found them.
        from push import tasks  # noqa: F401
