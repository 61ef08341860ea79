-- Seats' queues by seat id, for the live messages of the seats a pack reached.
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
