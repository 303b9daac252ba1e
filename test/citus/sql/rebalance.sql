-- Shards move between workers by logical replication (the shards have
-- primary keys): one by hand, then the rebalancer moves them all off
-- worker 2 and back.  Every row stays the same.
SET citus.next_shard_id = 12000;
SET citus.shard_count = 8;
CREATE TABLE rb_events (id public.xid PRIMARY KEY, kind int NOT NULL, tag public.xid);
SELECT create_distributed_table('rb_events', 'id', colocate_with => 'none');
INSERT INTO rb_events SELECT id, kind, parent FROM events;
CREATE TEMP TABLE rb_before AS
SELECT md5(string_agg(id::text || ':' || kind || ':' || coalesce(tag::text, '-'), ',' ORDER BY id)) AS rows_md5,
       count(*) AS n
FROM rb_events;
-- shards per worker
CREATE VIEW rb_placement AS
SELECT CASE n.nodeport WHEN :worker1_port THEN 'worker1' WHEN :worker2_port THEN 'worker2' ELSE 'coordinator' END AS node,
       count(*) AS shards
FROM pg_dist_placement p JOIN pg_dist_node n USING (groupid) JOIN pg_dist_shard s USING (shardid)
WHERE s.logicalrelid = 'rb_events'::regclass GROUP BY 1 ORDER BY 1;
SELECT * FROM rb_placement;
-- one shard moved by hand, by logical replication
SELECT shardid AS moving FROM pg_dist_shard_placement JOIN pg_dist_shard USING (shardid)
WHERE logicalrelid = 'rb_events'::regclass AND nodeport = :worker1_port ORDER BY shardid LIMIT 1 \gset
SELECT citus_move_shard_placement(:moving, '127.0.0.1', :worker1_port, '127.0.0.1', :worker2_port,
                                  shard_transfer_mode := 'force_logical');
SELECT * FROM rb_placement;
SELECT count(*) = b.n AS same_count,
       md5(string_agg(r.id::text || ':' || r.kind || ':' || coalesce(r.tag::text, '-'), ',' ORDER BY r.id)) = b.rows_md5 AS same_rows
FROM rb_events r, rb_before b GROUP BY b.n, b.rows_md5;
-- worker 2 to have no shards: the rebalancer moves them all to worker 1
SELECT citus_set_node_property('127.0.0.1', :worker2_port, 'shouldhaveshards', false);
SELECT rebalance_table_shards('rb_events', shard_transfer_mode := 'force_logical');
SELECT * FROM rb_placement;
SELECT count(*) = b.n AS same_count,
       md5(string_agg(r.id::text || ':' || r.kind || ':' || coalesce(r.tag::text, '-'), ',' ORDER BY r.id)) = b.rows_md5 AS same_rows
FROM rb_events r, rb_before b GROUP BY b.n, b.rows_md5;
-- and back
SELECT citus_set_node_property('127.0.0.1', :worker2_port, 'shouldhaveshards', true);
SELECT rebalance_table_shards('rb_events', shard_transfer_mode := 'force_logical');
SELECT * FROM rb_placement;
SELECT count(*) = b.n AS same_count,
       md5(string_agg(r.id::text || ':' || r.kind || ':' || coalesce(r.tag::text, '-'), ',' ORDER BY r.id)) = b.rows_md5 AS same_rows
FROM rb_events r, rb_before b GROUP BY b.n, b.rows_md5;
-- every row found again by its id (each shard where the metadata says)
DO $$
DECLARE
    r record;
    n int := 0;
BEGIN
    FOR r IN SELECT id FROM rb_events WHERE kind = 5 LOOP
        IF NOT EXISTS (SELECT FROM rb_events WHERE id = r.id) THEN
            RAISE EXCEPTION 'id % not found after the moves', r.id;
        END IF;
        n := n + 1;
    END LOOP;
    RAISE NOTICE '% ids found again one by one', n;
END
$$;
