"""A called pack in a real headless Chromium against a real ASGI server: the organiser's caller
page starts the call, speaks each call (speech synthesis stubbed, so the test hears what the
page says), shows it, pauses and resumes; a player's phone page joins late and shows the
same call. 3-card packs keep it short: picks of 5 s and 5 s, then the review."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from drafts.models import PodLogEntry
from tests.e2e.test_live_draft import wait
from tests.paper.conftest import make_paper_event, user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# Replaces the browser's speech synthesis before any script of the page runs; records each utterance.
SPEECH_STUB = """
window.__spoken = [];
(function () {
  var stub = { speak: function (u) { window.__spoken.push(u.text); }, cancel: function () {},
               getVoices: function () { return []; }, speaking: false, pending: false };
  Object.defineProperty(window, "speechSynthesis", { value: stub, configurable: true });
  window.SpeechSynthesisUtterance = function (text) { this.text = text; };
})();
"""


def spoken(driver) -> list[str]:
    return driver.execute_script("return window.__spoken || [];")


def text(driver, element_id: str) -> str:
    """The element's text as written (the caller's stylesheet shows some of it in capitals)."""
    return (driver.find_element(By.ID, element_id).get_attribute("textContent") or "").strip()


def hears(driver, line: str, timeout: float = 10.0) -> None:
    wait(driver, lambda d: line in spoken(d), timeout, f"never heard {line!r}; heard {spoken(driver)}")


def test_a_called_pack_is_spoken_and_shown(browsers, login, server_url):
    from events import roles

    organiser = user("org", roles.ORGANISER)
    event, (pod,) = make_paper_event(organiser, pods=1, per_pod=4, pack_size=3, prefix="e2e")
    player = pod.seats.get(position=2).registration.user

    caller = login(browsers.get(), organiser)
    stub = caller.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SPEECH_STUB})
    try:
        caller.get(f"{server_url}/paper/pods/{pod.pk}/caller/")
        wait(
            caller,
            lambda d: d.execute_script("return !!window.Caller && window.Caller.isSocketOpen();"),
            message="the caller page never connected",
        )
        assert text(caller, "call-phase") == "Not called yet"
        caller.find_element(By.CSS_SELECTOR, "input[name=sound][value=speech]").click()
        delay = caller.find_element(By.ID, "delay")
        delay.clear()
        delay.send_keys("2")
        caller.find_element(By.ID, "start-call").click()

        hears(caller, "Pick 1. 5 seconds.")
        assert not caller.find_element(By.ID, "start-call").is_displayed()  # called: no second start
        assert spoken(caller) == ["Round 1: pass left.", "Pick 1. 5 seconds."]
        assert text(caller, "call-pick") == "1"
        assert text(caller, "call-caption") == "Round 1: pass left. Pick 1. 5 seconds."
        assert "Pass left" in text(caller, "call-direction")
        assert "3 cards in the pack" in text(caller, "call-detail")

        hears(caller, "Pick 2. 5 seconds.")
        assert spoken(caller)[2:] == ["Draft.", "Pick 2. 5 seconds."]
        assert text(caller, "call-pick") == "2"

        # A player's phone joins late: it shows the call in force at once (no sound by default).
        phone = login(browsers.get(), player)
        phone.get(f"{server_url}/paper/pods/{pod.pk}/")
        # Both at once: the pick number is already in the server's HTML, the direction only
        # once the page's script has rendered the call (asserting it right after was a race).
        wait(
            phone,
            lambda d: text(d, "call-pick") == "2" and "Pass left" in text(d, "call-direction"),
            message="the late page did not show pick 2 and its direction",
        )

        # The judge pauses (a fallen card): the call stops, says so, shows why to staff only.
        caller.find_element(By.ID, "pause-reason").send_keys("Card on the floor")
        caller.find_element(By.ID, "pause-call").click()
        hears(caller, "Stop. The draft is paused.")
        wait(caller, lambda d: d.find_element(By.ID, "call-paused").is_displayed())
        assert "Card on the floor" in text(caller, "call-paused")
        wait(caller, lambda d: "Paused: Card on the floor — org" in text(d, "call-log"), message="log not shown")
        wait(phone, lambda d: d.find_element(By.ID, "call-paused").is_displayed(), message="the phone missed the pause")
        assert "Card on the floor" not in phone.page_source
        frozen = text(caller, "call-countdown")
        caller.find_element(By.ID, "resume-call").click()
        wait(caller, lambda d: len(spoken(d)) == 6, message=f"no call after the resume: {spoken(caller)}")
        resumed = spoken(caller)[5]
        assert resumed.startswith("Pick 2. ") and resumed.endswith(" seconds.")
        # The pick goes on with the time it had when paused, not a fresh clock. The page speaks
        # the time left when it hears of the resume, a fraction of a second after it, so the
        # whole seconds may have ticked down by one meanwhile (the shown clock rounds up).
        left = int(frozen.split(":")[1])
        assert resumed in {f"Pick 2. {left} seconds.", f"Pick 2. {left - 1} seconds."}

        hears(caller, "Take the last card. Review your picks: 60 seconds.")
        assert spoken(caller)[6:] == ["Draft.", "Take the last card. Review your picks: 60 seconds."]
        assert text(caller, "call-phase") == "Review"
        wait(phone, lambda d: text(d, "call-phase") == "Review", message="the phone never reached the review")
        assert spoken(phone) == []  # the phone page is mute unless its player turns sound on
        history = text(caller, "call-history")  # the last calls, newest first, with the server's time
        assert "Review your picks" in history and history.index("Review your picks") < history.index("Pick 2.")
    finally:
        caller.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": stub["identifier"]})
    log = list(PodLogEntry.objects.filter(pod=pod).order_by("at", "pk").values_list("action", "actor__username"))
    assert log == [("call_start", "org"), ("call_pause", "org"), ("call_resume", "org")]
