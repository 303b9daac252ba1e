-- ALTER TABLE on the xid columns of a distributed table: propagated to
-- every shard.
SET citus.next_shard_id = 9000;
SET citus.shard_count = 8;
CREATE TABLE orders (id public.xid PRIMARY KEY, legacy_ref text, item text NOT NULL);
SELECT create_distributed_table('orders', 'id');
INSERT INTO orders SELECT id, parent::text, payload FROM events;
-- the distribution column cannot be altered, not even its default: give
-- it DEFAULT xid_new() before create_distributed_table
ALTER TABLE orders ALTER COLUMN id SET DEFAULT public.xid_new();
-- a new xid column, a CHECK on time, an index with a prefix query
ALTER TABLE orders ADD COLUMN parent public.xid;
UPDATE orders SET parent = legacy_ref::public.xid WHERE legacy_ref IS NOT NULL;
ALTER TABLE orders ADD CONSTRAINT orders_made_after_2020 CHECK (id >= '2020-01-01+00'::timestamptz);
INSERT INTO orders (id, item) VALUES (public.xid_time_lower_bound('2019-06-01+00', true), 'too old');
CREATE INDEX orders_parent ON orders (parent);
SELECT count(*) FROM orders WHERE parent ^@ '4jU';
SELECT DISTINCT result FROM run_command_on_shards('orders',
    $$SELECT pg_get_indexdef(indexrelid) ~ 'USING btree \(parent\)' FROM pg_index
      WHERE indrelid = '%s'::regclass AND indexrelid::regclass::text LIKE 'orders_parent%%'$$);
-- text to xid, USING the cast: every value converted on its shard
ALTER TABLE orders ALTER COLUMN legacy_ref TYPE public.xid USING legacy_ref::public.xid;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid = 'orders'::regclass AND attname = 'legacy_ref';
SELECT count(*), count(legacy_ref), count(*) FILTER (WHERE legacy_ref = parent) FROM orders;
-- a text that is no id stops the conversion, and nothing changes
CREATE TABLE refs (id public.xid PRIMARY KEY, ref text);
SELECT create_distributed_table('refs', 'id', colocate_with => 'orders');
INSERT INTO refs SELECT id, id::text FROM events WHERE kind = 1;
INSERT INTO refs VALUES ('5cnEkaefSdu', 'not-an-xid');
ALTER TABLE refs ALTER COLUMN ref TYPE public.xid USING ref::public.xid;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute
WHERE attrelid = 'refs'::regclass AND attname = 'ref';
-- the distribution column's type cannot be changed in place either
CREATE TABLE legacy (id text PRIMARY KEY, v int);
SELECT create_distributed_table('legacy', 'id');
INSERT INTO legacy SELECT id::text, kind FROM events WHERE kind = 2;
ALTER TABLE legacy ALTER COLUMN id TYPE public.xid USING id::public.xid;
-- the way: make it local again, change it (and its default), distribute
-- it again
SET client_min_messages = warning;
SELECT undistribute_table('legacy');
ALTER TABLE legacy ALTER COLUMN id TYPE public.xid USING id::public.xid,
    ALTER COLUMN id SET DEFAULT public.xid_new();
SELECT create_distributed_table('legacy', 'id', colocate_with => 'events');
SELECT truncate_local_data_after_distributing_table('legacy');
RESET client_min_messages;
SELECT count(*) FROM legacy l JOIN events e USING (id) WHERE e.kind = 2;
INSERT INTO legacy (v) VALUES (-1);
SELECT count(*) FROM legacy WHERE id >= now() - interval '1 hour';
-- a new xid column with xid_new() as its default: each shard fills its
-- rows on its worker, so the ids carry the worker's node number
ALTER TABLE orders ADD COLUMN trace public.xid DEFAULT public.xid_new();
SELECT count(*), count(DISTINCT trace), count(*) FILTER (WHERE trace >= now() - interval '1 hour') FROM orders;
SELECT sum(result::int) AS rows_with_another_node
FROM run_command_on_shards('orders', $$SELECT count(*) FROM %s
    WHERE public.xid_node(trace, 4) <> current_setting('xid.node_id')::int$$);
-- a default of another xid column
ALTER TABLE orders ALTER COLUMN parent SET DEFAULT public.xid_new();
ALTER TABLE orders ALTER COLUMN parent DROP DEFAULT;
-- dropping xid columns
ALTER TABLE orders DROP COLUMN trace, DROP COLUMN legacy_ref;
SELECT count(*) FROM orders;
