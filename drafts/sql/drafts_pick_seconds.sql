-- Seconds to pick from a pack with cards_left cards (drafts.core.timing.pick_seconds); NULL for the
-- last card, which is passed without a clock.
CREATE OR REPLACE FUNCTION drafts_pick_seconds(cards_left integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN cards_left <= 1 THEN NULL
    ELSE CASE LEAST(cards_left, {{ LARGEST_PACK }})
      {{ PICK_SECONDS_BY_CARDS_LEFT }}
      ELSE {{ LARGEST_PACK_SECONDS }} END
  END
$$;
