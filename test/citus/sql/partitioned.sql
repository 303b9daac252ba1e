-- A distributed table partitioned by day on its xid key (README "Native
-- partitions"): each shard is partitioned the same way, and the shard's
-- planner prunes its partitions.
SET citus.next_shard_id = 6000;
SET citus.shard_count = 8;
CREATE TABLE log (id public.xid NOT NULL, kind int NOT NULL, PRIMARY KEY (id))
    PARTITION BY RANGE (id);
DO $$
BEGIN
    FOR d IN 0 .. 6 LOOP
        EXECUTE format('CREATE TABLE log_%s PARTITION OF log FOR VALUES FROM (%L) TO (%L)',
            to_char('2024-01-01'::date + d, 'YYYYMMDD'),
            public.xid_time_lower_bound('2024-01-01+00'::timestamptz + d * interval '1 day', true),
            public.xid_time_lower_bound('2024-01-01+00'::timestamptz + (d + 1) * interval '1 day', true));
    END LOOP;
END
$$;
SELECT create_distributed_table('log', 'id', colocate_with => 'events');
-- a partition added later is distributed with its parent
CREATE TABLE log_20240108 PARTITION OF log
    FOR VALUES FROM (public.xid_time_lower_bound('2024-01-08+00', true))
                 TO (public.xid_time_lower_bound('2024-01-09+00', true));
SELECT count(*) AS distributed_partitions FROM pg_dist_partition
WHERE logicalrelid::text LIKE 'log_2024%';
-- pushed down into the partitioned shards (co-located with events)
EXPLAIN (COSTS OFF) INSERT INTO log SELECT id, kind FROM events;
INSERT INTO log SELECT id, kind FROM events;
ANALYZE log;
-- each partition holds exactly its day's ids
SELECT 'log_20240103' AS day, count(*), min(public.xid_time(id)), max(public.xid_time(id)) FROM log_20240103
UNION ALL
SELECT 'log_20240107', count(*), min(public.xid_time(id)), max(public.xid_time(id)) FROM log_20240107
UNION ALL
SELECT 'log_20240108', count(*), NULL, NULL FROM log_20240108;
-- a day: one partition on each shard
SELECT count(*) FROM log WHERE id >= '2024-01-03+00'::timestamptz AND id < '2024-01-04+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT count(*) FROM log
WHERE id >= '2024-01-03+00'::timestamptz AND id < '2024-01-04+00'::timestamptz;
-- a prefix, and a range across midnight: two partitions
SELECT count(*) FROM log WHERE id <@ public.xid_time_range('[2024-01-03 23:00+00, 2024-01-04 01:00+00)');
EXPLAIN (COSTS OFF) SELECT count(*) FROM log
WHERE id <@ public.xid_time_range('[2024-01-03 23:00+00, 2024-01-04 01:00+00)');
-- now() - interval: pruned when each shard's executor starts
SELECT count(*) FROM log WHERE id >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT count(*) FROM log WHERE id >= now() - interval '1 day';
-- id = const: one shard, one partition
SELECT id AS e5013 FROM events WHERE payload = 'e5013' \gset
EXPLAIN (COSTS OFF) SELECT kind FROM log WHERE id = :'e5013';
-- a partition dropped: its day is gone on every shard
DROP TABLE log_20240101;
SELECT count(*), min(public.xid_time(id)) FROM log;
