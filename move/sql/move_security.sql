--
-- move_security: nothing another role can create or write is read or run
-- by the move.  An attacker with CREATE on the table's schema (and on
-- public, as a database owner has with 15's defaults) and the application's
-- privileges on its tables plants relations, functions and operators under
-- the names the move reads or calls; the owner and then a superuser run
-- every step: none of them runs.  The state cannot be written by another
-- role; a writer needs no new privilege; another role cannot run the steps.
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
CREATE ROLE regress_xm_owner;
CREATE ROLE regress_xm_app;
CREATE ROLE regress_xm_attacker IN ROLE regress_xm_app;
CREATE SCHEMA shop AUTHORIZATION regress_xm_owner;
GRANT USAGE, CREATE ON SCHEMA shop TO regress_xm_attacker;
GRANT USAGE ON SCHEMA shop TO regress_xm_app;
GRANT CREATE ON SCHEMA public TO regress_xm_attacker;
\set VERBOSITY terse
SET client_min_messages = warning;

SET ROLE regress_xm_owner;
SET search_path = shop, public;
ALTER DEFAULT PRIVILEGES IN SCHEMA shop GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO regress_xm_app;
CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, total numeric);
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders, qty integer);
CREATE TABLE payroll (id bigint PRIMARY KEY, salary numeric);
CREATE TABLE invoices (id bigint PRIMARY KEY, created_at timestamptz NOT NULL);
CREATE TABLE items (id bigint PRIMARY KEY, invoice_id bigint REFERENCES invoices);
INSERT INTO orders SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', g FROM generate_series(1, 2000) g;
INSERT INTO lines SELECT g, (g - 1) % 2000 + 1, 1 FROM generate_series(1, 4000) g;
INSERT INTO payroll VALUES (1, 1000);
INSERT INTO invoices SELECT g, timestamptz '2024-01-01' + g * interval '1 minute' FROM generate_series(1, 500) g;
INSERT INTO items SELECT g, (g - 1) % 500 + 1 FROM generate_series(1, 1000) g;
-- the application writes lines but does not read orders
REVOKE SELECT ON orders FROM regress_xm_app;
RESET ROLE;

