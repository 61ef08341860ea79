"""The draft engine's fast path on PostgreSQL: a whole pick in one round trip.

``drafts_pick`` does on the server what ``drafts.services.picks`` does in Python for the
common case: lock the pod, refuse a stale or foreign pick, move the card into the pile,
record the pick, pass the pack, start the next clocks, take a last card, end a round. When
anything else is due (a timer that ran out before the pick was received, an automatic
drafter holding a pack) it changes nothing and answers ``fallback``, and the Python engine
(the reference) does the whole pick instead. The engine tests run both paths and a property
test compares them, so the two cannot drift.

The clock tables mirror ``drafts.timing``; tests compare them value by value. A change to
either the engine or the tables is a new migration that replaces these functions.

SQLite (the embedded default) has no stored functions: there the reference path runs.
"""

from django.db import migrations

FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION drafts_pick_seconds(cards_left integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN cards_left <= 1 THEN NULL
    ELSE CASE LEAST(cards_left, 15)
      WHEN 15 THEN 40 WHEN 14 THEN 40 WHEN 13 THEN 35 WHEN 12 THEN 30 WHEN 11 THEN 25
      WHEN 10 THEN 25 WHEN 9 THEN 20 WHEN 8 THEN 20 WHEN 7 THEN 15 WHEN 6 THEN 10
      WHEN 5 THEN 10 WHEN 4 THEN 5 WHEN 3 THEN 5 WHEN 2 THEN 5 ELSE 40 END
  END
$$;

CREATE OR REPLACE FUNCTION drafts_review_seconds(finished_round integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE finished_round WHEN 1 THEN 60 WHEN 2 THEN 90 ELSE 0 END
$$;

-- A seat's packs in queue order, each with its cards in pack order:
-- [{"pack_id", "round", "picks_made", "initial_size", "deadline", "remaining_ms",
--   "cards": [[draft card id, catalogue card id, printing id, rarity, foil, is_dfc], ...]}, ...]
CREATE OR REPLACE FUNCTION drafts_seat_queue(p_seat bigint) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(jsonb_build_object(
           'pack_id', k.id, 'round', k.round, 'picks_made', k.picks_made,
           'initial_size', k.initial_size, 'deadline', k.deadline, 'remaining_ms', k.remaining_ms,
           'cards', (SELECT coalesce(jsonb_agg(jsonb_build_array(c.id, c.card_id, c.printing_id,
                                                                 c.rarity, c.foil, c.is_dfc)
                                               ORDER BY c.slot, c.id), '[]'::jsonb)
                       FROM drafts_draftcard c WHERE c.pack_id = k.id))
         ORDER BY k.queue_seq), '[]'::jsonb)
    FROM drafts_pack k WHERE k.holder_id = p_seat
$$;

-- Move one card of a pack into a seat's pile and pass the pack on (the Python ``_take``).
-- Returns the neighbour seat that received the pack (NULL once it is empty) and whether the
-- pack arrived at the front of that seat's queue.
CREATE OR REPLACE FUNCTION drafts_take(
    p_pod bigint, p_seat bigint, p_seat_position integer, p_pack bigint, p_card bigint,
    p_kind text, p_actor integer, p_made_at timestamptz, p_at timestamptz, p_position integer,
    p_timer boolean, INOUT seq bigint, OUT pick_id bigint, OUT pick_number integer,
    OUT pack_round integer, OUT neighbour bigint, OUT arrived_first boolean, OUT cards_left integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_pack drafts_pack%ROWTYPE;
  v_contents jsonb;
  v_pile integer;
  v_position integer;
  v_seats integer;
  v_index integer;
  v_following bigint;
BEGIN
  SELECT * INTO v_pack FROM drafts_pack WHERE id = p_pack;
  SELECT coalesce(jsonb_agg(c.id ORDER BY c.slot, c.id), '[]'::jsonb) INTO v_contents
    FROM drafts_draftcard c WHERE c.pack_id = p_pack;
  SELECT count(*) INTO v_pile FROM drafts_draftcard WHERE seat_id = p_seat;
  IF p_position IS NULL OR p_position >= v_pile THEN
    v_position := v_pile;
  ELSE
    UPDATE drafts_draftcard SET pile_position = pile_position + 1
     WHERE seat_id = p_seat AND pile_position >= p_position;
    v_position := p_position;
  END IF;
  pick_number := v_pack.picks_made + 1;
  pack_round := v_pack.round;
  UPDATE drafts_draftcard SET pack_id = NULL, seat_id = p_seat, pile_position = v_position
   WHERE id = p_card;
  INSERT INTO drafts_pick (seat_id, draft_card_id, pack_id, round, pick_number, kind,
                           made_by_id, made_at, pack_contents)
  VALUES (p_seat, p_card, p_pack, v_pack.round, pick_number, p_kind, p_actor, p_made_at, v_contents)
  RETURNING id INTO pick_id;
  UPDATE drafts_seat SET last_pick_at = p_made_at WHERE id = p_seat;

  cards_left := v_pack.initial_size - pick_number;
  arrived_first := false;
  IF cards_left = 0 THEN
    UPDATE drafts_pack SET holder_id = NULL, deadline = NULL, picks_made = pick_number WHERE id = p_pack;
  ELSE
    SELECT count(*) INTO v_seats FROM drafts_seat WHERE pod_id = p_pod;
    -- Left in odd rounds, right in even ones (drafts.timing.pass_direction).
    v_index := ((p_seat_position + CASE WHEN v_pack.round % 2 = 1 THEN 1 ELSE -1 END) % v_seats
                + v_seats) % v_seats;
    SELECT id INTO neighbour FROM drafts_seat WHERE pod_id = p_pod ORDER BY position OFFSET v_index LIMIT 1;
    seq := seq + 1;
    arrived_first := NOT EXISTS (SELECT 1 FROM drafts_pack WHERE holder_id = neighbour AND id <> p_pack);
    UPDATE drafts_pack
       SET holder_id = neighbour, queue_seq = seq, arrived_at = p_at,
           picks_made = pick_number,
           deadline = CASE WHEN arrived_first AND p_timer
                           THEN p_at + make_interval(secs => drafts_pick_seconds(cards_left)) END
     WHERE id = p_pack;
  END IF;
  -- The seat's next pack (if one is queued) starts its clock now.
  IF p_timer THEN
    SELECT id INTO v_following FROM drafts_pack WHERE holder_id = p_seat ORDER BY queue_seq LIMIT 1;
    IF v_following IS NOT NULL THEN
      UPDATE drafts_pack
         SET deadline = p_at + make_interval(secs => drafts_pick_seconds(initial_size - picks_made))
       WHERE id = v_following AND deadline IS NULL;
    END IF;
  END IF;
END
$$;

-- The whole manual pick. Answers {"status": "ok" | "refused" | "fallback", ...}.
CREATE OR REPLACE FUNCTION drafts_pick(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seat_position integer;
  v_seat_owner integer;
  v_pod_id bigint;
  v_state text;
  v_round integer;
  v_queue_seq bigint;
  v_version bigint;
  v_timer boolean;
  v_minutes integer;
  v_card_pack bigint;
  v_card_seat bigint;
  v_card_found boolean;
  v_head bigint;
  v_take record;
  v_last_take record;
  v_last_card bigint;
  v_neighbour_position integer;
  v_settle boolean := false;
  v_round_over timestamptz;
  v_review timestamptz;
  v_building timestamptz;
BEGIN
  SELECT s.pod_id, s.position, r.user_id INTO v_pod_id, v_seat_position, v_seat_owner
    FROM drafts_seat s LEFT JOIN drafts_registration r ON r.id = s.registration_id
   WHERE s.id = p_seat;
  IF v_pod_id IS NULL THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'unknown_seat');
  END IF;
  -- A socket authenticated before the seat was handed to someone else picks no more.
  IF p_owner IS NOT NULL AND v_seat_owner IS DISTINCT FROM p_owner THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'not_your_seat');
  END IF;
  -- The pod row only (not the event's: pods of one event never wait for each other).
  SELECT p.state, p.round, p.queue_seq, p.version, e.pick_timer, e.deck_building_minutes
    INTO v_state, v_round, v_queue_seq, v_version, v_timer, v_minutes
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = v_pod_id FOR UPDATE OF p;

  -- Anything the reference engine would settle first: let it do the whole pick.
  IF v_state <> 'drafting'
     OR EXISTS (SELECT 1 FROM drafts_pack k WHERE k.pod_id = v_pod_id AND k.holder_id IS NOT NULL
                  AND (k.deadline <= p_received OR k.initial_size - k.picks_made <= 1))
     OR EXISTS (SELECT 1 FROM drafts_seat s JOIN drafts_pack k ON k.holder_id = s.id
                 WHERE s.pod_id = v_pod_id AND s.is_automatic)
     OR NOT EXISTS (SELECT 1 FROM drafts_pack k WHERE k.pod_id = v_pod_id
                      AND k.holder_id IS NOT NULL AND k.round = v_round) THEN
    RETURN jsonb_build_object('status', 'fallback');
  END IF;

  SELECT true, c.pack_id, c.seat_id INTO v_card_found, v_card_pack, v_card_seat
    FROM drafts_draftcard c WHERE c.id = p_card AND c.pod_id = v_pod_id;
  IF v_card_found AND v_card_seat = p_seat THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'already_picked');
  END IF;
  SELECT id INTO v_head FROM drafts_pack WHERE holder_id = p_seat ORDER BY queue_seq LIMIT 1;
  IF v_head IS NULL THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'no_pack');
  END IF;
  IF p_pack IS NOT NULL AND p_pack <> v_head THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'wrong_pack');
  END IF;
  IF v_card_found IS NULL OR v_card_pack IS DISTINCT FROM v_head THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'card_not_in_pack');
  END IF;

  SELECT * INTO v_take FROM drafts_take(v_pod_id, p_seat, v_seat_position, v_head, p_card, 'manual',
                                        p_actor, p_received, p_now, p_position, v_timer, v_queue_seq);
  v_queue_seq := v_take.seq;
  v_version := v_version + 1;

  -- Settle what the pick made due, as the reference does, when it is only the pack's last
  -- card or the end of the round; anything else (a timer that has run out since the pick was
  -- received, an automatic drafter) is left to the reference engine after this function.
  IF EXISTS (SELECT 1 FROM drafts_pack k WHERE k.pod_id = v_pod_id AND k.holder_id IS NOT NULL
               AND k.deadline <= p_now)
     OR EXISTS (SELECT 1 FROM drafts_seat s JOIN drafts_pack k ON k.holder_id = s.id
                 WHERE s.pod_id = v_pod_id AND s.is_automatic) THEN
    v_settle := true;
  ELSE
    IF v_take.cards_left = 1 THEN
      SELECT id INTO v_last_card FROM drafts_draftcard WHERE pack_id = v_head;
      SELECT position INTO v_neighbour_position FROM drafts_seat WHERE id = v_take.neighbour;
      SELECT * INTO v_last_take FROM drafts_take(v_pod_id, v_take.neighbour, v_neighbour_position,
                                                 v_head, v_last_card, 'last_card', NULL, p_now,
                                                 p_now, NULL, v_timer, v_queue_seq);
      v_queue_seq := v_last_take.seq;
      v_version := v_version + 1;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM drafts_pack k WHERE k.pod_id = v_pod_id
                     AND k.holder_id IS NOT NULL AND k.round = v_round) THEN
      SELECT coalesce(max(k.made_at), p_now) INTO v_round_over
        FROM drafts_pick k JOIN drafts_pack a ON a.id = k.pack_id
       WHERE a.pod_id = v_pod_id AND k.round = v_round;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (v_pod_id, v_round_over, NULL, 'round_end', jsonb_build_object('round', v_round));
      IF v_round >= 3 THEN
        v_state := 'deck_building';
        v_building := v_round_over + make_interval(mins => v_minutes);
        INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
        VALUES (v_pod_id, v_round_over, NULL, 'deck_building_start', '{}'::jsonb);
      ELSE
        v_state := 'reviewing';
        IF v_timer THEN
          v_review := v_round_over + make_interval(secs => drafts_review_seconds(v_round));
        END IF;
      END IF;
      v_version := v_version + 1;
      UPDATE drafts_pod SET state = v_state, review_deadline = v_review,
                            deck_building_deadline = coalesce(v_building, deck_building_deadline)
       WHERE id = v_pod_id;
    END IF;
  END IF;
  UPDATE drafts_pod SET queue_seq = v_queue_seq, version = v_version WHERE id = v_pod_id;

  RETURN jsonb_build_object(
    'status', 'ok', 'settle', v_settle,
    'pick', jsonb_build_object('id', v_take.pick_id, 'card', p_card, 'round', v_take.pack_round,
                               'pick_number', v_take.pick_number, 'kind', 'manual',
                               'pod_version', v_version),
    'pod', (SELECT jsonb_build_object(
                     'id', p.id, 'event_id', p.event_id, 'number', p.number, 'state', p.state,
                     'paused_from', p.paused_from, 'round', p.round,
                     'review_deadline', p.review_deadline,
                     'deck_building_deadline', p.deck_building_deadline,
                     'paused_remaining_ms', p.paused_remaining_ms, 'pick_timer', v_timer,
                     'version', p.version)
              FROM drafts_pod p WHERE p.id = v_pod_id),
    'queue', drafts_seat_queue(p_seat),
    'neighbour', v_take.neighbour,
    'neighbour_queue', CASE WHEN v_take.arrived_first AND v_take.cards_left > 1
                            THEN drafts_seat_queue(v_take.neighbour) END);
END
$$;
"""

DROP = """
DROP FUNCTION IF EXISTS drafts_pick(bigint, bigint, bigint, integer, integer, integer, timestamptz,
                                    timestamptz);
DROP FUNCTION IF EXISTS drafts_take(bigint, bigint, integer, bigint, bigint, text, integer, timestamptz,
                                    timestamptz, integer, boolean, bigint);
DROP FUNCTION IF EXISTS drafts_seat_queue(bigint);
DROP FUNCTION IF EXISTS drafts_review_seconds(integer);
DROP FUNCTION IF EXISTS drafts_pick_seconds(integer);
"""


def create_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTIONS, params=None)


def drop_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("drafts", "0003_event_deck_format"),
    ]

    operations = [
        migrations.RunPython(create_functions, drop_functions, elidable=False),
    ]
