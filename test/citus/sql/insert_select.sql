-- INSERT ... SELECT between co-located tables runs on the shards
SET citus.next_shard_id = 5000;
SET citus.shard_count = 8;
CREATE TABLE events_archive (LIKE events INCLUDING ALL);
SELECT create_distributed_table('events_archive', 'id', colocate_with => 'events');
EXPLAIN (COSTS OFF)
INSERT INTO events_archive SELECT * FROM events WHERE id < '2024-01-03+00'::timestamptz;
INSERT INTO events_archive SELECT * FROM events WHERE id < '2024-01-03+00'::timestamptz;
SELECT min(id) AS first_event FROM events \gset
SELECT count(*), min(id) = :'first_event' AS same_first, max(public.xid_time(id)) AS last_time
FROM events_archive;
-- also with a transformation of the other columns, and ON CONFLICT on the id
EXPLAIN (COSTS OFF)
INSERT INTO events_archive (id, kind, parent, payload)
SELECT id, kind + 100, parent, payload || '+' FROM events WHERE id ^@ '4jJ'
ON CONFLICT (id) DO UPDATE SET kind = excluded.kind;
INSERT INTO events_archive (id, kind, parent, payload)
SELECT id, kind + 100, parent, payload || '+' FROM events WHERE id ^@ '4jJ'
ON CONFLICT (id) DO UPDATE SET kind = excluded.kind;
SELECT count(*), count(*) FILTER (WHERE kind >= 100) FROM events_archive;
-- a new id for every row (xid_new() for the distribution column) cannot
-- stay on its shard: the SELECT and the default run on the workers (the
-- ids carry their node numbers), and the rows are repartitioned
EXPLAIN (COSTS OFF)
INSERT INTO events_archive (kind, payload) SELECT kind, payload FROM events WHERE kind = 5;
INSERT INTO events_archive (kind, payload) SELECT kind, payload FROM events WHERE kind = 5;
SELECT count(*), count(DISTINCT id), min(public.xid_node(id, 4)), max(public.xid_node(id, 4))
FROM events_archive WHERE id >= now() - interval '1 hour';
-- ... and so does xid_new(t) from the old id's time (a new id, same instant)
EXPLAIN (COSTS OFF)
INSERT INTO events_archive (id, kind, payload)
SELECT public.xid_new(public.xid_time(id)), kind, payload FROM events WHERE kind = 6;
