-- Conditions on the id that no shard can be chosen for: every shard runs
-- them, and answers them from its primary key index.
-- plan_summary(query): the scans of every task of a query's plan
CREATE FUNCTION plan_summary(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    line text;
    tasks int := 0;
    idx int := 0;
    seq int := 0;
BEGIN
    SET LOCAL citus.explain_all_tasks = on;
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
        IF line ~ '->  Task$' THEN tasks := tasks + 1; END IF;
        IF line ~ 'Index (Only )?Scan' THEN idx := idx + 1; END IF;
        IF line ~ 'Seq Scan' THEN seq := seq + 1; END IF;
    END LOOP;
    RETURN format('%s tasks: %s index scans, %s sequential scans', tasks, idx, seq);
END
$$;
SELECT substr(id::text, 1, 4) AS p4 FROM events WHERE payload = 'e5000' \gset
SELECT :'p4' AS prefix;
-- starts with
SELECT count(*), min(id), max(id) FROM events WHERE id ^@ :'p4';
SELECT count(*) FROM events WHERE id::text LIKE :'p4' || '%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id ^@ :'p4';
SELECT plan_summary(format('SELECT * FROM events WHERE id ^@ %L', :'p4'));
-- LIKE with a fixed prefix
SELECT count(*) FROM events WHERE id LIKE :'p4' || '%';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id LIKE :'p4' || '%';
SELECT plan_summary(format('SELECT * FROM events WHERE id LIKE %L', :'p4' || '%'));
-- a time window, and a range
SELECT count(*) FROM events
WHERE id >= '2024-01-03 00:00+00'::timestamptz AND id < '2024-01-03 01:00+00'::timestamptz;
SELECT count(*) FROM events
WHERE public.xid_time(id) >= '2024-01-03 00:00+00' AND public.xid_time(id) < '2024-01-03 01:00+00';
EXPLAIN (COSTS OFF) SELECT * FROM events
WHERE id >= '2024-01-03 00:00+00'::timestamptz AND id < '2024-01-03 01:00+00'::timestamptz;
SELECT count(*) FROM events WHERE id <@ public.xid_time_range('[2024-01-03 00:00+00, 2024-01-03 01:00+00)');
SELECT plan_summary($q$SELECT * FROM events WHERE id <@ public.xid_time_range('[2024-01-03 00:00+00, 2024-01-03 01:00+00)')$q$);
-- the last day: 50 ids made now, next to 10,000 from 2024
INSERT INTO events (kind, payload) SELECT 11, 'now' || g FROM generate_series(1, 50) AS g;
ANALYZE events;
SELECT count(*), count(*) FILTER (WHERE kind = 11) FROM events WHERE id >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= now() - interval '1 day';
SELECT plan_summary($q$SELECT * FROM events WHERE id >= now() - interval '1 day'$q$);
-- aggregates and ORDER BY id LIMIT: computed on the shards, merged
SELECT id AS e0 FROM events WHERE payload = 'e0' \gset
SELECT max(id) AS newest FROM events WHERE kind = 11 \gset
SELECT count(*), min(id) = :'e0' AS min_is_e0, max(id) = :'newest' AS max_is_newest FROM events;
EXPLAIN (COSTS OFF) SELECT min(id), max(id) FROM events;
SELECT id, payload FROM events WHERE kind < 11 ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id FROM events ORDER BY id LIMIT 3;
SELECT payload FROM events WHERE kind < 11 ORDER BY id DESC LIMIT 2;
DELETE FROM events WHERE kind = 11;
