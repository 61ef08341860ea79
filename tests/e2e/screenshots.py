"""Take the screenshots of docs/screenshots.md of the live draft pages (not a test; run it by hand).

    python -m tests.e2e.screenshots [OUTPUT_DIR]      # default docs/screenshots
    python -m tests.e2e.screenshots --only sealed     # only the sealed and paper sealed pages
    python -m tests.e2e.screenshots --only phone      # only the phone at the venue (push, offline)

It builds a throw-away database with the bundled Innistrad cards, an event with eight players a
few picks into round 1, serves it with daphne and photographs the pages in
headless Chromium (desktop 1280 px and phone 375 px), and the draft and deck pages in
Portuguese, Spanish, Italian and Russian (player-draft-<lang>, deck-<lang>). The sealed pages
(``sealed-*``, ``paper-sealed-*``, ``event-form-boosters``) come from a DSK sealed event of eight
players with opened pools and a paper sealed event after the MTR 7.5 swap (one pool confirmed,
one disputed, one back with the organiser after a drop). With REDIS_URL set, the pod page
also shows the other players as connected. Card images need the internet, so the pages
show their text rendering, as they do at a venue without a network.

The database is a fresh one on the project's PostgreSQL, as the site and the tests use it: the
server of ``DATABASE_URL`` when it is set, else the embedded server in ``var/pgdata``
(draftsite/embedded_db.py); it is dropped at the end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [
    "Alice",
    "Bruno",
    "Chen",
    "Dana",
    "Emil",
    "Fatima",
    "Gus",
    "Hiro",
    "Ines",
    "Jonas",
    "Kofi",
    "Lena",
    "Mateo",
    "Nora",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sami",
    "Tess",
]


def throwaway_database() -> tuple[str, str]:
    """A new, empty database on the project's PostgreSQL (``DATABASE_URL``'s server, else the
    embedded one, which this process then holds until it exits): its URL, and the URL of the
    server's maintenance database to drop it from."""
    import psycopg
    from psycopg import sql

    server = os.environ.get("DATABASE_URL", "")
    if not server:
        from draftsite import embedded_db

        server = embedded_db.start(ROOT / "var" / "pgdata")
    name = f"draftsite_screenshots_{os.getpid()}"
    parts = urllib.parse.urlsplit(server)
    url, maintenance = (urllib.parse.urlunsplit(parts._replace(path=f"/{db}")) for db in (name, "postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return url, maintenance


def drop_database(url: str, maintenance: str) -> None:
    import psycopg
    from psycopg import sql

    name = urllib.parse.urlsplit(url).path.lstrip("/")
    with psycopg.connect(maintenance, autocommit=True) as conn:
        # FORCE: the script's own Django connections may still be open.
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def build(database_url: str, only: str = "") -> dict:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from django.utils import timezone

    from cards.importers import import_file
    from drafts import presence, services
    from drafts.models import DraftCard, Pack, Seat
    from events import roles
    from events import services as event_services
    from events.access import SYSTEM
    from events.models import EventStaff, StaffRole

    call_command("migrate", verbosity=0)
    User = get_user_model()
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name=roles.ORGANISER)[0])
    judge = User.objects.create_user("judge", password="x")
    judge.groups.add(Group.objects.get_or_create(name=roles.JUDGE)[0])
    users = [User.objects.create_user(name.lower(), password="x") for name in PLAYERS]
    for user in users:
        user.groups.add(Group.objects.get_or_create(name=roles.PLAYER)[0])
    import_file(ROOT / "cards/data/mtgjson/ISD.json.gz")
    phone = build_phone(organiser, users)
    if only == "phone":  # no drafts: the match pages need none
        return {"organiser": organiser, "users": users, **phone}
    import_file(ROOT / "cards/data/mtgjson/ZNR.json.gz")  # Negate, for the deck in Portuguese
    event = services.create_event(
        name="Friday Night Draft: Innistrad",
        date=timezone.localdate(),
        created_by=organiser,
        set_codes=["ISD"],
        enforcement_level="competitive",
    )
    EventStaff.objects.create(event=event, user=judge, role=StaffRole.JUDGE)
    regs = [
        event_services.register_player(event_id=event.pk, user=u, name=n, actor=SYSTEM) for u, n in zip(users, PLAYERS)
    ]
    # Three pods: pod 1 a few picks into round 1, pod 2 paused, pod 3 between rounds.
    groups = [regs[0:8], regs[8:14], regs[14:20]]
    pods = services.seat_players(event_id=event.pk, seed=2011, pods=[[r.pk for r in g] for g in groups], actor=SYSTEM)
    for pod in pods:
        services.start_pod(pod_id=pod.pk, actor=organiser)

    def pick(seat, prefer_dfc):
        pack = Pack.objects.filter(holder=seat).order_by("queue_seq").first()
        if pack is None:
            return False
        cards = DraftCard.objects.in_pack(pack).order_by("-is_dfc" if prefer_dfc else "is_dfc", "slot")
        services.make_pick(
            seat_id=seat.pk, draft_card_id=cards.first().pk, pack_id=pack.pk, actor=seat.registration.user
        )
        return True

    pod, second, third = pods
    seats = list(Seat.objects.filter(pod=pod).order_by("position"))
    for turn in range(3):
        for seat in seats:
            pick(seat, prefer_dfc=(seat.position + turn) % 3 == 0 and seat.position != 7)
    for seat in seats[1:]:
        pick(seat, prefer_dfc=False)  # seat 1 (Alice) now has packs waiting
    services.extend_clocks(pod_id=pod.pk, seconds=600, actor=organiser)
    for seat in Seat.objects.filter(pod=second).order_by("position"):
        pick(seat, prefer_dfc=True)
    services.pause_pod(pod_id=second.pk, actor=organiser)
    while any(
        [pick(seat, prefer_dfc=seat.position % 2 == 0) for seat in Seat.objects.filter(pod=third).order_by("position")]
    ):
        pass
    if os.environ.get("REDIS_URL"):
        for seat in seats[1:6] + list(Seat.objects.filter(pod__in=[second, third])):
            presence.touch(seat.pk, f"screenshot-{seat.pk}")
    # A constructed event where Alice registered her deck pasted in Portuguese (issue 16): the
    # deck page shows each English name with the printed one beside it.
    from decks import services as deck_services

    constructed = services.create_event(
        name="Innistrad Constructed",
        date=timezone.localdate(),
        created_by=organiser,
        draft_format="cube",
        cube_list=["Island"],
    )
    constructed.deck_format = "constructed"
    constructed.save()
    event_services.register_player(event_id=constructed.pk, user=users[0], name=PLAYERS[0], actor=SYSTEM)
    pasted = (ROOT / "tests/decks/fixtures/delver_isd_pt.txt").read_text(encoding="utf-8")
    sections = deck_services.decklist_entries(deck_services.read_decklist(pasted))
    deck, _ = deck_services.register_deck(
        event_id=constructed.pk,
        actor=users[0],
        main=sections["main"],
        sideboard=sections["sideboard"],
        opaque_sleeves=True,
        source_format="text",
    )
    return {
        "event": event,
        "pod": pod,
        "seats": seats,
        "organiser": organiser,
        "users": users,
        "deck": deck,
        "judge": judge,
        **phone,
        **build_sealed(organiser, users),
    }


