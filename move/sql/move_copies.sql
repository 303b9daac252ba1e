--
-- move_copies: the copies a move builds of the indexes over a moved column
-- are named by a hash of the whole name and known by OID (never by a name
-- or a pattern).  One case per defect of names: two indexes that share 40
-- characters, two partitions that share 36, a user's index whose name
-- holds _xm_; a multi-column unique constraint over two keys moved one
-- after the other; indexes declared on partitions only.  Each runs the
-- whole move and lists every index afterwards.
--
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT;
	RETURN s || ': ' || m;
END
$$;
CREATE ROLE regress_xc_owner;
CREATE SCHEMA xc AUTHORIZATION regress_xc_owner;
SET ROLE regress_xc_owner;
SET search_path = xc, public;
\set VERBOSITY terse
SET client_min_messages = warning;

-- 1. Two indexes that share their first 40 characters, and a user's index
-- named like a copy: each gets its own copy, finish(drop_old) gives each
-- copy its index's name.
CREATE TABLE orders (created_at timestamptz NOT NULL DEFAULT '2024-01-01', id bigint PRIMARY KEY);
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders, line_no integer NOT NULL, qty integer);
CREATE INDEX lines_order_id_and_a_very_long_common_prefix_one ON lines (order_id, line_no);
CREATE INDEX lines_order_id_and_a_very_long_common_prefix_two ON lines (order_id, qty);
CREATE INDEX lines_by_order_xm_2024 ON lines (order_id);
INSERT INTO orders (id) SELECT g FROM generate_series(1, 20) g;
INSERT INTO lines SELECT g, 1 + g % 20, g, g FROM generate_series(1, 60) g;
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT * FROM xid_move_index_commands('orders') \gexec
-- every copy recorded by OID, one per index
SELECT o.relation, o.original::regclass AS original, o.mode, i.indisvalid
FROM xid_move_objects o JOIN pg_index i ON i.indexrelid = o.objid
WHERE o.tbl = 'orders'::regclass ORDER BY 1, 2, 3;
SELECT count(*) AS commands_left FROM xid_move_index_commands('orders');
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
CALL xid_move_finish('orders', drop_old => true);
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
DROP TABLE lines, orders;

-- 2. Two partitions whose names share 36 characters, each with its index;
-- finished with the old columns kept.
CREATE TABLE devices (created_at timestamptz NOT NULL DEFAULT '2024-01-01', id bigint PRIMARY KEY);
CREATE TABLE readings (at date NOT NULL, device_id bigint NOT NULL REFERENCES devices) PARTITION BY RANGE (at);
CREATE TABLE readings_partition_for_the_year_2024_first PARTITION OF readings FOR VALUES FROM ('2024-01-01') TO ('2024-07-01');
CREATE TABLE readings_partition_for_the_year_2024_second PARTITION OF readings FOR VALUES FROM ('2024-07-01') TO ('2025-01-01');
CREATE INDEX readings_device_id ON readings (device_id);
INSERT INTO devices (id) SELECT g FROM generate_series(1, 10) g;
INSERT INTO readings SELECT date '2024-01-01' + g * 3, 1 + g % 10 FROM generate_series(1, 100) g;
CALL xid_move_start('devices', time_column => 'created_at');
CALL xid_move_backfill('devices');
SELECT * FROM xid_move_index_commands('devices') \gexec
SELECT count(*) AS commands_left FROM xid_move_index_commands('devices');
CALL xid_move_validate('devices');
CALL xid_move_swap('devices');
CALL xid_move_finish('devices', drop_old => false);
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
DROP TABLE readings, devices;

-- 3. Indexes over the referencing column declared on the partitions only
-- (the partitioned table has none), one of them next to an index attached
-- to a parent's: every partition gets its copy, built concurrently, and
-- keeps an index on the new column.
CREATE TABLE customer (created_at timestamptz NOT NULL DEFAULT '2024-01-01', customer_id bigint PRIMARY KEY, name text);
CREATE TABLE payment (payment_id bigint NOT NULL, customer_id bigint NOT NULL REFERENCES customer, payment_date date NOT NULL, amount numeric)
	PARTITION BY RANGE (payment_date);
