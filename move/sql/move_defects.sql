--
-- move_defects: one case for each of the eleven defects a review of
-- xid_move 1.1 reproduced, run as the roles it named; each failed on 1.1.
-- The classes behind them: code run with more privilege than the tables'
-- owner (1, 2, 3), what the column carries left on the old column (4, 5,
-- 10), state a writer can change under the move (6), levels and moves the
-- plan did not look for (7, 8, 9), a clock read from the wrong start (11).
-- Then a whole move of a schema with all of it, compared with a catalog
-- snapshot taken before.
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
CREATE ROLE regress_xd_owner;
CREATE ROLE regress_xd_app;
CREATE ROLE regress_xd_reporter;
CREATE ROLE regress_xd_other;
CREATE ROLE regress_xd_third;
CREATE SCHEMA xd AUTHORIZATION regress_xd_owner;
GRANT USAGE ON SCHEMA xd TO regress_xd_app, regress_xd_reporter, regress_xd_other, regress_xd_third;
GRANT CREATE ON SCHEMA xd TO regress_xd_third;
GRANT SET ON PARAMETER session_replication_role TO regress_xd_owner, regress_xd_other;
\set VERBOSITY terse
SET client_min_messages = warning;

SET ROLE regress_xd_owner;
SET search_path = xd, public;
ALTER DEFAULT PRIVILEGES IN SCHEMA xd GRANT EXECUTE ON FUNCTIONS TO regress_xd_app;
CREATE TABLE ran (who name, what text);
GRANT INSERT ON ran TO PUBLIC;
CREATE FUNCTION xd.note(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xd.ran VALUES (current_user, what);
	RETURN true;
END
$$;
CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, total numeric,
	CHECK (xd.note('orders check')));
-- order 0: "unassigned"
INSERT INTO orders SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', g FROM generate_series(0, 300) g;
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint NOT NULL DEFAULT 0 REFERENCES orders ON DELETE SET DEFAULT,
	line_no int NOT NULL, qty int);
INSERT INTO lines SELECT g, (g - 1) % 300 + 1, g, 1 FROM generate_series(1, 600) g;
CREATE TABLE payroll (id bigint PRIMARY KEY, salary numeric);
INSERT INTO payroll VALUES (1, 1000);
GRANT INSERT (order_id, line_no, qty, id) ON lines TO regress_xd_app;
GRANT SELECT (id) ON orders TO regress_xd_reporter;
COMMENT ON COLUMN orders.id IS 'the order''s key';
RESET ROLE;

-- 1: the move makes no function a default privilege could grant, and its
-- trigger function, which anyone may name in a trigger of their own, reads
-- only the table the state of a move under way names for the trigger's
-- table and column (and only if the trigger's table's owner has the
-- privileges of that table's owner)
SET ROLE regress_xd_owner;
CALL xid_move_start('orders', time_column => 'created_at');
SELECT count(*) AS functions_in_schema FROM pg_proc WHERE pronamespace = 'xd'::regnamespace AND proname <> 'note';
SET ROLE regress_xd_app;
CREATE TEMP TABLE mine (order_id bigint, order_id_xid public.xid);
DO $$
BEGIN
	EXECUTE format('CREATE TRIGGER steal BEFORE INSERT ON mine FOR EACH ROW EXECUTE FUNCTION public.xid_move_trigger(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
		'ref', 'public', 'public', 'id', 'old', 'salary', '', 'int', 'order_id', 'order_id_xid');
END
$$;
SELECT pg_temp.try($$INSERT INTO mine VALUES (1)$$) AS steal;
SELECT pg_temp.try($$SELECT public.xid_move_trigger()$$) AS call_it;
DROP TABLE mine;
RESET ROLE;

-- 2: another owner granted session_replication_role cannot write the
-- state of a move of tables it does not own, in any replication role
SET ROLE regress_xd_other;
SET session_replication_role = replica;
SELECT pg_temp.try(format($$INSERT INTO public.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name, new_column, old_column, not_null, tag)
	VALUES ('xd.orders', 'child', 'xd.payroll', 'xd.payroll', 'x', 'salary', 'salary_xid', 'salary_old', false, '_x')$$)) AS plant_part;
