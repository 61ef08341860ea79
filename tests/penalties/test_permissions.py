"""Who sees and does what, for every endpoint and page, per role: the player, another player,
a judge of the event, a judge of another event, the head judge, the organiser, site staff and
an anonymous visitor. Checked on the server."""

from __future__ import annotations

import pytest

from penalties import services
from penalties.models import Appeal
from tests.penalties.conftest import World

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "other_player", "judge", "other_judge", "head_judge", "organiser", "staff"]


def user_for(world: World, role: str):
    return None if role == "anonymous" else getattr(world, role)


def expect(table: dict[str, int | str]) -> list[tuple[str, int | str]]:
    assert set(table) == set(ROLES)
    return list(table.items())


@pytest.fixture
def penalty(world):
    return world.issue("tardiness", description="SECRET-ALICE arrived late.")


# --- API -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
def test_api_event_penalties_list(world, penalty, role, status):
    response = world.client(user_for(world, role)).get(f"/api/events/{world.event.pk}/penalties/")
    assert response.status_code == status
    if status == 200:
        assert [p["id"] for p in response.json()] == [penalty.pk]
    else:
        assert "SECRET-ALICE" not in response.content.decode()


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 201,
            "other_judge": 403,
            "head_judge": 201,
            "organiser": 201,
            "staff": 403,
        }
    ),
)
def test_api_issue(world, role, status):
    response = world.client(user_for(world, role)).post(
        f"/api/events/{world.event.pk}/penalties/",
        {"registration": world.other_reg.pk, "infraction": "slow_play", "description": "Slow."},
        format="json",
    )
    assert response.status_code == status
    assert world.event.penalties.count() == (1 if status == 201 else 0)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 200,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
def test_api_penalty_detail(world, penalty, role, status):
    response = world.client(user_for(world, role)).get(f"/api/penalties/{penalty.pk}/")
    assert response.status_code == status
    if status != 200:
        assert "SECRET-ALICE" not in response.content.decode()


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_api_review(world, penalty, role, status):
    response = world.client(user_for(world, role)).post(
        f"/api/penalties/{penalty.pk}/review/", {"decision": "uphold", "reason": "Seen."}, format="json"
    )
    assert response.status_code == status
    penalty.refresh_from_db()
    assert penalty.status == ("final" if status == 200 else "pending_review")


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 201,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 403,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_api_appeal(world, penalty, role, status):
    response = world.client(user_for(world, role)).post(
        f"/api/penalties/{penalty.pk}/appeal/", {"statement": "Unfair."}, format="json"
    )
    assert response.status_code == status
    assert Appeal.objects.filter(penalty=penalty).count() == (1 if status == 201 else 0)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_api_appeal_decision(world, penalty, role, status):
    services.appeal_penalty(penalty_id=penalty.pk, actor=world.player, statement="Unfair.")
    response = world.client(user_for(world, role)).post(
        f"/api/penalties/{penalty.pk}/appeal/decision/", {"decision": "uphold", "reason": "Fair."}, format="json"
    )
    assert response.status_code == status
    penalty.appeal.refresh_from_db()
    assert penalty.appeal.status == ("decided" if status == 200 else "pending")


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 200,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_api_statement(world, penalty, role, status):
    response = world.client(user_for(world, role)).post(
        f"/api/penalties/{penalty.pk}/statement/", {"statement": "My account."}, format="json"
    )
    assert response.status_code == status


@pytest.mark.parametrize("role", ROLES)
def test_api_my_penalties_are_only_mine(world, penalty, role):
    world.issue("slow_play", reg=world.other_reg, description="SECRET-BOB")
    response = world.client(user_for(world, role)).get("/api/me/penalties/")
    if role == "anonymous":
        assert response.status_code == 401
        return
    assert response.status_code == 200
    expected = {"player": [penalty.pk], "other_player": [world.event.penalties.get(registration=world.other_reg).pk]}
    assert [p["id"] for p in response.json()] == expected.get(role, [])


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
def test_api_event_csv(world, penalty, role, status):
    response = world.client(user_for(world, role)).get(f"/api/events/{world.event.pk}/penalties.csv")
    assert response.status_code == status
    assert ("SECRET-ALICE" in response.content.decode()) == (status == 200)


