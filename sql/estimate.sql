--
-- Row estimates of time windows and prefixes, against the truth and against
-- core's estimate for a timestamptz column holding the same instants
--
-- Each table has 30,000 rows or fewer, so that ANALYZE reads all of them
-- and the statistics, and so every estimate here, are the same on every
-- run.  The data come from fixed sequences, not random().
SET timezone = 'UTC';
SET max_parallel_workers_per_gather = 0;

\getenv abs_srcdir PG_ABS_SRCDIR
\set rows_helper :abs_srcdir '/sql/include/plan_rows.sql'
\i :rows_helper

-- pg_temp.error(estimate, truth): how many times off an estimate is (>= 1)
CREATE FUNCTION pg_temp.error(est float8, truth float8) RETURNS float8
LANGUAGE sql IMMUTABLE AS $$ SELECT greatest(est / truth, truth / est) $$;

-- pg_temp.check_window(table, where on id, where on t): the true rows of
-- the first, the estimates for both as multiples of their own true rows,
-- and whether the xid's is in its band: within 2x of the truth and never
-- worse than 1.5x core's error (fewer than 20 rows are not held to it)
CREATE FUNCTION pg_temp.check_window(tbl text, on_id text, on_t text,
	OUT truth bigint, OUT xid_est numeric, OUT core_est numeric, OUT in_band boolean)
LANGUAGE plpgsql AS $$
DECLARE
	truth_t bigint;
	x float8;
	c float8;
BEGIN
	EXECUTE format('SELECT count(*) FROM %I WHERE %s', tbl, on_id) INTO truth;
	EXECUTE format('SELECT count(*) FROM %I WHERE %s', tbl, on_t) INTO truth_t;
	x := pg_temp.rows(format('SELECT * FROM %I WHERE %s', tbl, on_id));
	c := pg_temp.rows(format('SELECT * FROM %I WHERE %s', tbl, on_t));
	xid_est := round((x / greatest(truth, 1))::numeric, 2);
	core_est := round((c / greatest(truth_t, 1))::numeric, 2);
	in_band := truth < 20 OR
		(pg_temp.error(x, truth) <= 2 AND
		 pg_temp.error(x, truth) <= 1.5 * pg_temp.error(c, greatest(truth_t, 1)));
END
$$;

-- pg_temp.make_ids(table, times): a table of ids and their instants, from a
-- query of times; the low 22 bits come from a fixed sequence
CREATE FUNCTION pg_temp.make_ids(tbl text, times text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		CREATE TABLE %I AS
		SELECT ((public.xid_new(t)::bigint >> 22 << 22) |
		        ((row_number() OVER () * 2654435761) %% 4194304))::public.xid AS id,
		       date_trunc('milliseconds', t) AS t
		FROM (%s) AS s(t)$q$, tbl, times);
	EXECUTE format('CREATE INDEX ON %I (id)', tbl);
	EXECUTE format('CREATE INDEX ON %I (t)', tbl);
	EXECUTE format('ANALYZE %I', tbl);
END
$$;

-- A year of ids, busier in the afternoon than at night (up to 19:1): a
-- Weyl sequence of instants, thinned by the hour of the day
SELECT pg_temp.make_ids('est_day', $$
	SELECT t FROM (
		SELECT '2025-01-01+00'::timestamptz + (g * 0.6180339887498949 % 1) * interval '365 days' AS t,
		       g * 0.4142135623730950 % 1 AS u
		FROM generate_series(1, 55000) AS g) AS c
	WHERE u < (1 + 0.9 * sin(2 * pi() * extract(hour FROM t) / 24)) / 1.9$$);
-- A year of ids, evenly spread
SELECT pg_temp.make_ids('est_even', $$
	SELECT '2025-01-01+00'::timestamptz + (g * 0.6180339887498949 % 1) * interval '365 days'
	FROM generate_series(1, 30000) AS g$$);
-- Bursts: 60 bursts of 50 to 500 ids within five minutes each, over a
-- background of 6,000 ids spread over the year
SELECT pg_temp.make_ids('est_burst', $$
	SELECT '2025-01-01+00'::timestamptz + (b * 0.6180339887498949 % 1) * interval '365 days'
	       + (i * 0.4142135623730950 % 1) * interval '5 minutes'
	FROM generate_series(1, 60) AS b, generate_series(1, 50 + (b * 0.7320508075688772 % 1 * 450)::int) AS i
	UNION ALL
	SELECT '2025-01-01+00'::timestamptz + (g * 0.4142135623730950 % 1) * interval '365 days'
	FROM generate_series(1, 6000) AS g$$);
-- As xid_new() makes them under load: 30,000 ids within 60 milliseconds
SELECT pg_temp.make_ids('est_dense', $$
	SELECT '2025-06-01 12:00:00+00'::timestamptz + (g * 0.6180339887498949 % 1) * interval '60 milliseconds'
	FROM generate_series(1, 30000) AS g$$);
SELECT count(*) AS est_day_rows FROM est_day;
SELECT count(*) AS est_burst_rows FROM est_burst;