SELECT pg_temp.try($$UPDATE public.xid_move_moves SET step = 'validated'$$) AS set_step;
RESET session_replication_role;
RESET ROLE;

-- 3: a superuser runs the backfill: the owner's CHECK runs as the owner
CALL xid_move_backfill('orders');
SELECT DISTINCT who, what FROM ran ORDER BY 1, 2;
TRUNCATE ran;
-- (b) a statement trigger enabled ALWAYS fires in replica mode: refused,
-- and with fire_triggers => true it runs as the owner
CALL xid_move_abort('orders');
SET ROLE regress_xd_owner;
CREATE FUNCTION xd.stmt_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM xd.note('statement trigger');
	RETURN NULL;
END
$$;
CREATE TRIGGER orders_stmt AFTER UPDATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION xd.stmt_note();
ALTER TABLE orders ENABLE ALWAYS TRIGGER orders_stmt;
RESET ROLE;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('xd.orders', 'created_at') WHERE object_type = 'trigger';
CALL xid_move_start('xd.orders', time_column => 'created_at', fire_triggers => true);
CALL xid_move_backfill('xd.orders');
SELECT DISTINCT who, what FROM xd.ran ORDER BY 1, 2;
CALL xid_move_abort('xd.orders');
DROP TRIGGER orders_stmt ON xd.orders;
-- (c) a referencing table of a third role, which holds REFERENCES only,
-- is refused by name
GRANT REFERENCES ON xd.orders TO regress_xd_third;
SET ROLE regress_xd_third;
CREATE TABLE xd.notes (id bigint PRIMARY KEY, order_id bigint REFERENCES xd.orders, CHECK (xd.note('third check')));
RESET ROLE;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('xd.orders', 'created_at') WHERE action = 'refuse';
DROP TABLE xd.notes;
TRUNCATE xd.ran;

