--
-- Predicates written with xid's operators where PostgreSQL proves one
-- predicate from another: partial indexes, ON CONFLICT arbiters, and
-- constraint exclusion.  An index predicate is read without a planner and
-- a query's clause with one; both must come out in the same form, so that
-- the same predicate matches as it does on a timestamptz column.
--
SET timezone = 'UTC';
SET max_parallel_workers_per_gather = 0;

-- an id every six hours from July 2024 to July 2025, with fixed low bits
CREATE TABLE pr (id public.xid NOT NULL, v int);
INSERT INTO pr
SELECT ((public.xid_time_lower_bound(t, true)::bigint) | (g * 2654435761 % 4194304))::public.xid, g
FROM generate_series('2024-07-01+00'::timestamptz, '2025-07-01+00', '6 hours')
	WITH ORDINALITY AS s(t, g);
ANALYZE pr;

-- For each predicate: a unique index with it, an INSERT ... ON CONFLICT
-- (id) WHERE <it> DO NOTHING of rows already there (the index must be its
-- arbiter: none inserted, no error), and a query with it that reads the
-- partial index when sequential scans are off.
CREATE FUNCTION pg_temp.partial(pred text,
	OUT matching bigint, OUT on_conflict text, OUT index_used boolean)
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	line text;
BEGIN
	EXECUTE format('SELECT count(*) FROM pr WHERE %s', pred) INTO matching;
	EXECUTE format('CREATE UNIQUE INDEX pr_part ON pr (id) WHERE %s', pred);
	BEGIN
		EXECUTE format('INSERT INTO pr SELECT id, -1 FROM pr WHERE %s ON CONFLICT (id) WHERE %s DO NOTHING',
					   pred, pred);
		GET DIAGNOSTICS n = ROW_COUNT;
		on_conflict := format('%s inserted', n);
	EXCEPTION WHEN OTHERS THEN
		on_conflict := SQLSTATE || ' ' || SQLERRM;
	END;
	index_used := false;
	SET LOCAL enable_seqscan = off;
	FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT count(*) FROM pr WHERE %s', pred) LOOP
		index_used := index_used OR line LIKE '%pr_part%';
	END LOOP;
	RESET enable_seqscan;
	EXECUTE 'DROP INDEX pr_part';
END
$$;
SELECT p.pred, r.*
FROM (VALUES ('id >= ''2025-01-01+00''::timestamptz'),
			 ('id > ''2025-01-01+00''::timestamptz'),
			 ('id <= ''2025-01-01+00''::timestamptz'),
			 ('id < ''2025-01-01+00''::timestamptz'),
			 ('''2025-01-01+00''::timestamptz <= id'),
			 ('''2025-01-01+00''::timestamptz > id'),
			 ('id <@ public.xid_time_range(''[2025-01-01+00,2025-02-01+00)'')'),
			 ('public.xid_time_range(''[2025-01-01+00,2025-02-01+00)'') @> id'),
			 ('id <@ public.xid_prefix_range(''5A'')'),
			 ('id ^@ ''5A'''),
			 ('id LIKE ''5A%'''),
			 ('id LIKE ''5A%1'''),
			 ('id ^@ ''5c'''),
			 ('id LIKE ''%''')) AS p(pred),
	 LATERAL pg_temp.partial(p.pred) AS r;

-- the plans themselves, for two of them
CREATE UNIQUE INDEX pr_recent ON pr (id) WHERE id >= '2025-01-01+00'::timestamptz;
CREATE UNIQUE INDEX pr_5a ON pr (id) WHERE id ^@ '5A';
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pr WHERE id >= '2025-01-01+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT * FROM pr WHERE id ^@ '5A' ORDER BY id LIMIT 1;
RESET enable_seqscan;
INSERT INTO pr VALUES ((SELECT max(id) FROM pr), 0)
	ON CONFLICT (id) WHERE id >= '2025-01-01+00'::timestamptz DO UPDATE SET v = excluded.v;
SELECT count(*) AS updated FROM pr WHERE v = 0;
-- the estimate of the clause is still the extension's own (within 2x)
\getenv abs_srcdir PG_ABS_SRCDIR
\set estimate_helper :abs_srcdir '/sql/include/estimate.sql'
\i :estimate_helper
SELECT e.estimated BETWEEN e.actual / 2 AND e.actual * 2 AS within_2x
FROM pg_temp.estimate('SELECT * FROM pr WHERE id ^@ ''5A''') AS e;
DROP TABLE pr;

-- A partitioned table: the partial index of each partition matches the
-- clause on the parent, the parent's index is the arbiter, and pruning
-- still reads only the partitions the predicate can reach.
CREATE TABLE prp (id public.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE prp_2024 PARTITION OF prp
	FOR VALUES FROM (MINVALUE) TO (public.xid_time_lower_bound('2025-01-01+00', true));
CREATE TABLE prp_2025 PARTITION OF prp
	FOR VALUES FROM (public.xid_time_lower_bound('2025-01-01+00', true)) TO (MAXVALUE);
INSERT INTO prp
SELECT ((public.xid_time_lower_bound(t, true)::bigint) | (g * 2654435761 % 4194304))::public.xid, g
FROM generate_series('2024-07-01+00'::timestamptz, '2025-07-01+00', '6 hours')
	WITH ORDINALITY AS s(t, g);
ANALYZE prp;
CREATE UNIQUE INDEX prp_june ON prp (id) WHERE id >= '2025-06-01+00'::timestamptz;
CREATE UNIQUE INDEX prp_5a ON prp (id) WHERE id ^@ '5A';
INSERT INTO prp SELECT id, -1 FROM prp WHERE id >= '2025-06-01+00'::timestamptz
	ON CONFLICT (id) WHERE id >= '2025-06-01+00'::timestamptz DO NOTHING;
INSERT INTO prp SELECT id, -1 FROM prp WHERE id ^@ '5A'
	ON CONFLICT (id) WHERE id ^@ '5A' DO NOTHING;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM prp WHERE id >= '2025-06-01+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM prp WHERE id ^@ '5A';
RESET enable_seqscan;
SELECT (SELECT count(*) FROM prp WHERE id ^@ '5A') AS by_parts,
	   (SELECT count(*) FROM prp WHERE left(id::text, 2) = '5A') AS truth;
DROP TABLE prp;
