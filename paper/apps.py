from django.apps import AppConfig


class PaperConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "paper"
    verbose_name = "Paper drafts"

    def ready(self):
        # The draft engine's dashboard and demo take paper's part from here: drafts imports no paper.
        from drafts import extensions
        from events.models import DraftFormat
        from paper import demo, selectors, services
        from paper.models import CallAction

        extensions.register_dashboard(DraftFormat.PAPER, settle=services.settle_event_if_due, rows=selectors.event_rows)
        extensions.register_demo(demo.add_to_demo)
        extensions.register_log_actions(CallAction)
