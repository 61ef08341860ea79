from django.apps import AppConfig


class JudgeCallsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "judgecalls"
    verbose_name = "Judge calls"
