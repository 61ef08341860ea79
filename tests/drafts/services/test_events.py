"""Creating an event: a cube list's unknown card names are refused in the reader's language."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation

from drafts import error_codes, services
from draftsite.errors import DomainError

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "names", "expected"),
    [
        ("en", ["Nowhere Card"], "1 card name in the cube list is not in the catalogue: Nowhere Card"),
        ("en", ["Nowhere Card", "Elsewhere"], "2 card names in the cube list are not in the catalogue: Nowhere"),
        ("pt-br", ["Nowhere Card", "Elsewhere"], "2 nomes de cartas da lista do cubo não estão no catálogo: Nowhere"),
        ("ru", ["Nowhere Card", "Elsewhere"], "2 названия карт из списка куба нет в каталоге: Nowhere"),
    ],
)
def test_unknown_cube_cards_are_named_in_the_readers_language(cube_names, language, names, expected):
    with translation.override(language), pytest.raises(DomainError) as refused:
        services.create_event(
            name="Cube", date=dt.date(2026, 12, 4), draft_format="cube", cube_list=[*cube_names[:10], *names]
        )
    assert refused.value.code == error_codes.UNKNOWN_CARD
    assert str(refused.value.message).startswith(expected), refused.value.message
