-- id = const goes to one shard (a router query), and so does a parameter
SELECT id AS e5013 FROM events WHERE payload = 'e5013' \gset
SELECT id, kind, parent, payload FROM events WHERE id = :'e5013';
EXPLAIN (COSTS OFF) SELECT id, kind, payload FROM events WHERE id = :'e5013';
SELECT e.payload, d.note FROM events e JOIN event_details d USING (id) WHERE e.id = :'e5013';
EXPLAIN (COSTS OFF) SELECT e.payload, d.note FROM events e JOIN event_details d USING (id) WHERE e.id = :'e5013';
-- a prepared statement: the fast-path router plan, also once generic
PREPARE by_id(public.xid) AS SELECT payload FROM events WHERE id = $1;
EXECUTE by_id(:'e5013');
EXECUTE by_id(:'e5013');
EXECUTE by_id(:'e5013');
EXECUTE by_id(:'e5013');
EXECUTE by_id(:'e5013');
EXECUTE by_id(:'e5013');
EXPLAIN (COSTS OFF) EXECUTE by_id(:'e5013');
-- UPDATE and DELETE by id: one shard
EXPLAIN (COSTS OFF) UPDATE events SET payload = payload || '!' WHERE id = :'e5013';
UPDATE events SET payload = payload || '!' WHERE id = :'e5013' RETURNING payload;
UPDATE events SET payload = 'e5013' WHERE id = :'e5013';
-- an id that is not there, and IN: the shards of the ids only
SELECT count(*) FROM events WHERE id = '5cnEkaefSdu';
EXPLAIN (COSTS OFF) SELECT count(*) FROM events
WHERE id IN (:'e5013', '5cnEkaefSdu');
