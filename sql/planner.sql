--
-- Planner support: constant ranges and prefixes become btree range scans,
-- partition pruning and histogram-based row estimates
--
CREATE TABLE pl (n int, id public.xid PRIMARY KEY);
INSERT INTO pl
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 100000) AS i;
ANALYZE pl;
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- <@, @> and ^@ with constants: an index range scan, no filter
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xid_prefix_range('5cnE');
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE public.xid_prefix_range('5cnE') @> id;
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id ^@ '5cnE';
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xid_time_range('[2026-01-01+00, 2026-01-02+00)');
-- a bound at an end of the xid range is left out
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xid_prefix_range('j');
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xidrange(NULL, '5cnEkaefSdu');
-- a prefix or range that holds no id: an index condition that matches
-- nothing (a plain "false" would be wrong for NULL ids under NOT)
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xid_prefix_range('z');
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id ^@ '5c0';
SELECT count(*) AS not_in_empty
FROM (VALUES (NULL::public.xid), ('5cnEkaefSdu')) AS v(id)
WHERE NOT (id <@ public.xid_prefix_range('z'));
-- a range or prefix from the same row: a plain filter
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id ^@ n::text;
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id <@ public.xidrange(id, NULL);
SET enable_seqscan = off;

-- a parameter (generic plans of prepared statements) or an outer column in
-- a nested loop: index bounds computed at run time
SET plan_cache_mode = force_generic_plan;
PREPARE by_prefix(text) AS SELECT count(*) FROM pl WHERE id ^@ $1;
PREPARE by_range(public.xidrange) AS SELECT count(*) FROM pl WHERE id <@ $1;
EXPLAIN (COSTS OFF) EXECUTE by_prefix('5cnE');
EXPLAIN (COSTS OFF) EXECUTE by_range(public.xid_prefix_range('5cnE'));
SELECT p, (SELECT count(*) FROM pl WHERE id::text LIKE p || '%') AS by_like
FROM (VALUES ('5c'), ('5cnE'), ('jpXC'), ('z'), ('5c0'), ('')) AS t(p);
EXECUTE by_prefix('5c');
EXECUTE by_prefix('5cnE');
EXECUTE by_prefix('jpXC');
EXECUTE by_prefix('z');
EXECUTE by_prefix('5c0');
EXECUTE by_prefix('');
EXECUTE by_prefix(NULL);
EXECUTE by_range(public.xid_prefix_range('5c'));
EXECUTE by_range(public.xidrange('5c111111111', '5c111111111', '()'));
EXECUTE by_range(public.xidrange(NULL, NULL));
EXECUTE by_range('empty');
SELECT public.xid_prefix_lower_bound('5c'), public.xid_prefix_upper_bound('5c'),
       public.xid_prefix_lower_bound(''), public.xid_prefix_upper_bound(''),
       public.xid_prefix_lower_bound('5c0') IS NULL AS bad_is_null,
       public.xid_range_lower_bound(public.xidrange('5c111111111', NULL, '()')),
       public.xid_range_upper_bound(public.xidrange(NULL, '5c111111112', '()')),
       public.xid_range_lower_bound('empty') IS NULL AS empty_is_null;
-- the planner finds its bound functions in the extension's schema; one
-- that is renamed away is an error, never a silent sequential scan
ALTER FUNCTION public.xid_prefix_lower_bound(text) RENAME TO xid_prefix_lower_bound_moved;
EXPLAIN (COSTS OFF) EXECUTE by_prefix('5cnE');
ALTER FUNCTION public.xid_prefix_lower_bound_moved(text) RENAME TO xid_prefix_lower_bound;
EXPLAIN (COSTS OFF) EXECUTE by_prefix('5cnE');
DEALLOCATE by_prefix;
DEALLOCATE by_range;
RESET plan_cache_mode;
RESET enable_seqscan;
ANALYZE pl;
CREATE TEMP TABLE pl_wanted AS SELECT left(id::text, 4) AS p FROM pl WHERE n <= 3;
ANALYZE pl_wanted;
-- (no bitmap scan: versions choose differently between the two)
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl_wanted w JOIN pl ON pl.id ^@ w.p;
RESET enable_bitmapscan;
SELECT count(*) FROM pl_wanted w JOIN pl ON pl.id ^@ w.p;
SELECT count(*) FROM pl_wanted w JOIN pl ON pl.id::text LIKE w.p || '%';
SET enable_seqscan = off;
SET enable_bitmapscan = off;
-- a volatile element expression is left alone
EXPLAIN (COSTS OFF) SELECT 1 WHERE public.xid_new() <@ public.xid_prefix_range('5cnE');
-- an expression index gets the bounds added beside the clause, which
-- stays as a filter
CREATE INDEX pl_text ON pl ((id::text::public.xid));
EXPLAIN (COSTS OFF) SELECT n FROM pl WHERE id::text::public.xid <@ public.xid_prefix_range('5cnE');
DROP INDEX pl_text;

