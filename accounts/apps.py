from django.apps import AppConfig


def _mail_round(kind: str, round_id: int) -> None:
    from accounts.services.round_mail import mail_round

    mail_round(round_id, kind)


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from drafts import extensions

        # The players who asked for mail hear of a round's pairings and start, once the matches
        # services' change is committed: matches imports no accounts (the layers contract).
        extensions.register_listener({extensions.PAIRINGS, extensions.ROUND_START}, _mail_round)
