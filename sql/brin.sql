--
-- BRIN: minmax (default), minmax-multi and bloom operator classes
--
-- time-ordered ids, as xid_new() makes them, plus a few far away at and
-- above 2^63 so that an unsigned distance matters
CREATE TABLE br (n int, id public.xid);
INSERT INTO br
SELECT i, public.xid_new('2026-01-01+00'::timestamptz + i * interval '1 second')
FROM generate_series(1, 50000) AS i;
INSERT INTO br VALUES (50001, 'NQm6nKp8qFC'), (50002, 'NQm6nKp8qFD'), (50003, 'jpXCZedGfVQ');

CREATE INDEX br_minmax ON br USING brin (id) WITH (pages_per_range = 8);
CREATE INDEX br_multi ON br USING brin (id public.xid_minmax_multi_ops) WITH (pages_per_range = 8);
CREATE INDEX br_bloom ON br USING brin (id public.xid_bloom_ops) WITH (pages_per_range = 8);
SELECT c.relname, o.opcname
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE i.indrelid = 'br'::regclass ORDER BY 1;

CREATE FUNCTION pg_temp.count_with(idx text, query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
	plan text;
	line text;
BEGIN
	-- only the named BRIN index is usable
	EXECUTE format('UPDATE pg_index SET indisvalid = (indexrelid = %L::regclass) WHERE indrelid = ''br''::regclass', idx);
	plan := '';
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		plan := plan || line || ' ';
	END LOOP;
	EXECUTE query INTO r;
	UPDATE pg_index SET indisvalid = true WHERE indrelid = 'br'::regclass;
	-- -1 unless the plan used the index
	RETURN CASE WHEN plan LIKE '%Bitmap Index Scan on ' || idx || '%' THEN r ELSE -1 END;
END
$$;

SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM br WHERE id <@ public.xid_time_range('[2026-01-01 02:00+00, 2026-01-01 03:00+00)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM br WHERE id = 'NQm6nKp8qFD';

-- every index finds what a sequential scan finds
CREATE TEMP TABLE br_queries (q text);
INSERT INTO br_queries VALUES
	('SELECT count(*) FROM br WHERE id <@ public.xid_time_range(''[2026-01-01 02:00+00, 2026-01-01 03:00+00)'')'),
	('SELECT count(*) FROM br WHERE id >= ''NQm6nKp8qFD'''),
	('SELECT count(*) FROM br WHERE id > ''NQm6nKp8qFC'''),
	('SELECT count(*) FROM br WHERE id = ''jpXCZedGfVQ'''),
	('SELECT count(*) FROM br WHERE id = (SELECT id FROM br WHERE n = 12345)');
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
	EXECUTE query INTO r;
	RETURN r;
END
$$;
SELECT q, pg_temp.count_seq(q) AS seqscan FROM br_queries;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- summaries survive more inserts and re-summarizing
INSERT INTO br
SELECT i, public.xid_new('2026-02-01+00'::timestamptz + i * interval '1 second')
FROM generate_series(50004, 60000) AS i;
SELECT brin_summarize_new_values('br_minmax') >= 0 AS summarized;
SET enable_seqscan = off;
SELECT pg_temp.count_with('br_minmax', 'SELECT count(*) FROM br WHERE id <@ public.xid_time_range(''[2026-02-01+00,)'')') AS feb_minmax,
       pg_temp.count_with('br_multi', 'SELECT count(*) FROM br WHERE id <@ public.xid_time_range(''[2026-02-01+00,)'')') AS feb_multi;
RESET enable_seqscan;

DROP TABLE br;
