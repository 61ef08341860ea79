"""Shared fixtures for the whole suite."""

import pytest
import pytest_asyncio
from rest_framework.test import APIClient


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 with production rounds costs ~250 ms a user; tests don't need that."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _media_root_for_servers(tmp_path_factory):
    """Servers and workers the tests start (tests/cluster.py, the e2e daphne) inherit this
    environment: the card images they store go to a temporary folder, not the checkout's media/."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEDIA_ROOT", str(tmp_path_factory.mktemp("media")))
        yield


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path_factory):
    """No test writes into the checkout's media/: each test stores files (card images) in a
    folder of its own under pytest's temporary directory."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache (each xdist worker has its own, tests/parallel.py).

    Rows share ids from one test to the next once a transactional test has emptied the tables,
    and presence sightings are kept a day: seat 41's sighting from an earlier test would show
    on a later test's seat 41.
    """
    from django.core.cache import cache

    cache.clear()


# --- Seed card catalogue (added with the card importer) ------------------------------------

SEED_CARD_FILES = [
    "mtgjson/ISD.json.gz",  # Innistrad: transform DFCs, booster sheets, the Innistrad Checklist
    "mtgjson/ZNR.json.gz",  # Zendikar Rising: modal DFCs (Sejiri Shelter // Sejiri Glacier)
    "scryfall/chk.json.gz",  # Champions of Kamigawa: flip cards (Akki Lavarunner)
    "cockatrice/MKC.xml.gz",  # MKM Commander: Experiment Twelve (disguise)
    "cockatrice/DSK.xml.gz",  # Duskmourn: manifest dread, Rooms
    "checklists/checklists_and_substitutes.mtgjson.json",  # checklist and substitute cards
    "mtgjson/SZNR.json",  # Zendikar Rising substitute cards (parentCode ZNR)
]


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Create the test database as pytest-django does, then import the seed catalogue once.

    Every ``@pytest.mark.django_db`` test then sees real cards: the ISD, ZNR, CHK, MKC and
    DSK sets (Gatstaf Shepherd // Gatstaf Howler, Sejiri Shelter // Sejiri Glacier,
    Akki Lavarunner // Tok-Tok, Volcano Born, Experiment Twelve, the DSK manifest dread cards),
    ISD's booster sheets, and every checklist and substitute card with linked entries (the
    files are in ``SEED_CARD_FILES``, read from ``cards/data``). It takes a few seconds.

    Tests run inside a transaction that is rolled back, so the seed survives them. A
    ``transaction=True`` test empties every table when it ends; mark it
    ``django_db(transaction=True, serialized_rollback=True)`` to get the seed back afterwards
    (from a copy taken here, after the import: ``tests/seed_snapshot.py``). A test that needs
    a catalogue without the seed can use the ``empty_catalogue`` fixture.
    """
    from django.db import connections

    from cards.services import BUNDLED_DATA_DIR, import_card_file
    from tests import seed_snapshot

    with django_db_blocker.unblock():
        for name in SEED_CARD_FILES:
            import_card_file(BUNDLED_DATA_DIR / name)
        for connection in connections.all():
            if getattr(connection, "_test_serialized_contents", None) is not None:
                seed_snapshot.keep(connection.alias)


@pytest.fixture
def empty_catalogue(db):
    """Remove the seed catalogue for one test (rolled back afterwards with the test)."""
    from cards.models import Card, CardSet, ChecklistCard

    ChecklistCard.objects.all().delete()
    Card.objects.all().delete()
    CardSet.objects.all().delete()


def pytest_collection_modifyitems(items):
    """Every ``transaction=True`` test restores the seed catalogue afterwards.

    A transactional test really commits, and Django empties every table when it ends; left
    alone, the tests after it would find no cards, and content types recreated with new ids
    would clash with the serialized copy. Restoring from the copy keeps the suite
    independent of test order.
    """
    for item in items:
        if pytest_asyncio.is_async_test(item):
            item.fixturenames.append("_close_pick_pools")
        marker = item.get_closest_marker("django_db")
        if marker and marker.kwargs.get("transaction") and not marker.kwargs.get("serialized_rollback"):
            # Prepended: a test's own marker (a decorator) would otherwise stay the closest one.
            item.add_marker(pytest.mark.django_db(**{**marker.kwargs, "serialized_rollback": True}), append=False)


@pytest.fixture(autouse=True)
def _fresh_card_payload_cache():
    """Rolled-back tests may reuse card ids (SQLite); never serve one test's card to another."""
    from drafts import cardinfo

    cardinfo.clear()


@pytest.fixture(autouse=True)
def _english_to_start():
    """Each test starts in the default language: a request in another one leaves that one
    active on the thread (Django's locale middleware does not switch back), and a later test
    reading a message would read it translated."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings):
    """Tests get the in-memory channel layer unless they ask for Redis (the fault tests do).

    pytest-asyncio gives each test its own event loop, and a Redis layer's connections,
    bound to the loop that made them, can keep a closing loop waiting for ever.
    """
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.LIVE_UPDATES_URL = ""  # live updates straight to this process's sockets
    settings.PRESENCE_URL = ""  # presence in the cache (tests/drafts/test_presence.py runs both)


@pytest.fixture
def _close_pick_pools(_function_scoped_runner):
    """An async test's event loop closes its pool of pick connections before it closes.

    Socket picks and reads run as in production, on the loop's own pool of connections
    (``drafts.aio``, ``DRAFT_ASYNC_PICKS``); each test has its own loop, and a
    pool left open would hold connections to the test database after its loop is gone. This
    runs on the test's loop (pytest-asyncio's runner) before the runner cancels its tasks.
    """
    yield
    from drafts import aio

    if _function_scoped_runner.get_loop() in aio._pools:
        _function_scoped_runner.run(aio.aclose())


@pytest.fixture
def private_redis():
    """A redis-server of this test's own, which it may also stop (tests.cluster)."""
    from tests import cluster

    port = cluster.free_port()
    process = cluster.start_redis(port)
    holder = {"process": process, "port": port, "url": f"redis://127.0.0.1:{port}/0"}
    yield holder
    holder["process"].kill()
    holder["process"].wait(timeout=10)