-- beside core's histogram, an xid column gets a finer one of its own kind
-- (a bound every 30 rows here: ANALYZE read all 28,952); timestamptz has
-- core's alone
SELECT a.attname,
       (SELECT array_length(v::text::text[], 1)
        FROM (VALUES (s.stakind1, s.stavalues1), (s.stakind2, s.stavalues2), (s.stakind3, s.stavalues3),
                     (s.stakind4, s.stavalues4), (s.stakind5, s.stavalues5)) AS k(kind, v)
        WHERE kind = 2) AS core_bounds,
       (SELECT array_length(v::text::text[], 1)
        FROM (VALUES (s.stakind1, s.stavalues1), (s.stakind2, s.stavalues2), (s.stakind3, s.stavalues3),
                     (s.stakind4, s.stavalues4), (s.stakind5, s.stavalues5)) AS k(kind, v)
        WHERE kind = 10581) AS xid_bounds
FROM pg_statistic s JOIN pg_attribute a ON a.attrelid = s.starelid AND a.attnum = s.staattnum
WHERE s.starelid = 'est_day'::regclass ORDER BY a.attname;

-- windows "id >= a AND id < b" of six hours to a year, at fixed places
CREATE TEMP TABLE est_windows (len interval, a timestamptz);
INSERT INTO est_windows
SELECT len, '2025-01-01 03:17:00+00'::timestamptz + (k * 0.6180339887498949 % 1) * (interval '365 days' - len)
FROM unnest('{6 hours, 12 hours, 1 day, 7 days, 30 days}'::interval[]) AS len,
     generate_series(1, 6) AS k;
INSERT INTO est_windows VALUES ('365 days', '2025-01-01+00');
SELECT tbl, w.len, w.a, c.*
FROM unnest('{est_day, est_even, est_burst}'::text[]) AS tbl, est_windows AS w,
     LATERAL pg_temp.check_window(tbl,
		format('id >= %L::timestamptz AND id < %L::timestamptz', w.a, w.a + w.len),
		format('t >= %L::timestamptz AND t < %L::timestamptz', w.a, w.a + w.len)) AS c
ORDER BY tbl, w.len, w.a;

-- minutes inside bursts: one, two and ten from a minute after five starts
SELECT b, len, c.*
FROM (VALUES (7), (19), (30), (44), (58)) AS v(b),
     unnest('{1 minute, 2 minutes, 10 minutes}'::interval[]) AS len,
     LATERAL (SELECT '2025-01-01 00:01+00'::timestamptz + (b * 0.6180339887498949 % 1) * interval '365 days' AS a) AS w,
     LATERAL pg_temp.check_window('est_burst',
		format('id >= %L::timestamptz AND id < %L::timestamptz', w.a, w.a + len),
		format('t >= %L::timestamptz AND t < %L::timestamptz', w.a, w.a + len)) AS c
ORDER BY b, len;

-- one-sided, either argument order, inclusive or not
SELECT tbl, op, c.*
FROM unnest('{est_day, est_burst}'::text[]) AS tbl,
     (VALUES ('id >= %L::timestamptz', 't >= %L::timestamptz'),
             ('id < %L::timestamptz', 't < %L::timestamptz'),
             ('%L::timestamptz <= id', '%L::timestamptz <= t'),
             ('%L::timestamptz > id', '%L::timestamptz > t')) AS o(op, op_t),
     LATERAL pg_temp.check_window(tbl, format(op, '2025-12-29 18:00+00'), format(op_t, '2025-12-29 18:00+00')) AS c
ORDER BY tbl, op;

-- a stable expression is evaluated for the estimate
SELECT * FROM pg_temp.check_window('est_day',
	$$id >= '2025-12-31 00:00+00'::timestamptz - interval '2 days'$$,
	$$t >= '2025-12-31 00:00+00'::timestamptz - interval '2 days'$$);
SELECT * FROM pg_temp.check_window('est_day',
	$$id > '2025-07-01 00:00+00'::timestamptz - interval '1 day' AND id <= '2025-07-01 00:00+00'::timestamptz$$,
	$$t > '2025-07-01 00:00+00'::timestamptz - interval '1 day' AND t <= '2025-07-01 00:00+00'::timestamptz$$);

-- two lower bounds and an upper one: the tighter lower bound counts, once
SELECT * FROM pg_temp.check_window('est_day',
	$$id >= '2025-03-01+00'::timestamptz AND id >= '2025-03-10+00'::timestamptz AND id < '2025-03-11+00'::timestamptz$$,
	$$t >= '2025-03-10+00'::timestamptz AND t < '2025-03-11+00'::timestamptz$$);
-- a time window and a prefix on the same id are one window too
SELECT left(min(id)::text, 3) AS est_p FROM est_day WHERE t >= '2025-08-01+00' \gset
SELECT * FROM pg_temp.check_window('est_day',
	format('id ^@ %L AND id >= %L::timestamptz', :'est_p', '2025-08-01 02:00+00'),
	format('id::text LIKE %L AND t >= %L::timestamptz', :'est_p' || '%', '2025-08-01 02:00+00'));