CREATE TABLE payment_p2024_01 PARTITION OF payment FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE payment_p2024_02 PARTITION OF payment FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE TABLE payment_p2024_03 PARTITION OF payment FOR VALUES FROM ('2024-03-01') TO ('2024-04-01');
CREATE INDEX payment_p2024_01_customer_id_idx ON payment_p2024_01 (customer_id);
CREATE INDEX payment_p2024_02_customer_id_idx ON payment_p2024_02 (customer_id);
CREATE INDEX payment_p2024_03_customer_id_idx ON payment_p2024_03 (customer_id);
CREATE INDEX payment_customer_amount ON payment (customer_id, amount);
INSERT INTO customer (customer_id, name) SELECT g, 'c' || g FROM generate_series(1, 50) g;
INSERT INTO payment SELECT g, 1 + g % 50, date '2024-01-01' + g % 90, g FROM generate_series(1, 900) g;
CALL xid_move_start('customer', time_column => 'created_at');
CALL xid_move_backfill('customer');
SELECT * FROM xid_move_index_commands('customer') \gexec
SELECT count(*) AS commands_left FROM xid_move_index_commands('customer');
CALL xid_move_validate('customer');
CALL xid_move_swap('customer');
CALL xid_move_finish('customer', drop_old => true);
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
-- each partition has an index led by the new customer_id
SELECT c.relname, count(*) FILTER (WHERE a.attname = 'customer_id' AND format_type(a.atttypid, a.atttypmod) LIKE '%xid') AS on_new_key
FROM pg_class c JOIN pg_inherits h ON h.inhrelid = c.oid AND h.inhparent = 'payment'::regclass
JOIN pg_index i ON i.indrelid = c.oid JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
GROUP BY 1 ORDER BY 1;
ANALYZE payment_p2024_02;
SET enable_seqscan = off;
-- the indexes the plan reads (EXPLAIN's text differs between versions)
CREATE FUNCTION pg_temp.plan_indexes(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE j jsonb;
BEGIN
	EXECUTE 'EXPLAIN (COSTS OFF, FORMAT JSON) ' || q INTO j;
	RETURN QUERY SELECT DISTINCT v #>> '{}' FROM jsonb_path_query(j, 'strict $.**."Index Name"') v ORDER BY 1;
END
$$;
SELECT * FROM pg_temp.plan_indexes($$SELECT * FROM payment_p2024_02 WHERE customer_id = (SELECT customer_id FROM customer WHERE name = 'c7')$$);
RESET enable_seqscan;
DROP TABLE payment, customer;

-- 4. One unique constraint over two moved keys, moved one after the
-- other (the first finished with its old column kept): the second move
-- moves the constraint the first left, whatever its copy's name, and a
-- duplicate still fails.
CREATE TABLE customers (created_at timestamptz NOT NULL DEFAULT '2024-01-01', customer_id bigint PRIMARY KEY);
CREATE TABLE inventory (created_at timestamptz NOT NULL DEFAULT '2024-01-01', inventory_id bigint PRIMARY KEY);
CREATE TABLE rental (rental_id bigint PRIMARY KEY, rental_date timestamptz NOT NULL,
	inventory_id bigint NOT NULL REFERENCES inventory, customer_id bigint NOT NULL REFERENCES customers,
	UNIQUE (rental_date, inventory_id, customer_id));
INSERT INTO customers (customer_id) SELECT g FROM generate_series(1, 10) g;
INSERT INTO inventory (inventory_id) SELECT g FROM generate_series(1, 10) g;
INSERT INTO rental SELECT g, timestamptz '2024-01-01' + g * interval '1 hour', 1 + g % 10, 1 + g % 7 FROM generate_series(1, 40) g;
CALL xid_move_start('customers', time_column => 'created_at');
CALL xid_move_backfill('customers');
SELECT * FROM xid_move_index_commands('customers') \gexec
CALL xid_move_validate('customers');
CALL xid_move_swap('customers');
CALL xid_move_finish('customers');
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' AND tablename = 'rental' ORDER BY 1, 2;
CALL xid_move_start('inventory', time_column => 'created_at');
CALL xid_move_backfill('inventory');
SELECT * FROM xid_move_index_commands('inventory') \gexec
CALL xid_move_validate('inventory');
CALL xid_move_swap('inventory');
CALL xid_move_finish('inventory', drop_old => true);
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'rental'::regclass AND contype = 'u' ORDER BY 1;
-- a duplicate rental fails as before
SELECT pg_temp.try($$INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, customer_id_old)
	SELECT 1000, rental_date, inventory_id, customer_id, customer_id_old FROM rental WHERE rental_id = 1$$);
SELECT pg_temp.try($$INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, customer_id_old)
	SELECT 1000, rental_date, inventory_id, customer_id, customer_id_old + 100 FROM rental WHERE rental_id = 1$$);
