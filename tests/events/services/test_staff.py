"""Event staff management: organisers add, remove and re-role judges and head judges by
username or invitation link (API and pages, logged), and edit event settings through a
service that logs and notifies."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from drafts import services
from draftsite.errors import DomainError
from events import services as event_services
from events.models import EventLogEntry, EventStaff, StaffInvitation
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser, cube_names):
    return services.create_event(
        name="Thursday cube", date=timezone.localdate(), created_by=organiser, draft_format="cube", cube_list=cube_names
    )


@pytest.fixture
def ann(db):
    return UserFactory(username="ann")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob")


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def roles_of(event, user) -> set[str]:
    return set(EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True))


def test_a_judge_added_by_username_can_work_the_event_instead_of_being_asked_to_join(event, organiser, ann):
    before = page(ann).get(f"/events/{event.pk}/").content.decode()
    assert "Join this event" in before
    response = api(organiser).post(
        f"/api/events/{event.pk}/staff/", {"username": "ann", "role": "judge"}, format="json"
    )
    assert response.status_code == 201 and response.json()["role"] == "judge"
    after = page(ann).get(f"/events/{event.pk}/").content.decode()
    assert "Join this event" not in after and "Dashboard" in after
    assert page(ann).get(f"/events/{event.pk}/dashboard/").status_code == 200
    entry = EventLogEntry.objects.get(event=event, action="staff_added")
    assert entry.actor == organiser and entry.details == {"user": "ann", "role": "judge"}
    listed = api(ann).get(f"/api/events/{event.pk}/staff/").json()
    assert {(s["username"], s["role"]) for s in listed} == {("org", "organiser"), ("ann", "judge")}


@pytest.mark.parametrize(
    "body, code",
    [
        ({"username": "nobody", "role": "judge"}, "unknown_user"),
        ({"username": "ann", "role": "scorekeeper"}, "invalid_choice"),
        ({"role": "judge"}, "required"),
    ],
)
def test_bad_staff_additions_are_coded_400s_and_store_nothing(event, organiser, ann, body, code):
    response = api(organiser).post(f"/api/events/{event.pk}/staff/", body, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == code
    assert EventStaff.objects.filter(event=event).count() == 1
    assert not EventLogEntry.objects.filter(event=event).exists()


def test_adding_someone_twice_in_the_same_role_is_a_conflict(event, organiser, ann):
    event_services.add_event_staff(event_id=event.pk, user=ann, role="judge", actor=organiser)
    again = api(organiser).post(f"/api/events/{event.pk}/staff/", {"username": "ann", "role": "judge"}, format="json")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "already_staff"


def test_only_organisers_manage_staff_judges_and_players_are_refused(event, organiser, ann, bob):
    event_services.add_event_staff(event_id=event.pk, user=ann, role="head_judge", actor=organiser)
    for user in (ann, bob):
        response = api(user).post(
            f"/api/events/{event.pk}/staff/", {"username": "bob", "role": "organiser"}, format="json"
        )
        assert response.status_code == 403
        assert page(user).get(f"/events/{event.pk}/staff/").status_code == 403
    with pytest.raises(DomainError) as err:
        event_services.add_event_staff(event_id=event.pk, user=bob, role="organiser", actor=ann)
    assert err.value.status_code == 403
    assert roles_of(event, bob) == set()


def test_change_role_and_remove_are_logged_and_the_last_organiser_stays(event, organiser, ann):
    staff = event_services.add_event_staff(event_id=event.pk, user=ann, role="judge", actor=organiser)
    client = api(organiser)
    changed = client.patch(f"/api/events/{event.pk}/staff/{staff.pk}/", {"role": "head_judge"}, format="json")
    assert changed.status_code == 200 and roles_of(event, ann) == {"head_judge"}
    own = EventStaff.objects.get(event=event, user=organiser)
    for attempt in (
        client.delete(f"/api/events/{event.pk}/staff/{own.pk}/"),
        client.patch(f"/api/events/{event.pk}/staff/{own.pk}/", {"role": "judge"}, format="json"),
    ):
        assert attempt.status_code == 409 and attempt.json()["errors"][0]["code"] == "last_organiser"
    assert roles_of(event, organiser) == {"organiser"}
    assert client.delete(f"/api/events/{event.pk}/staff/{staff.pk}/").status_code == 204
    assert roles_of(event, ann) == set()
    assert list(EventLogEntry.objects.filter(event=event).values_list("action", flat=True)) == [
        "staff_added",
        "staff_role_changed",
        "staff_removed",
    ]
    assert client.delete(f"/api/events/{event.pk}/staff/{staff.pk}/").json()["errors"][0]["code"] == "unknown_staff"


def test_an_invitation_link_makes_its_first_taker_staff_once(event, organiser, ann, bob):
    created = api(organiser).post(f"/api/events/{event.pk}/staff-invitations/", {"role": "head_judge"}, format="json")
    assert created.status_code == 201
    link = created.json()["url"]
    path = link[link.index("/events/") :]
    # Follow the link as the invited person: it names the event and the role.
    landing = page(ann).get(path)
    assert landing.status_code == 200 and "Join Thursday cube as head judge" in landing.content.decode()
    accepted = page(ann).post(path)
    assert accepted.status_code == 302 and roles_of(event, ann) == {"head_judge"}
    # Used up: the next person is refused, on the page and the API.
    assert page(bob).post(path).status_code == 409
    refused = api(bob).post(f"/api/staff-invitations/{created.json()['token']}/accept/")
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == "invitation_used"
    assert roles_of(event, bob) == set()
    assert EventLogEntry.objects.filter(event=event, action="staff_invitation_accepted", actor=ann).exists()


def test_withdrawn_expired_and_unknown_invitations_are_refused(event, organiser, ann):
    withdrawn = event_services.invite_staff(event_id=event.pk, role="judge", actor=organiser)
    event_services.revoke_staff_invitation(event_id=event.pk, invitation_id=withdrawn.pk, actor=organiser)
    old = event_services.invite_staff(
        event_id=event.pk, role="judge", actor=organiser, now=timezone.now() - dt.timedelta(days=8)
    )
    for invitation in (withdrawn, old):
        response = api(ann).post(f"/api/staff-invitations/{invitation.token}/accept/")
        assert response.status_code == 409 and response.json()["errors"][0]["code"] == "invitation_expired"
    assert api(ann).post("/api/staff-invitations/not-a-token/accept/").status_code == 404
    assert page(ann).get("/events/staff-invitations/not-a-token/").status_code == 404
    assert roles_of(event, ann) == set()


def test_invitation_tokens_are_for_organisers_only(event, organiser, ann):
    event_services.add_event_staff(event_id=event.pk, user=ann, role="judge", actor=organiser)
    invitation = event_services.invite_staff(event_id=event.pk, role="organiser", actor=organiser)
    assert api(ann).get(f"/api/events/{event.pk}/staff-invitations/").status_code == 403
    assert invitation.token not in page(ann).get(f"/events/{event.pk}/").content.decode()
    html = page(organiser).get(f"/events/{event.pk}/staff/").content.decode()
    assert invitation.token in html


def test_staff_pages_add_by_username_change_role_remove_and_invite(event, organiser, ann):
    client = page(organiser)
    detail = client.get(f"/events/{event.pk}/").content.decode()
    assert f'href="/events/{event.pk}/staff/"' in detail
    client.post(f"/events/{event.pk}/staff/add/", {"username": "ann", "role": "judge"})
    assert roles_of(event, ann) == {"judge"}
    staff = EventStaff.objects.get(event=event, user=ann)
    client.post(f"/events/{event.pk}/staff/{staff.pk}/role/", {"role": "head_judge"})
    assert roles_of(event, ann) == {"head_judge"}
    asked = client.post(f"/events/{event.pk}/staff/{staff.pk}/remove/")
    assert asked.status_code == 200 and "Remove" in asked.content.decode()  # confirm first
    assert roles_of(event, ann) == {"head_judge"}
    client.post(f"/events/{event.pk}/staff/{staff.pk}/remove/", {"confirmed": "yes"})
    assert roles_of(event, ann) == set()
    client.post(f"/events/{event.pk}/staff/invite/", {"role": "judge"})
    assert StaffInvitation.objects.filter(event=event, role="judge").count() == 1
    failed = client.post(f"/events/{event.pk}/staff/add/", {"username": "nobody", "role": "judge"}, follow=True)
    assert 'class="message error"' in failed.content.decode()


def test_the_settings_page_edits_the_event(event, organiser, ann):
    client = page(organiser)
    form = client.get(f"/events/{event.pk}/settings/")
    assert form.status_code == 200 and 'name="decklists_published"' in form.content.decode()
    response = client.post(
        f"/events/{event.pk}/settings/",
        {
            "name": "Thursday cube, renamed",
            "date": event.date.isoformat(),
            "enforcement_level": "competitive",
            "pick_timer": "on",
            "deck_building_minutes": "40",
            "decklist_deadline": "",
            "decklists_published": "on",
        },
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.enforcement_level, event.deck_building_minutes, event.decklists_published) == (
        "Thursday cube, renamed",
        "competitive",
        40,
        True,
    )
    bad = client.post(
        f"/events/{event.pk}/settings/",
        {"name": "", "date": "", "deck_building_minutes": "0", "enforcement_level": "x"},
    )
    assert bad.status_code == 400 and "Nothing was saved" in bad.content.decode()
    assert page(ann).get(f"/events/{event.pk}/settings/").status_code == 403
    event.refresh_from_db()
    assert event.name == "Thursday cube, renamed"


def _seat(event, user, *, number=1, position=2):
    from tests.factories import PodFactory, RegistrationFactory, SeatFactory

    pod = PodFactory(event=event, number=number, seed=number)
    registration = RegistrationFactory(event=event, user=user, name=user.username)
    return SeatFactory(pod=pod, position=position, registration=registration)


def test_a_seated_player_added_as_judge_is_added_with_a_warning(event, organiser, ann, bob):
    """The organiser decides, but is told: a judge seated as a player of the same event (page,
    staff list and API alike). A player added as organiser, or a judge who does not play, is not flagged."""
    _seat(event, ann)
    client = page(organiser)
    added = client.post(f"/events/{event.pk}/staff/add/", {"username": "ann", "role": "judge"}, follow=True)
    html = added.content.decode()
    assert "judge" in roles_of(event, ann)
    assert "ann is also seated as a player in this event (pod 1, seat 3)" in html
    assert "also a player (pod 1)" in client.get(f"/events/{event.pk}/staff/").content.decode()
    response = api(organiser).post(
        f"/api/events/{event.pk}/staff/", {"username": "bob", "role": "judge"}, format="json"
    )
    assert response.status_code == 201 and response.json()["warnings"] == []
    response = api(organiser).post(
        f"/api/events/{event.pk}/staff/", {"username": "ann", "role": "head_judge"}, format="json"
    )
    assert response.status_code == 201
    assert [w["code"] for w in response.json()["warnings"]] == ["staff_is_player"]
    plain = client.post(f"/events/{event.pk}/staff/add/", {"username": "ann", "role": "organiser"}, follow=True)
    assert "also seated as a player" not in plain.content.decode()


def test_a_seated_player_opening_a_judge_invitation_is_warned_before_accepting(event, organiser, ann):
    _seat(event, ann)
    invitation = event_services.invite_staff(event_id=event.pk, role="judge", actor=organiser)
    client = page(ann)
    before = client.get(f"/events/staff-invitations/{invitation.token}/").content.decode()
    assert "also seated as a player in this event" in before and 'id="accept-invitation"' in before
    accepted = client.post(f"/events/staff-invitations/{invitation.token}/", follow=True).content.decode()
    assert "judge" in roles_of(event, ann) and "also seated as a player" in accepted
