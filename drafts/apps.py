from django.apps import AppConfig


class DraftsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "drafts"

    def ready(self):
        from django.core.checks import Tags, register

        from cards.signals import catalogue_imported
        from drafts import cardinfo, cardsheet, extensions
        from drafts.models import PodAction
        from draftsite import upkeep

        # The pod log's actions: the engine's own, then those other apps register.
        extensions.register_log_actions(PodAction)

        # At start (migrate, check --database): a database that will not stay fast says so.
        register(upkeep.check, Tags.database)

        # A re-imported card must not be shown from this process's cache of card payloads.
        catalogue_imported.connect(cardinfo.on_catalogue_imported, dispatch_uid="drafts.cardinfo")
        # ... and every card sheet URL changes (drafts.cardsheet).
        catalogue_imported.connect(cardsheet.on_catalogue_imported, dispatch_uid="drafts.cardsheet")