DROP TABLE rental, inventory, customers;

-- 5. An abort after the swap: the unique constraints get their names
-- back from the copies (by OID) and the copies go with the xid columns.
-- The swap put the replica identity on the copy of its index; the
-- statement that puts it back names that index (both by OID).
CREATE TABLE orders (created_at timestamptz NOT NULL DEFAULT '2024-01-01', id bigint PRIMARY KEY);
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders, line_no integer NOT NULL,
	CONSTRAINT lines_order_line UNIQUE (order_id, line_no));
CREATE UNIQUE INDEX lines_line_order ON lines (line_no, order_id);
ALTER TABLE lines REPLICA IDENTITY USING INDEX lines_line_order;
INSERT INTO orders (id) SELECT g FROM generate_series(1, 20) g;
INSERT INTO lines SELECT g, 1 + g % 20, g FROM generate_series(1, 60) g;
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
SELECT c.relname, i.indisreplident, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 'lines'::regclass ORDER BY 1;
SELECT unnest(xid_move_replident('orders', true)) AS swap_back;
CALL xid_move_abort('orders');
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'lines'::regclass AND contype = 'u' ORDER BY 1;
DROP TABLE lines, orders;

-- 6. Names that are taken: a user's table holds the name of a copy (the
-- copy takes the next free one), an invalid index of a build stopped
-- before its record holds another (dropped first, built again), and a
-- recorded copy dropped by hand is forgotten and built again.
CREATE TABLE orders (created_at timestamptz NOT NULL DEFAULT '2024-01-01', id bigint PRIMARY KEY);
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders, line_no integer NOT NULL, qty integer);
CREATE INDEX lines_order_id ON lines (order_id);
CREATE INDEX lines_order_qty ON lines (order_id, qty);
INSERT INTO orders (id) SELECT g FROM generate_series(1, 20) g;
INSERT INTO lines SELECT g, 1 + g % 20, g, g % 3 FROM generate_series(1, 60) g;
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT xid_move_copy_name('lines_order_id'::regclass, 'lines', '{}') AS taken_name,
       xid_move_copy_name('lines_order_qty'::regclass, 'lines', '{}') AS left_name \gset
CREATE TABLE :"taken_name" ();
CREATE UNIQUE INDEX CONCURRENTLY :"left_name" ON lines (qty);
SELECT * FROM xid_move_index_commands('orders') \gexec
SELECT c.relname FROM xid_move_objects o JOIN pg_class c ON c.oid = o.objid
WHERE o.tbl = 'orders'::regclass AND o.original = 'lines_order_id'::regclass \gset stale_
DROP INDEX :"stale_relname";
\set ECHO none
SELECT regexp_replace(x, '[0-9]{4,}', 'N', 'g') AS command FROM xid_move_index_commands('orders') x;
SELECT * FROM xid_move_index_commands('orders') \gexec
\set ECHO all
SELECT count(*) AS commands_left FROM xid_move_index_commands('orders');
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
CALL xid_move_finish('orders', drop_old => true);
SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'xc' ORDER BY 1, 2;
DROP TABLE lines, orders, :"taken_name";

RESET ROLE;
DROP SCHEMA xc;
DROP OWNED BY regress_xc_owner;
DROP ROLE regress_xc_owner;
