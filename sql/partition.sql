--
-- Tables partitioned by time on the id: run-time pruning for comparisons
-- with a parameter or a stable expression, exactly the rows of
-- xid_time(id) OP t, and estimates that count the window once
--
SET timezone = 'UTC';
SET max_parallel_workers_per_gather = 0;

-- thirty daily partitions for January 2026, and a default one for the
-- rest (NULL ids among them); an id every ten minutes, with fixed low bits
CREATE TABLE pe (id public.xid, v int) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE pe_%s PARTITION OF pe FOR VALUES FROM (%L) TO (%L)',
			  to_char(d, 'MMDD'), public.xid_time_lower_bound(d, true),
			  public.xid_time_lower_bound(d + interval '1 day', true))
FROM generate_series('2026-01-01+00'::timestamptz, '2026-01-30+00', '1 day') AS d \gexec
CREATE TABLE pe_other PARTITION OF pe DEFAULT;
CREATE INDEX ON pe (id);
INSERT INTO pe
SELECT ((public.xid_time_lower_bound(t, true)::bigint) | (g * 2654435761 % 4194304))::public.xid, g
FROM generate_series('2025-12-31 12:00+00'::timestamptz, '2026-02-01 12:00+00', '10 minutes')
	WITH ORDINALITY AS s(t, g);
INSERT INTO pe VALUES (NULL, -1), (NULL, -2), ('11111111111', -3), ('jpXCZedGfVQ', -4);
-- the same rows in a plain table, the reference
CREATE TABLE pe_plain AS SELECT * FROM pe;
ANALYZE pe, pe_plain;

-- pg_temp.pruning(query): the partitions a query's plan reads, and how
-- many the executor removed at start-up
CREATE FUNCTION pg_temp.pruning(query text, OUT removed int, OUT scanned text)
LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, FORMAT JSON) ' || query
		INTO plan;
	SELECT max((p ->> 'Subplans Removed')::int),
		   string_agg(DISTINCT p ->> 'Relation Name', ' ' ORDER BY p ->> 'Relation Name')
	INTO removed, scanned
	FROM (SELECT jsonb_path_query(plan::jsonb, 'strict $.**') AS p) AS s
	WHERE jsonb_typeof(p) = 'object';
END
$$;

-- a stable expression (text to timestamptz depends on settings, and so does
-- timestamptz + interval): pruned when the executor starts
SELECT * FROM pg_temp.pruning($$SELECT count(*) FROM pe WHERE id >= '2026-01-29 12:00+00'::text::timestamptz$$);
SELECT * FROM pg_temp.pruning($$SELECT count(*) FROM pe
	WHERE id >= '2026-01-10 06:00+00'::text::timestamptz AND id < '2026-01-11 06:00+00'::text::timestamptz$$);
SELECT * FROM pg_temp.pruning($$SELECT count(*) FROM pe WHERE '2026-01-03+00'::text::timestamptz > id$$);
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe WHERE id >= '2026-01-29 12:00+00'::timestamptz + interval '0 s';

