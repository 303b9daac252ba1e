--
-- move_steps: the whole move, step by step, of a bigint key (with a time
-- column) and of a UUIDv7 key (without); the status; abort before and
-- after the swap; a finish stopped half-way completes when run again;
-- steps out of order; unique constraints over the key move with it.
--
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text; h text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, h = PG_EXCEPTION_HINT;
	RETURN s || ': ' || m;
END
$$;
-- A relation as \d shows it: columns (name, type, not null, default),
-- constraints, indexes and triggers, one line each
CREATE FUNCTION pg_temp.shape(rel regclass) RETURNS SETOF text LANGUAGE sql AS $$
	SELECT format('column %s %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
	              CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
	              coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), ''))
	FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE a.attrelid = rel AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	SELECT format('constraint %s %s', c.conname, pg_get_constraintdef(c.oid)) FROM pg_constraint c WHERE c.conrelid = rel
	UNION ALL
	SELECT format('index %s', pg_get_indexdef(i.indexrelid)) FROM pg_index i WHERE i.indrelid = rel
	UNION ALL
	SELECT format('trigger %s', t.tgname) FROM pg_trigger t WHERE t.tgrelid = rel AND NOT t.tgisinternal
$$;
CREATE ROLE regress_xm_owner;
CREATE SCHEMA ms AUTHORIZATION regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = ms, public;
\set VERBOSITY terse
SET client_min_messages = warning;

CREATE SEQUENCE orders_seq START 100000;
CREATE TABLE orders (
	id bigint PRIMARY KEY DEFAULT nextval('orders_seq'),
	tenant integer NOT NULL,
	created_at timestamptz NOT NULL,
	note text,
	UNIQUE (tenant, id)
);
CREATE TABLE lines (
	id bigint PRIMARY KEY,
	order_id bigint NOT NULL REFERENCES orders ON DELETE CASCADE,
	line_no integer NOT NULL,
	qty integer,
	UNIQUE (order_id, line_no)
);
CREATE INDEX lines_order_id ON lines (order_id);
CREATE TABLE notes (id bigint PRIMARY KEY, order_id bigint REFERENCES orders);	-- nullable
CREATE TABLE events (at timestamptz NOT NULL, order_id bigint NOT NULL REFERENCES orders ON DELETE CASCADE, kind text)
	PARTITION BY RANGE (at);	-- partitioned
CREATE TABLE events_2023 PARTITION OF events FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE INDEX events_order_id ON events (order_id);
INSERT INTO orders SELECT g, g % 3, timestamptz '2024-01-01' + g * interval '1 second', 'o' || g FROM generate_series(1, 1000) g;
INSERT INTO lines SELECT g, (g - 1) % 1000 + 1, (g - 1) / 1000, g FROM generate_series(1, 3000) g;
INSERT INTO notes SELECT g, CASE WHEN g % 2 = 0 THEN g END FROM generate_series(1, 100) g;
INSERT INTO events SELECT timestamptz '2023-07-01' + g * interval '1 hour', (g - 1) % 1000 + 1, 'e' || g FROM generate_series(1, 6000) g;

-- what the tables are, to compare after each abort
CREATE TEMP TABLE shape_before AS
	SELECT r, s FROM unnest(ARRAY['orders', 'lines', 'notes', 'events', 'events_2023', 'events_2024']::regclass[]) r, pg_temp.shape(r) s;
CREATE TEMP TABLE data_before AS
	SELECT 'orders' AS r, md5(string_agg(o::text, ',' ORDER BY o.id)) AS h FROM orders o
	UNION ALL SELECT 'lines', md5(string_agg(l::text, ',' ORDER BY l.id)) FROM lines l
	UNION ALL SELECT 'notes', md5(string_agg(n::text, ',' ORDER BY n.id)) FROM notes n
	UNION ALL SELECT 'events', md5(string_agg(e::text, ',' ORDER BY e.at)) FROM events e;