def build_phone(organiser, users) -> dict:
    """An event of eight players in round 1 of its matches (started, 50 minutes), where Alice
    turned notifications on for pairings, her draft's start and the round's last 10 minutes."""
    from django.utils import timezone

    from drafts import services
    from events import services as event_services
    from events.access import SYSTEM
    from matches import services as match_services
    from push import services as push_services

    event = services.create_event(
        name="Saturday Draft: Innistrad", date=timezone.localdate(), created_by=organiser, set_codes=["ISD"]
    )
    regs = [
        event_services.register_player(event_id=event.pk, user=u, name=n, actor=SYSTEM)
        for u, n in zip(users[:8], PLAYERS[:8], strict=True)
    ]
    (pod,) = services.seat_players(event_id=event.pk, pods=[[r.pk for r in regs]], actor=SYSTEM)
    match_services.configure_matches(event_id=event.pk, actor=organiser, round_minutes=50, seed=49)
    round_obj = match_services.pair_next_round(event_id=event.pk, actor=organiser, pod_id=pod.pk)
    match_services.start_round(round_id=round_obj.pk, actor=organiser)
    push_services.set_event_push(
        event_id=event.pk, actor=users[0], on=True, triggers=["pairings", "draft_start", "round_ending", "judge"]
    )
    return {"phone_event": event, "phone_round": round_obj}


