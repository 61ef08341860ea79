"""The stored functions that drafts/sql renders differently: drafts_ms_left, drafts_control_answer, drafts_start, drafts_pause, drafts_resume, drafts_extend, drafts_deck_building_clock, drafts_start_deck_building, drafts_advance_round, drafts_hand_seat, drafts_move_pile_card changed."""

import hashlib

from django.db import DatabaseError, migrations, transaction

# Written by ``python -m drafts.sql migration`` from drafts/sql/*.sql: do not edit by hand.
# Only the functions this migration changes: their text now (None: dropped)...
SQL_FUNCTIONS = {
    'drafts_ms_left': r"""-- The whole milliseconds from p_now to p_deadline, none below 0 (a clock frozen by a pause);
-- NULL for no deadline (STRICT: greatest() would ignore a NULL and answer 0).
CREATE OR REPLACE FUNCTION drafts_ms_left(p_deadline timestamptz, p_now timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT greatest(0, floor(extract(epoch FROM p_deadline - p_now) * 1000))::bigint
$$;
""",
    'drafts_control_answer': r"""-- What an organiser's control answers once it is done (drafts_pause and the others beside
-- it): "ok", the pod's version, and the seats a pack reached the front of (p_arrivals: a jsonb
-- array of seat ids, from drafts_settle_pod and drafts_begin_round), whose pages are sent it.
CREATE OR REPLACE FUNCTION drafts_control_answer(p_pod bigint, p_arrivals jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('status', 'ok', 'version', p.version, 'arrivals', coalesce(p_arrivals, '[]'::jsonb))
    FROM drafts_pod p WHERE p.id = p_pod
$$;
""",
    'drafts_start': r"""-- The organiser starts a pod whose row the caller has locked, its packs and cards just opened
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
    'drafts_pause': r"""-- The organiser pauses a pod whose row the caller has locked (drafts.services.control): apply
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
    'drafts_resume': r"""-- The organiser resumes a paused pod whose row the caller has locked: every clock restarts
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
    'drafts_extend': r"""-- The organiser gives more time (p_args: {"seconds", "seat": a seat of the pod or null}) to
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
    'drafts_deck_building_clock': r"""-- The organiser changes the deck-building time (p_args: {"minutes"}) of a pod whose row the
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
    'drafts_start_deck_building': r"""-- The organiser starts the deck-building clock now (p_args: {"minutes"}, or null for the
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
    'drafts_advance_round': r"""-- The organiser ends the review between rounds early, in a pod whose row the caller has
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
    'drafts_hand_seat': r"""-- The organiser hands a seat of a pod whose row the caller has locked (p_args: {"seat",
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
    'drafts_move_pile_card': r"""-- R17: a player moves a card of their pile (p_args: {"seat", "card", "position"}) in a pod
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

# ... and before it (None: it did not exist), which the way back applies.
PREVIOUS_FUNCTIONS = {
    'drafts_ms_left': None,
    'drafts_control_answer': None,
    'drafts_start': None,
    'drafts_pause': None,
    'drafts_resume': None,
    'drafts_extend': None,
    'drafts_deck_building_clock': None,
    'drafts_start_deck_building': None,
    'drafts_advance_round': None,
    'drafts_hand_seat': None,
    'drafts_move_pile_card': None,
}


def drop(cursor, name, keep=None):
    """Drop every overload of the function ``name`` but the one whose body is ``keep``."""
    cursor.execute(
        "SELECT p.oid::regprocedure::text, p.prosrc FROM pg_proc p "
        "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
        [name],
    )
    for signature, body in cursor.fetchall():
        if body != keep:
            cursor.execute(f"DROP FUNCTION {signature}")


def create(schema_editor, name, text):
    """Create or replace one function. CREATE OR REPLACE cannot change a function's result
    type (SQLSTATE 42P13): such a function is dropped first, in the migration's transaction."""
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute(text, params=None)
    except DatabaseError as error:
        if getattr(error.__cause__, "sqlstate", None) != "42P13":
            raise
        with schema_editor.connection.cursor() as cursor:
            drop(cursor, name)
        schema_editor.execute(text, params=None)


def apply(schema_editor, functions):
    """Create or replace each function (``None``: drop it), drop its other overloads (arguments
    that changed), and leave the digest of its SQL in its comment (``drafts.sql.comment``)."""
    for name, text in functions.items():
        if text is not None:
            create(schema_editor, name, text)
    with schema_editor.connection.cursor() as cursor:
        for name, text in functions.items():
            if text is None:
                drop(cursor, name)
                continue
            drop(cursor, name, keep=text.split("$$")[1])
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            cursor.execute(
                "SELECT p.oid::regprocedure::text FROM pg_proc p "
                "WHERE p.proname = %s AND p.pronamespace = current_schema()::regnamespace",
                [name],
            )
            for (signature,) in cursor.fetchall():
                cursor.execute(f"COMMENT ON FUNCTION {signature} IS 'drafts/sql/{name}.sql sha256:{digest}'")


def forwards(apps, schema_editor):
    apply(schema_editor, SQL_FUNCTIONS)


def backwards(apps, schema_editor):
    apply(schema_editor, PREVIOUS_FUNCTIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", '0027_stored_functions'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
