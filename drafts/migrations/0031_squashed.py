"""The drafts migrations 0001-0031 in one (``replaces``): what a new database applies.

The models as those migrations leave them, created with one render of the migration state
(``CreateModels``); the role groups (0001), the stored functions as 0031 left them and the draft
card's ``document_entry`` with its trigger (0019). It stops before 0032, the events move, which
a new database applies after the other apps' squashes, as every database did. A database that
applied all of 0001-0031 counts this one as applied; one part of the way through goes on through
them, which stay until every database is past them (docs/development.md, "Migrations").
"""

import hashlib
import importlib

import django.contrib.postgres.fields
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import drafts.log_actions
import draftsite.migration_operations

# 0001: the role groups.
ROLE_GROUPS = importlib.import_module("drafts.migrations.0001_roles").ROLE_GROUPS
GROUPS = [
    "INSERT INTO auth_group (name) VALUES "
    + ", ".join(f"('{name}')" for name in ROLE_GROUPS)
    + " ON CONFLICT (name) DO NOTHING"
]
NO_GROUPS = ["DELETE FROM auth_group WHERE name IN (" + ", ".join(f"'{name}'" for name in ROLE_GROUPS) + ")"]

# The functions as 0031 left them, in creation order (``drafts.sql.FUNCTIONS``): history does not
# move with the files. Each is created as it is, with the digest of its SQL in its comment
# (``drafts.sql.comment``); the way back drops them all.
SQL_FUNCTIONS = {
    "drafts_draftcard_entry": r"""-- A draft card as the pods' documents list it: [id, catalogue card id, printing id, rarity, foil,
-- is_dfc], kept on its row (drafts_draftcard.document_entry) by a trigger on every insert and on
-- every update of those columns. A card keeps them when it moves from pack to pile, so the pod's
-- document, read after every pick (drafts_pod_document), copies each card's entry instead of
-- building it again (bench/pick_function's document figure).
CREATE OR REPLACE FUNCTION drafts_draftcard_entry() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.document_entry := json_build_array(NEW.id, NEW.card_id, NEW.printing_id, NEW.rarity, NEW.foil, NEW.is_dfc);
  RETURN NEW;
END
$$;
""",
    "drafts_pick_seconds": r"""-- Seconds to pick from a pack with cards_left cards (drafts.core.timing.pick_seconds); NULL for the
-- last card, which is passed without a clock.
CREATE OR REPLACE FUNCTION drafts_pick_seconds(cards_left integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN cards_left <= 1 THEN NULL
    ELSE CASE LEAST(cards_left, 15)
      WHEN 15 THEN 40 WHEN 14 THEN 40 WHEN 13 THEN 35 WHEN 12 THEN 30 WHEN 11 THEN 25 WHEN 10 THEN 25 WHEN 9 THEN 20 WHEN 8 THEN 20 WHEN 7 THEN 15 WHEN 6 THEN 10 WHEN 5 THEN 10 WHEN 4 THEN 5 WHEN 3 THEN 5 WHEN 2 THEN 5
      ELSE 40 END
  END
$$;
""",
    "drafts_review_seconds": r"""-- Seconds of review after a round (drafts.core.timing.review_seconds); 0 after the last one.
CREATE OR REPLACE FUNCTION drafts_review_seconds(finished_round integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE finished_round WHEN 1 THEN 60 WHEN 2 THEN 90 ELSE 0 END
$$;
""",
    "drafts_seat_queue": r"""-- A seat's packs in queue order, each with its cards in pack order (drafts.queue's rows):
-- [{"pack_id", "round", "picks_made", "initial_size", "deadline", "remaining_ms",
--   "cards": [each card's stored entry (drafts_draftcard_entry), ...]}, ...]
-- PL/pgSQL, not SQL: its plan is kept for the connection's life (migration drafts 0009).
-- json, not jsonb: the stored entries are json and go into the answer as they are, where
-- jsonb would parse each one again (5% of bench/pick_function, 5 December 2026).
CREATE OR REPLACE FUNCTION drafts_seat_queue(p_seat bigint) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(json_agg(json_build_object(
             'pack_id', k.id, 'round', k.round, 'picks_made', k.picks_made,
             'initial_size', k.initial_size, 'deadline', k.deadline, 'remaining_ms', k.remaining_ms,
             'cards', (SELECT coalesce(json_agg((SELECT c.document_entry FROM drafts_draftcard c WHERE c.id = u.id) ORDER BY u.n), '[]'::json)
                         FROM unnest(k.card_ids) WITH ORDINALITY AS u(id, n)))
           ORDER BY k.queue_seq), '[]'::json)
      FROM drafts_pack k WHERE k.holder_id = p_seat
  );
END
$$;
""",
    "drafts_seat_queues": r"""-- Seats' queues by seat id, for the live messages of the seats a pack reached.
CREATE OR REPLACE FUNCTION drafts_seat_queues(p_seats bigint[]) RETURNS json
LANGUAGE plpgsql STABLE AS $$
BEGIN
  -- Most picks reach no seat's front or one: no query to build the object then.
  IF cardinality(p_seats) = 0 THEN
    RETURN '{}'::json;
  ELSIF cardinality(p_seats) = 1 THEN
    RETURN json_build_object(p_seats[1], drafts_seat_queue(p_seats[1]));
  END IF;
  RETURN (SELECT json_object_agg(s.id, drafts_seat_queue(s.id))
            FROM (SELECT DISTINCT unnest(p_seats) AS id) s);
END
$$;
""",
    "drafts_take": r"""-- Move one card of a pack into a seat's pile and pass the pack on: the pack's row and the seat's
-- are written, the card's is not (its place is the array that lists it).
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
  v_contents bigint[];
BEGIN
  SELECT k.round, k.picks_made + 1, k.initial_size, k.card_ids
    INTO pack_round, pick_number, v_initial, v_contents
    FROM drafts_pack k WHERE k.id = p_pack;
  INSERT INTO drafts_pick (seat_id, draft_card_id, pack_id, round, pick_number, kind,
                           made_by_id, made_at, pack_contents)
  VALUES (p_seat, p_card, p_pack, pack_round, pick_number, p_kind, p_actor, p_made_at, to_jsonb(v_contents))
  RETURNING id INTO pick_id;
  -- Into the pile at p_position (0-based; NULL or past the end: last). The card row is not written.
  UPDATE drafts_seat
     SET last_pick_at = p_made_at,
         pile_ids = CASE WHEN p_position IS NULL THEN pile_ids || p_card
                         ELSE pile_ids[:p_position] || p_card || pile_ids[p_position + 1:] END
   WHERE id = p_seat;

  cards_left := v_initial - pick_number;
  arrived_first := false;
  IF cards_left = 0 THEN
    UPDATE drafts_pack SET holder_id = NULL, deadline = NULL, picks_made = pick_number,
           card_ids = array_remove(card_ids, p_card)
     WHERE id = p_pack;
  ELSE
    -- The direction by round (drafts.core.timing.pass_direction): +1 the next seat, -1 the one before.
    neighbour := p_seats[((p_seat_position + CASE pack_round WHEN 1 THEN 1 WHEN 2 THEN -1 WHEN 3 THEN 1 END)
                          % cardinality(p_seats) + cardinality(p_seats)) % cardinality(p_seats) + 1];
    seq := seq + 1;
    arrived_first := NOT EXISTS (SELECT 1 FROM drafts_pack WHERE holder_id = neighbour AND id <> p_pack);
    UPDATE drafts_pack
       SET holder_id = neighbour, queue_seq = seq, arrived_at = p_at, picks_made = pick_number,
           card_ids = array_remove(card_ids, p_card),
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
""",
    "drafts_automatic_card": r"""-- The card an automatic pick takes (``drafts.core.autopick.choose``): the rarest; among equals the
-- one sharing most colours with the distinct cards in the seat's pile; then pack order. A
-- loop over at most 15 cards: as one query, the planner's guess for splitting colour strings
-- made it costly enough to compile with JIT (50 ms a call, measured).
CREATE OR REPLACE FUNCTION drafts_automatic_card(p_pack bigint, p_seat bigint) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_picked text;
  v_card record;
  v_letter text;
  v_rank integer;
  v_weight integer;
  v_best bigint;
  v_best_rank integer;
  v_best_weight integer;
BEGIN
  -- The pile's colour letters run together: a letter's weight is how often it occurs here.
  SELECT coalesce(string_agg(c.color_identity, ''), '') INTO v_picked
    FROM (SELECT DISTINCT (SELECT d.card_id FROM drafts_draftcard d WHERE d.id = u.id) AS card_id
            FROM unnest((SELECT s.pile_ids FROM drafts_seat s WHERE s.id = p_seat)) AS u(id)) p
    JOIN cards_card c ON c.id = p.card_id;
  -- Each card by primary key, one lookup per id, never a join (drafts.sql.CARD_ENTRY says why):
  -- LIMIT 1 keeps the lateral lookup from being flattened into a join.
  FOR v_card IN SELECT u.id, x.rarity, coalesce(x.colors, '') AS colors
                  FROM unnest((SELECT k.card_ids FROM drafts_pack k WHERE k.id = p_pack)) WITH ORDINALITY AS u(id, n)
                  LEFT JOIN LATERAL (SELECT d.rarity, c.color_identity AS colors
                                       FROM drafts_draftcard d LEFT JOIN cards_card c ON c.id = d.card_id
                                      WHERE d.id = u.id LIMIT 1) x ON true
                 ORDER BY u.n LOOP
    v_rank := CASE v_card.rarity WHEN 'mythic' THEN 0 WHEN 'rare' THEN 1 WHEN 'special' THEN 1 WHEN 'bonus' THEN 1 WHEN 'uncommon' THEN 2 WHEN 'common' THEN 3
                                 ELSE 3 END;
    v_weight := 0;
    FOREACH v_letter IN ARRAY regexp_split_to_array(v_card.colors, '') LOOP
      IF v_letter <> '' THEN
        v_weight := v_weight + length(v_picked) - length(replace(v_picked, v_letter, ''));
      END IF;
    END LOOP;
    -- Strictly better only: the first of equals in pack order stays.
    IF v_best IS NULL OR v_rank < v_best_rank OR (v_rank = v_best_rank AND v_weight > v_best_weight) THEN
      v_best := v_card.id;
      v_best_rank := v_rank;
      v_best_weight := v_weight;
    END IF;
  END LOOP;
  RETURN v_best;
END
$$;
""",
    "drafts_due": r"""-- What the engine must do by itself in a drafting pod, one row per thing: a pack's pick clock
-- (due at its deadline, whenever that is), its last card and an automatic drafter's front
-- pack (both due when the pack arrived). drafts_settle_pod applies what is due by its cutoff;
-- the selectors ask when the next thing is due (drafts.services.picks.next_due_at). The pod's
-- packs, then those in a queue (OFFSET 0: as drafts_pick's, never the site's live packs).
CREATE OR REPLACE FUNCTION drafts_due(p_pod bigint, p_now timestamptz)
RETURNS TABLE (pack_id bigint, holder_id bigint, at timestamptz, kind text, rank integer)
LANGUAGE sql STABLE AS $$
  SELECT k.id, k.holder_id, d.at, d.kind, d.rank
    FROM (SELECT h.*, h.queue_seq = min(h.queue_seq) OVER (PARTITION BY h.holder_id) AS head
            FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) h WHERE h.holder_id IS NOT NULL) k
    JOIN drafts_seat s ON s.id = k.holder_id
   CROSS JOIN LATERAL (VALUES
     (k.deadline, 'timeout', 0),
     (CASE WHEN k.initial_size - k.picks_made = 1 THEN coalesce(k.arrived_at, p_now) END, 'last_card', 1),
     (CASE WHEN k.head AND s.is_automatic THEN coalesce(k.arrived_at, p_now) END, 'automatic', 2))
     AS d(at, kind, rank)
   WHERE d.at IS NOT NULL
$$;
""",
    "drafts_begin_round": r"""-- Open the pod's next round at p_at (the Python _begin_round it replaces): every pack of the
-- round goes to its opener, in seat order, with its clock from p_at; no seat is ready; the
-- log says so and the pod row gets the round, the state and its version. For a pod whose row
-- the caller has locked: the review clock running out (drafts_settle_pod), or the organiser
-- starting the pod, advancing a round, or every player being ready (drafts.services.picks).
-- Returns the openers, whose pages are sent their pack.
CREATE OR REPLACE FUNCTION drafts_begin_round(p_pod bigint, p_at timestamptz) RETURNS bigint[]
LANGUAGE plpgsql AS $$
DECLARE
  v_round integer;
  v_seq bigint;
  v_timer boolean;
  v_openers bigint[];
BEGIN
  SELECT p.round + 1, p.queue_seq, e.pick_timer INTO v_round, v_seq, v_timer
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod;
  UPDATE drafts_seat SET ready = false WHERE pod_id = p_pod AND ready;
  WITH opened AS (
    SELECT k.id, k.opener_id, row_number() OVER (ORDER BY s.position) AS n
      FROM drafts_pack k JOIN drafts_seat s ON s.id = k.opener_id
     WHERE k.pod_id = p_pod AND k.round = v_round
  ), moved AS (
    UPDATE drafts_pack k
       SET holder_id = o.opener_id, queue_seq = v_seq + o.n, arrived_at = p_at,
           deadline = CASE WHEN v_timer
                           THEN p_at + make_interval(secs => drafts_pick_seconds(k.initial_size - k.picks_made)) END
      FROM opened o WHERE k.id = o.id
    RETURNING o.opener_id, o.n)
  SELECT coalesce(array_agg(m.opener_id ORDER BY m.n), '{}') INTO v_openers FROM moved m;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_at, NULL, 'round_start', jsonb_build_object('round', v_round));
  UPDATE drafts_pod
     SET round = v_round, state = 'drafting', review_deadline = NULL,
         queue_seq = v_seq + cardinality(v_openers), version = version + 1
   WHERE id = p_pod;
  RETURN v_openers;
END
$$;
""",
    "drafts_settle_pod": r"""-- The engine's heartbeat, for a pod whose row the caller has locked and written: in time
-- order, while the pod drafts, every clock that ran out by p_cutoff (seat p_own_seat's: by
-- p_own_limit), every automatic drafter's front pack and every last card, then the round's
-- end once no pack of it is held; a review clock that ran out by p_cutoff opens the next
-- round (drafts_begin_round), a deck-building clock ends the pod. Writes the pod row if
-- anything changed. Answers {"changed", "version", "state", "arrivals": [seats a pack
-- reached the front of]}.
CREATE OR REPLACE FUNCTION drafts_settle_pod(
    p_pod bigint, p_now timestamptz, p_cutoff timestamptz, p_own_seat bigint,
    p_own_limit timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_round integer;
  v_seq bigint;
  v_version bigint;
  v_review timestamptz;
  v_building timestamptz;
  v_timer boolean;
  v_minutes integer;
  v_seats bigint[];
  v_automatic bigint[];
  v_due record;
  v_take record;
  v_at timestamptz;
  v_position integer;
  v_round_over timestamptz;
  v_finished timestamptz;
  v_arrivals bigint[] := '{}';
  v_changed boolean := false;
BEGIN
  SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline, p.deck_building_deadline,
         e.pick_timer, e.deck_building_minutes
    INTO v_state, v_round, v_seq, v_version, v_review, v_building, v_timer, v_minutes
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod;
  SELECT array_agg(s.id ORDER BY s.position), coalesce(array_agg(s.id) FILTER (WHERE s.is_automatic), '{}')
    INTO v_seats, v_automatic
    FROM drafts_seat s WHERE s.pod_id = p_pod;
  <<settling>>
  LOOP
    IF v_state = 'drafting' THEN
      LOOP
        -- The earliest thing due: by time, then pack, then kind (timeout, last card, automatic).
        SELECT d.pack_id AS id, d.holder_id, d.at, d.kind INTO v_due
          FROM drafts_due(p_pod, p_now) d
         WHERE d.kind <> 'timeout'
            OR d.at <= CASE WHEN d.holder_id = p_own_seat THEN p_own_limit ELSE p_cutoff END
         ORDER BY d.at, d.pack_id, d.rank
         LIMIT 1;
        EXIT WHEN NOT FOUND;
        v_at := least(v_due.at, p_now);
        v_position := array_position(v_seats, v_due.holder_id) - 1;
        v_take := drafts_take(v_seats, v_due.holder_id, v_position, v_due.id,
                              drafts_automatic_card(v_due.id, v_due.holder_id), v_due.kind,
                              NULL, v_at, v_at, NULL, v_timer, v_seq);
        v_seq := v_take.seq;
        v_version := v_version + 1;
        v_changed := true;
        IF v_due.kind <> 'last_card' THEN
          INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
          VALUES (p_pod, v_at, NULL, 'automatic_pick',
                  jsonb_build_object('seat', v_position, 'kind', v_due.kind, 'round', v_take.pack_round,
                                     'pick', v_take.pick_number));
        END IF;
        IF v_take.arrived_first AND v_take.cards_left > 1 THEN
          v_arrivals := v_arrivals || v_take.neighbour;
        END IF;
      END LOOP;
      -- The pod's packs of the round (OFFSET 0: as drafts_pick's, never the site's live packs).
      EXIT settling WHEN EXISTS (SELECT 1 FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k
                                  WHERE k.holder_id IS NOT NULL AND k.round = v_round);
      -- Through the (seat, round, pick number) index: never a scan of every pick of the site.
      SELECT coalesce(max(k.made_at), p_now) INTO v_round_over
        FROM drafts_pick k WHERE k.seat_id = ANY (v_seats) AND k.round = v_round;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (p_pod, v_round_over, NULL, 'round_end', jsonb_build_object('round', v_round));
      IF v_round >= 3 THEN
        v_state := 'deck_building';
        v_building := v_round_over + make_interval(mins => v_minutes);
        INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
        VALUES (p_pod, v_round_over, NULL, 'deck_building_start', '{}'::jsonb);
      ELSE
        v_state := 'reviewing';
        v_review := CASE WHEN v_timer THEN v_round_over + make_interval(secs => drafts_review_seconds(v_round)) END;
      END IF;
      v_version := v_version + 1;
      v_changed := true;
    ELSIF v_state = 'reviewing' AND v_review <= p_cutoff THEN
      -- The next round opens when the review clock ran out: drafts_begin_round reads and
      -- writes the pod row, so it gets what this call did first.
      UPDATE drafts_pod SET state = v_state, review_deadline = v_review, deck_building_deadline = v_building,
                            queue_seq = v_seq, version = v_version
       WHERE id = p_pod;
      v_arrivals := v_arrivals || drafts_begin_round(p_pod, v_review);
      SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline
        INTO v_state, v_round, v_seq, v_version, v_review
        FROM drafts_pod p WHERE p.id = p_pod;
      v_changed := true;
    ELSIF v_state = 'deck_building' AND v_building <= p_cutoff THEN
      v_state := 'done';
      v_finished := v_building;
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (p_pod, v_building, NULL, 'deck_building_over', '{}'::jsonb);
      v_version := v_version + 1;
      v_changed := true;
    ELSE
      EXIT settling;
    END IF;
  END LOOP;
  IF v_changed THEN
    UPDATE drafts_pod SET state = v_state, review_deadline = v_review, deck_building_deadline = v_building,
                          queue_seq = v_seq, version = v_version, finished_at = coalesce(v_finished, finished_at)
     WHERE id = p_pod;
  END IF;
  RETURN jsonb_build_object(
    'changed', v_changed, 'version', v_version, 'state', v_state, 'arrivals', to_jsonb(v_arrivals));
END
$$;
""",
    "drafts_settle": r"""-- The enforcers' call (beat's sweep, reads that find a clock due): lock the pod, settle it;
-- "arrivals" with the seats' queues. "none" for no such pod or a paper pod (the paper app's
-- clocks are its own).
CREATE OR REPLACE FUNCTION drafts_settle(p_pod bigint, p_now timestamptz, p_cutoff timestamptz)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_format text;
  v_answer jsonb;
BEGIN
  SELECT e.draft_format INTO v_format
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = p_pod FOR UPDATE OF p;
  IF v_format IS NULL OR v_format = 'paper' THEN
    RETURN jsonb_build_object('status', 'none');
  END IF;
  v_answer := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN v_answer || jsonb_build_object(
    'status', 'ok',
    'arrivals', drafts_seat_queues(ARRAY(SELECT jsonb_array_elements_text(v_answer->'arrivals')::bigint)));
END
$$;
""",
    "drafts_pick": r"""-- The whole manual pick. Answers {"status": "ok" | "refused", ...}; whatever fell due before
-- the pick was received (a clock, a review's end) is applied first and stays applied even
-- when the pick is refused: the answer then carries "changed", "pod_id", "version" and
-- "arrivals". With p_queues false a made pick's answer leaves out the cards of the picker's
-- queue and of the arrivals' queues (the arrivals name the seats only): for a caller whose pages
-- draw from the pod's document instead (drafts_pick_live). The answer is json (built as text,
-- the queues' entries copied in: drafts_seat_queue); a refusal with changes joins jsonb.
CREATE OR REPLACE FUNCTION drafts_pick(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz,
    p_queues boolean DEFAULT true) RETURNS json
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
  v_review timestamptz;
  v_building timestamptz;
  v_due boolean;
  v_round_open boolean;
  v_head bigint;
  v_in_head boolean;
  v_picked boolean;
  v_take record;
  v_last record;
  v_settle boolean;
  v_settled jsonb;
  v_seats bigint[];
  v_automatic bigint[];
  v_arrivals bigint[] := '{}';
  v_changes jsonb := '{}';
BEGIN
  -- The seat's pod, locked: the pod row only (not the event's: pods of one event never wait
  -- for each other). One statement: each costs (bench/pick_function).
  SELECT p.id, p.event_id, p.number, p.state, p.round, p.queue_seq, p.version, p.review_deadline,
         p.deck_building_deadline, e.pick_timer
    INTO v_pod_id, v_event_id, v_number, v_state, v_round, v_queue_seq, v_version, v_review, v_building,
         v_timer
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = (SELECT s.pod_id FROM drafts_seat s WHERE s.id = p_seat) FOR UPDATE OF p;
  IF v_pod_id IS NULL THEN
    RETURN json_build_object('status', 'refused', 'code', 'unknown_seat');
  END IF;
  -- Once the pod is ours, in one statement: the pod's seats by position, through the (pod,
  -- position) index, who holds this seat now (a hand-over may have committed while this pick
  -- waited: a socket authenticated before it picks no more) and whether its pile has the card.
  SELECT array_agg(s.id ORDER BY s.position), coalesce(array_agg(s.id) FILTER (WHERE s.is_automatic), '{}'),
         min(s.position) FILTER (WHERE s.id = p_seat),
         (SELECT r.user_id FROM drafts_registration r
           WHERE r.id = min(s.registration_id) FILTER (WHERE s.id = p_seat)),
         coalesce(bool_or(p_card = ANY (s.pile_ids)) FILTER (WHERE s.id = p_seat), false)
    INTO v_seats, v_automatic, v_seat_position, v_seat_owner, v_picked
    FROM drafts_seat s WHERE s.pod_id = v_pod_id;
  IF p_owner IS NOT NULL AND v_seat_owner IS DISTINCT FROM p_owner THEN
    RETURN json_build_object('status', 'refused', 'code', 'not_your_seat');
  END IF;
  IF v_state = 'paused' THEN
    RETURN json_build_object('status', 'refused', 'code', 'pod_paused');
  END IF;

  IF v_state = 'drafting' THEN
    -- The packs in queues, in one pass: is anything due by the time the pick was received, is
    -- the round still open, which pack is in front of this seat and whether it has the card.
    -- The picker's clock ran out if its deadline came before the pick was received; another
    -- seat's only past the grace period (p_cutoff), as that player's own pick may be on its way.
    -- The pod's packs, then those in a queue: OFFSET 0 keeps "holder_id IS NOT NULL" out of the
    -- scan, which the queue index (every live pack of the site, drafts 0024) could answer.
    SELECT bool_or(k.deadline <= CASE WHEN k.holder_id = p_seat THEN p_received
                                      ELSE least(p_received, p_cutoff) END
                   OR k.initial_size - k.picks_made <= 1 OR k.holder_id = ANY (v_automatic)),
           bool_or(k.round = v_round),
           (array_agg(k.id ORDER BY k.queue_seq) FILTER (WHERE k.holder_id = p_seat))[1],
           (array_agg(p_card = ANY (k.card_ids) ORDER BY k.queue_seq) FILTER (WHERE k.holder_id = p_seat))[1]
      INTO v_due, v_round_open, v_head, v_in_head
      FROM (SELECT * FROM drafts_pack WHERE pod_id = v_pod_id OFFSET 0) k
     WHERE k.holder_id IS NOT NULL;
  END IF;
  IF v_state <> 'drafting' OR v_due OR NOT coalesce(v_round_open, false) THEN
    -- Apply what fell due by the moment the pick was received first (a review that ended
    -- opens the next round; the pick is then made in it).
    v_settled := drafts_settle_pod(v_pod_id, p_received, least(p_received, p_cutoff), p_seat, p_received);
    IF (v_settled->>'changed')::boolean THEN
      v_arrivals := ARRAY(SELECT jsonb_array_elements_text(v_settled->'arrivals')::bigint);
      v_changes := jsonb_build_object('changed', true, 'pod_id', v_pod_id, 'version', v_settled->'version',
                                      'arrivals', drafts_seat_queues(v_arrivals));
    END IF;
    SELECT p.state, p.round, p.queue_seq, p.version, p.review_deadline, p.deck_building_deadline
      INTO v_state, v_round, v_queue_seq, v_version, v_review, v_building
      FROM drafts_pod p WHERE p.id = v_pod_id;
    IF v_state <> 'drafting' THEN
      RETURN (jsonb_build_object('status', 'refused', 'code', 'pod_not_drafting') || v_changes)::json;
    END IF;
    -- What settling took (a clock that ran out) may have been this very card.
    SELECT k.id, p_card = ANY (k.card_ids) INTO v_head, v_in_head
      FROM drafts_pack k WHERE k.holder_id = p_seat ORDER BY k.queue_seq LIMIT 1;
    SELECT p_card = ANY (s.pile_ids) INTO v_picked FROM drafts_seat s WHERE s.id = p_seat;
  END IF;

  IF coalesce(v_picked, false) THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', 'already_picked') || v_changes)::json;
  END IF;
  IF v_head IS NULL THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', 'no_pack') || v_changes)::json;
  END IF;
  IF p_pack IS NOT NULL AND p_pack <> v_head THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', 'wrong_pack') || v_changes)::json;
  END IF;
  IF NOT coalesce(v_in_head, false) THEN
    RETURN (jsonb_build_object('status', 'refused', 'code', 'card_not_in_pack') || v_changes)::json;
  END IF;

  v_take := drafts_take(v_seats, p_seat, v_seat_position, v_head, p_card, 'manual',
                        p_actor, p_received, p_now, p_position, v_timer, v_queue_seq);
  v_queue_seq := v_take.seq;
  v_version := v_version + 1;
  IF v_take.arrived_first AND v_take.cards_left > 1 THEN
    v_arrivals := v_arrivals || v_take.neighbour;
  END IF;

  -- What the pick made due: a clock that ran out meanwhile, an automatic drafter, the pack's
  -- last card, the round's end. Usually nothing, found in one pass.
  SELECT coalesce(bool_or(k.deadline <= p_cutoff OR k.holder_id = ANY (v_automatic)), false),
         coalesce(bool_or(k.round = v_round AND NOT (k.id = v_head AND v_take.cards_left = 1)), false)
    INTO v_settle, v_round_open
    FROM (SELECT * FROM drafts_pack WHERE pod_id = v_pod_id OFFSET 0) k
   WHERE k.holder_id IS NOT NULL;
  IF v_take.cards_left = 1 AND NOT v_settle THEN
    -- Only the last card is due (after a pack's second-to-last pick): the neighbour takes it
    -- here, cheaper than the general settle below (bench/pick_function).
    v_last := drafts_take(v_seats, v_take.neighbour, array_position(v_seats, v_take.neighbour) - 1,
                          v_head, (SELECT k.card_ids[1] FROM drafts_pack k WHERE k.id = v_head),
                          'last_card', NULL, p_now, p_now, NULL, v_timer, v_queue_seq);
    v_queue_seq := v_last.seq;
    v_version := v_version + 1;
  END IF;
  UPDATE drafts_pod SET queue_seq = v_queue_seq, version = v_version WHERE id = v_pod_id;
  IF v_settle OR NOT v_round_open THEN
    v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
    v_arrivals := v_arrivals || ARRAY(SELECT jsonb_array_elements_text(v_settled->'arrivals')::bigint);
    SELECT p.state, p.round, p.version, p.review_deadline, p.deck_building_deadline
      INTO v_state, v_round, v_version, v_review, v_building
      FROM drafts_pod p WHERE p.id = v_pod_id;
  END IF;

  -- json keeps a repeated key, jsonb did not: a seat the pack reached twice is named once.
  RETURN json_build_object(
    'status', 'ok',
    'pick', json_build_object('id', v_take.pick_id, 'card', p_card, 'round', v_take.pack_round,
                               'pick_number', v_take.pick_number, 'kind', 'manual'),
    'pod', json_build_object('id', v_pod_id, 'event_id', v_event_id, 'number', v_number,
                              'state', v_state, 'paused_from', '', 'round', v_round,
                              'review_deadline', v_review, 'deck_building_deadline', v_building,
                              'paused_remaining_ms', NULL, 'pick_timer', v_timer, 'version', v_version),
    'queue', CASE WHEN p_queues THEN drafts_seat_queue(p_seat) ELSE '[]'::json END,
    'arrivals', CASE WHEN p_queues THEN drafts_seat_queues(v_arrivals)
                     ELSE (SELECT coalesce(json_object_agg(a, '[]'::json), '{}'::json)
                             FROM (SELECT DISTINCT unnest(v_arrivals) AS a) s) END);
END
$$;
""",
    "drafts_pod_document": r"""-- A pod's document (drafts/state.py): everything about the pod that any of its live pages
-- shows, as JSON text, read in one statement so that it is one version of the pod. PostgreSQL
-- builds the text: a web process neither walks rows nor encodes it again before publishing it.
-- Every card list is one pack's or one pile's array of ids (Pack.card_ids, Seat.pile_ids), in
-- the order pages show it, of the cards' stored entries (drafts_draftcard_entry: json, copied as
-- it is). The pod's cards are read once, through the (pod, is_dfc) index, and matched to every
-- list at once: a lookup per card costs twice the pick (bench/pick_function --live), and a
-- join that does not name the pod may be planned over the whole table (drafts.sql.CARD_ENTRY).
-- The pod's packs are read, then those in a queue kept: OFFSET 0 keeps "holder_id IS NOT NULL"
-- out of the scan, which the queue index (every live pack of the site, drafts 0024) could answer.
-- No nested loop but the lateral ones: a new pod's rows are not in the statistics yet (the
-- planner takes it for a pod of one card), and a nested loop over the pod's cards then re-read
-- the pod's packs once per card (tests/drafts/test_pick_history.py). The event by primary key.
-- No JIT: a disabled join's nominal cost would make every call compile the statement (1.7 s).
-- NULL for an unknown pod.
CREATE OR REPLACE FUNCTION drafts_pod_document(p_pod bigint) RETURNS text
LANGUAGE plpgsql STABLE SET enable_nestloop = off SET jit = off AS $$
BEGIN
  RETURN (
    WITH placed AS (
      SELECT k.id AS pack_id, NULL::bigint AS seat_id, u.id, u.n
        FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k
       CROSS JOIN LATERAL unnest(k.card_ids) WITH ORDINALITY AS u(id, n)
       WHERE k.holder_id IS NOT NULL
      UNION ALL
      SELECT NULL, s.id, u.id, u.n
        FROM drafts_seat s CROSS JOIN LATERAL unnest(s.pile_ids) WITH ORDINALITY AS u(id, n)
       WHERE s.pod_id = p_pod
    ), lists AS (
      SELECT w.pack_id, w.seat_id, json_agg(c.document_entry ORDER BY w.n) AS cards
        FROM placed w JOIN drafts_draftcard c ON c.id = w.id AND c.pod_id = p_pod
       GROUP BY w.pack_id, w.seat_id
    )
    SELECT json_build_object(
      'pod', json_build_object(
        'id', p.id, 'event_id', p.event_id, 'number', p.number, 'round', p.round,
        'paused_remaining_ms', p.paused_remaining_ms, 'version', p.version,
        'pick_timer', ev.pick_timer, 'decklists_published', ev.decklists_published,
        'state', p.state, 'paused_from', COALESCE(p.paused_from, ''),
        'review_deadline', to_char(p.review_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
        'deck_building_deadline',
          to_char(p.deck_building_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')),
      -- [id, position, name, registration id, is_automatic, ready, pile_cover], in seat order
      'seats', COALESCE((
        SELECT json_agg(json_build_array(
                 s.id, s.position,
                 CASE WHEN s.registration_id IS NULL THEN 'Automatic drafter'
                      -- By primary key: a join was planned as a scan of every registration.
                      ELSE COALESCE((SELECT r.name FROM drafts_registration r WHERE r.id = s.registration_id), '') END,
                 s.registration_id, s.is_automatic, s.ready, COALESCE(s.pile_cover, ''))
               ORDER BY s.position, s.id)
          FROM drafts_seat s
         WHERE s.pod_id = p.id), '[]'),
      -- [id, holder, round, picks_made, initial_size, deadline, remaining_ms, cards], in queue order
      'packs', COALESCE((
        SELECT json_agg(json_build_array(
                 k.id, k.holder_id, k.round, k.picks_made, k.initial_size,
                 to_char(k.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), k.remaining_ms,
                 COALESCE(l.cards, '[]'))
               ORDER BY k.queue_seq, k.id)
          FROM (SELECT * FROM drafts_pack WHERE pod_id = p_pod OFFSET 0) k LEFT JOIN lists l ON l.pack_id = k.id
         WHERE k.holder_id IS NOT NULL), '[]'),
      -- seat id -> its pile, in pile order (seats with no card yet have no entry)
      'piles', COALESCE((SELECT json_object_agg(l.seat_id, l.cards) FROM lists l WHERE l.seat_id IS NOT NULL), '{}')
    )::text
    FROM drafts_pod p
   CROSS JOIN LATERAL (SELECT e.pick_timer, e.decklists_published FROM drafts_event e
                        WHERE e.id = p.event_id OFFSET 0) ev
   WHERE p.id = p_pod);
END;
$$;
""",
    "drafts_pick_live": r"""-- A pick from a live page's socket: drafts_pick, then (p_pod given) what the live pages need to
-- follow it, in one call. p_queues: as drafts_pick's (false where the pages draw from the
-- document: the answer then carries no queue's cards). Each statement of a PL/pgSQL function
-- sees what the ones before it wrote, so what is answered is read after the pick, in its
-- transaction; one statement instead of a pipelined pair costs the web process about half the
-- driver's work per pick.
--
-- The document answer is either the pod's whole document (drafts_pod_document) or, when the
-- pick changed nothing but what a pick writes, only that (drafts.state.Patch): the pod's
-- version before and after, the seats whose rows were written (the picker, and the seat the
-- pack went to or that took its last card), every pack those seats now hold, the pack picked
-- from (gone when no seat holds it) and their piles, all cards as ids. A web process patches its
-- copy of the document with it, so a pick no longer reads the pod's every card back (about
-- half a pick's PostgreSQL time). A pick is only a patch when its version moved by its own takes:
-- 1, or 2 when the seat it passed the pack to took the pack's last card (every change to a pod
-- moves its version, drafts_settle_pod one per take, round's end or new round). Anything else
-- (settling ran: a clock ran out, an automatic drafter, a round ended or began) answers the
-- whole document, and so does a p_known other than the version the pick found (the caller's
-- copy is not of the version the patch starts from), or a refusal that settled something.
-- A refusal that changed nothing answers no document. p_known NULL: a patch whenever one is
-- possible (the caller compares its copy's version with the patch's "from").
CREATE OR REPLACE FUNCTION drafts_pick_live(
    p_seat bigint, p_card bigint, p_pack bigint, p_position integer, p_actor integer,
    p_owner integer, p_received timestamptz, p_now timestamptz, p_cutoff timestamptz, p_pod bigint,
    p_queues boolean, p_known bigint DEFAULT NULL, OUT answer json, OUT document text)
LANGUAGE plpgsql AS $$
DECLARE
  v_before bigint;
  v_after bigint;
  v_pack bigint;
  v_number integer;
  v_holder bigint;
  v_initial integer;
  v_picks integer;
  v_seats bigint[];
BEGIN
  IF p_pod IS NOT NULL THEN
    -- The version the pick starts from: the pod's row locked first (drafts_pick locks it again).
    SELECT p.version INTO v_before FROM drafts_pod p WHERE p.id = p_pod FOR UPDATE;
  END IF;
  answer := drafts_pick(p_seat, p_card, p_pack, p_position, p_actor, p_owner, p_received, p_now, p_cutoff,
                        p_queues);
  IF p_pod IS NULL OR v_before IS NULL THEN
    RETURN;
  END IF;
  IF answer->>'status' <> 'ok' THEN
    IF coalesce((answer->>'changed')::boolean, false) THEN
      document := drafts_pod_document(p_pod);
    END IF;
    RETURN;
  END IF;
  v_after := (answer->'pod'->>'version')::bigint;
  IF (p_known IS NULL OR p_known = v_before) AND v_after - v_before IN (1, 2) THEN
    SELECT k.pack_id, k.pick_number INTO v_pack, v_number
      FROM drafts_pick k WHERE k.id = (answer->'pick'->>'id')::bigint;
    SELECT k.holder_id, k.initial_size, k.picks_made INTO v_holder, v_initial, v_picks
      FROM drafts_pack k WHERE k.id = v_pack;
    IF v_after - v_before = 2 THEN
      -- The one other take must be this pack's last card, by the seat the pack went to.
      IF v_holder IS NOT NULL OR v_picks <> v_initial OR v_number <> v_initial - 1 THEN
        v_pack := NULL;
      ELSE
        SELECT k.seat_id INTO v_holder FROM drafts_pick k WHERE k.pack_id = v_pack AND k.pick_number = v_initial;
      END IF;
    END IF;
    IF v_pack IS NOT NULL THEN
      v_seats := CASE WHEN v_holder IS NULL OR v_holder = p_seat THEN ARRAY[p_seat] ELSE ARRAY[p_seat, v_holder] END;
      -- [id, holder, round, picks_made, initial_size, deadline, remaining_ms, card ids], as the
      -- document's packs, in queue order; through the queue index (holder, queue order).
      document := json_build_object(
        'from', v_before, 'version', v_after, 'seats', v_seats, 'gone', v_pack,
        'packs', coalesce((
          SELECT json_agg(json_build_array(
                   k.id, k.holder_id, k.round, k.picks_made, k.initial_size,
                   to_char(k.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), k.remaining_ms,
                   k.card_ids)
                 ORDER BY k.queue_seq, k.id)
            FROM drafts_pack k WHERE k.holder_id = ANY (v_seats) AND k.holder_id IS NOT NULL), '[]'),
        'piles', (SELECT json_object_agg(s.id, s.pile_ids) FROM drafts_seat s WHERE s.id = ANY (v_seats)))::text;
      RETURN;
    END IF;
  END IF;
  document := drafts_pod_document(p_pod);
END;
$$;
""",
    "drafts_ready": r"""-- A player is done reviewing (the page's "Ready"): lock the pod, apply whatever fell due first
-- (drafts_settle_pod), mark the seat ready, and when every seat with a player is, open the next
-- round now (drafts_begin_round) and settle what that made due (automatic drafters). p_owner,
-- when given, is the user who must hold the seat (a socket authenticated before a hand-over
-- readies no more). Answers {"status": "ok" | "refused", "code", "changed", "pod_id",
-- "version", "arrivals"}; what fell due is applied even when the ready is refused.
-- p_document: also answer the pod's document as the call left it (the live pages').
CREATE OR REPLACE FUNCTION drafts_ready(
    p_seat bigint, p_owner integer, p_now timestamptz, p_cutoff timestamptz, p_document boolean,
    OUT answer jsonb, OUT document text)
LANGUAGE plpgsql AS $$
DECLARE
  v_pod_id bigint;
  v_format text;
  v_owner integer;
  v_state text;
  v_round integer;
  v_settled jsonb;
  v_arrivals bigint[];
  v_changed boolean;
BEGIN
  SELECT s.pod_id INTO v_pod_id FROM drafts_seat s WHERE s.id = p_seat;
  IF v_pod_id IS NULL THEN
    answer := jsonb_build_object('status', 'refused', 'code', 'unknown_seat', 'changed', false);
    RETURN;
  END IF;
  SELECT e.draft_format INTO v_format
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id
   WHERE p.id = v_pod_id FOR UPDATE OF p;
  IF v_format = 'paper' THEN
    answer := jsonb_build_object('status', 'refused', 'code', 'paper_pod', 'changed', false);
    RETURN;
  END IF;
  SELECT r.user_id INTO v_owner
    FROM drafts_seat s JOIN drafts_registration r ON r.id = s.registration_id WHERE s.id = p_seat;
  IF p_owner IS NOT NULL AND v_owner IS DISTINCT FROM p_owner THEN
    answer := jsonb_build_object('status', 'refused', 'code', 'not_your_seat', 'changed', false);
    RETURN;
  END IF;
  v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
  v_changed := (v_settled->>'changed')::boolean;
  v_arrivals := ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(v_settled->'arrivals') a);
  SELECT p.state, p.round INTO v_state, v_round FROM drafts_pod p WHERE p.id = v_pod_id;
  IF v_state = 'reviewing' THEN
    UPDATE drafts_seat SET ready = true WHERE id = p_seat;
    UPDATE drafts_pod SET version = version + 1 WHERE id = v_pod_id;
    v_changed := true;
    IF NOT EXISTS (SELECT 1 FROM drafts_seat s WHERE s.pod_id = v_pod_id AND NOT s.ready AND NOT s.is_automatic) THEN
      INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
      VALUES (v_pod_id, p_now, NULL, 'all_ready', jsonb_build_object('round', v_round + 1));
      v_arrivals := v_arrivals || drafts_begin_round(v_pod_id, p_now);
      v_settled := drafts_settle_pod(v_pod_id, p_now, p_cutoff, NULL, NULL);
      v_arrivals := v_arrivals || ARRAY(SELECT a::bigint FROM jsonb_array_elements_text(v_settled->'arrivals') a);
    END IF;
  END IF;
  answer := jsonb_build_object(
    'status', CASE WHEN v_state = 'reviewing' THEN 'ok' ELSE 'refused' END,
    'code', CASE WHEN v_state = 'reviewing' THEN NULL ELSE 'pod_not_reviewing' END,
    'changed', v_changed, 'pod_id', v_pod_id,
    'version', (SELECT p.version FROM drafts_pod p WHERE p.id = v_pod_id),
    'arrivals', to_jsonb(v_arrivals));
  IF p_document THEN
    document := drafts_pod_document(v_pod_id);
  END IF;
END;
$$;
""",
    "drafts_ms_left": r"""-- The whole milliseconds from p_now to p_deadline, none below 0 (a clock frozen by a pause);
-- NULL for no deadline (STRICT: greatest() would ignore a NULL and answer 0).
CREATE OR REPLACE FUNCTION drafts_ms_left(p_deadline timestamptz, p_now timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT greatest(0, floor(extract(epoch FROM p_deadline - p_now) * 1000))::bigint
$$;
""",
    "drafts_control_answer": r"""-- What an organiser's control answers once it is done (drafts_pause and the others beside
-- it): "ok", the pod's version, and the seats a pack reached the front of (p_arrivals: a jsonb
-- array of seat ids, from drafts_settle_pod and drafts_begin_round), whose pages are sent it.
CREATE OR REPLACE FUNCTION drafts_control_answer(p_pod bigint, p_arrivals jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('status', 'ok', 'version', p.version, 'arrivals', coalesce(p_arrivals, '[]'::jsonb))
    FROM drafts_pod p WHERE p.id = p_pod
$$;
""",
    "drafts_start": r"""-- The organiser starts a pod whose row the caller has locked, its packs and cards just opened
-- (drafts.services.picks.start_pod: the packs of every round with their cards, unmoved): each
-- pack lists its cards in pack order, the log names the seed, round 1 opens at p_now
-- (drafts_begin_round) and what that made due (automatic drafters) is settled. Answers as
-- drafts_pause.
CREATE OR REPLACE FUNCTION drafts_start(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_openers bigint[];
  v_settled jsonb;
BEGIN
  IF (SELECT p.state FROM drafts_pod p WHERE p.id = p_pod) <> 'not_started' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_already_started');
  END IF;
  UPDATE drafts_pack k
     SET card_ids = ARRAY(SELECT c.id FROM drafts_draftcard c WHERE c.opened_in_id = k.id ORDER BY c.slot)
   WHERE k.pod_id = p_pod;
  UPDATE drafts_pod SET started_at = p_now WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  SELECT p_pod, p_now, p_actor, 'start', jsonb_build_object('seed', p.seed)
    FROM drafts_pod p WHERE p.id = p_pod;
  v_openers := drafts_begin_round(p_pod, p_now);
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, to_jsonb(v_openers) || (v_settled->'arrivals'));
END
$$;
""",
    "drafts_pause": r"""-- The organiser pauses a pod whose row the caller has locked (drafts.services.control): apply
-- whatever fell due by p_cutoff first (drafts_settle_pod), then freeze every clock with the
-- time left on it: each held pack's pick clock (remaining_ms) and the review or deck-building
-- clock (paused_remaining_ms); the pod remembers the state it resumes to. Answers
-- {"status": "ok" | "refused", "code", "version", "arrivals"}; the caller rolls a refusal back.
CREATE OR REPLACE FUNCTION drafts_pause(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_pod record;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.review_deadline, p.deck_building_deadline INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  IF v_pod.state = 'paused' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_paused');
  ELSIF v_pod.state NOT IN ('drafting', 'reviewing', 'deck_building') THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_not_drafting');
  END IF;
  UPDATE drafts_pack
     SET remaining_ms = drafts_ms_left(deadline, p_now), deadline = NULL
   WHERE pod_id = p_pod AND holder_id IS NOT NULL AND deadline IS NOT NULL;
  UPDATE drafts_pod
     SET paused_remaining_ms = drafts_ms_left(CASE state WHEN 'reviewing' THEN review_deadline
                                                         WHEN 'deck_building' THEN deck_building_deadline END,
                                              p_now),
         paused_from = state, state = 'paused', version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'pause', '{}'::jsonb);
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
""",
    "drafts_resume": r"""-- The organiser resumes a paused pod whose row the caller has locked: every clock restarts
-- from p_now with exactly the time it had left, the pod goes back to the state it was paused
-- in, and whatever that makes due (an automatic drafter, a clock already at 0) is settled.
-- Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_resume(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_state text;
  v_settled jsonb;
BEGIN
  SELECT coalesce(nullif(p.paused_from, ''), 'drafting') INTO v_state
    FROM drafts_pod p WHERE p.id = p_pod AND p.state = 'paused';
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_not_paused');
  END IF;
  UPDATE drafts_pack
     SET deadline = p_now + remaining_ms * interval '1 millisecond', remaining_ms = NULL
   WHERE pod_id = p_pod AND holder_id IS NOT NULL AND remaining_ms IS NOT NULL;
  UPDATE drafts_pod
     SET state = v_state,
         review_deadline = CASE WHEN v_state = 'reviewing' AND paused_remaining_ms IS NOT NULL
                                THEN p_now + paused_remaining_ms * interval '1 millisecond'
                                ELSE review_deadline END,
         deck_building_deadline = CASE WHEN v_state = 'deck_building' AND paused_remaining_ms IS NOT NULL
                                       THEN p_now + paused_remaining_ms * interval '1 millisecond'
                                       ELSE deck_building_deadline END,
         paused_from = '', paused_remaining_ms = NULL, version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'resume', '{}'::jsonb);
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
""",
    "drafts_extend": r"""-- The organiser gives more time (p_args: {"seconds", "seat": a seat of the pod or null}) to
-- whatever clock runs in a pod whose row the caller has locked, once what fell due by p_cutoff
-- is applied (a clock that ran out longer ago is not brought back): every held pack's pick
-- clock (or the seat's), or the whole pod's review or deck-building clock. A paused pod's
-- clocks keep the extra time frozen. Answers as drafts_pause; a refusal's "clock" names the
-- clock that was not running.
CREATE OR REPLACE FUNCTION drafts_extend(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seconds integer := (p_args->>'seconds')::integer;
  v_seat bigint := (p_args->>'seat')::bigint;
  v_settled jsonb;
  v_pod record;
  v_state text;
  v_paused boolean;
  v_clock text;
  v_count integer := 1;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.paused_from, p.paused_remaining_ms, p.review_deadline, p.deck_building_deadline
    INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  v_paused := v_pod.state = 'paused';
  v_state := CASE WHEN v_paused THEN v_pod.paused_from ELSE v_pod.state END;
  IF v_state = 'drafting' THEN
    v_clock := 'pick';
    UPDATE drafts_pack
       SET remaining_ms = CASE WHEN v_paused THEN remaining_ms + v_seconds * 1000 ELSE remaining_ms END,
           deadline = CASE WHEN v_paused THEN deadline ELSE deadline + v_seconds * interval '1 second' END
     WHERE pod_id = p_pod AND holder_id IS NOT NULL AND (v_seat IS NULL OR holder_id = v_seat)
       AND CASE WHEN v_paused THEN remaining_ms IS NOT NULL ELSE deadline IS NOT NULL END;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    IF v_count = 0 THEN
      RETURN jsonb_build_object('status', 'refused', 'code', 'no_running_clock', 'clock', v_clock);
    END IF;
  ELSIF v_state IN ('reviewing', 'deck_building') THEN
    v_clock := CASE WHEN v_state = 'reviewing' THEN 'review' ELSE 'deck_building' END;
    IF v_seat IS NOT NULL THEN  -- between rounds and in deck building the clock is the whole pod's
      RETURN jsonb_build_object('status', 'refused', 'code', 'invalid_timer', 'clock', v_clock);
    END IF;
    IF v_paused AND v_pod.paused_remaining_ms IS NOT NULL THEN
      UPDATE drafts_pod SET paused_remaining_ms = paused_remaining_ms + v_seconds * 1000 WHERE id = p_pod;
    ELSIF NOT v_paused AND v_clock = 'review' AND v_pod.review_deadline IS NOT NULL THEN
      UPDATE drafts_pod SET review_deadline = review_deadline + v_seconds * interval '1 second' WHERE id = p_pod;
    ELSIF NOT v_paused AND v_clock = 'deck_building' AND v_pod.deck_building_deadline IS NOT NULL THEN
      UPDATE drafts_pod SET deck_building_deadline = deck_building_deadline + v_seconds * interval '1 second'
       WHERE id = p_pod;
    ELSE
      RETURN jsonb_build_object('status', 'refused', 'code', 'no_running_clock', 'clock', v_clock);
    END IF;
  ELSE
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_not_drafting');
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'extend_clocks',
          jsonb_build_object('seconds', v_seconds, 'clock', v_clock, 'clocks', v_count,
                             'seat', (SELECT s.position FROM drafts_seat s WHERE s.id = v_seat)));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
""",
    "drafts_deck_building_clock": r"""-- The organiser changes the deck-building time (p_args: {"minutes"}) of a pod whose row the
-- caller has locked, once what fell due by p_cutoff is applied: in deck building the clock
-- restarts with that much from p_now (frozen at it if paused); before, the event's
-- deck-building minutes change (this pod and the event's others get that much when their
-- last pick is made). Answers as drafts_pause, with "scope": "pod" or "event".
CREATE OR REPLACE FUNCTION drafts_deck_building_clock(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_minutes integer := (p_args->>'minutes')::integer;
  v_settled jsonb;
  v_pod record;
  v_scope text;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.paused_from, p.event_id INTO v_pod FROM drafts_pod p WHERE p.id = p_pod;
  IF (CASE WHEN v_pod.state = 'paused' THEN v_pod.paused_from ELSE v_pod.state END) = 'done' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_finished');
  END IF;
  IF v_pod.state = 'paused' AND v_pod.paused_from = 'deck_building' THEN
    v_scope := 'pod';
    UPDATE drafts_pod SET paused_remaining_ms = v_minutes * 60000 WHERE id = p_pod;
  ELSIF v_pod.state = 'deck_building' THEN
    v_scope := 'pod';
    UPDATE drafts_pod SET deck_building_deadline = p_now + make_interval(mins => v_minutes) WHERE id = p_pod;
  ELSE
    v_scope := 'event';
    UPDATE drafts_event SET deck_building_minutes = v_minutes WHERE id = v_pod.event_id;
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'deck_building_clock',
          jsonb_build_object('minutes', v_minutes, 'scope', v_scope));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals') || jsonb_build_object('scope', v_scope);
END
$$;
""",
    "drafts_start_deck_building": r"""-- The organiser starts the deck-building clock now (p_args: {"minutes"}, or null for the
-- event's), in a pod whose row the caller has locked, once what fell due by p_cutoff is
-- applied: deck building restarts, or the review after the last round ends early. Refused
-- while paused, before the start, after the end, and while packs are still going round.
-- Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_start_deck_building(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_pod record;
  v_minutes integer;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.state, p.round, e.deck_building_minutes INTO v_pod
    FROM drafts_pod p JOIN drafts_event e ON e.id = p.event_id WHERE p.id = p_pod;
  IF v_pod.state = 'paused' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_paused');
  ELSIF v_pod.state = 'done' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_finished');
  ELSIF v_pod.state = 'not_started' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_not_started');
  ELSIF v_pod.state <> 'deck_building'
        AND NOT (v_pod.state = 'reviewing' AND v_pod.round >= 3) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'draft_not_over');
  END IF;
  v_minutes := coalesce((p_args->>'minutes')::integer, v_pod.deck_building_minutes);
  UPDATE drafts_pod
     SET state = 'deck_building', review_deadline = NULL,
         deck_building_deadline = p_now + make_interval(mins => v_minutes), version = version + 1
   WHERE id = p_pod;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'start_deck_building', jsonb_build_object('minutes', v_minutes));
  RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
END
$$;
""",
    "drafts_advance_round": r"""-- The organiser ends the review between rounds early, in a pod whose row the caller has
-- locked, once what fell due by p_cutoff is applied: the next round opens at p_now
-- (drafts_begin_round) and what that made due is settled. Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_advance_round(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_settled jsonb;
  v_arrivals jsonb;
  v_round integer;
BEGIN
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  SELECT p.round INTO v_round FROM drafts_pod p WHERE p.id = p_pod AND p.state = 'reviewing';
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_not_reviewing');
  END IF;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  VALUES (p_pod, p_now, p_actor, 'advance_round', jsonb_build_object('round', v_round + 1));
  v_arrivals := (v_settled->'arrivals') || to_jsonb(drafts_begin_round(p_pod, p_now));
  v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
  RETURN drafts_control_answer(p_pod, v_arrivals || (v_settled->'arrivals'));
END
$$;
""",
    "drafts_hand_seat": r"""-- The organiser hands a seat of a pod whose row the caller has locked (p_args: {"seat",
-- "registration"}), its queue and pile, to another registered player (checked by the caller:
-- registered, seatless, with an account), or with no registration to an automatic drafter,
-- whose due picks are then settled. A finished pod's seats no longer change. Answers as
-- drafts_pause.
CREATE OR REPLACE FUNCTION drafts_hand_seat(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seat bigint := (p_args->>'seat')::bigint;
  v_registration bigint := (p_args->>'registration')::bigint;
  v_position integer;
  v_previous text;
  v_settled jsonb;
BEGIN
  IF (SELECT p.state FROM drafts_pod p WHERE p.id = p_pod) = 'done' THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'pod_finished');
  END IF;
  SELECT s.position, r.name INTO v_position, v_previous
    FROM drafts_seat s LEFT JOIN drafts_registration r ON r.id = s.registration_id
   WHERE s.id = v_seat AND s.pod_id = p_pod;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'unknown_seat');
  END IF;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  IF v_registration IS NULL THEN
    UPDATE drafts_seat SET is_automatic = true WHERE id = v_seat;
    INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
    VALUES (p_pod, p_now, p_actor, 'replace_with_automatic', jsonb_build_object('seat', v_position));
    v_settled := drafts_settle_pod(p_pod, p_now, p_cutoff, NULL, NULL);
    RETURN drafts_control_answer(p_pod, v_settled->'arrivals');
  END IF;
  UPDATE drafts_seat SET registration_id = v_registration, is_automatic = false WHERE id = v_seat;
  INSERT INTO drafts_podlogentry (pod_id, at, actor_id, action, details)
  SELECT p_pod, p_now, p_actor, 'hand_seat',
         jsonb_build_object('seat', v_position, 'previous', v_previous, 'to', r.name)
    FROM drafts_registration r WHERE r.id = v_registration;
  RETURN drafts_control_answer(p_pod, '[]'::jsonb);
END
$$;
""",
    "drafts_move_pile_card": r"""-- R17: a player moves a card of their pile (p_args: {"seat", "card", "position"}) in a pod
-- whose row the caller has locked; the pod's version moves, as the board shows piles' DFCs in
-- order. Refused for a card not in the pile, or a position past its end (the answer's "last").
-- Answers as drafts_pause.
CREATE OR REPLACE FUNCTION drafts_move_pile_card(
    p_pod bigint, p_actor integer, p_now timestamptz, p_cutoff timestamptz, p_args jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_seat bigint := (p_args->>'seat')::bigint;
  v_card bigint := (p_args->>'card')::bigint;
  v_position integer := (p_args->>'position')::integer;
  v_pile bigint[];
BEGIN
  SELECT s.pile_ids INTO v_pile FROM drafts_seat s WHERE s.id = v_seat AND s.pod_id = p_pod;
  IF NOT (v_card = ANY (coalesce(v_pile, '{}'))) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'card_not_in_pile');
  ELSIF v_position < 0 OR v_position >= cardinality(v_pile) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', 'invalid_position',
                              'last', cardinality(v_pile) - 1);
  END IF;
  v_pile := array_remove(v_pile, v_card);
  UPDATE drafts_seat SET pile_ids = v_pile[1:v_position] || v_card || v_pile[v_position + 1:] WHERE id = v_seat;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  RETURN drafts_control_answer(p_pod, '[]'::jsonb);
END
$$;
""",
}

