-- Seconds of review after a round (drafts.core.timing.review_seconds); 0 after the last one.
CREATE OR REPLACE FUNCTION drafts_review_seconds(finished_round integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE finished_round {{ REVIEW_SECONDS_BY_ROUND }} ELSE 0 END
$$;
