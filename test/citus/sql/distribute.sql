-- An xid primary key as the distribution column, and a co-located table.
-- Ids are made for fixed instants (one a minute from 2024-01-01, random
-- field g % 1000), so every result below is exact.
SET citus.shard_count = 8;
SET citus.next_shard_id = 1000;
CREATE TABLE events (
    id      public.xid PRIMARY KEY DEFAULT public.xid_new(),
    kind    int NOT NULL,
    parent  public.xid,
    payload text NOT NULL);
SELECT create_distributed_table('events', 'id');
CREATE TABLE event_details (
    id   public.xid PRIMARY KEY REFERENCES events (id),
    note text NOT NULL);
SELECT create_distributed_table('event_details', 'id', colocate_with => 'events');
SELECT logicalrelid, partmethod, column_to_column_name(logicalrelid, partkey) AS column,
       (SELECT count(DISTINCT colocationid) FROM pg_dist_partition
        WHERE logicalrelid IN ('events'::regclass, 'event_details'::regclass)) AS colocation_groups
FROM pg_dist_partition WHERE logicalrelid IN ('events'::regclass, 'event_details'::regclass)
ORDER BY 1;
INSERT INTO events (id, kind, parent, payload)
SELECT (public.xid_time_lower_bound('2024-01-01+00'::timestamptz + g * interval '1 minute', true)::bigint
        + g % 1000)::public.xid,
       g % 10,
       CASE WHEN g % 3 = 0 AND g > 0
            THEN (public.xid_time_lower_bound('2024-01-01+00'::timestamptz + (g - 1) * interval '1 minute', true)::bigint
                  + (g - 1) % 1000)::public.xid END,
       'e' || g
FROM generate_series(0, 9999) AS g;
INSERT INTO event_details SELECT id, 'detail of ' || payload FROM events WHERE kind = 3;
-- the hash Citus distributes by is xid_hash_ops' 32-bit hash, a fixed part
-- of the format: the same id lands in the same shard on every version
SELECT worker_hash('5cnEkaefSdu'::public.xid), worker_hash('11111111111'::public.xid),
       worker_hash('jpXCZedGfVQ'::public.xid);
SELECT get_shard_id_for_distribution_column('events', '5cnEkaefSdu'::public.xid);
-- every shard holds exactly the rows whose hash falls in its range
WITH placed AS (
    SELECT shardid, result::bigint AS n
    FROM run_command_on_shards('events', 'SELECT count(*) FROM %s')),
hashed AS (
    SELECT s.shardid, count(e.id) AS n
    FROM pg_dist_shard s LEFT JOIN events e
      ON worker_hash(e.id) BETWEEN s.shardminvalue::int AND s.shardmaxvalue::int
    WHERE s.logicalrelid = 'events'::regclass GROUP BY s.shardid)
SELECT count(*) AS shards, sum(p.n) AS rows, bool_and(p.n = h.n) AS each_on_its_shard,
       min(p.n) AS fewest, max(p.n) AS most
FROM placed p JOIN hashed h USING (shardid);
SELECT count(*), count(DISTINCT id), min(id), max(id) FROM events;
SELECT count(*) FROM event_details;
-- every id is found again by a router query on its shard
DO $$
DECLARE
    r record;
    n int := 0;
BEGIN
    FOR r IN SELECT id FROM events WHERE kind = 7 LOOP
        IF NOT EXISTS (SELECT FROM events WHERE id = r.id) THEN
            RAISE EXCEPTION 'id % not found by a router query', r.id;
        END IF;
        n := n + 1;
    END LOOP;
    RAISE NOTICE '% ids found again one by one', n;
END
$$;
-- the foreign key between the co-located tables is enforced on the shards
INSERT INTO event_details VALUES ('5cnEkaefSdu', 'orphan');
ANALYZE events;
ANALYZE event_details;