FUNCTIONS = [
    *SQL_FUNCTIONS.values(),
    *(
        f"COMMENT ON FUNCTION {name} IS 'drafts/sql/{name}.sql sha256:{hashlib.sha256(text.encode()).hexdigest()}'"
        for name, text in SQL_FUNCTIONS.items()
    ),
]
NO_FUNCTIONS = [f"DROP FUNCTION {name}" for name in reversed(SQL_FUNCTIONS)]

# 0019: each draft card's entry in its pod's document, kept by the trigger (no rows to fill yet).
DOCUMENT_ENTRY = [
    "ALTER TABLE drafts_draftcard ADD COLUMN document_entry json NOT NULL",
    """CREATE TRIGGER drafts_draftcard_entry BEFORE INSERT OR UPDATE OF id, card_id, printing_id, rarity, foil, is_dfc
        ON drafts_draftcard FOR EACH ROW EXECUTE FUNCTION drafts_draftcard_entry()""",
]
NO_DOCUMENT_ENTRY = [
    "DROP TRIGGER drafts_draftcard_entry ON drafts_draftcard",
    "ALTER TABLE drafts_draftcard DROP COLUMN document_entry",
]


class Migration(migrations.Migration):
    replaces = [
        ("drafts", "0001_roles"),
        ("drafts", "0002_events_pods"),
        ("drafts", "0003_event_deck_format"),
        ("drafts", "0004_event_draft_format_paper"),
        ("drafts", "0005_staff_invitations_event_log"),
        ("drafts", "0006_pick_function"),
        ("drafts", "0007_pick_function_indexed"),
        ("drafts", "0008_pod_log_actions"),
        ("drafts", "0009_seat_queue_plpgsql"),
        ("drafts", "0010_settle_function"),
        ("drafts", "0011_stored_functions"),
        ("drafts", "0012_pick_data_opt_in_and_public_logs"),
        ("drafts", "0013_settling_in_the_database"),
        ("drafts", "0014_stored_functions"),
        ("drafts", "0015_pod_log_actions_of_other_apps"),
        ("drafts", "0016_stored_functions"),
        ("drafts", "0017_fewer_indexes_on_the_pick_path"),
        ("drafts", "0018_stored_functions"),
        ("drafts", "0019_draftcard_document_entry"),
        ("drafts", "0020_stored_functions"),
        ("drafts", "0021_cards_in_arrays"),
        ("drafts", "0022_stored_functions"),
        ("drafts", "0023_stored_functions"),
        ("drafts", "0024_event_booster_kinds_draftcard_pack_slot"),
        ("drafts", "0025_event_sealed_formats"),
        ("drafts", "0026_queue_index_of_live_packs"),
        ("drafts", "0027_stored_functions"),
        ("drafts", "0028_engine_controls"),
        ("drafts", "0029_pods_due_partial_indexes"),
        ("drafts", "0030_event_collation_version"),
        ("drafts", "0031_pick_live_answers_what_it_wrote"),
    ]

    initial = True

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("cards", "0005_squashed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        draftsite.migration_operations.CreateModels(
            operations=[
                migrations.CreateModel(
                    name="Event",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=200)),
                        ("date", models.DateField()),
                        (
                            "enforcement_level",
                            models.CharField(
                                choices=[
                                    ("regular", "Regular"),
                                    ("competitive", "Competitive"),
                                    ("professional", "Professional"),
                                ],
                                default="regular",
                                max_length=12,
                            ),
                        ),
                        (
                            "draft_format",
                            models.CharField(
                                choices=[
                                    ("booster", "Set booster draft"),
                                    ("cube", "Cube draft"),
                                    ("paper", "Paper booster draft"),
                                    ("sealed", "Sealed"),
                                    ("paper_sealed", "Paper sealed with pool registration"),
                                ],
                                default="booster",
                                max_length=16,
                            ),
                        ),
                        ("set_codes", models.JSONField(blank=True, default=list)),
                        ("cube_card_ids", models.JSONField(blank=True, default=list)),
                        ("pack_size", models.PositiveSmallIntegerField(default=15)),
                        ("pick_timer", models.BooleanField(default=True)),
                        ("deck_building_minutes", models.PositiveSmallIntegerField(default=25)),
                        ("decklists_published", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "deck_format",
                            models.CharField(
                                choices=[
                                    ("limited", "Limited (draft or sealed)"),
                                    ("constructed", "Constructed"),
                                    ("commander", "Commander"),
                                ],
                                default="limited",
                                max_length=12,
                            ),
                        ),
                        ("decklist_deadline", models.DateTimeField(blank=True, null=True)),
                        ("booster_kinds", models.JSONField(blank=True, default=list)),
                        ("collation_version", models.PositiveSmallIntegerField(db_default=2, default=2)),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="created_events",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["-date", "name"],
                        "constraints": [
                            models.CheckConstraint(
                                condition=models.Q(("collation_version__in", (1, 2))),
                                name="event_collation_version_known",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="EventLogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("action", models.CharField(max_length=40)),
                        ("details", models.JSONField(blank=True, default=dict)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="log", to="drafts.event"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="EventStaff",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[("organiser", "Organiser"), ("head_judge", "Head judge"), ("judge", "Judge")],
                                max_length=12,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="staff", to="drafts.event"
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="event_roles",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("event", "user", "role"), name="eventstaff_unique")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Pod",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("number", models.PositiveSmallIntegerField()),
                        ("seed", models.BigIntegerField()),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("not_started", "Not started"),
                                    ("drafting", "Drafting"),
                                    ("paused", "Paused"),
                                    ("reviewing", "Reviewing between rounds"),
                                    ("deck_building", "Deck building"),
                                    ("done", "Done"),
                                ],
                                default="not_started",
                                max_length=16,
                            ),
                        ),
                        (
                            "paused_from",
                            models.CharField(
                                blank=True,
                                choices=[
                                    ("not_started", "Not started"),
                                    ("drafting", "Drafting"),
                                    ("paused", "Paused"),
                                    ("reviewing", "Reviewing between rounds"),
                                    ("deck_building", "Deck building"),
                                    ("done", "Done"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("paused_remaining_ms", models.BigIntegerField(blank=True, null=True)),
                        ("round", models.PositiveSmallIntegerField(default=0)),
                        ("review_deadline", models.DateTimeField(blank=True, null=True)),
                        ("deck_building_deadline", models.DateTimeField(blank=True, null=True)),
                        ("queue_seq", models.BigIntegerField(default=0)),
                        ("version", models.BigIntegerField(default=0)),
                        ("spectator_token", models.CharField(blank=True, max_length=40)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("logs_public", models.BooleanField(default=False)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pods", to="drafts.event"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "number"],
                        "indexes": [
                            models.Index(
                                condition=models.Q(("state", "reviewing")),
                                fields=["review_deadline"],
                                name="pod_review_due",
                            ),
                            models.Index(
                                condition=models.Q(("state", "deck_building")),
                                fields=["deck_building_deadline"],
                                name="pod_building_due",
                            ),
                        ],
                        "constraints": [models.UniqueConstraint(fields=("event", "number"), name="pod_unique_number")],
                    },
                ),
                migrations.CreateModel(
                    name="Pack",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("round", models.PositiveSmallIntegerField()),
                        ("queue_seq", models.BigIntegerField(default=0)),
                        ("arrived_at", models.DateTimeField(blank=True, null=True)),
                        ("initial_size", models.PositiveSmallIntegerField()),
                        ("picks_made", models.PositiveSmallIntegerField(default=0)),
                        ("deadline", models.DateTimeField(blank=True, null=True)),
                        ("remaining_ms", models.BigIntegerField(blank=True, null=True)),
                        ("removed", models.JSONField(blank=True, default=list)),
                        (
                            "card_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), blank=True, default=list, size=None
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="packs",
                                to="drafts.pod",
                            ),
                        ),
                        (
                            "holder",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="held_packs",
                                to="drafts.seat",
                            ),
                        ),
                        (
                            "opener",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="opened_packs",
                                to="drafts.seat",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "round", "opener__position"],
                        "indexes": [
                            models.Index(
                                condition=models.Q(("holder__isnull", False)),
                                fields=["holder", "queue_seq"],
                                name="pack_queue",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(fields=("pod", "round", "opener"), name="pack_unique_opener")
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="DraftCard",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("slot", models.PositiveSmallIntegerField(default=0)),
                        ("is_dfc", models.BooleanField(default=False)),
                        ("rarity", models.CharField(blank=True, max_length=10)),
                        ("foil", models.BooleanField(default=False)),
                        ("pack_slot", models.CharField(blank=True, default="", max_length=40)),
                        (
                            "card",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT, related_name="+", to="cards.card"
                            ),
                        ),
                        (
                            "printing",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="cards.printing",
                            ),
                        ),
                        (
                            "opened_in",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="opened_cards",
                                to="drafts.pack",
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="cards",
                                to="drafts.pod",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "pk"],
                        "indexes": [models.Index(fields=["pod", "is_dfc"], name="drafts_draf_pod_id_d0d568_idx")],
                    },
                ),
                migrations.CreateModel(
                    name="PodLogEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField()),
                        ("action", models.CharField(choices=drafts.log_actions.log_action_choices, max_length=40)),
                        ("details", models.JSONField(blank=True, default=dict)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="log", to="drafts.pod"
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "at", "pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Registration",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("name", models.CharField(max_length=100)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("share_pick_data", models.BooleanField(default=False)),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="registrations",
                                to="drafts.event",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="registrations",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "name"],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("user__isnull", False)),
                                fields=("event", "user"),
                                name="registration_unique_user",
                            ),
                            models.UniqueConstraint(fields=("event", "name"), name="registration_unique_name"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Seat",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("position", models.PositiveSmallIntegerField()),
                        ("is_automatic", models.BooleanField(default=False)),
                        ("ready", models.BooleanField(default=False)),
                        ("last_pick_at", models.DateTimeField(blank=True, null=True)),
                        ("pile_cover", models.CharField(blank=True, max_length=20)),
                        (
                            "pile_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.BigIntegerField(), blank=True, default=list, size=None
                            ),
                        ),
                        (
                            "pod",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="drafts.pod"
                            ),
                        ),
                        (
                            "registration",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="seats",
                                to="drafts.registration",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["pod_id", "position"],
                        "constraints": [
                            models.UniqueConstraint(fields=("pod", "position"), name="seat_unique_position"),
                            models.UniqueConstraint(
                                condition=models.Q(("registration__isnull", False)),
                                fields=("registration",),
                                name="seat_unique_registration",
                            ),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Pick",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("round", models.PositiveSmallIntegerField()),
                        ("pick_number", models.PositiveSmallIntegerField()),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("manual", "Picked by the player"),
                                    ("timeout", "Picked automatically when the timer ran out"),
                                    ("automatic", "Picked by an automatic drafter"),
                                    ("last_card", "Last card of the pack, passed automatically"),
                                ],
                                default="manual",
                                max_length=10,
                            ),
                        ),
                        ("made_at", models.DateTimeField()),
                        ("pack_contents", models.JSONField(default=list)),
                        (
                            "draft_card",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="pick", to="drafts.draftcard"
                            ),
                        ),
                        (
                            "made_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "pack",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="picks",
                                to="drafts.pack",
                            ),
                        ),
                        (
                            "seat",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="picks",
                                to="drafts.seat",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["seat_id", "round", "pick_number"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("seat", "round", "pick_number"), name="pick_unique_seat_round_number"
                            ),
                            models.UniqueConstraint(fields=("pack", "pick_number"), name="pick_unique_pack_number"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="StaffInvitation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "role",
                            models.CharField(
                                choices=[("organiser", "Organiser"), ("head_judge", "Head judge"), ("judge", "Judge")],
                                max_length=12,
                            ),
                        ),
                        ("token", models.CharField(max_length=64, unique=True)),
                        ("created_at", models.DateTimeField()),
                        ("expires_at", models.DateTimeField()),
                        ("accepted_at", models.DateTimeField(blank=True, null=True)),
                        ("revoked_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "accepted_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "created_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "event",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="staff_invitations",
                                to="drafts.event",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["event_id", "-created_at", "-pk"],
                    },
                ),
            ],
        ),
        # SQL, not RunPython: a RunPython renders every model's state again.
        migrations.RunSQL(GROUPS, reverse_sql=NO_GROUPS),
        migrations.RunSQL(FUNCTIONS, reverse_sql=NO_FUNCTIONS),
        migrations.RunSQL(DOCUMENT_ENTRY, reverse_sql=NO_DOCUMENT_ENTRY),
    ]