-- the differences with what they were: by position, and as a set (the
-- order of the columns aside)
CREATE FUNCTION pg_temp.shape_diff() RETURNS TABLE (side text, r regclass, s text) LANGUAGE sql AS $$
	(SELECT 'before', * FROM shape_before
	 EXCEPT SELECT 'before', r, s FROM unnest(ARRAY['orders', 'lines', 'notes', 'events', 'events_2023', 'events_2024']::regclass[]) r, pg_temp.shape(r) s)
	UNION ALL
	(SELECT 'now', r, s FROM unnest(ARRAY['orders', 'lines', 'notes', 'events', 'events_2023', 'events_2024']::regclass[]) r, pg_temp.shape(r) s
	 EXCEPT SELECT 'now', * FROM shape_before)
	ORDER BY 1, 2, 3
$$;
CREATE FUNCTION pg_temp.column_order() RETURNS TABLE (r regclass, cols text) LANGUAGE sql AS $$
	SELECT a.attrelid::regclass, string_agg(a.attname, ', ' ORDER BY a.attnum) FROM pg_attribute a
	WHERE a.attrelid IN ('orders'::regclass, 'lines'::regclass, 'notes'::regclass, 'events'::regclass, 'events_2023'::regclass) AND a.attnum > 0 AND NOT a.attisdropped
	GROUP BY a.attrelid ORDER BY a.attrelid::regclass::text
$$;
CREATE FUNCTION pg_temp.data_diff() RETURNS SETOF text LANGUAGE sql AS $$
	SELECT r FROM (
		SELECT 'orders' AS r, md5(string_agg(o::text, ',' ORDER BY o.id)) AS h FROM orders o
		UNION ALL SELECT 'lines', md5(string_agg(l::text, ',' ORDER BY l.id)) FROM lines l
		UNION ALL SELECT 'notes', md5(string_agg(n::text, ',' ORDER BY n.id)) FROM notes n
		UNION ALL SELECT 'events', md5(string_agg(e::text, ',' ORDER BY e.at)) FROM events e
		EXCEPT SELECT * FROM data_before) x ORDER BY 1
$$;
SELECT * FROM pg_temp.column_order();

-- steps out of order, before any start: 55000
SELECT pg_temp.try($$CALL xid_move_backfill('orders')$$);
SELECT pg_temp.try($$CALL xid_move_validate('orders')$$);
SELECT pg_temp.try($$CALL xid_move_swap('orders')$$);
SELECT pg_temp.try($$CALL xid_move_finish('orders')$$);
SELECT pg_temp.try($$CALL xid_move_abort('orders')$$);
SELECT pg_temp.try($$SELECT xid_move_index_commands('orders')$$);

------------------------------------------------------------------------------
-- abort before the swap
------------------------------------------------------------------------------
CALL xid_move_start('orders', time_column => 'created_at');
SELECT DISTINCT step FROM xid_move_status('orders');
-- out of order at 'started': 55000
SELECT pg_temp.try($$CALL xid_move_validate('orders')$$);
SELECT pg_temp.try($$CALL xid_move_swap('orders')$$);
SELECT pg_temp.try($$CALL xid_move_finish('orders')$$);
-- the extension cannot be dropped under a move (its state would go, its
-- triggers stay), not even by its owner: 2BP01
RESET ROLE;
SELECT pg_temp.try($$DROP EXTENSION xid_move$$);
SET ROLE regress_xm_owner;
SELECT count(*) AS functions_of_the_extension FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'xid_move') AND d.deptype = 'x';
-- rows written now get their new values from the triggers
INSERT INTO orders VALUES (1001, 1, '2024-06-01', 'new');
INSERT INTO lines VALUES (3001, 1001, 0, 1);
SELECT id_xid IS NOT NULL AS has_id FROM orders WHERE id = 1001;
SELECT l.order_id_xid = o.id_xid AS ref_ok FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id = 3001;
DELETE FROM orders WHERE id = 1001;
CALL xid_move_backfill('orders');
SELECT role, relation, leaf, step, blocks_done = blocks AS done, rows_done, percent FROM xid_move_status('orders');
SELECT count(*) FILTER (WHERE id_xid IS NULL) AS without_id,
       count(*) FILTER (WHERE id_xid <> xid_from_key(created_at, id)) AS other_id FROM orders;
