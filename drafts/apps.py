from django.apps import AppConfig


class DraftsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "drafts"

    def ready(self):
        from django.core.checks import Tags, register

        from cards.signals import catalogue_imported
        from drafts import cardinfo, cardsheet, extensions, live, selectors
        from drafts.models import PodAction
        from drafts.services import events
        from drafts.views import events as event_pages
        from draftsite import upkeep
        from events import extensions as event_extensions

        # The pod log's actions: the engine's own, then those other apps register.
        extensions.register_log_actions(PodAction)
        # The staff sockets of an event's pods close when their person leaves its staff, and its
        # pods' live pages refresh when its settings change (events.extensions).
        event_extensions.register_staff_listener(live.tell_staff_sockets)
        event_extensions.register_settings_listener(events.pods_follow_event_settings)
        # Where an event's players sit: the event list and page show seats and pods, the staff
        # pages warn of a judge seated as a player.
        event_extensions.register_seating(
            event_extensions.Seating(
                seated_players=selectors.seated_players,
                seated_warning=selectors.seated_warning,
                seats_by_event=selectors.seats_by_event,
                event_page=event_pages.event_page_seating,
            )
        )

        # At start (migrate, check --database): a database that will not stay fast says so.
        register(upkeep.check, Tags.database)

        # A re-imported card must not be shown from this process's cache of card payloads.
        catalogue_imported.connect(cardinfo.on_catalogue_imported, dispatch_uid="drafts.cardinfo")
        # ... and every card sheet URL changes (drafts.cardsheet).
        catalogue_imported.connect(cardsheet.on_catalogue_imported, dispatch_uid="drafts.cardsheet")
