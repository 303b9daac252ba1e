--
-- Comparing an id with a time: xid OP timestamptz and timestamptz OP xid,
-- exactly xid_time(id) OP t, through the primary key index
--
SET timezone = 'UTC';
SET max_parallel_workers_per_gather = 0;
-- 250,000 ids over ten seconds (about 25 per millisecond, so that every
-- millisecond's lowest and highest id differ), and a few at the ends of
-- the xid range
CREATE TABLE tc AS
SELECT DISTINCT public.xid_new('2026-03-01 12:00:00+00'::timestamptz + (random() * 10000) * interval '1 millisecond') AS id
FROM generate_series(1, 250000);
INSERT INTO tc VALUES ('11111111111'), ('11111111112'), ('jpXCZedGfVQ'), ('jpXCZedGfVP');
ALTER TABLE tc ADD PRIMARY KEY (id);
VACUUM ANALYZE tc;

-- probe times: random ones inside the ten seconds, with and without a
-- sub-millisecond fraction, the times of ids themselves, and the edges
CREATE TEMP TABLE tc_times (t timestamptz);
INSERT INTO tc_times
SELECT '2026-03-01 12:00:00+00'::timestamptz + (random() * 10000)::int * interval '1 millisecond'
FROM generate_series(1, 8);
INSERT INTO tc_times
SELECT '2026-03-01 12:00:00+00'::timestamptz + random() * interval '10 seconds'
FROM generate_series(1, 8);
INSERT INTO tc_times
SELECT public.xid_time(id) FROM tc TABLESAMPLE SYSTEM (1) LIMIT 4;
INSERT INTO tc_times
SELECT public.xid_time(id) + interval '0.5 millisecond' FROM tc TABLESAMPLE SYSTEM (1) LIMIT 4;
INSERT INTO tc_times VALUES
	('-infinity'), ('infinity'), ('2000-01-01+00'),
	('2011-11-11 11:11:11.110999+00'), ('2011-11-11 11:11:11.111+00'),
	('2011-11-11 11:11:11.111001+00'), ('2011-11-11 11:11:11.112+00'),
	('2151-03-25 18:46:22.213999+00'), ('2151-03-25 18:46:22.214+00'),
	('2151-03-25 18:46:22.214001+00'), ('2200-01-01+00');

-- count(*) of a query through the primary key alone, -1 unless the plan
-- uses it with no filter; a clause that admits every id is a filter, as it
-- should be, and is counted as such
CREATE FUNCTION pg_temp.count_by_index(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
	plan text := '';
	line text;
BEGIN
	PERFORM set_config(g, 'off', true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_bitmapscan']) AS g;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		plan := plan || line || ' ';
	END LOOP;
	EXECUTE query INTO r;
	PERFORM set_config(g, 'on', true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_bitmapscan']) AS g;
	IF plan LIKE '%Index Only Scan using tc_pkey%' AND plan NOT LIKE '%Filter%' THEN
		RETURN r;
	END IF;
	RETURN CASE WHEN plan LIKE '%Filter%' THEN -2 - r ELSE -1 END;
END
$$;

-- the truth: ids per millisecond, with the lowest and highest id of each
CREATE TEMP TABLE tc_ms AS
SELECT public.xid_time(id) AS ms, count(*) AS n, min(id) AS lo, max(id) AS hi
FROM tc GROUP BY 1;
SELECT sum(n) AS total FROM tc_ms \gset

-- every operator in both argument orders against xid_time(id) OP t: the
-- operator functions themselves (as a filter calls them) on the lowest and
-- highest id of every millisecond, and the index on every id
CREATE TEMP TABLE tc_ops (op text, flipped text);
INSERT INTO tc_ops VALUES ('<', '>'), ('<=', '>='), ('>', '<'), ('>=', '<=');
CREATE FUNCTION pg_temp.holds(a public.xid, op text, t timestamptz) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE op WHEN '<' THEN a < t WHEN '<=' THEN a <= t WHEN '>' THEN a > t ELSE a >= t END
$$;
CREATE FUNCTION pg_temp.holds_flipped(t timestamptz, op text, a public.xid) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE op WHEN '>' THEN t > a WHEN '>=' THEN t >= a WHEN '<' THEN t < a ELSE t <= a END
$$;
CREATE TEMP TABLE tc_counts AS
SELECT t, op, f.*,
       pg_temp.count_by_index(format('SELECT count(*) FROM tc WHERE id %s %L::timestamptz', op, t)) AS by_index
FROM tc_times, tc_ops,
     LATERAL (SELECT coalesce(sum(n) FILTER (WHERE CASE op WHEN '<' THEN ms < t WHEN '<=' THEN ms <= t
                                                         WHEN '>' THEN ms > t ELSE ms >= t END), 0) AS truth,
                     coalesce(sum(n) FILTER (WHERE pg_temp.holds(lo, op, t) AND pg_temp.holds(hi, op, t)
                                               AND pg_temp.holds_flipped(t, flipped, lo)
                                               AND pg_temp.holds_flipped(t, flipped, hi)), 0) AS by_function,
                     coalesce(sum(n) FILTER (WHERE NOT pg_temp.holds(lo, op, t) AND NOT pg_temp.holds(hi, op, t)), 0) AS negated
              FROM tc_ms) AS f;
SELECT op, count(*) AS probes,
       count(*) FILTER (WHERE by_index = truth) AS index_agrees,
       count(*) FILTER (WHERE by_index = -2 - truth AND truth = :total) AS all_ids_filter,
       count(*) FILTER (WHERE by_function = truth) AS function_agrees,
       count(*) FILTER (WHERE negated = :total - truth) AS negation_agrees,
       count(*) FILTER (WHERE truth > 0 AND truth < :total) AS probes_inside
FROM tc_counts GROUP BY op ORDER BY op;
-- the rows that disagree, if any
SELECT * FROM tc_counts
WHERE (by_index <> truth AND NOT (by_index = -2 - truth AND truth = :total))
   OR by_function <> truth OR negated <> :total - truth;
-- the other argument order through the index, for times with a fraction
SELECT count(*) AS probes,
       count(*) FILTER (WHERE pg_temp.count_by_index(format('SELECT count(*) FROM tc WHERE %L::timestamptz %s id', c.t, o.flipped)) = c.truth) AS flipped_agrees
FROM tc_counts c JOIN tc_ops o USING (op)
WHERE c.truth > 0 AND c.truth < :total AND extract(microseconds FROM c.t)::int % 1000 <> 0;

-- plans: a constant, both orders, is an exact index condition on the id
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id >= '2026-03-01 12:00:05+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id > '2026-03-01 12:00:05+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id < '2026-03-01 12:00:05.0005+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id <= '2026-03-01 12:00:05.0005+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE '2026-03-01 12:00:05+00'::timestamptz <= id
	AND id < '2026-03-01 12:00:06+00'::timestamptz;
-- a time no id can have: an index condition that matches nothing
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id < '2000-01-01+00'::timestamptz;
-- a stable expression and a parameter (generic plan): bounds at run time
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc WHERE id >= now() - interval '1 day';
SET plan_cache_mode = force_generic_plan;
PREPARE tc_since(timestamptz) AS SELECT count(*) FROM tc WHERE id >= $1;
PREPARE tc_before(timestamptz) AS SELECT count(*) FROM tc WHERE $1 > id;
EXPLAIN (COSTS OFF) EXECUTE tc_since('2026-03-01 12:00:05+00');
EXPLAIN (COSTS OFF) EXECUTE tc_before('2026-03-01 12:00:05+00');
EXECUTE tc_since('2026-03-01 12:00:05+00') \gset since_
EXECUTE tc_before('2026-03-01 12:00:05.0005+00') \gset before_
EXECUTE tc_since('infinity') \gset never_
SELECT :since_count = (SELECT sum(n) FROM tc_ms WHERE ms >= '2026-03-01 12:00:05+00') AS since_agrees,
       :before_count = (SELECT sum(n) FROM tc_ms WHERE ms < '2026-03-01 12:00:05.0005+00') AS before_agrees,
       :never_count AS after_infinity;
DEALLOCATE tc_since;
DEALLOCATE tc_before;
RESET plan_cache_mode;
RESET enable_seqscan;
RESET enable_bitmapscan;
-- the bound functions: first and last id of a time, NULL beyond the ends
SELECT public.xid_time_lower_bound('2026-03-01 12:00:05+00', true) AS ge,
       public.xid_time_lower_bound('2026-03-01 12:00:05+00', false) AS gt,
       public.xid_time_upper_bound('2026-03-01 12:00:05+00', true) AS le,
       public.xid_time_upper_bound('2026-03-01 12:00:05+00', false) AS lt,
       public.xid_time_lower_bound('2026-03-01 12:00:05.0005+00', true) AS ge_fraction,
       public.xid_time_upper_bound('2026-03-01 12:00:05.0005+00', false) AS lt_fraction;
SELECT public.xid_time_lower_bound('infinity', true) IS NULL AS after_all,
       public.xid_time_upper_bound('2000-01-01+00', true) IS NULL AS before_all,
       public.xid_time_lower_bound('-infinity', false) AS from_the_start,
       public.xid_time_upper_bound('2200-01-01+00', false) AS to_the_end;

-- BRIN minmax uses the same bounds
CREATE TABLE tc_brin AS SELECT id FROM tc;
CREATE INDEX tc_brin_idx ON tc_brin USING brin (id);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc_brin WHERE id >= '2026-03-01 12:00:05+00'::timestamptz;
SELECT count(*) = (SELECT sum(n) FROM tc_ms WHERE ms >= '2026-03-01 12:00:05+00') AS brin_agrees
FROM tc_brin WHERE id >= '2026-03-01 12:00:05+00'::timestamptz;
RESET enable_seqscan;

-- partition pruning on a table range-partitioned by id, one month each
CREATE TABLE tc_events (id public.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE tc_events_01 PARTITION OF tc_events
	FOR VALUES FROM (public.xid_time_lower_bound('2026-01-01+00', true))
	TO (public.xid_time_lower_bound('2026-02-01+00', true));
CREATE TABLE tc_events_02 PARTITION OF tc_events
	FOR VALUES FROM (public.xid_time_lower_bound('2026-02-01+00', true))
	TO (public.xid_time_lower_bound('2026-03-01+00', true));
CREATE TABLE tc_events_03 PARTITION OF tc_events
	FOR VALUES FROM (public.xid_time_lower_bound('2026-03-01+00', true))
	TO (public.xid_time_lower_bound('2026-04-01+00', true));
INSERT INTO tc_events
SELECT public.xid_new(t), 1
FROM generate_series('2026-01-01+00'::timestamptz, '2026-03-31 23:00+00', '1 hour') AS t;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc_events
WHERE id >= '2026-02-10+00'::timestamptz AND id < '2026-02-11+00'::timestamptz;
SELECT count(*) FROM tc_events
WHERE id >= '2026-02-10+00'::timestamptz AND id < '2026-02-11+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc_events WHERE '2026-03-15+00'::timestamptz < id;
SELECT count(*) FROM tc_events WHERE '2026-03-15+00'::timestamptz < id;
SELECT count(*) FROM tc_events WHERE public.xid_time(id) > '2026-03-15+00';
-- with a stable time (text to timestamptz depends on settings) the planner
-- adds "id >= xid_time_lower_bound(t, true)", which prunes at run time
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc_events WHERE id >= '2026-03-15+00'::text::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tc_events
WHERE id >= public.xid_time_lower_bound('2026-03-15+00'::text::timestamptz, true);

-- a time that no id can have is exact for NULL ids too: NOT keeps them out
SELECT count(*) AS not_before_2000
FROM (VALUES (NULL::public.xid), ('5cnEkaefSdu')) AS v(id)
WHERE NOT (id < '2000-01-01+00'::timestamptz);

-- row estimates from the histogram, within a factor of 2 for a second of ids
\getenv abs_srcdir PG_ABS_SRCDIR
\set estimate_helper :abs_srcdir '/sql/include/estimate.sql'
\i :estimate_helper
SELECT e.estimated BETWEEN e.actual / 2 AND e.actual * 2 AS within_2x
FROM pg_temp.estimate('SELECT * FROM tc WHERE id >= ''2026-03-01 12:00:09+00''::timestamptz') AS e;
SELECT e.estimated BETWEEN e.actual / 2 AND e.actual * 2 AS within_2x
FROM pg_temp.estimate('SELECT * FROM tc WHERE ''2026-03-01 12:00:01+00''::timestamptz > id') AS e;
-- a window with both ends is estimated as one range, not as the product of
-- two independent halves (which would give 0.7 * 0.4 of the rows here)
SELECT e.estimated BETWEEN e.actual / 2 AND e.actual * 2 AS window_within_2x
FROM pg_temp.estimate('SELECT * FROM tc WHERE id >= ''2026-03-01 12:00:03+00''::timestamptz
  AND id < ''2026-03-01 12:00:04+00''::timestamptz') AS e;
SELECT e.estimated BETWEEN e.actual / 2 AND e.actual * 2 AS window_within_2x
FROM pg_temp.estimate('SELECT * FROM tc WHERE ''2026-03-01 12:00:05+00''::timestamptz <= id
  AND id <= ''2026-03-01 12:00:05.5+00''::timestamptz') AS e;

-- an untyped literal is read as an xid, and the error says how to write a time
SELECT count(*) FROM tc WHERE id >= '2026-01-01';
SELECT count(*) FROM tc WHERE id < '2026-01-01 10:00+01';
SELECT count(*) FROM tc WHERE id >= 'now';
-- no = with a time: the operator does not exist
-- (terse: the wording of this error changed in 19)
\set VERBOSITY terse
SELECT count(*) FROM tc WHERE id = '2026-01-01'::timestamptz;
\set VERBOSITY default
RESET timezone;

DROP TABLE tc, tc_brin, tc_events;
