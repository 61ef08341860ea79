from django.apps import AppConfig


class SealedConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "sealed"
    verbose_name = "Sealed events"

    def ready(self) -> None:
        from sealed import hooks  # noqa: F401  (connects the receiver of players' drops)
