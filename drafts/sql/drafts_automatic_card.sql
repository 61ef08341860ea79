-- The card an automatic pick takes (``drafts.core.autopick.choose``): the rarest; among equals the
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
    v_rank := CASE v_card.rarity {{ RARITY_RANK_BY_RARITY }}
                                 ELSE {{ OTHER_RARITY_RANK }} END;
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