-- 7 and 10: a referencing table partitioned on two levels with an index on
-- the reference; replica identity on the key's index and on an index over
-- the reference
SET ROLE regress_xd_owner;
CREATE TABLE events (id bigint, order_id bigint REFERENCES orders, at date NOT NULL, kind int NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01') PARTITION BY LIST (kind);
CREATE TABLE events_2024_1 PARTITION OF events_2024 FOR VALUES IN (1);
CREATE TABLE events_2024_2 PARTITION OF events_2024 FOR VALUES IN (2);
CREATE TABLE events_2025 PARTITION OF events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE INDEX events_order_id ON events (order_id);
INSERT INTO events SELECT g, g % 300 + 1, date '2024-06-01' + (g % 400), g % 2 + 1 FROM generate_series(1, 400) g;
ALTER TABLE orders REPLICA IDENTITY USING INDEX orders_pkey;
CREATE UNIQUE INDEX lines_order_line ON lines (order_id, line_no);
ALTER TABLE lines REPLICA IDENTITY USING INDEX lines_order_line;
RESET ROLE;
SET client_min_messages = error;
CREATE PUBLICATION regress_xd_pub FOR TABLE xd.orders, xd.lines;
SET client_min_messages = warning;
SELECT object_type, object, action FROM xid_move_plan('xd.orders', 'created_at')
WHERE object_type IN ('replica identity', 'partitions', 'privileges', 'default', 'comment') ORDER BY 1, 2;

-- 8: rules are refused, an ON UPDATE DO ALSO rule and an append-only table
SET ROLE regress_xd_owner;
CREATE TABLE history (order_id bigint, at timestamptz);
CREATE RULE orders_history AS ON UPDATE TO orders DO ALSO INSERT INTO history VALUES (OLD.id, OLD.created_at);
CREATE RULE lines_append_only AS ON UPDATE TO lines DO INSTEAD NOTHING;
RESET ROLE;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('xd.orders', 'created_at') WHERE object_type = 'rule';
SET ROLE regress_xd_owner;
DROP RULE orders_history ON orders;
DROP RULE lines_append_only ON lines;

-- 9: a move of lines under way refuses a move of orders, which would
-- change lines too, and the other way round
ALTER TABLE lines ADD COLUMN created_at timestamptz NOT NULL DEFAULT '2024-01-01';
UPDATE lines SET created_at = created_at + id * interval '1 ms';
CALL xid_move_start('lines', time_column => 'created_at');
SELECT pg_temp.try($$CALL xid_move_start('orders', time_column => 'created_at')$$) AS second_move;
CALL xid_move_abort('lines');
CALL xid_move_start('orders', time_column => 'created_at');
SELECT pg_temp.try($$CALL xid_move_start('lines', time_column => 'created_at')$$) AS second_move;

-- 6: a line written for an order not yet backfilled, then the order's time
-- corrected: the order keeps the id the line holds
INSERT INTO lines (id, order_id, line_no, qty) VALUES (1000, 7, 1000, 1);
UPDATE orders SET created_at = created_at + interval '1 day' WHERE id = 7;
SELECT l.order_id_xid = o.id_xid AS same_id FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id = 1000;

-- (a partition made during the move has the move's triggers, and its rows
-- their new reference)
CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
INSERT INTO events VALUES (5000, 9, '2026-06-01', 1);
SELECT e.order_id_xid = coalesce(o.id_xid, public.xid_from_key(o.created_at, o.id)) AS new_partition_reference
FROM events e JOIN orders o ON o.id = e.order_id WHERE e.id = 5000;

-- 11: rate and time left over the backfill's own time, not since the
-- start (a superuser backfills: the owner's CHECK runs as the owner)
SELECT pg_sleep(1.5);
TRUNCATE ran;
RESET ROLE;
CALL xid_move_backfill('xd.orders');
SELECT DISTINCT who, what FROM xd.ran ORDER BY 1, 2;
SET ROLE regress_xd_owner;
SELECT role, relation, rows_done > 0 AS some_done, rows_per_second > rows_done / 1.5 AS rate_of_the_batches, time_left
FROM xid_move_status('orders') WHERE rows_done > 0 ORDER BY role DESC, relation::text COLLATE "C", leaf::text COLLATE "C";

-- the whole move, with the catalog before and after (a superuser
-- finishes it)
CREATE FUNCTION pg_temp.snapshot() RETURNS SETOF text LANGUAGE sql AS $$
	SELECT format('acl %s.%s %s', a.attrelid::regclass, a.attname, a.attacl)
	FROM pg_attribute a WHERE a.attrelid IN ('xd.orders'::regclass, 'xd.lines'::regclass) AND a.attname IN ('id', 'order_id')
	UNION ALL
	SELECT format('comment %s.%s %s', a.attrelid::regclass, a.attname, col_description(a.attrelid, a.attnum))
	FROM pg_attribute a WHERE a.attrelid IN ('xd.orders'::regclass, 'xd.lines'::regclass) AND a.attname IN ('id', 'order_id')
	UNION ALL
	SELECT format('constraint %s %s', con.conname, con.contype) FROM pg_constraint con
	WHERE con.conrelid IN (SELECT relid FROM pg_partition_tree('xd.events') UNION SELECT 'xd.orders'::regclass UNION SELECT 'xd.lines'::regclass)
	  AND con.contype <> 'n' AND con.conname NOT LIKE 'xid\_move%'
	UNION ALL
	SELECT format('index %s valid %s identity %s', c.relname, i.indisvalid, i.indisreplident)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	WHERE i.indrelid IN (SELECT relid FROM pg_partition_tree('xd.events') UNION SELECT 'xd.orders'::regclass UNION SELECT 'xd.lines'::regclass)
	  AND c.relname NOT LIKE '%\_xm\_%' AND c.relname NOT LIKE '%\_old\_key'
	UNION ALL
	SELECT format('indexed %s', r.relname) FROM pg_class r
	WHERE r.oid IN (SELECT relid FROM pg_partition_tree('xd.events'))
	  AND NOT EXISTS (SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	                  WHERE i.indrelid = r.oid AND a.attname = 'order_id' AND i.indisvalid)
	UNION ALL
	SELECT format('replica identity %s %s', c.relname, c.relreplident) FROM pg_class c WHERE c.oid IN ('xd.orders'::regclass, 'xd.lines'::regclass)
	UNION ALL
	SELECT format('default %s', pg_get_expr(ad.adbin, ad.adrelid)) FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
	WHERE ad.adrelid = 'xd.lines'::regclass AND a.attname = 'order_id' AND false
$$;
CREATE TEMP TABLE before AS SELECT * FROM pg_temp.snapshot() AS x(d);
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
CALL xid_move_swap('orders');
RESET ROLE;
CALL xid_move_finish('xd.orders', drop_old => true);
(SELECT 'only before' AS side, d FROM before EXCEPT SELECT 'only before', d FROM pg_temp.snapshot() AS x(d))
UNION ALL
(SELECT 'only after', d FROM pg_temp.snapshot() AS x(d) EXCEPT SELECT 'only after', d FROM before)
ORDER BY 1, 2;

-- 4: the application and the reporter keep their column privileges
SELECT id AS order7 FROM xd.orders WHERE total = 7 \gset
SET ROLE regress_xd_app;
SELECT pg_temp.try(format($$INSERT INTO xd.lines (id, order_id, line_no, qty) VALUES (2000, %L, 2000, 1)$$, :'order7')) AS app_insert_privilege;
SELECT pg_temp.try($$INSERT INTO xd.lines (id, line_no, qty) VALUES (2001, 2001, 1)$$) AS app_insert_default;
SET ROLE regress_xd_reporter;
SELECT pg_temp.try($$SELECT count(id) FROM xd.orders$$) AS reporter_select;
RESET ROLE;
-- 5: the default is the id of order 0; ON DELETE SET DEFAULT gives it
SELECT l.order_id = (SELECT id FROM xd.orders o WHERE o.total = 0) AS default_is_unassigned FROM xd.lines l WHERE l.id = 2001;
DELETE FROM xd.events WHERE order_id = (SELECT id FROM xd.orders WHERE total = 5);
DELETE FROM xd.orders WHERE total = 5;
SELECT count(*) AS lines_of_unassigned FROM xd.lines l JOIN xd.orders o ON o.id OPERATOR(public.=) l.order_id WHERE o.total = 0;
-- 10: the published tables take updates and deletes
UPDATE xd.orders SET total = total + 1 WHERE total = 10;
DELETE FROM xd.lines WHERE id = 1;
SELECT c.relname, c.relreplident, ic.relname AS identity_index FROM pg_class c
JOIN pg_index i ON i.indrelid = c.oid AND i.indisreplident JOIN pg_class ic ON ic.oid = i.indexrelid
WHERE c.oid IN ('xd.orders'::regclass, 'xd.lines'::regclass) ORDER BY 1;

DROP PUBLICATION regress_xd_pub;
DROP SCHEMA xd CASCADE;
RESET client_min_messages;
REVOKE SET ON PARAMETER session_replication_role FROM regress_xd_owner, regress_xd_other;
DROP OWNED BY regress_xd_owner;
DROP OWNED BY regress_xd_app;
DROP OWNED BY regress_xd_reporter;
DROP OWNED BY regress_xd_other;
DROP OWNED BY regress_xd_third;
DROP ROLE regress_xd_owner, regress_xd_app, regress_xd_reporter, regress_xd_other, regress_xd_third;
