--
-- move_state: the state of a move is written only through xid_move_state()
-- and no role may write or lock it; the plan is recorded at the start and
-- every backfill acts on its decisions, whoever calls it, and stops on a
-- trigger changed since; a carried default is the constant read from the
-- catalog, never evaluated; partitions dropped or detached during a move.
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
\set SHOW_CONTEXT never
CREATE ROLE regress_xs_owner;
CREATE ROLE regress_xs_other;
CREATE SCHEMA xs AUTHORIZATION regress_xs_owner;
GRANT USAGE ON SCHEMA xs TO regress_xs_other;
-- what ran, and as whom
CREATE TABLE xs.canary (who name, what text);
GRANT INSERT, SELECT, DELETE ON xs.canary TO PUBLIC;
CREATE INDEX canary_who ON xs.canary (who);
SET ROLE regress_xs_owner;
SET search_path = xs, public;
CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, note text);
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint REFERENCES orders);
INSERT INTO orders SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', 'o' FROM generate_series(1, 100) g;
INSERT INTO lines SELECT g, (g - 1) % 100 + 1 FROM generate_series(1, 300) g;
CALL xid_move_start('orders', time_column => 'created_at');

------------------------------------------------------------------------------
-- no role writes or locks the state but through xid_move_state()
------------------------------------------------------------------------------
SET ROLE regress_xs_other;
SELECT pg_temp.try($$LOCK public.xid_move_moves IN ACCESS EXCLUSIVE MODE$$) AS lock_moves;
SELECT pg_temp.try($$LOCK public.xid_move_parts IN SHARE MODE$$) AS lock_parts;
SELECT pg_temp.try($$LOCK public.xid_move_objects IN ROW EXCLUSIVE MODE$$) AS lock_objects;
SELECT pg_temp.try($$LOCK public.xid_move_decisions IN EXCLUSIVE MODE$$) AS lock_decisions;
SELECT pg_temp.try($$UPDATE public.xid_move_moves SET step = 'validated'$$) AS update_moves;
SELECT pg_temp.try($$INSERT INTO public.xid_move_decisions VALUES ('xs.orders', 1000, 'trigger', 'x', 'fire')$$) AS insert_decision;
SELECT pg_temp.try($$SELECT FROM public.xid_move_parts FOR KEY SHARE$$) AS row_locks;
-- the writer: the owner's table only, its own operations only
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'set_step', ARRAY['validated'])$$) AS other_set_step;
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'drop table', '{}')$$) AS unknown_op;
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', NULL, '{}')$$) AS null_op;
-- reading is allowed
SELECT step FROM public.xid_move_moves;
SET ROLE regress_xs_owner;
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'set_step', ARRAY['validated', 'extra'])$$) AS wrong_args;
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'set_step', ARRAY['nowhere'])$$) AS bad_step;
-- an object that is not on the relation named is not recorded
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'object', ARRAY['pg_catalog.pg_trigger'::regclass::oid::text, '1', 'key', 'xs.orders'::regclass::oid::text, NULL, NULL, NULL, NULL])$$) AS bogus_object;
-- a row naming another owner's relation is undone
SELECT pg_temp.try($$SELECT public.xid_move_state('xs.orders', 'object', ARRAY['pg_catalog.pg_class'::regclass::oid::text, (SELECT i.indexrelid FROM pg_index i WHERE i.indrelid = 'xs.canary'::regclass LIMIT 1)::text, 'index', 'xs.canary'::regclass::oid::text, NULL, NULL, NULL, NULL])$$) AS other_owner;
SELECT count(*) AS objects FROM xid_move_objects WHERE tbl = 'xs.orders'::regclass AND kind IN ('index');

------------------------------------------------------------------------------
-- the plan recorded at the start
------------------------------------------------------------------------------
SELECT object_type, object, action FROM xid_move_decisions WHERE tbl = 'xs.orders'::regclass ORDER BY ord;
-- a trigger on UPDATE made since: the backfill refuses it, named (55000)
CREATE FUNCTION xs.log_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xs.canary VALUES (current_user, TG_TABLE_NAME || ' updated');
	RETURN NEW;
END
$$;
CREATE TRIGGER lines_log BEFORE UPDATE ON lines FOR EACH ROW EXECUTE FUNCTION xs.log_update();
\set VERBOSITY default
CALL xid_move_backfill('orders');
\set VERBOSITY terse
DROP TRIGGER lines_log ON lines;
CALL xid_move_backfill('orders');
SELECT count(*) AS ran FROM xs.canary;
CALL xid_move_abort('orders');

