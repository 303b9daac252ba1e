-- alter_distributed_table to another shard count, with the co-located
-- table and its foreign key: every row kept, on the shard of its hash.
SET citus.next_shard_id = 11000;
CREATE TABLE sc_events (id public.xid PRIMARY KEY, kind int NOT NULL);
SELECT create_distributed_table('sc_events', 'id', colocate_with => 'none', shard_count => 4);
CREATE TABLE sc_details (id public.xid PRIMARY KEY REFERENCES sc_events (id), note text);
SELECT create_distributed_table('sc_details', 'id', colocate_with => 'sc_events');
INSERT INTO sc_events SELECT id, kind FROM events;
INSERT INTO sc_details SELECT id, payload FROM events WHERE kind = 4;
CREATE TEMP TABLE sc_before AS
SELECT (SELECT count(*) FROM sc_events) AS n,
       (SELECT md5(string_agg(id::text || ':' || kind, ',' ORDER BY id)) FROM sc_events) AS events_md5,
       (SELECT md5(string_agg(id::text || ':' || note, ',' ORDER BY id)) FROM sc_details) AS details_md5;
SET client_min_messages = warning;
SELECT alter_distributed_table('sc_events', shard_count := 6, cascade_to_colocated := true);
RESET client_min_messages;
SELECT table_name, shard_count FROM citus_tables
WHERE table_name IN ('sc_events'::regclass, 'sc_details'::regclass) ORDER BY 1;
SELECT b.n = (SELECT count(*) FROM sc_events) AS same_count,
       b.events_md5 = (SELECT md5(string_agg(id::text || ':' || kind, ',' ORDER BY id)) FROM sc_events) AS same_events,
       b.details_md5 = (SELECT md5(string_agg(id::text || ':' || note, ',' ORDER BY id)) FROM sc_details) AS same_details
FROM sc_before b;
-- rows on the shard of their hash, and still co-located
WITH placed AS (
    SELECT shardid, result::bigint AS n
    FROM run_command_on_shards('sc_events', 'SELECT count(*) FROM %s')),
hashed AS (
    SELECT s.shardid, count(e.id) AS n
    FROM pg_dist_shard s LEFT JOIN sc_events e
      ON worker_hash(e.id) BETWEEN s.shardminvalue::int AND s.shardmaxvalue::int
    WHERE s.logicalrelid = 'sc_events'::regclass GROUP BY s.shardid)
SELECT count(*) AS shards, sum(p.n) AS rows, bool_and(p.n = h.n) AS each_on_its_shard
FROM placed p JOIN hashed h USING (shardid);
EXPLAIN (COSTS OFF) SELECT count(*) FROM sc_events e JOIN sc_details d USING (id);
SELECT count(*) FROM sc_events e JOIN sc_details d USING (id);
