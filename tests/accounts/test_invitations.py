"""An organiser's CSV of players (name, email, optional username): refused whole with the line
numbers of broken rows (nothing created), otherwise accounts for the new addresses, each
invited by email with a link to choose a password, and everyone registered."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts import error_codes
from accounts.services.invitations import import_players
from draftsite.errors import DomainError, ForbiddenError
from events.models import Registration
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_a_list_with_broken_rows_is_refused_whole_with_line_numbers(event, organiser):
    text = "name,email,username\nAnn,ann@example.test\nBob,not-an-email\nCid,cid@example.test,bad name!\nDee\nAnn B,ANN@example.test\n"
    users_before = User.objects.count()
    with pytest.raises(DomainError) as exc:
        import_players(event_id=event.pk, actor=organiser, text=text)
    assert exc.value.code == error_codes.INVALID_CSV
    assert [p["line"] for p in exc.value.extra["errors"]] == [3, 4, 5, 6]
    assert "3, 4, 5, 6" in exc.value.message
    assert User.objects.count() == users_before and not Registration.objects.filter(event=event).exists()
    assert mail.outbox == []


def test_a_good_list_makes_accounts_invites_them_and_registers_everyone(
    client, event, organiser, django_capture_on_commit_callbacks
):
    UserFactory(username="known", email="known@example.test")
    text = "Ann Able,ann@example.test,annie\nBo Known,KNOWN@example.test\nCy,cy@example.test\n"
    with django_capture_on_commit_callbacks(execute=True):
        result = import_players(event_id=event.pk, actor=organiser, text=text)
    assert (len(result.registered), result.invited) == (3, 2)
    names = dict(Registration.objects.filter(event=event).values_list("name", "user__username"))
    assert names == {"Ann Able": "annie", "Bo Known": "known", "Cy": "cy"}
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.test", "cy@example.test", "known@example.test"]
    invitation = next(m for m in mail.outbox if m.to == ["ann@example.test"])
    assert "annie" in invitation.body
    # Follow the invitation: choose a password, then sign in with it.
    path = re.search(r"http://127\.0\.0\.1:8000(/accounts/reset/\S+/)", invitation.body).group(1)
    page = client.get(path, follow=True)
    assert page.context["validlink"]
    client.post(page.redirect_chain[-1][0], {"new_password1": "x-new-phrase-77", "new_password2": "x-new-phrase-77"})
    assert client.login(username="annie", password="x-new-phrase-77")
    # The same list again: nobody new, nobody registered twice.
    again = import_players(event_id=event.pk, actor=organiser, text=text)
    assert (len(again.registered), again.invited, again.already) == (0, 0, 3)


def test_a_username_of_another_account_or_a_taken_name_refuses_the_list(event, organiser):
    UserFactory(username="annie", email="other@example.test")
    Registration.objects.create(event=event, name="Gwen Guest")
    text = "Ann,ann@example.test,annie\nGwen Guest,gwen@example.test\nOk,ok@example.test\n"
    with pytest.raises(DomainError) as exc:
        import_players(event_id=event.pk, actor=organiser, text=text)
    assert [p["line"] for p in exc.value.extra["errors"]] == [1, 2]
    assert not User.objects.filter(email="ok@example.test").exists()


def test_only_the_organiser_imports(event):
    with pytest.raises(ForbiddenError):
        import_players(event_id=event.pk, actor=UserFactory(), text="A,a@example.test\n")


def test_the_page_takes_a_file_and_shows_broken_lines(client, event, organiser):
    client.force_login(organiser)
    url = f"/events/{event.pk}/registration/import/"
    bad = client.post(url, {"file": SimpleUploadedFile("p.csv", b"A,a@example.test\nB,nope\n")})
    assert bad.status_code == 400
    assert re.search(r'id="import-problems"><li>Line 2: ', bad.content.decode())
    assert client.post(url, {"players": ""}).status_code == 400
    assert client.post(url, {"file": SimpleUploadedFile("p.csv", b"\xff\xfe")}).status_code == 400
    ok = client.post(url, {"file": SimpleUploadedFile("p.csv", "\ufeffÄnn,a@example.test\n".encode())})
    assert ok.status_code == 302
    assert Registration.objects.filter(event=event, name="Änn").exists()
