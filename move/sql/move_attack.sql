--
-- move_attack: the defects a security review reproduced (attack/01 to 08),
-- each shown fixed: a writer's temporary domain in place of a referencing
-- column's runs nothing as the owner, and a writer's search_path does not
-- break its inserts after the swap (01, 02); the finish keeps no old column
-- under a NULLS NOT DISTINCT index (03); the plan refuses a deferrable
-- constraint trigger on UPDATE (04); a writer in replica mode cannot write
-- past the move's triggers (05); a trigger the move did not make says how
-- to relink (06); a partition made after the index commands takes the
-- index core gave it as its copy, and the swap waits for a backfill to take
-- it in (07); the swap refuses a partition attached after the backfill,
-- which a backfill at 'validated' takes in (08); and the plan refuses a
-- referencing column of another role's domain.
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
\set VERBOSITY terse
CREATE ROLE regress_xa_owner;
CREATE ROLE regress_xa_writer;
CREATE ROLE regress_xa_other;
CREATE SCHEMA xa AUTHORIZATION regress_xa_owner;
GRANT USAGE ON SCHEMA xa TO regress_xa_writer, regress_xa_other;
-- what ran, and whether as a superuser: a WARNING, a row, and a sequence,
-- which counts also what ran in a statement that failed
CREATE TABLE xa.canary (who name, what text);
GRANT INSERT, SELECT ON xa.canary TO PUBLIC;
CREATE SEQUENCE xa.canary_runs;
GRANT USAGE, SELECT ON SEQUENCE xa.canary_runs TO PUBLIC;
CREATE FUNCTION xa.canary_mark(what text) RETURNS void LANGUAGE plpgsql AS $f$
BEGIN
	PERFORM nextval('xa.canary_runs');
	RAISE WARNING 'canary: % ran (superuser: %)', what, (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user);
	INSERT INTO xa.canary VALUES (current_user, what);
END
$f$;
CREATE VIEW xa.ran AS SELECT (SELECT CASE WHEN s.is_called THEN s.last_value ELSE 0 END FROM xa.canary_runs s) AS runs,
	(SELECT count(*) FROM xa.canary c JOIN pg_roles r ON r.rolname = c.who WHERE r.rolsuper) AS as_superuser;
GRANT SELECT ON xa.ran TO PUBLIC;

