"""At 375 px (a phone): the standings page does not scroll sideways and the site header keeps
to two rows, measured in a real headless Chromium."""

from __future__ import annotations

import pytest

from tests.e2e.test_live_draft import PHONE
from tests.matches.conftest import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

HEADER_MAX = 100  # px: two rows (it was four, about 190 px)


def test_the_standings_fit_a_375_px_phone_and_the_header_takes_two_rows(server_url, browsers, login):
    t = Tournament()
    t.configure(seed=8)
    t.play_round(t.pair())
    for reg in t.regs:  # the longest names the table shows
        reg.name = f"{reg.name} Longname-Ferreira"
        reg.save(update_fields=["name"])
    phone = browsers.get()
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    login(phone, t.organiser)  # signed in: the account and its role badge are in the header too
    for language in ("en", "pt-br"):
        phone.get(f"{server_url}/matches/events/{t.event.pk}/standings/?lang={language}")
        if language != "en":
            phone.add_cookie({"name": "django_language", "value": language, "path": "/"})
            phone.refresh()
        assert "Longname-Ferreira" in phone.page_source
        measured = phone.execute_script(
            "return {width: document.scrollingElement.scrollWidth,"
            " header: document.querySelector('.site-header').getBoundingClientRect().height,"
            " table: document.querySelector('table.standings').getBoundingClientRect().right}"
        )
        assert measured["width"] <= 375, (language, measured)
        assert measured["header"] <= HEADER_MAX, (language, measured)
