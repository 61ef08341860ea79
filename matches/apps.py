from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches"

    def ready(self):
        from drafts import extensions
        from matches import demo

        # The demo's matches: drafts' load_demo runs this part (drafts.extensions) and imports no matches.
        extensions.register_demo(demo.add_to_demo)

        # The penalties hook: penalties announce changes, matches applies them (see hooks.py).
        from matches import hooks  # noqa: F401
