from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        # The penalties hook: penalties announce changes, matches applies them (see hooks.py).
        from matches import hooks  # noqa: F401
