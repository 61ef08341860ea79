"""Mail to the players who asked for it (profile: "Email me when pairings are posted", "...
when a round starts"), each in their own language. The matches services' change tells this
once it is committed (``drafts.extensions.notice_on_commit``, registered in accounts/apps.py);
a mail that cannot be sent is logged, never undoes the round."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

from accounts.models import Profile
from accounts.services.mail import render_user_mail
from drafts.extensions import PAIRINGS, ROUND_START
from matches.models import Match, Round

logger = logging.getLogger(__name__)

_OPT_IN = {PAIRINGS: "email_pairings", ROUND_START: "email_round_start"}


def mail_round(round_id: int, what: str) -> int:
    """Write to every opted-in player of the round (``what``: PAIRINGS or ROUND_START);
    returns how many mails went out."""
    round_obj = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_obj is None:
        return 0
    seats: dict[int, tuple] = {}  # user id: (match, their registration, opponent)
    for match in Match.objects.filter(round=round_obj).select_related("player_a__user", "player_b__user"):
        sides = [(match.player_a, match.player_b), (match.player_b, match.player_a)]
        for registration, opponent in sides:
            if registration is not None and registration.user_id is not None:
                seats[registration.user_id] = (match, registration, opponent)
    wanted = set(Profile.objects.filter(user_id__in=seats, **{_OPT_IN[what]: True}).values_list("user_id", flat=True))
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