SELECT count(*) AS bad_refs FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.order_id_xid IS DISTINCT FROM o.id_xid;
SELECT count(*) AS bad_event_refs FROM events e JOIN orders o ON o.id = e.order_id WHERE e.order_id_xid IS DISTINCT FROM o.id_xid;
SELECT count(*) FILTER (WHERE order_id IS NULL AND order_id_xid IS NOT NULL) AS bad_null_refs,
       count(*) FILTER (WHERE order_id IS NOT NULL AND order_id_xid IS NULL) AS missing_refs FROM notes;
-- validate before the indexes: 55000
SELECT pg_temp.try($$CALL xid_move_validate('orders')$$);
SELECT * FROM xid_move_index_commands('orders') \gexec
SELECT count(*) AS still_needed FROM xid_move_index_commands('orders');
CALL xid_move_validate('orders');
SELECT role, relation, step, verified_rows, verified_refs, mismatches FROM xid_move_status('orders');
-- at 'validated' the backfill may run again (a partition attached since
-- validate): it sends the move back to validate; out of order after the
-- swap (below)
SELECT pg_temp.try($$CALL xid_move_finish('orders')$$);
CALL xid_move_abort('orders');
SELECT count(*) AS moves FROM xid_move_moves;
SELECT * FROM pg_temp.shape_diff();
SELECT * FROM pg_temp.column_order();
SELECT * FROM pg_temp.data_diff();
SELECT count(*) AS functions_left FROM pg_proc WHERE pronamespace = 'ms'::regnamespace AND proname LIKE '%\_xm\_%';

------------------------------------------------------------------------------
-- abort after the swap
------------------------------------------------------------------------------
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
SELECT DISTINCT step FROM xid_move_status('orders');
SELECT pg_temp.try($$CALL xid_move_validate('orders')$$);
SELECT pg_temp.try($$CALL xid_move_swap('orders')$$);
SELECT pg_temp.try($$CALL xid_move_backfill('orders')$$);
SELECT a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
WHERE a.attrelid IN ('orders'::regclass, 'lines'::regclass, 'notes'::regclass, 'events_2023'::regclass) AND a.attname IN ('id', 'id_old', 'order_id', 'order_id_old')
ORDER BY a.attrelid::regclass::text, a.attname;
-- a row written after the swap (an xid key), then the abort takes it back
INSERT INTO orders (tenant, created_at, note) VALUES (2, '2024-06-02', 'after swap');
INSERT INTO lines (id, order_id, line_no, qty) SELECT 3002, id, 0, 1 FROM orders WHERE note = 'after swap';
SELECT o.id_old IS NOT NULL AS old_key_set FROM orders o WHERE note = 'after swap';
SELECT l.order_id_old = o.id_old AS old_ref_ok FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id = 3002;
-- every existing row's id is the one its old key and time make
SELECT count(*) FILTER (WHERE id = xid_from_key(created_at, id_old)) AS ids_from_key FROM orders;
CALL xid_move_abort('orders');
SELECT count(*) AS lines_of_row_after_swap FROM lines l JOIN orders o ON o.id = l.order_id WHERE o.note = 'after swap';
DELETE FROM orders WHERE note = 'after swap';
SELECT count(*) AS moves FROM xid_move_moves;
SELECT * FROM pg_temp.shape_diff();
SELECT * FROM pg_temp.data_diff();
SELECT count(*) AS functions_left FROM pg_proc WHERE pronamespace = 'ms'::regnamespace AND proname LIKE '%\_xm\_%';
SELECT conrelid::regclass, conname, convalidated FROM pg_constraint WHERE contype = 'f' AND confrelid = 'orders'::regclass ORDER BY conrelid::regclass::text, conname;