------------------------------------------------------------------------------
-- 01, 02: after the swap, a writer's temporary domain named as the
-- referencing column's domain is not the one the trigger casts to (its
-- CHECK, the writer's function, ran as the owner of the tables, a superuser
-- here); a writer whose search_path names the domain's schema inserts
------------------------------------------------------------------------------
SET search_path = public;
CREATE DOMAIN xa.order_ref AS integer;
CREATE TABLE xa.a1_orders (id integer PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE xa.a1_lines (lid serial PRIMARY KEY, order_id xa.order_ref REFERENCES xa.a1_orders, qty int);
INSERT INTO xa.a1_orders (id) SELECT g FROM generate_series(1, 20) g;
INSERT INTO xa.a1_lines (order_id, qty) SELECT (g % 20) + 1, g FROM generate_series(1, 40) g;
GRANT INSERT ON xa.a1_lines TO regress_xa_writer;
GRANT SELECT ON xa.a1_orders TO regress_xa_writer;
GRANT USAGE ON SEQUENCE xa.a1_lines_lid_seq TO regress_xa_writer;
CALL xid_move_start('xa.a1_orders', time_column => 'created');
CALL xid_move_backfill('xa.a1_orders');
SELECT * FROM xid_move_index_commands('xa.a1_orders') \gexec
CALL xid_move_validate('xa.a1_orders');
CALL xid_move_swap('xa.a1_orders');
-- the writer: INSERT on the lines, SELECT on the orders, TEMP
SET ROLE regress_xa_writer;
SET search_path = xa, pg_temp, public;
CREATE FUNCTION pg_temp.canary(v int) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
	PERFORM xa.canary_mark('the writer''s temporary domain check');
	RETURN true;
END
$f$;
CREATE DOMAIN pg_temp.order_ref AS integer CHECK (pg_temp.canary(VALUE));
SELECT pg_temp.try($$INSERT INTO xa.a1_lines (order_id, qty) SELECT id, 1 FROM xa.a1_orders WHERE id_old = 1$$) AS writer_insert;
SELECT * FROM xa.ran;
DROP DOMAIN pg_temp.order_ref;
DROP FUNCTION pg_temp.canary(int);
-- 02: the writer's usual search_path, and none at all
SET search_path = xa, public;
SELECT pg_temp.try($$INSERT INTO xa.a1_lines (order_id, qty) SELECT id, 2 FROM xa.a1_orders WHERE id_old = 2$$) AS insert_app_path;
SET search_path = '';
SELECT pg_temp.try($$INSERT INTO xa.a1_lines (order_id, qty) SELECT id, 3 FROM xa.a1_orders WHERE id_old = 3$$) AS insert_empty_path;
RESET ROLE;
-- the owner too, with the application's search_path, also for the finish
SET search_path = xa, public;
SELECT pg_temp.try($$INSERT INTO xa.a1_lines (order_id, qty) SELECT id, 4 FROM xa.a1_orders WHERE id_old = 4$$) AS owner_insert;
SELECT pg_temp.try($$UPDATE xa.a1_lines SET order_id = (SELECT id FROM xa.a1_orders WHERE id_old = 5) WHERE qty = 4 AND lid > 40$$) AS owner_update;
CALL xid_move_finish('xa.a1_orders');
SET search_path = public;
-- every reference is to the order its old column named
SELECT count(*) AS lines, count(*) FILTER (WHERE o.id_old = l.order_id_old) AS valid
FROM xa.a1_lines l JOIN xa.a1_orders o ON o.id = l.order_id;
SELECT l.qty, l.order_id_old, o.id_old AS order_by_new_ref FROM xa.a1_lines l JOIN xa.a1_orders o ON o.id = l.order_id WHERE l.lid > 40 ORDER BY l.qty;
SELECT * FROM xa.ran;

------------------------------------------------------------------------------
-- 03: the finish keeps no old column under a NULLS NOT DISTINCT unique
-- index, which would refuse every row written after it but the first
------------------------------------------------------------------------------
SET ROLE regress_xa_owner;
SET search_path = xa, public;
CREATE TABLE a3_orders (id bigserial PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE a3_one (order_id bigint, CONSTRAINT a3_one_u UNIQUE NULLS NOT DISTINCT (order_id),
                     CONSTRAINT a3_one_fk FOREIGN KEY (order_id) REFERENCES a3_orders);
INSERT INTO a3_orders SELECT FROM generate_series(1, 20);
INSERT INTO a3_one (order_id) VALUES (1), (2);
CALL xid_move_start('a3_orders', time_column => 'created');
CALL xid_move_backfill('a3_orders');
SELECT * FROM xid_move_index_commands('a3_orders') \gexec
CALL xid_move_validate('a3_orders');
CALL xid_move_swap('a3_orders');
-- kept (the default), the old column: refused, nothing changed (55000)
\set VERBOSITY default
CALL xid_move_finish('a3_orders');
\set VERBOSITY terse
SELECT step FROM xid_move_moves WHERE tbl = 'a3_orders'::regclass;
CALL xid_move_finish('a3_orders', drop_old => true);
SELECT count(*) AS moves FROM xid_move_moves WHERE tbl = 'a3_orders'::regclass;
-- rows written after the finish, to different orders
INSERT INTO a3_orders DEFAULT VALUES;
INSERT INTO a3_orders DEFAULT VALUES;
SELECT pg_temp.try($$INSERT INTO xa.a3_one (order_id) SELECT id FROM xa.a3_orders ORDER BY created DESC OFFSET 0 LIMIT 1$$) AS first_insert;
SELECT pg_temp.try($$INSERT INTO xa.a3_one (order_id) SELECT id FROM xa.a3_orders ORDER BY created DESC OFFSET 1 LIMIT 1$$) AS second_insert;
SELECT pg_temp.try($$INSERT INTO xa.a3_one (order_id) SELECT id FROM xa.a3_orders ORDER BY created OFFSET 5 LIMIT 1$$) AS third_insert;
-- the moved constraint still treats NULLs as equal
SELECT pg_temp.try($$INSERT INTO xa.a3_one (order_id) VALUES (NULL), (NULL)$$) AS two_nulls;
SELECT count(*) AS rows, count(o.id) AS valid FROM a3_one l LEFT JOIN a3_orders o ON o.id = l.order_id;
RESET ROLE;

------------------------------------------------------------------------------
-- 04: a deferrable constraint trigger on UPDATE, which core cannot queue in
-- the backfill's security-restricted operation: refused by the plan and the
-- start (0A000) where the backfill would fire it
------------------------------------------------------------------------------
SET ROLE regress_xa_owner;
CREATE TABLE a4_orders (id bigserial PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE a4_lines (lid serial PRIMARY KEY, order_id bigint NOT NULL REFERENCES a4_orders, qty int);
CREATE FUNCTION a4_audit() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
	PERFORM xa.canary_mark(TG_NAME || ' on ' || TG_TABLE_NAME);
	RETURN NULL;
END
$f$;
CREATE CONSTRAINT TRIGGER a4_lines_audit AFTER UPDATE ON a4_lines DEFERRABLE INITIALLY DEFERRED
	FOR EACH ROW EXECUTE FUNCTION a4_audit();
INSERT INTO a4_orders SELECT FROM generate_series(1, 5);
INSERT INTO a4_lines (order_id, qty) SELECT (g % 5) + 1, g FROM generate_series(1, 10) g;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('a4_orders', 'created', true) WHERE object_type = 'trigger';
SELECT pg_temp.try($$CALL public.xid_move_start('xa.a4_orders', time_column => 'created', fire_triggers => true)$$) AS owner_start;
RESET ROLE;
SELECT pg_temp.try($$CALL public.xid_move_start('xa.a4_orders', time_column => 'created', fire_triggers => true)$$) AS superuser_start;
-- a role that may set session_replication_role keeps it from firing
SELECT object, action FROM xid_move_plan('xa.a4_orders', 'created') WHERE object_type = 'trigger';
SELECT count(*) AS moves FROM xid_move_moves WHERE tbl = 'xa.a4_orders'::regclass;
CALL xid_move_start('xa.a4_orders', time_column => 'created');
CALL xid_move_backfill('xa.a4_orders');
SELECT step FROM xid_move_moves WHERE tbl = 'xa.a4_orders'::regclass;
CALL xid_move_abort('xa.a4_orders');
SELECT * FROM xa.ran;

------------------------------------------------------------------------------
-- 05: a writer allowed to set session_replication_role to replica, where
-- triggers enabled for origin sessions do not fire, re-points a line after
-- validate: the move's triggers (ENABLE ALWAYS) keep its new reference
------------------------------------------------------------------------------
GRANT SET ON PARAMETER session_replication_role TO regress_xa_writer;
SET ROLE regress_xa_owner;
CREATE TABLE a5_orders (id bigserial PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE a5_lines (lid serial PRIMARY KEY, order_id bigint NOT NULL REFERENCES a5_orders, qty int);
GRANT SELECT, INSERT, UPDATE ON a5_lines TO regress_xa_writer;
GRANT SELECT ON a5_orders TO regress_xa_writer;
GRANT USAGE ON SEQUENCE a5_lines_lid_seq TO regress_xa_writer;
INSERT INTO a5_orders SELECT FROM generate_series(1, 20);
INSERT INTO a5_lines (order_id, qty) SELECT (g % 20) + 1, g FROM generate_series(1, 40) g;
CALL xid_move_start('a5_orders', time_column => 'created');
CALL xid_move_backfill('a5_orders');
SELECT * FROM xid_move_index_commands('a5_orders') \gexec
CALL xid_move_validate('a5_orders');
SELECT t.tgname ~ '^xid_move' AS move_trigger, t.tgenabled, count(*)
FROM pg_trigger t WHERE t.tgrelid IN ('a5_lines'::regclass, 'a5_orders'::regclass) AND NOT t.tgisinternal
GROUP BY 1, 2 ORDER BY 1, 2;
SET ROLE regress_xa_writer;
SET session_replication_role = replica;
SELECT pg_temp.try($$UPDATE xa.a5_lines SET order_id = 3 WHERE lid = 1$$) AS replica_update;
SELECT pg_temp.try($$INSERT INTO xa.a5_lines (order_id, qty) VALUES (4, 100)$$) AS replica_insert;
RESET session_replication_role;
SET ROLE regress_xa_owner;
SELECT l.lid, l.order_id, (SELECT o.id FROM a5_orders o WHERE o.id_xid = l.order_id_xid) AS xid_points_to
FROM a5_lines l WHERE l.lid = 1 OR l.qty = 100 ORDER BY l.lid;
CALL xid_move_swap('a5_orders');
CALL xid_move_finish('a5_orders');
SELECT l.lid, l.order_id_old, o.id_old AS order_by_new_ref
FROM a5_lines l JOIN a5_orders o ON o.id = l.order_id WHERE l.lid = 1 OR l.qty = 100 ORDER BY l.lid;
SELECT count(*) AS lines, count(*) FILTER (WHERE o.id_old = l.order_id_old) AS valid
FROM a5_lines l LEFT JOIN a5_orders o ON o.id = l.order_id;
RESET ROLE;
REVOKE SET ON PARAMETER session_replication_role FROM regress_xa_writer;

------------------------------------------------------------------------------
-- 06: a trigger on xid_move_trigger() that no move recorded (a restore
-- gives the move's triggers new OIDs): the error says how to relink
------------------------------------------------------------------------------
SET ROLE regress_xa_owner;
CREATE TABLE a6_orders (id bigint PRIMARY KEY);
CREATE TRIGGER a6_by_hand BEFORE INSERT ON a6_orders FOR EACH ROW EXECUTE FUNCTION public.xid_move_trigger();
\set VERBOSITY default
INSERT INTO a6_orders VALUES (1);
\set VERBOSITY terse
SELECT pg_temp.try($$INSERT INTO xa.a6_orders VALUES (1)$$) AS sqlstate;
DROP TABLE a6_orders;
RESET ROLE;

------------------------------------------------------------------------------
-- 07: a partition made the usual way after the index commands: core gives
-- it an index of the copy, which the next index commands take as its copy;
-- validate and the swap refuse it until the backfill has seen it (55000)
------------------------------------------------------------------------------
SET ROLE regress_xa_owner;
CREATE TABLE a7_orders (id bigserial PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE a7_lines (lid int, day date NOT NULL, order_id bigint REFERENCES a7_orders, qty int) PARTITION BY RANGE (day);
CREATE TABLE a7_lines_1 PARTITION OF a7_lines FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE a7_lines_2 PARTITION OF a7_lines FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
CREATE INDEX a7_lines_order ON a7_lines (order_id);
INSERT INTO a7_orders SELECT FROM generate_series(1, 20);
INSERT INTO a7_lines SELECT g, date '2024-01-01' + g, (g % 20) + 1, g FROM generate_series(1, 50) g;
CALL xid_move_start('a7_orders', time_column => 'created');
CALL xid_move_backfill('a7_orders');
SELECT * FROM xid_move_index_commands('a7_orders') \gexec
-- next month's partition, as every month
CREATE TABLE a7_lines_3 PARTITION OF a7_lines FOR VALUES FROM ('2024-03-01') TO ('2024-04-01');
INSERT INTO a7_lines SELECT 100 + g, date '2024-03-01' + g, (g % 20) + 1, g FROM generate_series(1, 10) g;
SELECT pg_temp.try($$CALL public.xid_move_validate('xa.a7_orders')$$) AS validate_before;
-- the index core gave the new partition is recorded as its copy, and its
-- ATTACH (already attached) does nothing
SELECT * FROM xid_move_index_commands('a7_orders') \gexec
CALL xid_move_validate('a7_orders');
-- the validate passes (the move's triggers filled the new partition's
-- rows); the swap, under its lock, refuses a partition no backfill took
-- in (55000), nothing changed
\set VERBOSITY default
CALL xid_move_swap('a7_orders');
\set VERBOSITY terse
SELECT step FROM xid_move_moves WHERE tbl = 'a7_orders'::regclass;
-- as its hint says
CALL xid_move_backfill('a7_orders');
SELECT * FROM xid_move_index_commands('a7_orders') \gexec
CALL xid_move_validate('a7_orders');
CALL xid_move_swap('a7_orders');
CALL xid_move_finish('a7_orders');
SELECT count(*) AS moves FROM xid_move_moves WHERE tbl = 'a7_orders'::regclass;
SELECT l.tableoid::regclass AS part, count(*) AS rows, count(o.id) FILTER (WHERE o.id_old = l.order_id_old) AS valid
FROM a7_lines l LEFT JOIN a7_orders o ON o.id = l.order_id GROUP BY 1 ORDER BY 1;
-- every partition has its index on the new reference, attached
SELECT c.relname AS part, count(*) FILTER (WHERE a.attname = 'order_id' AND h.inhrelid IS NOT NULL) AS attached_indexes
FROM pg_class c JOIN pg_inherits p ON p.inhrelid = c.oid AND p.inhparent = 'a7_lines'::regclass
LEFT JOIN pg_index i ON i.indrelid = c.oid
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = i.indkey[0]
LEFT JOIN pg_inherits h ON h.inhrelid = i.indexrelid
GROUP BY 1 ORDER BY 1;
RESET ROLE;

------------------------------------------------------------------------------
-- 08: a referencing partition attached after validate (which swapped with
-- its references NULL) is refused by the swap under its lock and by
-- validate (55000), nothing changed; a backfill at 'validated' takes it
-- in, then validate and swap succeed with every reference valid
------------------------------------------------------------------------------
SET ROLE regress_xa_owner;
CREATE TABLE a8_orders (id bigserial PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE a8_lines (lid int, day date NOT NULL, order_id bigint REFERENCES a8_orders, qty int) PARTITION BY RANGE (day);
CREATE TABLE a8_lines_1 PARTITION OF a8_lines FOR VALUES FROM ('2024-01-01') TO ('2024-02-01');
CREATE TABLE a8_lines_2 PARTITION OF a8_lines FOR VALUES FROM ('2024-02-01') TO ('2024-03-01');
INSERT INTO a8_orders SELECT FROM generate_series(1, 20);
INSERT INTO a8_lines SELECT g, date '2024-01-01' + g, (g % 20) + 1, g FROM generate_series(1, 50) g;
CALL xid_move_start('a8_orders', time_column => 'created');
CALL xid_move_backfill('a8_orders');
SELECT * FROM xid_move_index_commands('a8_orders') \gexec
CALL xid_move_validate('a8_orders');
-- a month loaded elsewhere (the same columns, as ATTACH requires)
CREATE TABLE a8_lines_3 (LIKE a8_lines);
INSERT INTO a8_lines_3 SELECT 100 + g, date '2024-03-01' + g, (g % 20) + 1, g FROM generate_series(1, 10) g;
ALTER TABLE a8_lines ATTACH PARTITION a8_lines_3 FOR VALUES FROM ('2024-03-01') TO ('2024-04-01');
-- a validate again refuses it too: its rows lack their new value (55000)
SELECT pg_temp.try($$CALL public.xid_move_validate('xa.a8_orders')$$) AS validate_again;
\set VERBOSITY default
CALL xid_move_swap('a8_orders');
\set VERBOSITY terse
SELECT step FROM xid_move_moves WHERE tbl = 'a8_orders'::regclass;
SELECT a.attname FROM pg_attribute a WHERE a.attrelid = 'a8_orders'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum;
CALL xid_move_backfill('a8_orders');
SELECT * FROM xid_move_index_commands('a8_orders') \gexec
CALL xid_move_validate('a8_orders');
CALL xid_move_swap('a8_orders');
SELECT l.tableoid::regclass AS part, count(*) AS rows, count(l.order_id) AS with_ref,
       count(o.id) FILTER (WHERE o.id_old = l.order_id_old) AS valid
FROM a8_lines l LEFT JOIN a8_orders o ON o.id = l.order_id GROUP BY 1 ORDER BY 1;
CALL xid_move_finish('a8_orders');
SELECT count(*) AS moves FROM xid_move_moves WHERE tbl = 'a8_orders'::regclass;
RESET ROLE;

------------------------------------------------------------------------------
-- a referencing column of a domain of another role (not a superuser): its
-- constraints would run as the owner of the tables; refused (42501)
------------------------------------------------------------------------------
GRANT CREATE ON SCHEMA xa TO regress_xa_other;
SET ROLE regress_xa_other;
CREATE FUNCTION xa.other_check(v bigint) RETURNS boolean LANGUAGE plpgsql AS $f$
BEGIN
	PERFORM xa.canary_mark('the other role''s domain check');
	RETURN true;
END
$f$;
CREATE DOMAIN xa.other_ref AS bigint;
SET ROLE regress_xa_owner;
CREATE TABLE ad_orders (id bigint PRIMARY KEY, created timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE ad_lines (lid int PRIMARY KEY, order_id xa.other_ref REFERENCES ad_orders);
INSERT INTO ad_orders SELECT g FROM generate_series(1, 5) g;
INSERT INTO ad_lines SELECT g, g FROM generate_series(1, 5) g;
-- its CHECK, for the rows written from here on
SET ROLE regress_xa_other;
ALTER DOMAIN xa.other_ref ADD CONSTRAINT other_ok CHECK (xa.other_check(VALUE)) NOT VALID;
SET ROLE regress_xa_owner;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('ad_orders', 'created') WHERE action = 'refuse';
SELECT pg_temp.try($$CALL public.xid_move_start('xa.ad_orders', time_column => 'created')$$) AS owner_start;
RESET ROLE;
SELECT pg_temp.try($$CALL public.xid_move_start('xa.ad_orders', time_column => 'created')$$) AS superuser_start;
SELECT count(*) AS moves FROM xid_move_moves WHERE tbl = 'xa.ad_orders'::regclass;
SELECT * FROM xa.ran;
-- the owner's own domain is moved
ALTER DOMAIN xa.other_ref OWNER TO regress_xa_owner;
SELECT count(*) AS refused FROM xid_move_plan('xa.ad_orders', 'created') WHERE action = 'refuse';

RESET ROLE;
RESET search_path;
DROP SCHEMA xa CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xa_owner;
DROP OWNED BY regress_xa_writer;
DROP OWNED BY regress_xa_other;
DROP ROLE regress_xa_owner;
DROP ROLE regress_xa_writer;
DROP ROLE regress_xa_other;