------------------------------------------------------------------------------
-- The plants.  Each records who ran it.
------------------------------------------------------------------------------
SET ROLE regress_xm_attacker;
CREATE TABLE shop.spied (who name, what text);
GRANT INSERT ON shop.spied TO PUBLIC;
CREATE FUNCTION shop.spy(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO shop.spied VALUES (current_user, what);
	RETURN true;
END
$$;
-- operators: exact matches for what an unqualified expression of the move
-- would otherwise resolve to core's with a cast, and exact copies of core's
-- (they win over them when pg_catalog comes later in the search_path)
CREATE FUNCTION shop.gt_f8_i4(float8, integer) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('>(float8, integer)'); RETURN $1 OPERATOR(pg_catalog.>) $2::float8; END$$;
CREATE FUNCTION shop.mul_i4_f8(integer, float8) RETURNS float8 LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('*(integer, float8)'); RETURN $1::float8 OPERATOR(pg_catalog.*) $2; END$$;
CREATE FUNCTION shop.mul_num_i4(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('*(numeric, integer)'); RETURN $1 OPERATOR(pg_catalog.*) $2::numeric; END$$;
CREATE FUNCTION shop.eq_regclass(regclass, regclass) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('=(regclass, regclass)'); RETURN $1::oid OPERATOR(pg_catalog.=) $2::oid; END$$;
CREATE FUNCTION shop.eq_i8(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('=(bigint, bigint)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
CREATE FUNCTION shop.lt_i8(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('<(bigint, bigint)'); RETURN $1 OPERATOR(pg_catalog.<) $2; END$$;
CREATE FUNCTION shop.eq_text(text, text) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('=(text, text)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
CREATE FUNCTION shop.eq_name(name, name) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('=(name, name)'); RETURN $1 OPERATOR(pg_catalog.=) $2; END$$;
CREATE FUNCTION shop.gt_interval(interval, interval) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('>(interval, interval)'); RETURN $1 OPERATOR(pg_catalog.>) $2; END$$;
CREATE FUNCTION shop.eq_regtype(regtype, regtype) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('=(regtype, regtype)'); RETURN $1::oid OPERATOR(pg_catalog.=) $2::oid; END$$;
CREATE FUNCTION shop.ne_regclass(regclass, regclass) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('<>(regclass, regclass)'); RETURN $1::oid OPERATOR(pg_catalog.<>) $2::oid; END$$;
CREATE FUNCTION shop.ge_tid(tid, tid) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('>=(tid, tid)'); RETURN $1 OPERATOR(pg_catalog.>=) $2; END$$;
DO $$
DECLARE s text;
BEGIN
	FOREACH s IN ARRAY ARRAY['shop', 'public'] LOOP
		EXECUTE format('CREATE OPERATOR %I.> (LEFTARG = float8, RIGHTARG = integer, FUNCTION = shop.gt_f8_i4)', s);
		EXECUTE format('CREATE OPERATOR %I.* (LEFTARG = integer, RIGHTARG = float8, FUNCTION = shop.mul_i4_f8)', s);
		EXECUTE format('CREATE OPERATOR %I.* (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = shop.mul_num_i4)', s);
		EXECUTE format('CREATE OPERATOR %I.= (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = shop.eq_regclass)', s);
		EXECUTE format('CREATE OPERATOR %I.<> (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = shop.ne_regclass)', s);
		EXECUTE format('CREATE OPERATOR %I.= (LEFTARG = regtype, RIGHTARG = regtype, FUNCTION = shop.eq_regtype)', s);
		EXECUTE format('CREATE OPERATOR %I.= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = shop.eq_i8)', s);
		EXECUTE format('CREATE OPERATOR %I.< (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = shop.lt_i8)', s);
		EXECUTE format('CREATE OPERATOR %I.= (LEFTARG = text, RIGHTARG = text, FUNCTION = shop.eq_text)', s);
		EXECUTE format('CREATE OPERATOR %I.= (LEFTARG = name, RIGHTARG = name, FUNCTION = shop.eq_name)', s);
		EXECUTE format('CREATE OPERATOR %I.> (LEFTARG = interval, RIGHTARG = interval, FUNCTION = shop.gt_interval)', s);
		EXECUTE format('CREATE OPERATOR %I.>= (LEFTARG = tid, RIGHTARG = tid, FUNCTION = shop.ge_tid)', s);
	END LOOP;
END
$$;
-- functions: xid's, under the names the move calls, and core's (an exact
-- match on name beats core's on text; exact copies win over pg_catalog's
-- when it comes later in the search_path)
CREATE FUNCTION shop.xid_new() RETURNS public.xid LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('xid_new()'); RETURN public.xid_new(); END$$;
CREATE FUNCTION shop.xid_from_key(timestamptz, bigint) RETURNS public.xid LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('xid_from_key(timestamptz, bigint)'); RETURN public.xid_from_key($1, $2); END$$;
CREATE FUNCTION shop.xid_from_uuidv7(uuid) RETURNS public.xid LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('xid_from_uuidv7(uuid)'); RETURN public.xid_from_uuidv7($1); END$$;
CREATE FUNCTION shop.left(name, integer) RETURNS text LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('left(name, integer)'); RETURN pg_catalog.left($1::text, $2); END$$;
CREATE FUNCTION shop.quote_ident(name) RETURNS text LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('quote_ident(name)'); RETURN pg_catalog.quote_ident($1::text); END$$;
CREATE FUNCTION shop.set_config(text, text, boolean) RETURNS text LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('set_config(text, text, boolean)'); RETURN pg_catalog.set_config($1, $2, $3); END$$;
CREATE FUNCTION shop.current_setting(text) RETURNS text LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('current_setting(text)'); RETURN pg_catalog.current_setting($1); END$$;
CREATE FUNCTION shop.pg_relation_size(regclass) RETURNS bigint LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('pg_relation_size(regclass)'); RETURN pg_catalog.pg_relation_size($1); END$$;
CREATE FUNCTION shop.clock_timestamp() RETURNS timestamptz LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('clock_timestamp()'); RETURN pg_catalog.clock_timestamp(); END$$;
CREATE FUNCTION shop.pg_has_role(oid, text) RETURNS boolean LANGUAGE plpgsql AS
	$$BEGIN PERFORM shop.spy('pg_has_role(oid, text)'); RETURN true; END$$;
-- relations under the names the old move kept its state under
CREATE VIEW shop.orders_xid_move AS
	SELECT 'shop.payroll'::regclass AS relation, 'salary'::name AS new_column, 'started'::text AS step WHERE shop.spy('orders_xid_move');
CREATE TABLE shop.invoices_xid_move (relation regclass, new_column name, step text);
INSERT INTO shop.invoices_xid_move VALUES ('shop.payroll', 'salary', 'swapped');
CREATE VIEW shop.xid_move_moves AS SELECT m.* FROM public.xid_move_moves m WHERE shop.spy('shop.xid_move_moves');
CREATE VIEW shop.xid_move_parts AS SELECT m.* FROM public.xid_move_parts m WHERE shop.spy('shop.xid_move_parts');
GRANT SELECT ON shop.orders_xid_move, shop.invoices_xid_move, shop.xid_move_moves, shop.xid_move_parts TO PUBLIC;
RESET ROLE;

-- the plants work: a role whose search_path puts pg_catalog after them runs
-- them with unqualified names (then the log is emptied)
SET ROLE regress_xm_owner;
SET search_path = shop, public, pg_catalog;
SELECT 2.5::float8 > 1 AS gt, 1::bigint = 1::bigint AS eq, 'orders'::regclass = 'orders'::regclass AS eq_regclass,
       left('orders'::name, 3), xid_new() IS NOT NULL AS xid_new, (SELECT count(*) FROM orders_xid_move) AS old_state;
RESET ROLE;
SET search_path = pg_catalog, public;
SELECT who, what FROM shop.spied ORDER BY what;
SET ROLE regress_xm_attacker;
DELETE FROM shop.spied;
RESET ROLE;

------------------------------------------------------------------------------
-- The owner runs every step (with an abort before and one after the swap),
-- the search_path theirs: shop first, pg_catalog last.  Only qualified
-- names are the owner's own calls.
------------------------------------------------------------------------------
SET ROLE regress_xm_owner;
SET search_path = shop, public, pg_catalog;
SELECT action, count(*) FROM public.xid_move_plan('shop.orders', 'created_at') GROUP BY action ORDER BY action COLLATE "C";
CALL public.xid_move_start('shop.orders', time_column => 'created_at');
CALL public.xid_move_backfill('shop.orders', batch_blocks => 4, pause => '1ms');
CALL public.xid_move_abort('shop.orders');
CALL public.xid_move_start('shop.orders', time_column => 'created_at', dry_run => true);
CALL public.xid_move_start('shop.orders', time_column => 'created_at');

-- (b) the state: another role cannot write a row naming a table it does
-- not own (42501), nor point the owner's row at another table
SET ROLE regress_xm_attacker;
SELECT pg_temp.try($$UPDATE public.xid_move_parts SET relation = 'shop.payroll', new_column = 'salary' WHERE tbl::oid = 'shop.orders'::regclass::oid AND role = 'child'$$);
SELECT pg_temp.try($$UPDATE public.xid_move_moves SET new_column = 'salary' WHERE tbl::oid = 'shop.orders'::regclass::oid$$);
SELECT pg_temp.try($$UPDATE public.xid_move_moves SET step = 'swapped'$$);
SELECT pg_temp.try($$DELETE FROM public.xid_move_parts WHERE tbl::oid = 'shop.orders'::regclass::oid$$);
SELECT pg_temp.try($$DELETE FROM public.xid_move_moves$$);
SELECT pg_temp.try($$INSERT INTO public.xid_move_moves (tbl, constraint_name, key_column, new_column, old_column, key_type, fire_triggers)
	VALUES ('shop.payroll', 'payroll_pkey', 'salary', 'salary_xid', 'salary_old', 'int8', false)$$);
SELECT pg_temp.try($$TRUNCATE public.xid_move_moves, public.xid_move_parts$$);
-- her own table's move, pointed at the owner's table
CREATE TABLE shop.mine (id bigint PRIMARY KEY);
SELECT pg_temp.try($$INSERT INTO public.xid_move_moves (tbl, constraint_name, key_column, new_column, old_column, key_type, fire_triggers)
	VALUES ('shop.mine', 'mine_pkey', 'id', 'id_xid', 'id_old', 'int8', false)$$);
SELECT pg_temp.try($$INSERT INTO public.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name, new_column, old_column, not_null, tag)
	VALUES ('shop.mine', 'child', 'shop.payroll', 'shop.payroll', 'x', 'salary', 'salary_xid', 'salary_old', false, '_x')$$);
SELECT pg_temp.try($$INSERT INTO public.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name, new_column, old_column, not_null, tag)
	VALUES ('shop.mine', 'parent', 'shop.mine', 'shop.mine', 'mine_pkey', 'id', 'id_xid', 'id_old', true, '_x')$$);
SELECT pg_temp.try($$UPDATE public.xid_move_parts SET relation = 'shop.payroll' WHERE tbl::oid = 'shop.mine'::regclass::oid$$);
SELECT public.xid_move_state('shop.mine', 'delete', '{}') AS forgotten;
DROP TABLE shop.mine;
-- (e) nor run the steps of the owner's move, nor start one
SELECT pg_temp.try($$CALL public.xid_move_backfill('shop.orders')$$);
SELECT pg_temp.try($$CALL public.xid_move_abort('shop.orders')$$);
SELECT pg_temp.try($$CALL public.xid_move_validate('shop.orders')$$);
SELECT pg_temp.try($$CALL public.xid_move_swap('shop.orders')$$);
SELECT pg_temp.try($$CALL public.xid_move_finish('shop.orders')$$);
SELECT pg_temp.try($$SELECT public.xid_move_index_commands('shop.orders')$$);
SELECT pg_temp.try($$SELECT public.xid_move_verify('shop.orders')$$);
SELECT pg_temp.try($$SELECT public.xid_move_set_step('shop.orders', 'swapped')$$);
SELECT pg_temp.try($$CALL public.xid_move_not_null_checks('shop.orders', false, '1s', 0)$$);
SELECT pg_temp.try($$CALL public.xid_move_swap_back('shop.orders', '1s', 0)$$);
SELECT pg_temp.try($$CALL public.xid_move_start('shop.payroll', time_column => 'created_at')$$);
RESET ROLE;
SET search_path = pg_catalog, public;
SELECT m.tbl::text, m.step, m.new_column FROM public.xid_move_moves m ORDER BY 1;
SELECT p.relation::text, p.new_column FROM public.xid_move_parts p ORDER BY 1;

-- (d) the application inserts lines while the move goes on, though it may
-- not read orders; the trigger gives them their new reference.  Its
-- search_path puts the plants before pg_catalog: the lookup the trigger
-- runs as the owner of the tables (on every insert, with no SET clause)
-- names everything with its schema
SET ROLE regress_xm_app;
SET search_path = shop, public, pg_catalog;
SELECT pg_temp.try($$INSERT INTO shop.lines VALUES (4001, 7, 1)$$);
SELECT pg_temp.try($$INSERT INTO shop.lines SELECT g, g - 4000, 1 FROM generate_series(4002, 4100) g$$);
SELECT pg_temp.try($$SELECT count(*) FROM shop.orders$$);
RESET ROLE;

SET ROLE regress_xm_owner;
SET search_path = shop, public, pg_catalog;
CALL public.xid_move_backfill('shop.orders', batch_blocks => 4, pause => '1ms');
SET ROLE regress_xm_app;
SELECT pg_temp.try($$INSERT INTO shop.lines VALUES (4101, 8, 1)$$);
SELECT pg_temp.try($$UPDATE shop.lines SET order_id = 9 WHERE id = 4101$$);
SET ROLE regress_xm_owner;
SELECT * FROM public.xid_move_index_commands('shop.orders') \gexec
CALL public.xid_move_validate('shop.orders');
CALL public.xid_move_swap('shop.orders');
CALL public.xid_move_abort('shop.orders');
CALL public.xid_move_start('shop.orders', time_column => 'created_at');
CALL public.xid_move_backfill('shop.orders', batch_blocks => 4, pause => '1ms');
-- (e) a relation the attacker made under the name of an index the move is
-- about to build: the build takes the next free name (the move knows its
-- indexes by OID, not by name), nothing of hers runs, and once hers is
-- gone (a superuser drops it) the statements still needed build the rest
SELECT (regexp_match(c, 'INDEX CONCURRENTLY (\S+) ON'))[1] AS squat
FROM public.xid_move_index_commands('shop.orders') AS c LIMIT 1 \gset
SET ROLE regress_xm_attacker;
CREATE TABLE shop.:squat (x int);
SET ROLE regress_xm_owner;
-- (the build and the statement that records it)
SELECT c FROM public.xid_move_index_commands('shop.orders') AS c LIMIT 2 \gexec
SELECT count(*) AS built_on_orders FROM pg_index WHERE indrelid = 'shop.orders'::regclass;
RESET ROLE;
DROP TABLE shop.:squat;
SET ROLE regress_xm_owner;
SET search_path = shop, public, pg_catalog;
SELECT * FROM public.xid_move_index_commands('shop.orders') \gexec
CALL public.xid_move_validate('shop.orders');
SELECT role, relation::text, step, rows_done, verified_rows, verified_refs, mismatches FROM public.xid_move_status('shop.orders');
CALL public.xid_move_swap('shop.orders');
-- after the swap, too
SELECT o.id AS new_id FROM shop.orders o WHERE o.id_old OPERATOR(pg_catalog.=) 10 \gset
SET ROLE regress_xm_app;
SELECT pg_temp.try(format($$INSERT INTO shop.lines (id, order_id, qty) VALUES (4102, %L, 1)$$, :'new_id'));
SET ROLE regress_xm_owner;
CALL public.xid_move_finish('shop.orders', drop_old => true);

RESET ROLE;
SET search_path = pg_catalog, public;
-- nothing planted ran
SELECT who, what FROM shop.spied ORDER BY what;
-- every line has its order, those the application wrote included
SELECT count(*) AS lines, count(o.id) AS with_order FROM shop.lines l LEFT JOIN shop.orders o ON o.id OPERATOR(public.=) l.order_id;
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) 'shop.lines'::regclass::oid AND attname OPERATOR(pg_catalog.=) 'order_id'::name;
-- the attacker's table and the payroll untouched
SELECT * FROM shop.payroll;
SELECT count(*) FROM shop.invoices_xid_move;

------------------------------------------------------------------------------
-- A superuser runs every step on the owner's tables, the search_path the
-- same: an abort of a move the owner started, then a whole move
------------------------------------------------------------------------------
SET ROLE regress_xm_owner;
SET search_path = shop, public, pg_catalog;
CALL public.xid_move_start('shop.invoices', time_column => 'created_at');
RESET ROLE;
SET search_path = shop, public, pg_catalog;
CALL public.xid_move_backfill('shop.invoices', batch_blocks => 2, pause => '1ms');
CALL public.xid_move_abort('shop.invoices');
SELECT action, count(*) FROM public.xid_move_plan('shop.invoices', 'created_at') GROUP BY action ORDER BY action COLLATE "C";
CALL public.xid_move_start('shop.invoices', time_column => 'created_at', dry_run => true);
CALL public.xid_move_start('shop.invoices', time_column => 'created_at');
CALL public.xid_move_backfill('shop.invoices', batch_blocks => 2, pause => '1ms');
SELECT * FROM public.xid_move_index_commands('shop.invoices') \gexec
CALL public.xid_move_validate('shop.invoices');
SELECT role, relation::text, step, rows_done, verified_rows, verified_refs, mismatches FROM public.xid_move_status('shop.invoices');
CALL public.xid_move_swap('shop.invoices');
CALL public.xid_move_finish('shop.invoices');
SET search_path = pg_catalog, public;
SELECT who, what FROM shop.spied ORDER BY what;
SELECT count(*) AS items, count(i.id) AS with_invoice FROM shop.items t LEFT JOIN shop.invoices i ON i.id OPERATOR(public.=) t.invoice_id;
SELECT count(*) AS moves FROM public.xid_move_moves;

DROP SCHEMA shop CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xm_owner;
DROP OWNED BY regress_xm_attacker;
DROP OWNED BY regress_xm_app;
DROP ROLE regress_xm_owner;
DROP ROLE regress_xm_attacker;
DROP ROLE regress_xm_app;
