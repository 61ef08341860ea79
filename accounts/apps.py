from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        # Register the tasks in every process: the matches services book the round mail by name
        # (accounts.services.round_mail) before Celery's lazy autodiscovery would have found it.
        from accounts import tasks  # noqa: F401
