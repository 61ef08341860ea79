-- The whole milliseconds from p_now to p_deadline, none below 0 (a clock frozen by a pause);
-- NULL for no deadline (STRICT: greatest() would ignore a NULL and answer 0).
CREATE OR REPLACE FUNCTION drafts_ms_left(p_deadline timestamptz, p_now timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT greatest(0, floor(extract(epoch FROM p_deadline - p_now) * 1000))::bigint
$$;