def build_sealed(organiser, users) -> dict:
    """A DSK sealed event (8 players, pools opened, five decks registered) and a paper sealed
    event after the swap: one pool confirmed, one disputed, one back with the organiser (its
    builder dropped)."""
    from cards.importers import import_file
    from decks import services as deck_services
    from decks.models import SealedPool
    from events import services as event_services
    from events.access import SYSTEM
    from matches import services as match_services
    from sealed import core, selectors
    from sealed import services as sealed_services
    from sealed.models import PaperPool

    import_file(ROOT / "cards/data/cockatrice/DSK.xml.gz")
    generated = sealed_services.create_sealed_event(
        actor=organiser, name="Duskmourn Prerelease", date=timezone_date(), boosters=["DSK"], seed=2024
    )
    regs = [
        event_services.register_player(event_id=generated.pk, user=u, name=n, actor=SYSTEM)
        for u, n in zip(users[:8], PLAYERS[:8], strict=True)
    ]
    sealed_services.open_pools(event_id=generated.pk, actor=organiser)
    for user, reg in list(zip(users, regs, strict=False))[1:6]:
        pool = SealedPool.objects.get(registration=reg).cards
        main = [{"card_id": r["card_id"], "count": 1} for r in pool[:23]] + [{"name": "Swamp", "count": 17}]
        deck_services.register_deck(event_id=generated.pk, actor=user, main=main)

    paper = sealed_services.create_sealed_event(
        actor=organiser, name="Paper prerelease: Duskmourn", date=timezone_date(), boosters=["DSK"], paper=True, seed=7
    )
    paper_regs = [
        event_services.register_player(event_id=paper.pk, user=u, name=n, actor=SYSTEM)
        for u, n in zip(users[8:16], PLAYERS[8:16], strict=True)
    ]
    groups: dict[str, list[dict]] = {}
    for row in selectors.set_catalogue(["DSK"]):
        groups.setdefault(row["group"], []).append(row)
    for index, user in enumerate(users[8:16]):
        chosen = (
            groups["common"][index * 5 : index * 5 + 45]
            + groups["uncommon"][index * 2 : index * 2 + 15]
            + groups[core.RARE_OR_MYTHIC][index : index + 6]
        )
        sealed_services.register_paper_pool(
            event_id=paper.pk, actor=user, cards=[{"card_id": c["card_id"], "count": 1} for c in chosen]
        )
    match_services.configure_matches(event_id=paper.pk, actor=organiser, mode="event")
    sealed_services.swap_pools(event_id=paper.pk, actor=organiser, seed=75)
    builders = {p.builder_id: p for p in PaperPool.objects.filter(event=paper)}
    by_reg = {r.pk: u for r, u in zip(paper_regs, users[8:16], strict=True)}
    sealed_services.answer_pool(event_id=paper.pk, actor=by_reg[paper_regs[1].pk], confirm=True)
    sealed_services.answer_pool(
        event_id=paper.pk, actor=by_reg[paper_regs[2].pk], confirm=False, reason="Two rares on the list are missing"
    )
    match_services.drop_player(event_id=paper.pk, registration_id=paper_regs[3].pk, actor=organiser)
    assert builders  # every registered pool went to another player
    return {"sealed": generated, "paper": paper, "paper_player": users[8], "sealed_player": users[0]}


def timezone_date():
    from django.utils import timezone

    return timezone.localdate()