------------------------------------------------------------------------------
-- the whole move, and a finish (drop_old) stopped half-way
------------------------------------------------------------------------------
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
-- the unique constraints over the key and over a reference are on the new
-- columns, under their names
SELECT conrelid::regclass, conname, pg_get_constraintdef(c.oid),
       (SELECT string_agg(format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)) AS types
FROM pg_constraint c WHERE contype IN ('u', 'p') AND conrelid IN ('orders'::regclass, 'lines'::regclass)
ORDER BY conrelid::regclass::text, conname;
SELECT count(*) AS refs_ok FROM lines l JOIN orders o ON o.id = l.order_id AND o.id_old = l.order_id_old;
-- a stop between the DROP COLUMNs of finish(drop_old): an event trigger
-- fails the drop of a column of lines once (as a crash or a cancel would)
RESET ROLE;
CREATE FUNCTION public.regress_xm_stop() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('regress_xm.stop', true) = 'on' AND EXISTS (
		SELECT FROM pg_event_trigger_dropped_objects() o
		WHERE o.object_type = 'table column' AND o.object_identity LIKE 'ms.lines.%') THEN
		RAISE EXCEPTION 'simulated stop';
	END IF;
END
$$;
CREATE EVENT TRIGGER regress_xm_stop ON sql_drop EXECUTE FUNCTION public.regress_xm_stop();
SET ROLE regress_xm_owner;
SET regress_xm.stop = 'on';
CALL xid_move_finish('orders', drop_old => true);
RESET regress_xm.stop;
SELECT DISTINCT step FROM xid_move_status('orders');
SELECT pg_temp.try($$CALL xid_move_abort('orders')$$);
SELECT * FROM pg_temp.column_order();
-- run again, it completes; and again, it says there is nothing to finish
CALL xid_move_finish('orders', drop_old => true);
SELECT count(*) AS moves FROM xid_move_moves;
SELECT pg_temp.try($$CALL xid_move_finish('orders', drop_old => true)$$);
SELECT * FROM pg_temp.column_order();
SELECT conrelid::regclass, conname, pg_get_constraintdef(c.oid), convalidated FROM pg_constraint c
WHERE conrelid IN ('orders'::regclass, 'lines'::regclass, 'notes'::regclass, 'events'::regclass, 'events_2023'::regclass)
  AND contype <> 'n' -- NOT NULL constraints are catalogued from 18
ORDER BY conrelid::regclass::text, conname;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index
WHERE indrelid IN ('lines'::regclass, 'events'::regclass, 'events_2024'::regclass) ORDER BY indexrelid::regclass::text;
SELECT count(*) AS functions_left FROM pg_proc WHERE pronamespace = 'ms'::regnamespace AND proname LIKE '%\_xm\_%';
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgrelid IN ('orders'::regclass, 'lines'::regclass, 'notes'::regclass, 'events'::regclass, 'events_2023'::regclass, 'events_2024'::regclass) AND tgname LIKE 'xid%';
-- the unique constraints still hold after drop_old
SELECT pg_temp.try($$INSERT INTO lines (id, order_id, line_no) SELECT 9999, order_id, line_no FROM lines WHERE id = 1$$);
SELECT pg_temp.try($$INSERT INTO orders (id, tenant, created_at) SELECT id, tenant, created_at FROM orders LIMIT 1$$);
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'orders'::regclass ORDER BY indexrelid::regclass::text;
-- new rows get an xid key; references follow
INSERT INTO orders (tenant, created_at) VALUES (1, now());
INSERT INTO lines (id, order_id, line_no) SELECT 9999, id, 0 FROM orders WHERE id > xid_from_key('2025-01-01', 0);
SELECT count(*) AS lines_ok FROM lines l JOIN orders o ON o.id = l.order_id;
SELECT count(*) AS notes_with_order FROM notes n JOIN orders o ON o.id = n.order_id;
SELECT count(*) AS events_with_order FROM events e JOIN orders o ON o.id = e.order_id;
-- the partitioned child's foreign key is the table's, with its action
DELETE FROM orders WHERE id IN (SELECT order_id FROM events WHERE kind = 'e1');
SELECT count(*) AS events_cascaded FROM events WHERE kind = 'e1';

