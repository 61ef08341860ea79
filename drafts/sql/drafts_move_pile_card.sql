-- R17: a player moves a card of their pile (p_args: {"seat", "card", "position"}) in a pod
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
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_CARD_NOT_IN_PILE }});
  ELSIF v_position < 0 OR v_position >= cardinality(v_pile) THEN
    RETURN jsonb_build_object('status', 'refused', 'code', {{ REFUSED_INVALID_POSITION }},
                              'last', cardinality(v_pile) - 1);
  END IF;
  v_pile := array_remove(v_pile, v_card);
  UPDATE drafts_seat SET pile_ids = v_pile[1:v_position] || v_card || v_pile[v_position + 1:] WHERE id = v_seat;
  UPDATE drafts_pod SET version = version + 1 WHERE id = p_pod;
  RETURN drafts_control_answer(p_pod, '[]'::jsonb);
END
$$;