def serve(database_url: str, port: int) -> subprocess.Popen:
    from push import config

    public, private = config.make_key_pair()  # push on, so the notifications page offers it
    env = {
        **os.environ,
        "VAPID_PUBLIC_KEY": public,
        "VAPID_PRIVATE_KEY": private,
        "DATABASE_URL": database_url,
        "DB_CONN_MAX_AGE": "0",
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        "LOG_LEVEL": "WARNING",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "draftsite.asgi:application"],
        cwd=ROOT,
        env=env,
    )
    for _ in range(300):  # up to a minute: a busy machine starts daphne slowly
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("daphne did not start")


def main(out: Path, only: str = "") -> None:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="screenshots-"))
    database_url, maintenance = throwaway_database()
    try:
        shoot(out, work, database_url, only)
    finally:
        drop_database(database_url, maintenance)


def shoot(out: Path, work: Path, database_url: str, only: str = "") -> None:
    data = build(database_url, only)  # sets Django up
    from tests.e2e.conftest import CHROME_FLAGS, CHROMEDRIVER, CHROMIUM, _free_port

    port = _free_port()
    server = serve(database_url, port)
    base = f"http://127.0.0.1:{port}"

    from django.test import Client
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROME_FLAGS + [f"--user-data-dir={work / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)

    def as_user(user):
        client = Client()
        client.force_login(user)
        driver.delete_all_cookies()
        driver.get(base + "/healthz")
        driver.add_cookie({"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"})

    def shot(path, name, *, width=1280, phone=False, before=None, max_height=5000):
        """``path`` None: the page as it is (already loaded, e.g. offline)."""
        metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": phone}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        if path is not None:
            driver.get(base + path)
        time.sleep(1.2)  # the socket connects and the status line says "Live"
        if before:
            before()
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": min(height, max_height)})
        time.sleep(0.3)
        driver.save_screenshot(str(out / f"{name}.png"))
        print("wrote", out / f"{name}.png")

    try:
        if only in ("", "phone"):
            shoot_phone(data, as_user, shot, driver, base)
        if only == "phone":
            return
        if only in ("", "sealed"):
            shoot_sealed(data, as_user, shot, driver)
        if only == "sealed":
            return
        pod, seats = data["pod"], data["seats"]
        as_user(data["users"][0])

        def hover_a_dfc():
            dfc = driver.find_elements(By.CSS_SELECTOR, "#pack-form .card.dfc")
            cards = driver.find_elements(By.CSS_SELECTOR, "#pack-form .card .pick-button")
            if cards:
                cards[1].click()  # selected, waiting for "Confirm pick"
            if dfc:
                ActionChains(driver).move_to_element(dfc[0]).perform()

        # The draft page and the deck page in each of the site's other languages (issue 16).
        for language in ("pt-br", "es", "it", "ru"):
            driver.add_cookie({"name": "django_language", "value": language, "path": "/"})
            shot(f"/events/seats/{seats[0].pk}/", f"player-draft-{language}", before=hover_a_dfc)
            shot(f"/decks/{data['deck'].pk}/", f"deck-{language}", max_height=2200)
        driver.delete_cookie("django_language")
        shot(f"/events/seats/{seats[0].pk}/", "player-draft-desktop", before=hover_a_dfc)
        shot(f"/events/seats/{seats[0].pk}/", "player-draft-375", width=375, phone=True, max_height=1700)

        def open_a_dfc():
            chips = driver.find_elements(By.CSS_SELECTOR, ".dfc-chip summary")
            if chips:
                chips[0].click()

        shot(f"/events/pods/{pod.pk}/board/", "board", before=open_a_dfc)
        as_user(data["organiser"])
        shot(f"/events/{data['event'].pk}/dashboard/", "organiser-dashboard")
        shot(f"/events/pods/{pod.pk}/", "pod-detail")
        driver.delete_all_cookies()
        shot(f"/events/watch/{pod.spectator_token}/", "spectator")
    finally:
        driver.quit()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # a socket the worker's page kept open holds daphne
            server.kill()
            server.wait(10)
        from django.db import connections

        connections.close_all()


def shoot_phone(data, as_user, shot, driver, base: str) -> None:
    """docs/accounts.md's player at the venue, 375 px: the event's notification choices, the
    match page (table, opponent, round clock; the installed app's start page), the same page
    offline from the service worker's copy with its age, and a result typed offline and queued.
    The copy is dated 14 minutes back (its X-Saved-At), as after a Wi-Fi drop mid-round."""
    from selenium.webdriver.common.by import By

    from tests.e2e.cdp import Cdp
    from tests.e2e.test_installable_offline import OFFLINE, ONLINE, network, saved
    from tests.e2e.test_live_draft import wait

    event = data["phone_event"]
    as_user(data["users"][0])

    def device_checked():
        wait(driver, lambda d: "Checking" not in d.find_element(By.ID, "push-device-state").text, timeout=15)

    phone = {"width": 375, "phone": True, "max_height": 1500}
    shot(f"/notifications/events/{event.pk}/", "push-settings-375", before=device_checked, **phone)
    me = f"/matches/events/{event.pk}/me/"
    shot(me, "phone-match-375", **phone)
    wait(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), timeout=15)
    driver.get(base + me)  # this load goes through the worker, which saves its copy
    saved(driver, "pages-v1", base + me)
    driver.execute_async_script(
        "const [url, done] = arguments; (async () => {"
        "const c = await caches.open('pages-v1'); const r = await c.match(url);"
        "const h = new Headers(r.headers); h.set('X-Saved-At', String(Date.now() - 14 * 60000));"
        "await c.put(url, new Response(await r.text(), {status: r.status, headers: h})); done(true); })();",
        base + me,
    )
    cdp = Cdp(driver)
    try:
        network(cdp, driver, base, OFFLINE)
        driver.get(base + me)
        wait(driver, lambda d: d.find_element(By.ID, "offline-banner"), timeout=15, message="no offline banner")
        shot(None, "phone-offline-375", **phone)

        def fill(d):
            for name, value in (("won", 2), ("lost", 1)):
                field = d.find_element(By.CSS_SELECTOR, f'.report-form input[name="{name}"]')
                field.clear()
                field.send_keys(str(value))
            d.find_element(By.CSS_SELECTOR, "button.report-result").click()
            return True

        wait(driver, fill, message="could not report")
        wait(driver, lambda d: "saved on this phone" in d.find_element(By.ID, "queued-report").text)
        shot(None, "phone-queued-result-375", **phone)
    finally:
        network(cdp, driver, base, ONLINE)
        cdp.close()


