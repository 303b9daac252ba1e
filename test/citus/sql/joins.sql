-- Joins on xid: co-located (on the distribution column, inside each shard)
-- and repartitioned (rows sent between nodes by the hash of an xid).
SET citus.next_shard_id = 2000;
SET citus.shard_count = 8;
SELECT count(*), min(e.id), max(d.id) FROM events e JOIN event_details d USING (id);
SELECT count(*) FROM events e JOIN event_details d USING (id) WHERE e.id ^@ '4jU';
EXPLAIN (COSTS OFF) SELECT e.payload, d.note FROM events e JOIN event_details d USING (id);
-- comments: distributed by their own number, pointing at events by xid
CREATE TABLE comments (
    no       bigint PRIMARY KEY,
    event_id public.xid NOT NULL,
    body     text NOT NULL);
SELECT create_distributed_table('comments', 'no', colocate_with => 'none');
CREATE TEMP TABLE l_events AS SELECT * FROM events;
INSERT INTO comments
SELECT g, e.id, 'c' || g
FROM generate_series(1, 5000) AS g JOIN l_events e ON e.payload = 'e' || (g * 7 % 10000);
SELECT count(*) FROM comments;
-- without repartition joins Citus refuses; with them, both sides are
-- repartitioned by the hash of the xid they are joined on (MapMergeJob)
SELECT count(*) FROM comments c JOIN events e ON e.id = c.event_id;
SET citus.enable_repartition_joins = on;
SELECT count(*), count(DISTINCT e.id), min(e.id), max(e.id), sum(c.no)
FROM comments c JOIN events e ON e.id = c.event_id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM comments c JOIN events e ON e.id = c.event_id;
-- a dual repartition: neither side's distribution column (events.parent
-- against comments.event_id)
SELECT count(*), count(DISTINCT e.id), min(c.event_id), max(c.event_id)
FROM comments c JOIN events e ON e.parent = c.event_id;
EXPLAIN (COSTS OFF) SELECT count(*) FROM comments c JOIN events e ON e.parent = c.event_id;
-- the same joins computed on the coordinator alone agree
CREATE TEMP TABLE l_comments AS SELECT * FROM comments;
SELECT (SELECT count(*) FROM l_comments c JOIN l_events e ON e.id = c.event_id) AS by_id,
       (SELECT count(*) FROM l_comments c JOIN l_events e ON e.parent = c.event_id) AS by_parent;
-- a self join of events by parent: a repartition join of a table with itself
SELECT count(*) FROM events a JOIN events b ON b.parent = a.id;
SELECT count(*) FROM l_events a JOIN l_events b ON b.parent = a.id;
RESET citus.enable_repartition_joins;