-- the scans return what the ids' text says: the oracle counts every
-- prefix of every id's text once, by length (a LIKE over the table for
-- each prefix took 37 of this file's 40 s)
CREATE TEMP TABLE pl_prefixes AS
SELECT DISTINCT left(id::text, 1 + n % 8) AS p FROM pl WHERE n <= 200;
CREATE TEMP TABLE pl_text_counts AS
SELECT left(t, len) AS p, count(*) AS n
FROM (SELECT id::text AS t FROM pl) AS s, generate_series(1, 8) AS len
GROUP BY 1;
SELECT count(*) AS prefixes,
       count(*) FILTER (WHERE by_index = by_text AND by_starts = by_text) AS agree
FROM (SELECT p,
             (SELECT count(*) FROM pl WHERE id <@ public.xid_prefix_range(p)) AS by_index,
             (SELECT count(*) FROM pl WHERE id ^@ p) AS by_starts,
             coalesce(c.n, 0) AS by_text
      FROM pl_prefixes LEFT JOIN pl_text_counts AS c USING (p)) AS s;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- row estimates from the histogram, within a factor of 3 of the actual
-- count for 1- and 2-symbol prefixes
\getenv abs_srcdir PG_ABS_SRCDIR
\set estimate_helper :abs_srcdir '/sql/include/estimate.sql'
\i :estimate_helper
SELECT p, op,
       e.estimated BETWEEN e.actual / 3 AND e.actual * 3 AS within_3x
FROM (VALUES ('2'), ('5'), ('A'), ('a'), ('h'), ('5c'), ('Hx'), ('ab'), ('2L')) AS t(p),
     (VALUES ('<@'), ('^@')) AS o(op),
     LATERAL pg_temp.estimate(
		CASE op WHEN '<@' THEN format('SELECT * FROM pl WHERE id <@ public.xid_prefix_range(%L)', p)
		        ELSE format('SELECT * FROM pl WHERE id ^@ %L', p) END) AS e
ORDER BY op, p;
-- and an empty prefix: one row at most
SELECT (pg_temp.estimate('SELECT * FROM pl WHERE id <@ public.xid_prefix_range(''z'')')).estimated <= 1
       AS empty_estimate;

-- partition pruning on a table range-partitioned by xid, one partition a month
CREATE TABLE pl_events (id public.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE pl_events_2026_01 PARTITION OF pl_events
	FOR VALUES FROM (lower(public.xid_time_range('[2026-01-01+00, 2026-02-01+00)')))
	TO (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')));
CREATE TABLE pl_events_2026_02 PARTITION OF pl_events
	FOR VALUES FROM (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')))
	TO (lower(public.xid_time_range('[2026-03-01+00, 2026-04-01+00)')));
CREATE TABLE pl_events_2026_03 PARTITION OF pl_events
	FOR VALUES FROM (lower(public.xid_time_range('[2026-03-01+00, 2026-04-01+00)')))
	TO (lower(public.xid_time_range('[2026-04-01+00, 2026-05-01+00)')));
INSERT INTO pl_events
SELECT public.xid_new(t), 1
FROM generate_series('2026-01-01+00'::timestamptz, '2026-03-31 23:00+00', '1 hour') AS t;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl_events
WHERE id <@ public.xid_time_range('[2026-02-10+00, 2026-02-11+00)');
SELECT count(*) FROM pl_events
WHERE id <@ public.xid_time_range('[2026-02-10+00, 2026-02-11+00)');
SELECT left(lower(public.xid_time_range('[2026-03-15+00, 2026-03-16+00)'))::text, 5) AS march_prefix \gset
EXPLAIN (COSTS OFF) SELECT count(*) FROM pl_events WHERE id ^@ :'march_prefix';
SELECT count(*) FROM pl_events WHERE id ^@ :'march_prefix';
SELECT count(*) FROM pl_events WHERE id::text LIKE :'march_prefix' || '%';

DROP TABLE pl, pl_events;
