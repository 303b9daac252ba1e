--
-- move_walk: what a move changes that pg_depend on its columns does not
-- show.  Foreign keys declared on a partition (one level down, two levels
-- down) and typed tables are refused (the move adds a column to each
-- relation it changes; neither can take one); every stored column that
-- holds the table's row type (the type itself, an array of it, a domain
-- over it) is refused, since it would keep the old key; a view's column
-- and a function of that type are kept and named.  CLUSTER ON and a
-- comment on the foreign key are refused; the statistics target, the
-- attribute options and the comments of the primary key, its index and a
-- moved index are carried over by the swap; a function that takes the
-- key's type and names the table is named, one that does not name it is
-- not.
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
SET client_min_messages = warning;
CREATE SCHEMA mw;
CREATE TABLE mw.orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, total numeric);
INSERT INTO mw.orders SELECT g, timestamptz '2024-01-01' + g * interval '1 s', g FROM generate_series(1, 20) g;

-- a foreign key declared on a partition, not on its partitioned table
CREATE TABLE mw.pay (order_id bigint NOT NULL, at date NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE mw.pay_2024 PARTITION OF mw.pay FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE mw.pay_2025 PARTITION OF mw.pay FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
ALTER TABLE mw.pay_2024 ADD CONSTRAINT pay_2024_order FOREIGN KEY (order_id) REFERENCES mw.orders;
-- ... and on a partition that is itself partitioned (its own partition
-- has a clone of it, which is not named again)
CREATE TABLE mw.ev (order_id bigint, kind text NOT NULL, at date NOT NULL) PARTITION BY LIST (kind);
CREATE TABLE mw.ev_a PARTITION OF mw.ev FOR VALUES IN ('a') PARTITION BY RANGE (at);
CREATE TABLE mw.ev_a_2024 PARTITION OF mw.ev_a FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
ALTER TABLE mw.ev_a ADD CONSTRAINT ev_a_order FOREIGN KEY (order_id) REFERENCES mw.orders;
-- a typed table that references the key
CREATE TYPE mw.line_t AS (id bigint, order_id bigint);
CREATE TABLE mw.typed_lines OF mw.line_t (PRIMARY KEY (id));
ALTER TABLE mw.typed_lines ADD CONSTRAINT typed_lines_order FOREIGN KEY (order_id) REFERENCES mw.orders;
-- the row type stored in other tables: itself, an array, a domain
CREATE TABLE mw.history (at timestamptz, old mw.orders);
CREATE TABLE mw.snap (olds mw.orders[]);
CREATE DOMAIN mw.order_row AS mw.orders CHECK (VALUE IS NOT NULL);
CREATE TABLE mw.checked (o mw.order_row);
-- ... and where nothing is stored: a view's column, a composite type's
-- attribute, a function's argument
CREATE VIEW mw.order_rows AS SELECT o FROM mw.orders o;
CREATE TYPE mw.order_pair AS (a mw.orders, b mw.orders);
CREATE FUNCTION mw.order_total(o mw.orders) RETURNS numeric LANGUAGE sql AS 'SELECT o.total';

SELECT object_type, object, action, sqlstate FROM xid_move_plan('mw.orders', 'created_at')
WHERE object_type IN ('foreign key', 'table', 'column', 'view column', 'type attribute', 'function')
ORDER BY action COLLATE "C", object_type COLLATE "C", object COLLATE "C";
SELECT detail, hint FROM xid_move_plan('mw.orders', 'created_at')
WHERE object IN ('pay_2024_order on mw.pay_2024', 'mw.typed_lines', 'mw.history.old', 'mw.order_rows.o', 'mw.order_total(mw.orders)')
ORDER BY object COLLATE "C";
-- nothing starts
SELECT pg_temp.try($$CALL xid_move_start('mw.orders', time_column => 'created_at')$$);
SELECT count(*) AS moves FROM xid_move_moves;
-- the moved table itself typed
CREATE TYPE mw.order_t AS (id bigint, created_at timestamptz);
CREATE TABLE mw.typed_orders OF mw.order_t (PRIMARY KEY (id));
SELECT object_type, object, action, sqlstate FROM xid_move_plan('mw.typed_orders', 'created_at') WHERE action = 'refuse';
SELECT pg_temp.try($$CALL xid_move_start('mw.typed_orders', time_column => 'created_at')$$);
DROP TABLE mw.pay, mw.ev, mw.typed_lines, mw.typed_orders, mw.history, mw.snap, mw.checked;
DROP VIEW mw.order_rows;
DROP TYPE mw.order_pair;
DROP DOMAIN mw.order_row;
DROP FUNCTION mw.order_total(mw.orders);

-- properties of the key, of a referencing column, of their constraints
-- and indexes
CREATE TABLE mw.lines (id bigint PRIMARY KEY, order_id bigint CONSTRAINT lines_order REFERENCES mw.orders);
INSERT INTO mw.lines SELECT g, g % 20 + 1 FROM generate_series(1, 40) g;
CREATE INDEX lines_by_order ON mw.lines (order_id);
ALTER TABLE mw.orders ALTER COLUMN id SET STATISTICS 500;
ALTER TABLE mw.lines ALTER COLUMN order_id SET (n_distinct = -0.5);
COMMENT ON CONSTRAINT orders_pkey ON mw.orders IS 'the key';
COMMENT ON INDEX mw.orders_pkey IS 'the key''s index';
COMMENT ON INDEX mw.lines_by_order IS 'lines of an order';
COMMENT ON CONSTRAINT lines_order ON mw.lines IS 'each line has its order';
CLUSTER mw.lines USING lines_by_order;
-- functions: one takes a bigint and names the table, one takes a bigint
-- and names neither the table nor the key
CREATE FUNCTION mw.order_count(p_order bigint) RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM mw.orders WHERE id = p_order';
CREATE FUNCTION mw.twice(n bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS 'SELECT n * 2';
CREATE PROCEDURE mw.forget(INOUT n bigint) LANGUAGE sql AS 'DELETE FROM mw.lines WHERE order_id = n RETURNING n';
SELECT object_type, object, action, sqlstate FROM xid_move_plan('mw.orders', 'created_at')
WHERE object_type IN ('cluster', 'statistics target', 'attribute options', 'constraint comment', 'index comment', 'function', 'procedure')
ORDER BY action COLLATE "C", object_type COLLATE "C", object COLLATE "C";
SELECT object, detail, hint FROM xid_move_plan('mw.orders', 'created_at')
WHERE object_type IN ('cluster', 'function') OR action = 'refuse'
ORDER BY object COLLATE "C";
SELECT pg_temp.try($$CALL xid_move_start('mw.orders', time_column => 'created_at')$$);
-- as the hints say
ALTER TABLE mw.lines SET WITHOUT CLUSTER;
COMMENT ON CONSTRAINT lines_order ON mw.lines IS NULL;
SELECT count(*) AS refusals FROM xid_move_plan('mw.orders', 'created_at') WHERE action = 'refuse';

-- the whole move: what was carried is on the new columns
CALL xid_move_start('mw.orders', time_column => 'created_at');
CALL xid_move_backfill('mw.orders');
SELECT * FROM xid_move_index_commands('mw.orders') \gexec
CALL xid_move_validate('mw.orders');
CALL xid_move_swap('mw.orders');
CALL xid_move_finish('mw.orders');
SELECT a.attrelid::regclass, a.attname, a.atttypid::regtype, a.attstattarget >= 0 AND a.attstattarget IS NOT NULL AS has_target,
       nullif(a.attstattarget, -1) AS target,
       ARRAY(SELECT o FROM unnest(a.attoptions) o WHERE o LIKE 'n\_distinct%') AS n_distinct
FROM pg_attribute a WHERE a.attrelid IN ('mw.orders'::regclass, 'mw.lines'::regclass) AND a.attname IN ('id', 'order_id') ORDER BY 1, 2;
SELECT con.conname, obj_description(con.oid, 'pg_constraint') AS constraint_comment,
       obj_description(con.conindid, 'pg_class') AS index_comment,
       (SELECT a.atttypid::regtype FROM pg_attribute a WHERE a.attrelid = con.conrelid AND a.attnum = con.conkey[1]) AS type
FROM pg_constraint con WHERE con.conrelid = 'mw.orders'::regclass AND con.contype = 'p';
-- the index over the new order_id (a copy of lines_by_order)
SELECT a.atttypid::regtype, obj_description(i.indexrelid, 'pg_class') AS comment
FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
WHERE i.indrelid = 'mw.lines'::regclass AND a.attname = 'order_id' AND NOT i.indisprimary;
SELECT count(*) AS moves FROM xid_move_moves;

DROP SCHEMA mw CASCADE;
RESET client_min_messages;