def shoot_sealed(data, as_user, shot, driver) -> None:
    """The sealed pages of docs/organisers.md: the forms with each set's booster kinds, the
    organiser's and a player's sealed page, and the paper sealed registration and swap."""
    sealed, paper = data["sealed"], data["paper"]
    as_user(data["organiser"])

    def choose_dsk_and_kinds():
        driver.execute_script(
            "const f = document.querySelector('form.event-form');"
            "f.querySelector('[name=set_codes]').value = 'DSK';"
            "f.querySelector('[name=set_round_3]').value = 'ISD';"
        )

    shot("/events/new/", "event-form-boosters", before=choose_dsk_and_kinds, max_height=2000)
    shot("/sealed/new/", "sealed-new", max_height=1600)
    shot(f"/sealed/{sealed.pk}/", "sealed-organiser", max_height=1400)
    shot(f"/sealed/{paper.pk}/", "paper-sealed-organiser", max_height=1600)
    as_user(data["sealed_player"])

    def open_first_pack():
        driver.execute_script("const p = document.querySelector('details.sealed-pack'); if (p) p.open = true;")

    shot(f"/sealed/{sealed.pk}/", "sealed-pool-375", width=375, phone=True, before=open_first_pack, max_height=1500)
    as_user(data["paper_player"])
    shot(f"/sealed/{paper.pk}/register-pool/", "paper-sealed-register-375", width=375, phone=True, max_height=1500)
    shot(f"/sealed/{paper.pk}/", "paper-sealed-received-375", width=375, phone=True, max_height=1500)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--only")]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    args = [a for a in args if a != only]
    main(Path(args[0]) if args else ROOT / "docs" / "screenshots", only)
