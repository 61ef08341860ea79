"""The seeded IPG catalogue: every infraction, its section, category and default per REL."""

from __future__ import annotations

import pytest

from penalties.models import Infraction, PenaltyKind, severity

pytestmark = pytest.mark.django_db

N, W, GL, ML, DQ = "no_penalty", "warning", "game_loss", "match_loss", "disqualification"

# code: (section, category, regular, competitive, professional)
EXPECTED = {
    "missed_trigger": ("2.1", "game_play_error", N, N, N),
    "looking_at_extra_cards": ("2.2", "game_play_error", W, W, W),
    "hidden_card_error": ("2.3", "game_play_error", W, W, W),
    "mulligan_procedure_error": ("2.4", "game_play_error", W, W, W),
    "game_rule_violation": ("2.5", "game_play_error", W, W, W),
    "failure_to_maintain_game_state": ("2.6", "game_play_error", W, W, W),
    "tardiness": ("3.1", "tournament_error", W, GL, GL),
    "outside_assistance": ("3.2", "tournament_error", W, ML, ML),
    "slow_play": ("3.3", "tournament_error", W, W, W),
    "decklist_problem": ("3.4", "tournament_error", W, GL, GL),
    "deck_problem": ("3.5", "tournament_error", W, W, W),
    "limited_procedure_violation": ("3.6", "tournament_error", W, W, W),
    "communication_policy_violation": ("3.7", "tournament_error", W, W, W),
    "marked_cards": ("3.8", "tournament_error", W, W, W),
    "insufficient_shuffling": ("3.9", "tournament_error", W, W, W),
    "unsporting_conduct_minor": ("4.1", "unsporting_conduct", W, W, W),
    "unsporting_conduct_major": ("4.2", "unsporting_conduct", W, ML, ML),
    "unsporting_conduct_improperly_determining_winner": ("4.3", "unsporting_conduct", W, ML, ML),
    "unsporting_conduct_bribery_wagering": ("4.4", "unsporting_conduct", W, ML, ML),
    "unsporting_conduct_aggressive_behavior": ("4.5", "unsporting_conduct", DQ, DQ, DQ),
    "unsporting_conduct_theft": ("4.6", "unsporting_conduct", DQ, DQ, DQ),
    "unsporting_conduct_stalling": ("4.7", "unsporting_conduct", DQ, DQ, DQ),
    "unsporting_conduct_cheating": ("4.8", "unsporting_conduct", DQ, DQ, DQ),
}

CASES = [
    (code, level, row[2 + i])
    for code, row in EXPECTED.items()
    for i, level in enumerate(("regular", "competitive", "professional"))
]


def test_the_catalogue_holds_exactly_the_ipg_infractions():
    assert set(Infraction.objects.values_list("code", flat=True)) == set(EXPECTED)


@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_section_and_category(code):
    infraction = Infraction.objects.get(code=code)
    assert (infraction.section, infraction.category) == EXPECTED[code][:2]


@pytest.mark.parametrize(("code", "level", "default"), CASES)
def test_default_penalty_per_enforcement_level(code, level, default):
    assert Infraction.objects.get(code=code).default_for(level) == default


@pytest.mark.parametrize(("code", "level", "default"), CASES)
def test_issuing_uses_the_default_for_the_event_level(world, code, level, default):
    world.event.enforcement_level = level
    world.event.save()
    penalty = world.issue(code)
    assert penalty.penalty == penalty.default_penalty == default
    assert penalty.enforcement_level == level


def test_regular_rel_never_defaults_to_a_game_or_match_loss():
    """Judging at Regular REL is educational: a fix and a warning; only the serious conduct
    infractions stay a disqualification."""
    for infraction in Infraction.objects.all():
        assert infraction.default_regular in (N, W, DQ)
        if infraction.default_regular == DQ:
            assert infraction.category == "unsporting_conduct"
    assert Infraction.objects.get(code="unsporting_conduct_cheating").default_regular == DQ


def test_penalty_kinds_are_ordered_by_severity():
    assert sorted(PenaltyKind.values, key=severity) == [N, W, GL, ML, DQ]


def test_upgrade_thresholds_follow_the_ipg():
    by_code = dict(Infraction.objects.values_list("code", "upgrade_at"))
    assert all(by_code[c] == 2 for c, row in EXPECTED.items() if row[1] == "tournament_error")
    assert all(
        by_code[c] == 3
        for c in ("looking_at_extra_cards", "hidden_card_error", "mulligan_procedure_error", "game_rule_violation")
    )
    assert by_code["failure_to_maintain_game_state"] is None  # IPG 2: never upgraded
    assert by_code["unsporting_conduct_minor"] == 2


def test_catalogue_api_is_public_and_complete(api_client):
    response = api_client.get("/api/infractions/")
    assert response.status_code == 200
    rows = {row["code"]: row for row in response.json()}
    assert set(rows) == set(EXPECTED)
    assert rows["tardiness"]["defaults"] == {"regular": W, "competitive": GL, "professional": GL}
    assert rows["tardiness"]["section"] == "3.1"


def test_staff_edit_the_catalogue_in_the_admin(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    infraction = Infraction.objects.get(code="slow_play")
    page = client.get(f"/admin/penalties/infraction/{infraction.pk}/change/")
    assert page.status_code == 200
    response = client.post(
        f"/admin/penalties/infraction/{infraction.pk}/change/",
        {
            "code": "slow_play",
            "section": "3.3",
            "category": "tournament_error",
            "name": "Slow Play",
            "summary": "Edited.",
            "default_regular": N,
            "default_competitive": W,
            "default_professional": W,
            "upgrade_at": 2,
            "active": "on",
        },
    )
    assert response.status_code == 302
    infraction.refresh_from_db()
    assert infraction.default_regular == N and infraction.summary == "Edited."