-- an empty window: one row at most
SELECT pg_temp.rows($$SELECT * FROM est_day
	WHERE id >= '2025-05-02+00'::timestamptz AND id < '2025-05-01+00'::timestamptz$$) AS empty_window;

-- milliseconds of dense ids
SELECT len, c.*
FROM unnest('{1 ms, 5 ms, 20 ms}'::interval[]) AS len,
     LATERAL pg_temp.check_window('est_dense',
		format('id >= %L::timestamptz AND id < %L::timestamptz',
		       '2025-06-01 12:00:00.017+00'::timestamptz, '2025-06-01 12:00:00.017+00'::timestamptz + len),
		format('t >= %L::timestamptz AND t < %L::timestamptz',
		       '2025-06-01 12:00:00.017+00'::timestamptz, '2025-06-01 12:00:00.017+00'::timestamptz + len)) AS c
ORDER BY len;

-- prefixes of 4 to 8 symbols, with ^@ and LIKE; core's yardstick is its
-- estimate for the time window the prefix spans
SELECT k, op, c.*
FROM generate_series(4, 8) AS k,
     (VALUES ('id ^@ %L'), ('id LIKE %L')) AS o(op),
     LATERAL (SELECT left(id::text, k) AS p, public.xid_prefix_range(left(id::text, k)) AS r
              FROM est_dense ORDER BY id OFFSET 12345 LIMIT 1) AS p,
     LATERAL pg_temp.check_window('est_dense',
		format(op, CASE WHEN op LIKE '%LIKE%' THEN p.p || '%' ELSE p.p END),
		format('t >= %L::timestamptz AND t <= %L::timestamptz',
		       public.xid_time(lower(p.r)), public.xid_time(upper(p.r)))) AS c
ORDER BY k, op;

-- NULLs and common values count as core counts them: a column with a fifth
-- NULL and each value of a tenth of the ids twenty times
CREATE TABLE est_mcv AS
SELECT CASE WHEN g % 5 = 0 THEN NULL WHEN g % 10 = 1 THEN (SELECT min(id) FROM est_day) ELSE id END AS id,
       CASE WHEN g % 5 = 0 THEN NULL WHEN g % 10 = 1 THEN (SELECT min(t) FROM est_day) ELSE t END AS t
FROM (SELECT id, t, row_number() OVER (ORDER BY id) AS g FROM est_day) AS s;
ANALYZE est_mcv;
SELECT * FROM pg_temp.check_window('est_mcv',
	$$id < '2025-02-01+00'::timestamptz$$, $$t < '2025-02-01+00'::timestamptz$$);
SELECT * FROM pg_temp.check_window('est_mcv',
	$$id >= '2025-02-01+00'::timestamptz AND id < '2025-03-01+00'::timestamptz$$,
	$$t >= '2025-02-01+00'::timestamptz AND t < '2025-03-01+00'::timestamptz$$);

-- a join with a day's window on the outer side, within 3x
CREATE TABLE est_child AS
SELECT id AS parent, k FROM est_day, generate_series(1, 3) AS k
WHERE (abs(hashtext(id::text)) % 10) < 3;
ANALYZE est_child;
SELECT d, pg_temp.error(pg_temp.rows(q), truth) <= 3 AS join_within_3x
FROM (VALUES ('2025-02-14+00'::timestamptz), ('2025-06-30+00'), ('2025-11-02+00')) AS w(d),
     LATERAL (SELECT format('SELECT * FROM est_day e JOIN est_child c ON c.parent = e.id
	                         WHERE e.id >= %L::timestamptz AND e.id < %L::timestamptz', d, d + interval '1 day') AS q) AS q,
     LATERAL (SELECT count(*) AS truth FROM est_day e JOIN est_child c ON c.parent = e.id
              WHERE e.t >= d AND e.t < d + interval '1 day') AS t;

-- generic plans: core's defaults, a third for one comparison and 0.5% for a
-- window, as for any type
SET plan_cache_mode = force_generic_plan;
PREPARE est_one(timestamptz) AS SELECT * FROM est_day WHERE id >= $1;
PREPARE est_two(timestamptz, timestamptz) AS SELECT * FROM est_day WHERE id >= $1 AND id < $2;
SELECT (SELECT count(*) FROM est_day) AS total,
       pg_temp.rows($$EXECUTE est_one('2025-12-01+00')$$) AS one_side,
       pg_temp.rows($$EXECUTE est_two('2025-12-01+00', '2025-12-02+00')$$) AS window;
RESET plan_cache_mode;
-- custom plans see the values
SELECT pg_temp.rows($$EXECUTE est_two('2025-12-01+00', '2025-12-02+00')$$) AS custom_window,
       (SELECT count(*) FROM est_day WHERE t >= '2025-12-01+00' AND t < '2025-12-02+00') AS truth;
DEALLOCATE est_one;
DEALLOCATE est_two;

RESET timezone;
DROP TABLE est_day, est_even, est_burst, est_dense, est_mcv, est_child;
