"""The pick function without reads of the whole seat or pick table.

Measured on the draft load benchmark: the functions of 0006 read every seat of the site two
or three times per pick (the planner answered "the pod's packs with their holders" and the
neighbour's window by scanning the seat table: 1,000 rows a pick at 1,000 players, and every
seat ever seated on a site that has run events), and every pick of the site at each round's
end. The pod's seats are now read once, through the (pod, position) index, into an array that
gives the neighbours and the automatic drafters; a round's last pick is found through the
(seat, round, pick number) index. Same answers, same statements' effects: the engine, race and
property tests compare this path with the reference engine as before.
"""

import importlib

from django.db import migrations

FUNCTIONS = r"""
DROP FUNCTION IF EXISTS drafts_take(bigint, bigint, integer, bigint, bigint, text, integer, timestamptz,
                                    timestamptz, integer, boolean, bigint);

-- Move one card of a pack into a seat's pile and pass the pack on (the Python ``_take``).
-- Returns the neighbour seat that received the pack (NULL once it is empty) and whether the
-- pack arrived at the front of that seat's queue. Few statements on purpose: each costs.
-- p_seats: the pod's seat ids in position order (the neighbour is one of them).
CREATE OR REPLACE FUNCTION drafts_take(
    p_seats bigint[], p_seat bigint, p_seat_position integer, p_pack bigint, p_card bigint,
    p_kind text, p_actor integer, p_made_at timestamptz, p_at timestamptz, p_position integer,
    p_timer boolean, INOUT seq bigint, OUT pick_id bigint, OUT pick_number integer,
    OUT pack_round integer, OUT neighbour bigint, OUT arrived_first boolean, OUT cards_left integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_initial integer;
  v_contents jsonb;
  v_pile integer;
  v_position integer;
BEGIN
  SELECT k.round, k.picks_made + 1, k.initial_size INTO pack_round, pick_number, v_initial
    FROM drafts_pack k WHERE k.id = p_pack;
  SELECT coalesce(jsonb_agg(c.id ORDER BY c.slot, c.id) FILTER (WHERE c.pack_id = p_pack), '[]'::jsonb),
         count(*) FILTER (WHERE c.seat_id = p_seat)
    INTO v_contents, v_pile
    FROM drafts_draftcard c WHERE c.pack_id = p_pack OR c.seat_id = p_seat;
  IF p_position IS NULL OR p_position >= v_pile THEN
    v_position := v_pile;
  ELSE
    UPDATE drafts_draftcard SET pile_position = pile_position + 1
     WHERE seat_id = p_seat AND pile_position >= p_position;
    v_position := p_position;
  END IF;
  UPDATE drafts_draftcard SET pack_id = NULL, seat_id = p_seat, pile_position = v_position
   WHERE id = p_card;
  INSERT INTO drafts_pick (seat_id, draft_card_id, pack_id, round, pick_number, kind,
                           made_by_id, made_at, pack_contents)
  VALUES (p_seat, p_card, p_pack, pack_round, pick_number, p_kind, p_actor, p_made_at, v_contents)
  RETURNING id INTO pick_id;
  UPDATE drafts_seat SET last_pick_at = p_made_at WHERE id = p_seat;

  cards_left := v_initial - pick_number;
  arrived_first := false;
  IF cards_left = 0 THEN
    UPDATE drafts_pack SET holder_id = NULL, deadline = NULL, picks_made = pick_number WHERE id = p_pack;
  ELSE
    -- Left in odd rounds, right in even ones (drafts.timing.pass_direction); seats by position.
    neighbour := p_seats[((p_seat_position + CASE WHEN pack_round % 2 = 1 THEN 1 ELSE -1 END)
                          % cardinality(p_seats) + cardinality(p_seats)) % cardinality(p_seats) + 1];
    seq := seq + 1;
    arrived_first := NOT EXISTS (SELECT 1 FROM drafts_pack WHERE holder_id = neighbour AND id <> p_pack);
    UPDATE drafts_pack
       SET holder_id = neighbour, queue_seq = seq, arrived_at = p_at, picks_made = pick_number,
           deadline = CASE WHEN arrived_first AND p_timer
                           THEN p_at + make_interval(secs => drafts_pick_seconds(cards_left)) END
     WHERE id = p_pack;
  END IF;
  -- The seat's next pack (if one is queued) starts its clock now.
  IF p_timer THEN
    UPDATE drafts_pack
       SET deadline = p_at + make_interval(secs => drafts_pick_seconds(initial_size - picks_made))
     WHERE id = (SELECT id FROM drafts_pack WHERE holder_id = p_seat ORDER BY queue_seq LIMIT 1)
       AND deadline IS NULL;
  END IF;
END
$$;

-- The whole manual pick. Answers {"status": "ok" | "refused" | "fallback", ...}.
CREATE OR REPLACE FUNCTION drafts_pick(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seat_position integer;
  v_seat_owner integer;
  v_pod_id bigint;
  v_event_id bigint;
  v_number integer;
  v_state text;
  v_round integer;
  v_queue_seq bigint;
  v_version bigint;
  v_timer boolean;
  v_minutes integer;
  v_review timestamptz;
  v_building timestamptz;
  v_due boolean;
  v_round_open boolean;
  v_head bigint;
  v_card_pack bigint;
  v_card_seat bigint;
  v_card_found boolean;
  v_take record;
  v_last_take record;
  v_last_card bigint;
  v_neighbour_position integer;
  v_settle boolean;
  v_round_over timestamptz;
  v_seats bigint[];
  v_automatic bigint[];
BEGIN
  SELECT s.pod_id INTO v_pod_id FROM drafts_seat s WHERE s.id = p_seat;
  IF v_pod_id IS NULL THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'unknown_seat');
  END IF;
  -- The pod row only (not the event's: pods of one event never wait for each other).
  SELECT p.event_id, p.number, p.state, p.round, p.queue_seq, p.version, p.review_deadline,
         p.deck_building_deadline, e.pick_timer, e.deck_building_minutes
    INTO v_event_id, v_number, v_state, v_round, v_queue_seq, v_version, v_review, v_building,
         v_timer, v_minutes
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = v_pod_id FOR UPDATE OF p;
  -- Once the pod is ours, in one statement: the pod's seats by position, through the (pod,
  -- position) index (the packs' holders and the neighbours are looked up in these arrays, never
  -- by joining the seat table, a join the planner may answer by reading every seat of the site),
  -- and who holds this seat now (a hand-over may have committed while this pick waited: a socket
  -- authenticated before it picks no more).
  SELECT array_agg(s.id ORDER BY s.position), coalesce(array_agg(s.id) FILTER (WHERE s.is_automatic), '{}'),
         min(s.position) FILTER (WHERE s.id = p_seat),
         (SELECT r.user_id FROM drafts_registration r
           WHERE r.id = min(s.registration_id) FILTER (WHERE s.id = p_seat))
    INTO v_seats, v_automatic, v_seat_position, v_seat_owner
    FROM drafts_seat s WHERE s.pod_id = v_pod_id;
  IF p_owner IS NOT NULL AND v_seat_owner IS DISTINCT FROM p_owner THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'not_your_seat');
  END IF;
  IF v_state <> 'drafting' THEN
    RETURN jsonb_build_object('status', 'fallback');
  END IF;

  -- The packs in queues, in one pass: is anything due by the time the pick was received (the
  -- reference engine settles it first, so it does the whole pick), is the round still open,
  -- and which pack is in front of this seat. The picker's clock ran out if its deadline came
  -- before the pick was received; another seat's only past the grace period (p_cutoff), as
  -- that player's own pick may be on its way.
  SELECT bool_or(k.deadline <= CASE WHEN k.holder_id = p_seat THEN p_received
                                    ELSE least(p_received, p_cutoff) END
                 OR k.initial_size - k.picks_made <= 1 OR k.holder_id = ANY (v_automatic)),
         bool_or(k.round = v_round),
         (array_agg(k.id ORDER BY k.queue_seq) FILTER (WHERE k.holder_id = p_seat))[1]
    INTO v_due, v_round_open, v_head
    FROM drafts_pack k
   WHERE k.pod_id = v_pod_id AND k.holder_id IS NOT NULL;
  IF v_due OR NOT coalesce(v_round_open, false) THEN
    RETURN jsonb_build_object('status', 'fallback');
  END IF;

  SELECT true, c.pack_id, c.seat_id INTO v_card_found, v_card_pack, v_card_seat
    FROM drafts_draftcard c WHERE c.id = p_card AND c.pod_id = v_pod_id;
  IF v_card_found AND v_card_seat = p_seat THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'already_picked');
  END IF;
  IF v_head IS NULL THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'no_pack');
  END IF;
  IF p_pack IS NOT NULL AND p_pack <> v_head THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'wrong_pack');
  END IF;
  IF v_card_found IS NULL OR v_card_pack IS DISTINCT FROM v_head THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'card_not_in_pack');
  END IF;

  SELECT * INTO v_take FROM drafts_take(v_seats, p_seat, v_seat_position, v_head, p_card, 'manual',
                                        p_actor, p_received, p_now, p_position, v_timer, v_queue_seq);
  v_queue_seq := v_take.seq;
  v_version := v_version + 1;

  -- What the pick made due, in one pass: a timer that has run out since the pick was received
  -- or an automatic drafter (left to the reference engine after this function), and whether
  -- the round is still open once the pack's last card (if that is all it holds) is taken.
  SELECT coalesce(bool_or(k.deadline <= p_cutoff OR k.holder_id = ANY (v_automatic)), false),
         coalesce(bool_or(k.round = v_round AND NOT (k.id = v_head AND v_take.cards_left = 1)), false)
    INTO v_settle, v_round_open
    FROM drafts_pack k
   WHERE k.pod_id = v_pod_id AND k.holder_id IS NOT NULL;
  IF NOT v_settle THEN
    IF v_take.cards_left = 1 THEN
      SELECT c.id INTO v_last_card FROM drafts_draftcard c WHERE c.pack_id = v_head;
      SELECT s.position INTO v_neighbour_position FROM drafts_seat s WHERE s.id = v_take.neighbour;
      SELECT * INTO v_last_take FROM drafts_take(v_seats, v_take.neighbour, v_neighbour_position,
                                                 v_head, v_last_card, 'last_card', NULL, p_now,
                                                 p_now, NULL, v_timer, v_queue_seq);
      v_queue_seq := v_last_take.seq;
      v_version := v_version + 1;
    END IF;
    IF NOT v_round_open THEN
      -- Through the (seat, round, pick number) index: never a scan of every pick of the site.
      SELECT coalesce(max(k.made_at), p_now) INTO v_round_over
        FROM drafts_pick k WHERE k.seat_id = ANY (v_seats) AND k.round = v_round;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (v_pod_id, v_round_over, NULL, 'round_end', jsonb_build_object('round', v_round));
      IF v_round >= 3 THEN
        v_state := 'deck_building';
        v_building := v_round_over + make_interval(mins => v_minutes);
        INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
        VALUES (v_pod_id, v_round_over, NULL, 'deck_building_start', '{}'::jsonb);
      ELSE
        v_state := 'reviewing';
        v_review := CASE WHEN v_timer THEN v_round_over + make_interval(secs => drafts_review_seconds(v_round)) END;
      END IF;
      v_version := v_version + 1;
    END IF;
  END IF;
  UPDATE drafts_pod SET state = v_state, review_deadline = v_review, deck_building_deadline = v_building,
                        queue_seq = v_queue_seq, version = v_version
   WHERE id = v_pod_id;

  RETURN jsonb_build_object(
    'status', 'ok', 'settle', v_settle,
    'pick', jsonb_build_object('id', v_take.pick_id, 'card', p_card, 'round', v_take.pack_round,
                               'pick_number', v_take.pick_number, 'kind', 'manual'),
    'pod', jsonb_build_object('id', v_pod_id, 'event_id', v_event_id, 'number', v_number,
                              'state', v_state, 'paused_from', '', 'round', v_round,
                              'review_deadline', v_review, 'deck_building_deadline', v_building,
                              'paused_remaining_ms', NULL, 'pick_timer', v_timer, 'version', v_version),
    'queue', drafts_seat_queue(p_seat),
    'neighbour', v_take.neighbour,
    'neighbour_queue', CASE WHEN v_take.arrived_first AND v_take.cards_left > 1
                            THEN drafts_seat_queue(v_take.neighbour) END);
END
$$;
"""

DROP = """
DROP FUNCTION IF EXISTS drafts_take(bigint[], bigint, integer, bigint, bigint, text, integer, timestamptz,
                                    timestamptz, integer, boolean, bigint);
"""


def create_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTIONS, params=None)


def restore_functions(apps, schema_editor):
    """Back to 0006's functions (its text creates them again)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)
        schema_editor.execute(importlib.import_module("drafts.migrations.0006_pick_function").FUNCTIONS,
                              params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("drafts", "0006_pick_function"),
    ]

    operations = [
        migrations.RunPython(create_functions, restore_functions, elidable=False),
    ]
