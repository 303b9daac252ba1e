-- bench/estimates.sql: how far row estimates of time windows are from the
-- truth, for an xid primary key and for a timestamptz column holding the
-- same instants, on 400,000 rows of three shapes.  Run with psql against a
-- server with the extension installable (takes a few minutes):
--
--   psql -X -q -f bench/estimates.sql
--
-- ANALYZE samples at random, so each table is analyzed three times and
-- every window estimated after each.  Then the same at statistics target
-- 1000.  Prints, per shape and band of true rows, the worst error of each
-- (an error is max(estimate/truth, truth/estimate)) and how many windows
-- were more than 2x off.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS xid;
SET timezone = 'UTC';
DROP SCHEMA IF EXISTS xid_est CASCADE;
CREATE SCHEMA xid_est;
SET search_path = xid_est, public;

CREATE FUNCTION est(q text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
	RETURN (j -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;

-- busy afternoons: up to 19 times more ids per hour than at night
SELECT setseed(0.42) \g /dev/null
CREATE TABLE busy AS
SELECT public.xid_new(t) AS id FROM (
	SELECT '2025-01-01+00'::timestamptz + random() * interval '365 days' AS t
	FROM generate_series(1, 900000)) AS c
WHERE random() < (1 + 0.9 * sin(2 * pi() * extract(hour FROM t) / 24)) / 1.9
LIMIT 400000;
-- evenly spread
SELECT setseed(0.11) \g /dev/null
CREATE TABLE even AS
SELECT public.xid_new('2025-01-01+00'::timestamptz + random() * interval '365 days') AS id
FROM generate_series(1, 400000);
-- 200 bursts of up to 4,000 ids within five minutes, and 100,000 ids
-- spread over the year
SELECT setseed(0.22) \g /dev/null
CREATE TABLE bursts AS
SELECT public.xid_new(c + random() * interval '5 minutes') AS id
FROM (SELECT '2025-01-01+00'::timestamptz + random() * interval '365 days' AS c,
             (random() ^ 3 * 4000)::int AS n
      FROM generate_series(1, 200)) AS b, generate_series(1, b.n)
UNION ALL
SELECT public.xid_new('2025-01-01+00'::timestamptz + random() * interval '365 days')
FROM generate_series(1, 100000);

DO $$
DECLARE tbl text;
BEGIN
	FOREACH tbl IN ARRAY '{busy, even, bursts}'::text[] LOOP
		EXECUTE format('ALTER TABLE %I ADD COLUMN t timestamptz', tbl);
		EXECUTE format('UPDATE %I SET t = public.xid_time(id)', tbl);
		EXECUTE format('CREATE INDEX ON %I (id)', tbl);
		EXECUTE format('CREATE INDEX ON %I (t)', tbl);
	END LOOP;
END $$;
VACUUM busy, even, bursts;

CREATE TABLE result (target int, tbl text, round int, len interval,
					 truth bigint, xid_rows float8, core_rows float8);

-- windows of each length at 30 random places, estimated after each of
-- three ANALYZE runs
CREATE PROCEDURE measure(target int) LANGUAGE plpgsql AS $$
DECLARE
	tbl text;
	r int;
	l interval;
	a timestamptz;
	i int;
	n bigint;
BEGIN
	FOREACH tbl IN ARRAY '{busy, even, bursts}'::text[] LOOP
		EXECUTE format('ALTER TABLE %I ALTER id SET STATISTICS %s, ALTER t SET STATISTICS %s',
					   tbl, target, target);
		FOR r IN 1..3 LOOP
			EXECUTE format('ANALYZE %I', tbl);
			PERFORM setseed(0.5);
			FOREACH l IN ARRAY '{1 minute, 10 minutes, 1 hour, 6 hours, 1 day, 7 days, 30 days}'::interval[] LOOP
				FOR i IN 1..30 LOOP
					a := '2025-01-01+00'::timestamptz + random() * (interval '365 days' - l);
					EXECUTE format('SELECT count(*) FROM %I WHERE t >= $1 AND t < $2', tbl)
						INTO n USING a, a + l;
					INSERT INTO result VALUES (target, tbl, r, l, n,
						est(format('SELECT * FROM %I WHERE id >= %L::timestamptz AND id < %L::timestamptz', tbl, a, a + l)),
						est(format('SELECT * FROM %I WHERE t >= %L::timestamptz AND t < %L::timestamptz', tbl, a, a + l)));
				END LOOP;
			END LOOP;
		END LOOP;
	END LOOP;
	COMMIT;
END $$;
CALL measure(-1);
CALL measure(1000);

\echo
\echo 'Errors of the estimates of time windows, by true rows (20 or more)'
\echo '(error = max(estimate/truth, truth/estimate); target -1 is the default)'
WITH r AS (
	SELECT target, tbl, truth,
		   greatest(xid_rows / truth, truth / xid_rows) AS xe,
		   greatest(core_rows / truth, truth / core_rows) AS ce,
		   CASE WHEN truth < 50 THEN '20-49' WHEN truth < 200 THEN '50-199'
				WHEN truth < 1000 THEN '200-999' ELSE '1000+' END AS band
	FROM result WHERE truth >= 20)
SELECT target, tbl AS shape, band AS true_rows, count(*) AS windows,
	   round(max(xe)::numeric, 2) AS xid_worst, round(max(ce)::numeric, 2) AS core_worst,
	   count(*) FILTER (WHERE xe > 2) AS xid_over_2x, count(*) FILTER (WHERE ce > 2) AS core_over_2x,
	   count(*) FILTER (WHERE xe > 1.5 * ce) AS xid_over_1_5x_core
FROM r GROUP BY 1, 2, 3
ORDER BY 1, 2, min(truth);

DROP SCHEMA xid_est CASCADE;
