from django.apps import AppConfig


class RulesdeskConfig(AppConfig):
    """The judges' rules desk: runs the rules core (``cards.rules``) on catalogue cards. No models."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rulesdesk"
