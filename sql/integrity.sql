--
-- Integrity: 1,000,000 payloads over the whole unsigned range in btree,
-- hash and BRIN indexes; amcheck, and every index answers like a
-- sequential scan
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;
CREATE TABLE ig (n int, id public.xid);
INSERT INTO ig
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 1000000) AS i;
INSERT INTO ig VALUES (0, '11111111111'), (1000001, 'jpXCZedGfVQ'),
                      (1000002, 'NQm6nKp8qFC'), (1000003, 'NQm6nKp8qFD');
ANALYZE ig;

-- count through one index only (-1 if the plan does not use it), or
-- through a sequential scan when idx is NULL
CREATE FUNCTION pg_temp.count_using(idx text, query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
	plan text := '';
	line text;
BEGIN
	PERFORM set_config(g, CASE WHEN (idx IS NULL) = (g <> 'enable_seqscan') THEN 'off' ELSE 'on' END, true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']) AS g;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		plan := plan || line || ' ';
	END LOOP;
	EXECUTE query INTO r;
	PERFORM set_config(g, 'on', true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']) AS g;
	IF idx IS NULL THEN
		RETURN CASE WHEN plan LIKE '%Seq Scan%' THEN r ELSE -1 END;
	END IF;
	RETURN CASE WHEN plan LIKE '% ' || idx || ' %' THEN r ELSE -1 END;
END
$$;

CREATE TEMP TABLE ig_queries (kind text, q text);
INSERT INTO ig_queries
SELECT 'point', format('SELECT count(*) FROM ig WHERE id = %L', id)
FROM ig WHERE n IN (0, 1, 77, 4242, 999999, 1000001, 1000002, 1000003);
INSERT INTO ig_queries VALUES
	('point', 'SELECT count(*) FROM ig WHERE id = ''5cnEkaefSdu'''),
	('range', 'SELECT count(*) FROM ig WHERE id >= ''NQm6nKp8qFC'' AND id < ''NQmz1111111'''),
	('range', 'SELECT count(*) FROM ig WHERE id > ''jpXC1111111'''),
	('range', 'SELECT count(*) FROM ig WHERE id <= ''11112111111'''),
	('range', 'SELECT count(*) FROM ig WHERE id <@ public.xidrange(''5cnE1111111'', ''5cnF1111111'', ''[)'')');
INSERT INTO ig_queries
SELECT 'prefix', format('SELECT count(*) FROM ig WHERE id <@ public.xid_prefix_range(%L)', p)
FROM (VALUES ('5cnE'), ('NQm6n'), ('jpXC'), ('1111'), ('Z'), ('zz')) AS t(p);
INSERT INTO ig_queries
SELECT 'prefix', format('SELECT count(*) FROM ig WHERE id ^@ %L', left(id::text, 3 + n % 5))
FROM ig WHERE n IN (5, 55, 555, 5555);

-- each index is built alone on the table, so that planner settings alone
-- decide that it is used; hash and bloom answer equality only.  -1 never
-- agrees: a count is only taken when the plan used the scan under test.
CREATE TEMP TABLE ig_counts (kind text, q text, how text, n bigint);
INSERT INTO ig_counts SELECT kind, q, 'seqscan', pg_temp.count_using(NULL, q) FROM ig_queries;
CREATE INDEX ig_hash ON ig USING hash (id);
INSERT INTO ig_counts SELECT kind, q, 'hash', pg_temp.count_using('ig_hash', q) FROM ig_queries WHERE kind = 'point';
DROP INDEX ig_hash;
CREATE INDEX ig_minmax ON ig USING brin (id) WITH (pages_per_range = 4);
INSERT INTO ig_counts SELECT kind, q, 'minmax', pg_temp.count_using('ig_minmax', q) FROM ig_queries;
DROP INDEX ig_minmax;
CREATE INDEX ig_multi ON ig USING brin (id public.xid_minmax_multi_ops) WITH (pages_per_range = 4);
INSERT INTO ig_counts SELECT kind, q, 'multi', pg_temp.count_using('ig_multi', q) FROM ig_queries;
DROP INDEX ig_multi;
CREATE INDEX ig_bloom ON ig USING brin (id public.xid_bloom_ops) WITH (pages_per_range = 4);
INSERT INTO ig_counts SELECT kind, q, 'bloom', pg_temp.count_using('ig_bloom', q) FROM ig_queries WHERE kind = 'point';
DROP INDEX ig_bloom;
CREATE INDEX ig_btree ON ig (id);
SELECT bt_index_parent_check('ig_btree', heapallindexed => true, rootdescend => true);
SELECT bt_index_check('ig_btree', heapallindexed => true);
INSERT INTO ig_counts SELECT kind, q, 'btree', pg_temp.count_using('ig_btree', q) FROM ig_queries;

SELECT s.kind, count(DISTINCT s.q) AS queries,
       count(*) FILTER (WHERE i.how = 'btree' AND i.n = s.n AND s.n >= 0) AS btree_agrees,
       count(*) FILTER (WHERE i.how = 'hash' AND i.n = s.n AND s.n >= 0) AS hash_agrees,
       count(*) FILTER (WHERE i.how = 'minmax' AND i.n = s.n AND s.n >= 0) AS minmax_agrees,
       count(*) FILTER (WHERE i.how = 'multi' AND i.n = s.n AND s.n >= 0) AS multi_agrees,
       count(*) FILTER (WHERE i.how = 'bloom' AND i.n = s.n AND s.n >= 0) AS bloom_agrees,
       sum(s.n) FILTER (WHERE i.how = 'btree') AS rows_found
FROM ig_counts s JOIN ig_counts i ON i.q = s.q AND i.how <> 'seqscan'
WHERE s.how = 'seqscan'
GROUP BY s.kind ORDER BY s.kind;

-- after deletes, updates and a vacuum the btree is still sound
DELETE FROM ig WHERE n % 7 = 0;
UPDATE ig SET id = decode(substr(md5('u' || n), 1, 16), 'hex')::public.xid WHERE n % 11 = 0;
VACUUM ig;
SELECT bt_index_parent_check('ig_btree', heapallindexed => true);
SELECT count(*) AS mismatches FROM ig_queries
WHERE kind <> 'point'
  AND pg_temp.count_using('ig_btree', q) <> pg_temp.count_using(NULL, q);
DROP TABLE ig;