------------------------------------------------------------------------------
-- a UUIDv7 key, without a time column
------------------------------------------------------------------------------
CREATE TABLE docs (id uuid PRIMARY KEY, title text);	-- no default: the swap gives new rows their old key
CREATE TABLE doc_refs (id bigint PRIMARY KEY, doc_id uuid NOT NULL REFERENCES docs, parent_doc uuid REFERENCES docs);
INSERT INTO docs SELECT xid_to_uuid(xid_new()), 'd' || g FROM generate_series(1, 500) g;
INSERT INTO doc_refs SELECT row_number() OVER (), d.id, CASE WHEN d.title < 'd3' THEN d.id END FROM docs d, generate_series(1, 2);
CREATE TEMP TABLE docs_before AS SELECT d.id, d.title FROM docs d;
CREATE TEMP TABLE doc_refs_before AS SELECT r.id, d.title AS doc, p.title AS parent FROM doc_refs r JOIN docs d ON d.id = r.doc_id LEFT JOIN docs p ON p.id = r.parent_doc;
SELECT action, count(*) FROM xid_move_plan('docs') GROUP BY 1 ORDER BY 1;
CALL xid_move_start('docs');
INSERT INTO docs VALUES (xid_to_uuid(xid_new()), 'during');
INSERT INTO doc_refs SELECT 5000, id, id FROM docs WHERE title = 'during';
CALL xid_move_backfill('docs');
SELECT role, relation, step, blocks_done = blocks AS done, rows_done FROM xid_move_status('docs');
SELECT * FROM xid_move_index_commands('docs') \gexec
CALL xid_move_validate('docs');
SELECT role, relation, step, verified_rows, verified_refs, mismatches FROM xid_move_status('docs');
CALL xid_move_swap('docs');
INSERT INTO docs (title) VALUES ('after swap');
CALL xid_move_finish('docs');
SELECT count(*) AS moves FROM xid_move_moves;
SELECT a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a
WHERE a.attrelid IN ('docs'::regclass, 'doc_refs'::regclass) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attrelid::regclass::text, a.attnum;
-- every id is its old UUIDv7's own time and bits; every reference the same row
SELECT count(*) AS docs, count(*) FILTER (WHERE d.id = xid_from_uuidv7(d.id_old)) AS from_uuidv7 FROM docs d JOIN docs_before b ON b.id = d.id_old;
SELECT count(*) AS same_refs FROM doc_refs r JOIN docs d ON d.id = r.doc_id LEFT JOIN docs p ON p.id = r.parent_doc
JOIN doc_refs_before b ON b.id = r.id AND b.doc = d.title AND b.parent IS NOT DISTINCT FROM p.title;
SELECT count(*) AS refs_during FROM doc_refs r JOIN docs d ON d.id = r.doc_id AND d.id = r.parent_doc WHERE d.title = 'during';
SELECT conname, pg_get_constraintdef(oid), convalidated FROM pg_constraint WHERE conrelid IN ('docs'::regclass, 'doc_refs'::regclass) AND contype <> 'n' ORDER BY 1;
-- a row written after the swap got its old key from its id (a UUIDv7)
SELECT count(*) AS old_key_from_id FROM docs WHERE title = 'after swap' AND id_old = xid_to_uuid(id);