-- parameters of a generic plan, as ORMs send them
SET plan_cache_mode = force_generic_plan;
PREPARE pe_since(timestamptz) AS SELECT count(*) FROM pe WHERE id >= $1;
PREPARE pe_window(timestamptz, timestamptz) AS SELECT count(*) FROM pe WHERE id >= $1 AND id < $2;
PREPARE pe_text(text) AS SELECT count(*) FROM pe WHERE id > $1::timestamptz;
PREPARE pe_like(text) AS SELECT count(*) FROM pe WHERE id LIKE $1;
PREPARE pe_like_c(text) AS SELECT count(*) FROM pe WHERE id LIKE $1 COLLATE "C";
PREPARE pe_prefix(text) AS SELECT count(*) FROM pe WHERE id ^@ $1;
PREPARE pe_range(public.xidrange) AS SELECT count(*) FROM pe WHERE id <@ $1;
SELECT left(public.xid_time_lower_bound('2026-01-20 03:00+00', true)::text, 5) AS pe_p \gset
SELECT * FROM pg_temp.pruning($$EXECUTE pe_since('2026-01-29 12:00+00')$$);
SELECT * FROM pg_temp.pruning($$EXECUTE pe_window('2026-01-10 06:00+00', '2026-01-11 06:00+00')$$);
SELECT * FROM pg_temp.pruning($$EXECUTE pe_text('2026-01-30 00:00+00')$$);
SELECT * FROM pg_temp.pruning(format('EXECUTE pe_like(%L)', :'pe_p' || '%'));
-- the user's own COLLATE "C" too (no mark of the rewrite)
SELECT * FROM pg_temp.pruning(format('EXECUTE pe_like_c(%L)', :'pe_p' || '%'));
SELECT * FROM pg_temp.pruning(format('EXECUTE pe_prefix(%L)', :'pe_p'));
SELECT * FROM pg_temp.pruning($$EXECUTE pe_range(public.xid_time_range('[2026-01-05+00, 2026-01-06+00)'))$$);
EXPLAIN (COSTS OFF) EXECUTE pe_window('2026-01-10 06:00+00', '2026-01-11 06:00+00');
-- and the rows are the right ones
EXECUTE pe_window('2026-01-10 06:00+00', '2026-01-11 06:00+00');
SELECT count(*) FROM pe_plain
WHERE public.xid_time(id) >= '2026-01-10 06:00+00' AND public.xid_time(id) < '2026-01-11 06:00+00';
EXECUTE pe_like(:'pe_p' || '%');
SELECT count(*) FROM pe_plain WHERE id::text LIKE :'pe_p' || '%';
RESET plan_cache_mode;

-- Exactly the rows of xid_time(id) OP t, for every operator and argument
-- order, times in and out of the xid range, NULL, and the clause under
-- NOT, IS [NOT] TRUE/FALSE/UNKNOWN, CASE and OR; the time is a stable
-- expression on the partitioned table and a constant on the plain one.
CREATE TEMP TABLE pe_times (t text);
INSERT INTO pe_times VALUES
	('2026-01-15 10:20:00+00'), ('2026-01-15 10:20:00.0005+00'), ('2026-01-01 00:00+00'),
	('1990-01-01+00'), ('2011-11-11 11:11:11.111+00'), ('2151-03-25 18:46:22.214+00'),
	('2200-01-01+00'), ('-infinity'), ('infinity'), (NULL);
CREATE TEMP TABLE pe_forms (f text);
INSERT INTO pe_forms VALUES ('%s'), ('NOT (%s)'), ('(%s) IS TRUE'), ('(%s) IS NOT TRUE'),
	('(%s) IS FALSE'), ('(%s) IS NOT FALSE'), ('(%s) IS UNKNOWN'), ('(%s) IS NOT UNKNOWN'),
	('CASE WHEN %s THEN true ELSE v < 0 END'), ('(%s) OR v = -3');
CREATE TEMP TABLE pe_ops (on_id text, on_time text);
INSERT INTO pe_ops VALUES
	('id < %s', 'public.xid_time(id) < %s'), ('id <= %s', 'public.xid_time(id) <= %s'),
	('id > %s', 'public.xid_time(id) > %s'), ('id >= %s', 'public.xid_time(id) >= %s'),
	('%s < id', '%s < public.xid_time(id)'), ('%s <= id', '%s <= public.xid_time(id)'),
	('%s > id', '%s > public.xid_time(id)'), ('%s >= id', '%s >= public.xid_time(id)');
