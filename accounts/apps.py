from django.apps import AppConfig


def _book_round_mail(kind: str, round_id: int) -> None:
    from accounts.services.round_mail import book_round_mail

    book_round_mail(kind, round_id)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import tasks  # noqa: F401  (registered in every process: booked by name)
        from accounts.players import PLAYERS
        from drafts import extensions
        from events import extensions as event_extensions

        # The players' side of events (names, check-in, joining): the events app reads it here.
        event_extensions.register_players(PLAYERS)

        # The players who asked for mail hear of a round's pairings and start once the matches
        # services' change is committed (matches imports no accounts: the layers contract); the
        # mail is a task, never in the organiser's answer.
        extensions.register_listener({extensions.PAIRINGS, extensions.ROUND_START}, _book_round_mail)