-- started where the triggers are kept from firing (replica), by a
-- superuser; the owner, who may not set session_replication_role, cannot
-- backfill it (it would fire them)
RESET ROLE;
CREATE TRIGGER lines_log BEFORE UPDATE ON xs.lines FOR EACH ROW EXECUTE FUNCTION xs.log_update();
CALL xid_move_start('xs.orders', time_column => 'created_at');
SELECT replica FROM xid_move_moves;
SELECT object, action FROM xid_move_decisions WHERE object_type = 'trigger';
SET ROLE regress_xs_owner;
\set VERBOSITY default
CALL xid_move_backfill('orders');
\set VERBOSITY terse
RESET ROLE;
CALL xid_move_backfill('xs.orders');
SELECT count(*) AS ran FROM xs.canary;
CALL xid_move_abort('xs.orders');
DROP TRIGGER lines_log ON xs.lines;

------------------------------------------------------------------------------
-- a carried default is the constant in the catalog, never evaluated: a
-- domain's CHECK (the owner's function) does not run as the superuser who
-- swaps
------------------------------------------------------------------------------
SET ROLE regress_xs_owner;
CREATE FUNCTION xs.ref_ok(v bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xs.canary VALUES (current_user, 'domain check');
	RETURN v >= 0;
END
$$;
CREATE DOMAIN xs.order_ref AS bigint CHECK (xs.ref_ok(VALUE));
CREATE TABLE notes (id bigint PRIMARY KEY, order_id xs.order_ref DEFAULT 1::xs.order_ref REFERENCES orders ON DELETE SET DEFAULT);
INSERT INTO notes SELECT g, g FROM generate_series(1, 10) g;
SELECT object, action FROM xid_move_plan('orders', 'created_at') WHERE object_type = 'default';
DELETE FROM xs.canary;
CALL xid_move_start('orders', time_column => 'created_at');
CALL xid_move_backfill('orders');
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
RESET ROLE;
DELETE FROM xs.canary;
CALL xid_move_swap('xs.orders');
SELECT who, what FROM xs.canary WHERE who <> 'regress_xs_owner';
SELECT pg_get_expr(d.adbin, d.adrelid) = format('%L::public.xid', (SELECT o.id::text FROM xs.orders o WHERE o.id_old = 1)) AS default_is_id
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
WHERE d.adrelid = 'xs.notes'::regclass AND a.attname = 'order_id';
CALL xid_move_abort('xs.orders');
-- a default that is no constant is refused before anything changes
SET ROLE regress_xs_owner;
ALTER TABLE notes ALTER COLUMN order_id SET DEFAULT (1 + 0)::xs.order_ref;
SELECT object, action, sqlstate FROM xid_move_plan('orders', 'created_at') WHERE object_type = 'default';
DROP TABLE notes;

------------------------------------------------------------------------------
-- partitions dropped or detached during a move (retention)
------------------------------------------------------------------------------
CREATE TABLE events (id bigint, order_id bigint REFERENCES orders, at date NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE events_1 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE events_2 PARTITION OF events FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE TABLE events_3 PARTITION OF events FOR VALUES FROM ('2024-03-01') TO ('2024-04-01');
INSERT INTO events SELECT g, g % 100 + 1, date '2024-01-01' + g % 90 FROM generate_series(1, 300) g;
CALL xid_move_start('orders', time_column => 'created_at');
DROP TABLE events_1;
CALL xid_move_backfill('orders');
SELECT leaf FROM xid_move_status('orders') WHERE role = 'child' ORDER BY 1;
ALTER TABLE events DETACH PARTITION events_2;
\set VERBOSITY default
CALL xid_move_backfill('orders');
CALL xid_move_validate('orders');
\set VERBOSITY terse
-- the abort takes it out of the move
CALL xid_move_abort('orders');
SELECT count(*) AS move_columns FROM pg_attribute WHERE attrelid IN ('events'::regclass, 'events_2'::regclass, 'events_3'::regclass)
  AND attname LIKE '%xid' AND NOT attisdropped;
SELECT count(*) AS moves FROM xid_move_moves;

RESET ROLE;
RESET search_path;
DROP SCHEMA xs CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xs_owner;
DROP OWNED BY regress_xs_other;
DROP ROLE regress_xs_owner;
DROP ROLE regress_xs_other;
