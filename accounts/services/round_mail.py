"""Mail to the players who asked for it (profile: "Email me when pairings are posted", "...
when a round starts"), each in their own language. The matches services' change tells this once
it is committed (``drafts.extensions.notice_on_commit``, heard in accounts/apps.py), which books
it as a Celery task: a mail that cannot be sent is logged, never undoes the round, and never
waits in the organiser's answer."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.core.mail import send_mail
from django.db.models import Q
from django.urls import reverse

from accounts.models import Profile
from accounts.services.mail import render_user_mail
from drafts.extensions import PAIRINGS, ROUND_START
from matches.models import Match, Round

logger = logging.getLogger(__name__)

_OPT_IN = {PAIRINGS: "email_pairings", ROUND_START: "email_round_start"}
MAIL_ROUND_TASK = "accounts.mail_round"  # accounts.tasks.mail_round (booked by name: services import no tasks)


def book_round_mail(what: str, round_id: int) -> None:
    """Book the round's mail (run after the commit). Sent in the organiser's answer, 1,000
    opted-in players' mail took 11 s there (2.7 s of CPU, 2,000 queries, and one SMTP connection
    each); a task takes ids and the worker sends it. A broker that is down costs the mail, never
    the caller's answer (as push's booking)."""
    try:
        current_app.tasks[MAIL_ROUND_TASK].delay(round_id, what)
    except Exception:
        logger.warning("could not book the %s mail of round %s", what, round_id, exc_info=True)


def mail_round(round_id: int, what: str) -> int:
    """Write to every opted-in player of the round (``what``: PAIRINGS or ROUND_START);
    returns how many mails went out."""
    # Who asked for mail first, then only their tables: most players do not, and this runs in
    # the pairing's answer (reading every table of a 1,000-player round cost it 0.1-0.4 s).
    wanted = set(
        Profile.objects.filter(
            user__registrations__match_seats__round_id=round_id, **{_OPT_IN[what]: True}
        ).values_list("user_id", flat=True)
    )
    if not wanted:
        return 0
    round_obj = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_obj is None:
        return 0
    seats: dict[int, tuple] = {}  # user id: (match, their registration, opponent)
    tables = Match.objects.filter(round=round_obj).filter(
        Q(player_a__user_id__in=wanted) | Q(player_b__user_id__in=wanted)
    )
    for match in tables.select_related("player_a__user", "player_b__user"):
        sides = [(match.player_a, match.player_b), (match.player_b, match.player_a)]
        for registration, opponent in sides:
            if registration is not None and registration.user_id in wanted:
                seats[registration.user_id] = (match, registration, opponent)
    url = settings.SITE_URL + reverse("matches:me", args=[round_obj.event_id])
    sent = 0
    for user_id in sorted(wanted):
        match, registration, opponent = seats[user_id]
        user = registration.user
        if not user.email:
            continue
        context = {"event": round_obj.event, "round": round_obj, "match": match, "opponent": opponent, "url": url}
        try:
            subject, body = render_user_mail(user, what, context)
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], fail_silently=False)
            sent += 1
        except Exception:  # one unreachable address must not stop the others' mail
            logger.warning("could not mail %s about round %s", user.pk, round_id, exc_info=True)
    return sent