------------------------------------------------------------------------------
-- a table that references itself, and a table with two foreign keys to it
-- (one ON UPDATE CASCADE); finish refuses drop_old before its point of no
-- return while a view uses an old column
------------------------------------------------------------------------------
CREATE TABLE users (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, manager_id bigint REFERENCES users ON DELETE SET NULL);
CREATE TABLE posts (id bigint PRIMARY KEY, created_by bigint NOT NULL REFERENCES users ON UPDATE CASCADE, updated_by bigint REFERENCES users);
INSERT INTO users SELECT g, timestamptz '2024-01-01' + g * interval '1 second', CASE WHEN g > 1 THEN g / 2 END FROM generate_series(1, 1000) g;
INSERT INTO posts SELECT g, g % 1000 + 1, (g * 7) % 500 + 1 FROM generate_series(1, 3000) g;
CREATE TEMP TABLE posts_before AS
	SELECT p.id, c.created_at AS creator, u.created_at AS updater FROM posts p JOIN users c ON c.id = p.created_by JOIN users u ON u.id = p.updated_by;
CALL xid_move_start('users', time_column => 'created_at');
-- a key changed during the move: its id changes, the cascade carries it
UPDATE users SET id = 5000 WHERE id = 999;
SELECT count(*) AS posts_of_5000, count(*) FILTER (WHERE p.created_by_xid = u.id_xid) AS right_ref
FROM posts p JOIN users u ON u.id = p.created_by WHERE u.id = 5000;
-- a row that references itself
INSERT INTO users VALUES (5001, '2024-06-01', 5001);
SELECT manager_id_xid = id_xid AS self_ref_ok FROM users WHERE id = 5001;
CALL xid_move_backfill('users');
SELECT * FROM xid_move_index_commands('users') \gexec
CALL xid_move_validate('users');
SELECT s.role, s.relation, p.column_name, s.verified_rows, s.verified_refs, s.mismatches
FROM xid_move_status('users') s JOIN xid_move_parts p ON p.leaf = s.leaf AND p.role = s.role AND p.verified IS NOT DISTINCT FROM s.verified
ORDER BY s.role DESC, s.relation::text, p.column_name;
CALL xid_move_swap('users');
CREATE VIEW post_creators AS SELECT id, created_by_old FROM posts;
\set VERBOSITY sqlstate
CALL xid_move_finish('users', drop_old => true);
\echo :LAST_ERROR_SQLSTATE :LAST_ERROR_MESSAGE
\set VERBOSITY terse
SELECT DISTINCT step FROM xid_move_status('users');
DROP VIEW post_creators;
CALL xid_move_finish('users', drop_old => true);
SELECT count(*) AS managed, count(m.id) AS with_manager FROM users u LEFT JOIN users m ON m.id = u.manager_id WHERE u.manager_id IS NOT NULL;
SELECT count(*) AS posts, count(*) FILTER (WHERE b.creator = c.created_at AND b.updater = u.created_at) AS same_users
FROM posts p JOIN users c ON c.id = p.created_by JOIN users u ON u.id = p.updated_by JOIN posts_before b ON b.id = p.id;
SELECT conrelid::regclass, conname, pg_get_constraintdef(c.oid) FROM pg_constraint c
WHERE conrelid IN ('users'::regclass, 'posts'::regclass) AND contype = 'f' ORDER BY conrelid::regclass::text, conname;

RESET ROLE;
-- every move finished: nothing depends on the extension any more
SELECT count(*) AS functions_of_the_extension FROM pg_depend d
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'xid_move') AND d.deptype = 'x';
DROP EXTENSION xid_move;
CREATE EXTENSION xid_move SCHEMA public;
DROP EVENT TRIGGER regress_xm_stop;
DROP FUNCTION public.regress_xm_stop();
DROP SCHEMA ms CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xm_owner;
DROP ROLE regress_xm_owner;