CREATE FUNCTION pg_temp.count_where(tbl text, cond text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format('SELECT count(*) FROM %I WHERE %s', tbl, cond) INTO n;
	RETURN n;
END
$$;
SELECT count(*) AS cases,
	   count(*) FILTER (WHERE pg_temp.count_where('pe',
				format(f, format(on_id, format('%L::text::timestamptz', t)))) <>
			pg_temp.count_where('pe_plain',
				format(f, format(on_time, format('%L::timestamptz', t))))) AS wrong
FROM pe_times, pe_forms, pe_ops;

-- LIKE with a parameter: the same rows as the text of the id, patterns that
-- match nothing, a NULL pattern and escapes
SET plan_cache_mode = force_generic_plan;
SELECT count(*) AS patterns,
	   count(*) FILTER (WHERE pg_temp.count_where('pe', format('id LIKE %L::text', p)) <>
							  pg_temp.count_where('pe_plain', format('id::text LIKE %L', p))
					 OR pg_temp.count_where('pe', format('NOT (id LIKE %L::text)', p)) <>
							  pg_temp.count_where('pe_plain', format('NOT (id::text LIKE %L)', p))) AS wrong
FROM (VALUES (:'pe_p' || '%'), (:'pe_p' || '%1'), ('%'), ('0%'), ('_' || :'pe_p' || '%'),
			 (:'pe_p' || '\%'), ('jpXCZedGfVQ'), ('1111%'), (NULL)) AS v(p);
RESET plan_cache_mode;

-- a pattern that needs a recheck, beside another clause: the recheck is the
-- clause itself (a rewrite of it once made the planner loop)
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe WHERE id LIKE '5cnE%Su' AND v = 1;

-- a clause written with COLLATE "C" (or "POSIX", or "default") is the
-- user's own, never one that the rewrite for pruning marked done: it is
-- pruned as the same clause without it, to the same rows
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe WHERE id LIKE (:'pe_p' || '%') COLLATE "C";
SELECT op, c,
	   (pg_temp.pruning(format('SELECT count(*) FROM pe WHERE id %s (%L COLLATE %I)', op, p, c))).scanned =
	   (pg_temp.pruning(format('SELECT count(*) FROM pe WHERE id %s %L', op, p))).scanned AS same_partitions,
	   pg_temp.count_where('pe', format('id %s (%L COLLATE %I)', op, p, c)) =
	   pg_temp.count_where('pe_plain', format('id::text %s %L', CASE op WHEN '^@' THEN 'LIKE' ELSE op END,
											  CASE op WHEN '^@' THEN p || '%' ELSE p END)) AS same_rows
FROM (VALUES ('LIKE', :'pe_p' || '%'), ('^@', :'pe_p')) AS o(op, p),
	 (VALUES ('C'), ('POSIX'), ('default')) AS l(c);

-- the added clauses count once in the estimates: within 2x of the truth
\getenv abs_srcdir PG_ABS_SRCDIR
\set rows_helper :abs_srcdir '/sql/include/plan_rows.sql'
\i :rows_helper
SELECT w, e.rows BETWEEN t.n / 2.0 AND t.n * 2.0 AS within_2x
FROM (VALUES ('id >= ''2026-01-20 00:00+00''::text::timestamptz'),
			 ('id >= ''2026-01-10 06:00+00''::text::timestamptz AND id < ''2026-01-12 06:00+00''::text::timestamptz'),
			 ('id < ''2026-01-02 12:00+00''::text::timestamptz')) AS q(w),
	 LATERAL (SELECT pg_temp.rows('SELECT * FROM pe WHERE ' || w) AS rows) AS e,
	 LATERAL (SELECT pg_temp.count_where('pe', w) AS n) AS t;

-- an inheritance parent that is not a partitioned table (as a TimescaleDB
-- hypertable is) gets "xid_time(id) >= t" too, the form of its children's
-- constraints
CREATE TABLE pe_inh (id public.xid, v int);
CREATE TABLE pe_inh_1 (CHECK (public.xid_time(id) >= '2026-01-01+00' AND public.xid_time(id) < '2026-01-02+00'))
	INHERITS (pe_inh);
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe_inh WHERE id >= '2026-01-01 12:00+00'::timestamptz + interval '0 s';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe_inh WHERE id < '2026-01-01 12:00+00'::timestamptz + interval '0 s';
-- a plain table keeps the clause alone
EXPLAIN (COSTS OFF) SELECT count(*) FROM pe_plain WHERE id >= '2026-01-29 12:00+00'::timestamptz + interval '0 s';

DEALLOCATE ALL;
RESET timezone;
DROP TABLE pe, pe_plain, pe_inh CASCADE;
