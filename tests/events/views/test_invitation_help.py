"""The staff page's word on invitation links says what the invited person can really do: with
open sign-up they make their own account on the way (followed here, link to role), and only
where accounts come from the administrator does it say so (issue 46)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from events.models import EventStaff, StaffRole
from events.services.staff import invite_staff
from tests.factories import EventFactory, EventStaffFactory, UserFactory

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-9"


@pytest.fixture
def event():
    event = EventFactory(name="Friday")
    EventStaffFactory(event=event, user=UserFactory(username="org"), role=StaffRole.ORGANISER)
    return event


def help_text(event) -> str:
    client = Client()
    client.force_login(event.staff.get().user)
    html = client.get(f"/events/{event.pk}/staff/").content.decode()
    return re.search(r'<p class="help" id="invitation-help">(.*?)</p>', html, re.S).group(1)


def test_with_open_sign_up_the_invited_person_signs_up_on_the_way(event):
    text = help_text(event)
    assert "administrator" not in text and "sign up on the way" in text
    invitation = invite_staff(event_id=event.pk, role=StaffRole.JUDGE, actor=event.staff.get().user)
    client = Client()
    login_page = client.get(f"/events/staff-invitations/{invitation.token}/", follow=True)
    signup = re.search(r'href="([^"]+)" id="signup-link"', login_page.content.decode()).group(1).replace("&amp;", "&")
    response = client.post(
        signup,
        {
            "username": "newjudge",
            "email": "newjudge@example.test",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "display_name": "New Judge",
            "language": "",
        },
        follow=True,
    )
    assert 'id="accept-invitation"' in response.content.decode()
    client.post(f"/events/staff-invitations/{invitation.token}/")
    assert EventStaff.objects.filter(event=event, user__username="newjudge", role=StaffRole.JUDGE).exists()


def test_where_only_join_links_make_accounts_the_text_names_the_administrator(event, settings):
    settings.SIGNUP_MODE = "link"
    text = help_text(event)
    assert "administrator" in text and "sign up on the way" not in text
