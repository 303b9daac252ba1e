-- citus_columnar with an xid column.  Columnar keeps the min and max of
-- each column per chunk group (from the type's btree operator class) and
-- skips the chunk groups that a condition refutes: a comparison of the
-- column with a constant, by an operator of that btree class.  A time
-- (id >= t), a range (<@) or a prefix (^@) is not such a comparison, so
-- nothing is skipped for them; their bounds written out are (README).
SET citus.next_shard_id = 8000;
SET citus.shard_count = 8;
CREATE EXTENSION citus_columnar;
SELECT count(*) AS nodes_with_columnar
FROM run_command_on_all_nodes($$SELECT extname FROM pg_extension WHERE extname = 'citus_columnar'$$)
WHERE result = 'citus_columnar';
CREATE TABLE metrics (id public.xid NOT NULL, v int NOT NULL) USING columnar;
ALTER TABLE metrics SET (columnar.chunk_group_row_limit = 1000, columnar.stripe_row_limit = 10000);
INSERT INTO metrics
SELECT (public.xid_time_lower_bound('2024-01-01+00'::timestamptz + g * interval '1 minute', true)::bigint + g % 1000)::public.xid, g
FROM generate_series(0, 19999) AS g ORDER BY 1;
SELECT count(*), min(id), max(id) FROM metrics;
-- a constant xid bound: 15 of the 20 chunk groups skipped
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics WHERE id >= public.xid_time_lower_bound('2024-01-11 10:00+00', true);
-- the same as a time, a range, a prefix: the same rows, nothing skipped
SELECT count(*) FROM metrics WHERE id >= '2024-01-11 10:00+00'::timestamptz;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics WHERE id >= '2024-01-11 10:00+00'::timestamptz;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics WHERE id <@ public.xid_time_range('[2024-01-11 10:00+00,)');
SELECT substr(id::text, 1, 4) AS p4 FROM metrics WHERE v = 15000 \gset
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics WHERE id ^@ :'p4';
-- the prefix's bounds: 18 of 20 skipped
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics
WHERE id BETWEEN public.xid_prefix_lower_bound(:'p4') AND public.xid_prefix_upper_bound(:'p4');
-- a bound that is not a constant (now() - ..., here the same instant as
-- above): listed as a filter, but nothing skipped
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics
WHERE id >= public.xid_time_lower_bound(now() - (now() - '2024-01-11 10:00+00'), true);
-- distributed: each shard is columnar (with the table's options), and
-- skips the chunk groups of its own rows (the task shown: the first)
SET citus.explain_analyze_sort_method = 'taskId';
SELECT create_distributed_table('metrics', 'id', colocate_with => 'none');
SELECT count(*) FROM metrics WHERE id >= public.xid_time_lower_bound('2024-01-11 10:00+00', true);
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF)
SELECT count(*) FROM metrics WHERE id >= public.xid_time_lower_bound('2024-01-11 10:00+00', true);