@pytest.mark.parametrize(
    ("role", "count"),
    [
        ("anonymous", None),
        ("player", 0),
        ("other_player", 0),
        ("judge", 0),
        ("other_judge", 0),
        ("head_judge", 1),
        ("organiser", 0),
        ("staff", 0),
    ],
)
def test_api_review_queue_shows_only_head_judged_events(world, penalty, role, count):
    response = world.client(user_for(world, role)).get("/api/penalties/queue/")
    if count is None:
        assert response.status_code == 401
        return
    assert response.status_code == 200 and len(response.json()["penalties"]) == count


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": 401,
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 403,
            "organiser": 403,
            "staff": 200,
        }
    ),
)
def test_api_player_report_is_for_staff(world, penalty, role, status):
    response = world.client(user_for(world, role)).get(f"/api/players/{world.player.pk}/penalties/")
    assert response.status_code == status


def test_api_unknown_penalty_is_404(world):
    response = world.client(world.head_judge).get("/api/penalties/999999/")
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "unknown_penalty"


# --- pages -----------------------------------------------------------------------------


def page_client(client, world, role):
    user = user_for(world, role)
    if user is not None:
        client.force_login(user)
    return client


def check_page(response, status):
    if status == "login":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == status


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 403,
        }
    ),
)
def test_page_issue_form(world, client, role, status):
    check_page(page_client(client, world, role).get(f"/penalties/new/?event={world.event.pk}"), status)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
@pytest.mark.parametrize(
    "path", ["/penalties/events/{e}/", "/penalties/events/{e}/report/", "/penalties/events/{e}/report.csv"]
)
def test_page_event_list_and_reports(world, client, penalty, role, status, path):
    response = page_client(client, world, role).get(path.format(e=world.event.pk))
    check_page(response, status)
    if status == 200:
        assert "SECRET-ALICE" in response.content.decode() or path.endswith("/events/{e}/")


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 200,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
def test_page_penalty_detail(world, client, penalty, role, status):
    response = page_client(client, world, role).get(f"/penalties/{penalty.pk}/")
    check_page(response, status)
    assert ("SECRET-ALICE" in response.content.decode()) == (status == 200)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 200,
            "other_player": 403,
            "judge": 200,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 200,
            "staff": 200,
        }
    ),
)
def test_page_disqualification_report(world, client, role, status):
    dq = world.issue("unsporting_conduct_cheating", description="SECRET-DQ")
    response = page_client(client, world, role).get(f"/penalties/{dq.pk}/disqualification/")
    check_page(response, status)
    assert ("SECRET-DQ" in response.content.decode()) == (status == 200)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 200,
            "head_judge": 200,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_page_review_queue(world, client, penalty, role, status):
    response = page_client(client, world, role).get("/penalties/queue/")
    check_page(response, status)
    # the head judge of another event sees an empty queue, not this event's penalty
    assert (f'href="/penalties/{penalty.pk}/"' in response.content.decode()) == (role == "head_judge")


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 403,
            "organiser": 403,
            "staff": 200,
        }
    ),
)
def test_page_players_report(world, client, penalty, role, status):
    response = page_client(client, world, role).get("/penalties/players/?q=ali")
    check_page(response, status)
    if status == 200:
        assert f'href="/penalties/{penalty.pk}/"' in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_page_my_penalties(world, client, penalty, role):
    world.issue("slow_play", reg=world.other_reg, description="SECRET-BOB")
    response = page_client(client, world, role).get("/penalties/")
    if role == "anonymous":
        check_page(response, "login")
        return
    html = response.content.decode()
    assert response.status_code == 200
    assert ("SECRET-ALICE" in html) == (role == "player")
    assert ("SECRET-BOB" in html) == (role == "other_player")
    if role not in ("player", "other_player"):
        assert "No penalties" in html


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 200,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_page_review_post(world, client, penalty, role, status):
    response = page_client(client, world, role).post(
        f"/penalties/{penalty.pk}/review/", {"decision": "uphold", "reason": "Seen."}
    )
    check_page(response, status)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 302,
            "other_player": 403,
            "judge": 403,
            "other_judge": 403,
            "head_judge": 403,
            "organiser": 403,
            "staff": 403,
        }
    ),
)
def test_page_appeal_post(world, client, penalty, role, status):
    response = page_client(client, world, role).post(f"/penalties/{penalty.pk}/appeal/", {"statement": "Unfair."})
    check_page(response, status)
    assert Appeal.objects.filter(penalty=penalty).count() == (1 if role == "player" else 0)


@pytest.mark.parametrize(
    ("role", "status"),
    expect(
        {
            "anonymous": "login",
            "player": 403,
            "other_player": 403,
            "judge": 302,
            "other_judge": 403,
            "head_judge": 302,
            "organiser": 302,
            "staff": 403,
        }
    ),
)
def test_page_dismiss_post(world, client, role, status):
    response = page_client(client, world, role).post(
        f"/penalties/events/{world.event.pk}/dismiss/", {"source": "pick:1", "reason": "x"}
    )
    check_page(response, status)
