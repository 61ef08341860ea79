"""A site's history in seconds: finished booster-draft events written in bulk SQL.

A real site keeps every finished event, and a pick must not cost more on a database that holds
twenty of them than on an empty one (issue 48). Playing 20 x 45,000 picks through the services
to build such a database would take hours; this writes the same rows directly, one
``INSERT ... SELECT`` per table and event: registrations (guests: no accounts), pods (``done``),
seats with their piles, three packs a seat (empty, held by nobody, all 15 picks made), every
card opened (its document entry by the table's trigger, as the site writes it) and every pick,
with the pack's contents at that pick, each seat drafting as ``drafts.core.timing`` passes.
Then ``VACUUM ANALYZE`` of the draft tables, as autovacuum would leave them.

    bench/pick_function --history 20 ...   # the measured event on a database with 20 finished
    bench/draft_load --history 20 ...       # (the default: see its --help)

Needs the schema migrated and a set's cards imported (bench/draft_load's ``prepare``).
"""

from __future__ import annotations

import json
import time

# One event's rows. %(event)s is the event's id; the others are the shape's sizes.
_EVENT_ROWS = [
    # Guests (no account): the unique (event, name) index holds them as it holds players.
    """INSERT INTO drafts_registration (event_id, user_id, name, created_at, share_pick_data)
       SELECT %(event)s, NULL, 'history-' || lpad(g::text, 5, '0'), %(at)s, false
         FROM generate_series(0, %(players)s - 1) g""",
    """INSERT INTO drafts_pod (event_id, number, seed, state, paused_from, paused_remaining_ms, round,
                               review_deadline, deck_building_deadline, queue_seq, version, spectator_token,
                               logs_public, started_at, finished_at)
       SELECT %(event)s, n, n, 'done', '', NULL, 3, NULL, NULL, 360, 400, '', false, %(at)s, %(at)s
         FROM generate_series(1, %(players)s / 8) n""",
    """INSERT INTO drafts_seat (pod_id, position, registration_id, is_automatic, ready, last_pick_at,
                                pile_cover, pile_ids)
       SELECT p.id, r.g %% 8, r.id, false, true, %(at)s, '', '{}'
         FROM (SELECT id, substr(name, 9)::int AS g FROM drafts_registration WHERE event_id = %(event)s) r
         JOIN drafts_pod p ON p.event_id = %(event)s AND p.number = r.g / 8 + 1""",
    """INSERT INTO drafts_pack (pod_id, round, opener_id, holder_id, queue_seq, arrived_at, initial_size,
                                picks_made, deadline, remaining_ms, removed, card_ids)
       SELECT s.pod_id, rd, s.id, NULL, 0, %(at)s, 15, 15, NULL, NULL, '[]', '{}'
         FROM drafts_seat s JOIN drafts_pod p ON p.id = s.pod_id AND p.event_id = %(event)s
        CROSS JOIN generate_series(1, 3) rd""",
    # Every card opened, slot by slot; a catalogue card chosen by a fixed spread over the set.
    """INSERT INTO drafts_draftcard (pod_id, card_id, printing_id, opened_in_id, slot, is_dfc, rarity, foil,
                                    pack_slot)
       SELECT k.pod_id, (%(cards)s::bigint[])[1 + (k.id * 15 + slot) %% cardinality(%(cards)s::bigint[])],
              NULL, k.id, slot, slot = 14, CASE WHEN slot = 0 THEN 'rare' ELSE 'common' END, false,
              CASE WHEN slot = 0 THEN 'rare_mythic' ELSE 'common' END
         FROM drafts_pack k JOIN drafts_pod p ON p.id = k.pod_id AND p.event_id = %(event)s
        CROSS JOIN generate_series(0, 14) slot""",
    # Pick n of a pack takes its slot n - 1; the seat that makes it sits n - 1 places on in the
    # round's direction (left, right, left) from the pack's opener.
    """INSERT INTO drafts_pick (seat_id, draft_card_id, pack_id, round, pick_number, kind, made_by_id, made_at,
                                pack_contents)
       SELECT picker.id, c.id, k.id, k.round, c.slot + 1, 'manual', NULL, %(at)s,
              to_jsonb(contents.ids[c.slot + 1:])
         FROM drafts_pack k
         JOIN drafts_pod p ON p.id = k.pod_id AND p.event_id = %(event)s
         JOIN drafts_seat opener ON opener.id = k.opener_id
         JOIN LATERAL (SELECT array_agg(d.id ORDER BY d.slot) AS ids
                         FROM drafts_draftcard d WHERE d.opened_in_id = k.id) contents ON true
         JOIN drafts_draftcard c ON c.opened_in_id = k.id
         JOIN drafts_seat picker
           ON picker.pod_id = k.pod_id
          AND picker.position = ((opener.position + CASE WHEN k.round %% 2 = 1 THEN 1 ELSE -1 END * c.slot)
                                 %% 8 + 8) %% 8""",
    """UPDATE drafts_seat s SET pile_ids = piles.ids
         FROM (SELECT k.seat_id, array_agg(k.draft_card_id ORDER BY k.round, k.pick_number) AS ids
                 FROM drafts_pick k JOIN drafts_seat t ON t.id = k.seat_id
                 JOIN drafts_pod p ON p.id = t.pod_id AND p.event_id = %(event)s
                GROUP BY k.seat_id) piles
        WHERE s.id = piles.seat_id""",
]

