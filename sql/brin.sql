--
-- BRIN: minmax (default), minmax-multi and bloom operator classes
--
-- time-ordered ids, as xid_new() makes them, plus a few far away at and
-- above 2^63 so that an unsigned distance matters; one copy of the rows per
-- operator class, each with that class's index only, so that planner
-- settings alone decide which index a query uses
CREATE TABLE br_minmax (n int, id public.xid);
INSERT INTO br_minmax
SELECT i, public.xid_new('2026-01-01+00'::timestamptz + i * interval '1 second')
FROM generate_series(1, 50000) AS i;
INSERT INTO br_minmax VALUES (50001, 'NQm6nKp8qFC'), (50002, 'NQm6nKp8qFD'), (50003, 'jpXCZedGfVQ');
CREATE TABLE br_multi AS TABLE br_minmax;
CREATE TABLE br_bloom AS TABLE br_minmax;

CREATE INDEX br_minmax_idx ON br_minmax USING brin (id) WITH (pages_per_range = 8);
CREATE INDEX br_multi_idx ON br_multi USING brin (id public.xid_minmax_multi_ops) WITH (pages_per_range = 8);
CREATE INDEX br_bloom_idx ON br_bloom USING brin (id public.xid_bloom_ops) WITH (pages_per_range = 8);
SELECT c.relname, o.opcname
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE i.indrelid IN ('br_minmax'::regclass, 'br_multi'::regclass, 'br_bloom'::regclass)
ORDER BY 1;

-- count(*) of a query on table tbl (the query's %I), through tbl's BRIN
-- index: -1 unless the plan uses it
CREATE FUNCTION pg_temp.count_with(tbl text, query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	q text := format(query, tbl);
	r bigint;
	plan text := '';
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
		plan := plan || line || ' ';
	END LOOP;
	EXECUTE q INTO r;
	RETURN CASE WHEN plan LIKE '%Bitmap Index Scan on ' || tbl || '_idx%' THEN r ELSE -1 END;
END
$$;

SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM br_minmax WHERE id <@ public.xid_time_range('[2026-01-01 02:00+00, 2026-01-01 03:00+00)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM br_minmax WHERE id = 'NQm6nKp8qFD';

-- every index finds what a sequential scan finds
CREATE TEMP TABLE br_queries (q text);
INSERT INTO br_queries VALUES
	('SELECT count(*) FROM %I WHERE id <@ public.xid_time_range(''[2026-01-01 02:00+00, 2026-01-01 03:00+00)'')'),
	('SELECT count(*) FROM %I WHERE id >= ''NQm6nKp8qFD'''),
	('SELECT count(*) FROM %I WHERE id > ''NQm6nKp8qFC'''),
	('SELECT count(*) FROM %I WHERE id = ''jpXCZedGfVQ'''),
	('SELECT count(*) FROM %1$I WHERE id = (SELECT id FROM %1$I WHERE n = 12345)');
SELECT q,
       pg_temp.count_with('br_minmax', q) AS minmax,
       pg_temp.count_with('br_multi', q) AS multi,
       CASE WHEN q LIKE '%id = %' THEN pg_temp.count_with('br_bloom', q) END AS bloom
FROM br_queries;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE FUNCTION pg_temp.count_seq(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
BEGIN
	EXECUTE format(query, 'br_minmax') INTO r;
	RETURN r;
END
$$;
SELECT q, pg_temp.count_seq(q) AS seqscan FROM br_queries;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- summaries survive more inserts and re-summarizing
INSERT INTO br_minmax
SELECT i, public.xid_new('2026-02-01+00'::timestamptz + i * interval '1 second')
FROM generate_series(50004, 60000) AS i;
INSERT INTO br_multi SELECT * FROM br_minmax WHERE n > 50003;
SELECT brin_summarize_new_values('br_minmax_idx') >= 0 AS summarized,
       brin_summarize_new_values('br_multi_idx') >= 0 AS summarized_multi;
SET enable_seqscan = off;
SELECT pg_temp.count_with('br_minmax', 'SELECT count(*) FROM %I WHERE id <@ public.xid_time_range(''[2026-02-01+00,)'')') AS feb_minmax,
       pg_temp.count_with('br_multi', 'SELECT count(*) FROM %I WHERE id <@ public.xid_time_range(''[2026-02-01+00,)'')') AS feb_multi;
RESET enable_seqscan;

DROP TABLE br_minmax, br_multi, br_bloom;
