"""Demo data for a new user's first look: accounts for every role and the bundled cards."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from drafts import roles


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    role: str


DEMO_ACCOUNTS = (
    DemoAccount("organiser", "demo-organiser", roles.ORGANISER),
    DemoAccount("headjudge", "demo-headjudge", roles.HEAD_JUDGE),
    DemoAccount("judge", "demo-judge", roles.JUDGE),
    *(DemoAccount(f"player{n}", f"demo-player{n}", roles.PLAYER) for n in range(1, 9)),
)


@transaction.atomic
def create_demo_accounts() -> list[DemoAccount]:
    """Create (or reset) the demo accounts with their role groups. Idempotent."""
    User = get_user_model()
    for account in DEMO_ACCOUNTS:
        user, _ = User.objects.get_or_create(username=account.username)
        user.set_password(account.password)
        user.is_staff = account.role in (roles.ORGANISER, roles.HEAD_JUDGE)
        user.save()
        group, _ = Group.objects.get_or_create(name=account.role)
        user.groups.add(group)
    return list(DEMO_ACCOUNTS)