DRAFT_TABLES = (
    "drafts_event",
    "drafts_registration",
    "drafts_pod",
    "drafts_seat",
    "drafts_pack",
    "drafts_draftcard",
    "drafts_pick",
)


def write_events(cursor, events: int, players: int, cards: list[int], set_code: str = "ISD", first: int = 0) -> None:
    """Write finished events ``first + 1`` to ``events`` through ``cursor`` (a DB-API cursor:
    psycopg's, or Django's in a test's transaction), each of ``players`` guests in pods of 8,
    dealt from the catalogue cards ``cards``."""
    if players % 8:
        raise ValueError("history events seat full pods of 8")
    for number in range(first, events):
        cursor.execute(
            "INSERT INTO drafts_event (name, date, enforcement_level, draft_format, set_codes, booster_kinds, cube_card_ids,"
            " pack_size, pick_timer, deck_building_minutes, deck_format, decklist_deadline,"
            " decklists_published, created_by_id, created_at)"
            " VALUES (%s, current_date - %s, 'regular', 'booster', %s, '[]', '[]', 15, true, 25, 'limited', NULL,"
            " true, NULL, now() - make_interval(days => %s)) RETURNING id, created_at",
            [f"History {number + 1}", events - number, json.dumps([set_code] * 3), events - number],
        )
        event, at = cursor.fetchone()
        params = {"event": event, "at": at, "players": players, "cards": cards}
        for sql in _EVENT_ROWS:
            cursor.execute(sql, params)


def seed(database_url: str, events: int, players: int = 1000, set_code: str = "ISD") -> dict:
    """Bring the database at ``database_url`` to ``events`` finished events of ``players``
    guests each (a kept database keeps those it has), then VACUUM ANALYZE. Returns what was
    written and how long it took."""
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(database_url, autocommit=True) as conn:
        cards = [
            row[0]
            for row in conn.execute(
                "SELECT DISTINCT c.id FROM cards_card c JOIN cards_printing p ON p.card_id = c.id "
                "JOIN cards_cardset s ON s.id = p.card_set_id WHERE s.code = %s ORDER BY c.id",
                [set_code],
            ).fetchall()
        ]
        if not cards:
            raise SystemExit(f"no card of {set_code} in the catalogue: import it first")
        have = conn.execute("SELECT count(*) FROM drafts_event WHERE name LIKE 'History %%'").fetchone()
        for number in range(have[0] if have else 0, events):
            with conn.transaction(), conn.cursor() as cursor:
                write_events(cursor, number + 1, players, cards, set_code, first=number)
        written = time.perf_counter() - started
        for table in DRAFT_TABLES:
            conn.execute(f"VACUUM ANALYZE {table}")
        counts = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # type: ignore[index]
            for table in ("drafts_pod", "drafts_seat", "drafts_pack", "drafts_draftcard", "drafts_pick")
        }
    return {
        "events": events,
        "players": players,
        "rows": counts,
        "written_s": round(written, 1),
        "vacuumed_s": round(time.perf_counter() - started - written, 1),
    }
