"""Celery tasks of accounts: thin wrappers taking ids (the services do the work)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="accounts.mail_round", ignore_result=True)
def mail_round(round_id: int, what: str) -> int:
    """The round's mail to the players who asked for it (booked by the matches services after
    the commit); returns how many mails went out."""
    from accounts.services.round_mail import mail_round as send

    return send(round_id, what)
