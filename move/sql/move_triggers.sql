--
-- move_triggers: the writers' triggers take nothing from their arguments
-- (issue 56, group A and items 4 and 5).  xid_move_trigger() acts only for
-- a trigger a move under way recorded by OID; its columns, types and
-- schemas come from the state and the catalog.  Run as unprivileged roles;
-- a canary table records every planted function that runs, and as whom.
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
CREATE ROLE regress_xt_owner;
CREATE ROLE regress_xt_app;
CREATE ROLE regress_xt_nobody;
CREATE ROLE regress_xt_planter;
CREATE SCHEMA xt AUTHORIZATION regress_xt_owner;
GRANT USAGE ON SCHEMA xt TO regress_xt_app, regress_xt_nobody, regress_xt_planter;
GRANT CREATE ON SCHEMA xt TO regress_xt_planter;
-- the backfill keeps the application's triggers from firing
GRANT SET ON PARAMETER session_replication_role TO regress_xt_owner;
\set VERBOSITY terse
SET client_min_messages = warning;

SET ROLE regress_xt_owner;
SET search_path = xt, public;
-- every planted function that runs says so here
CREATE TABLE canary (who name, what text);
GRANT INSERT ON canary TO PUBLIC;
CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, note text);
INSERT INTO orders SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', 'order ' || g FROM generate_series(1, 200) g;
-- a partitioned referencing table
CREATE TABLE items (id bigint NOT NULL, order_id bigint REFERENCES orders, qty int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE items_1 PARTITION OF items FOR VALUES FROM (0) TO (1000);
CREATE TABLE items_2 PARTITION OF items FOR VALUES FROM (1000) TO (2000);
-- a partition whose attribute numbers differ from its table's
CREATE TABLE items_3 (junk int, id bigint NOT NULL, order_id bigint, qty int);
ALTER TABLE items_3 DROP COLUMN junk;
ALTER TABLE items ATTACH PARTITION items_3 FOR VALUES FROM (2000) TO (3000);
INSERT INTO items SELECT g, (g - 1) % 200 + 1, 1 FROM generate_series(1, 400) g;
-- an append-only ledger with an audit trigger, whose lines may come
-- before their order in a transaction (a deferred foreign key)
CREATE TABLE ledger (id bigint PRIMARY KEY, order_id bigint REFERENCES orders DEFERRABLE INITIALLY DEFERRED, amount numeric);
INSERT INTO ledger SELECT g, g, 10 FROM generate_series(1, 100) g;
CREATE TABLE audit (who name, what text);
CREATE FUNCTION xt.append_only() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
	RAISE EXCEPTION 'ledger is append-only';
END
$$;
CREATE FUNCTION xt.audit_update() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
	INSERT INTO xt.audit VALUES (current_user, TG_TABLE_NAME || ' ' || TG_OP);
	RETURN NULL;
END
$$;
CREATE TRIGGER append_only BEFORE UPDATE ON ledger FOR EACH ROW EXECUTE FUNCTION xt.append_only();
CREATE TRIGGER audit AFTER UPDATE ON ledger FOR EACH ROW EXECUTE FUNCTION xt.audit_update();
GRANT ALL ON orders, items, ledger TO regress_xt_app;
RESET search_path;
RESET ROLE;

-- (a) A1: a role with TRIGGER on the owner's table attaches
-- xid_move_trigger() with each kind and hostile arguments: its own
-- pg_temp.xid_new(), columns that do not exist, a text column.  No move is
-- under way.  Every write errors with 39P01; nothing runs as the owner.
SET ROLE regress_xt_app;
CREATE FUNCTION pg_temp.xid_new() RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'pg_temp.xid_new');
	RETURN 42;
END
$$;
CREATE FUNCTION pg_temp.xid_from_key(timestamptz, bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'pg_temp.xid_from_key');
	RETURN 42;
END
$$;
CREATE TRIGGER hostile_key BEFORE UPDATE ON xt.orders FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('key', 'pg_temp', 'id', 'note', '', 'int');
SELECT pg_temp.try($$UPDATE xt.orders SET id = id + 1000 WHERE id = 1$$) AS key_text_column;
RESET ROLE;
DROP TRIGGER hostile_key ON xt.orders;
SET ROLE regress_xt_app;
CREATE TRIGGER hostile_key BEFORE UPDATE ON xt.orders FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('key', 'pg_temp', 'nosuch', 'nothere', 'created_at', 'int');
SELECT pg_temp.try($$UPDATE xt.orders SET note = 'x' WHERE id = 1$$) AS key_wrong_columns;
RESET ROLE;
DROP TRIGGER hostile_key ON xt.orders;
SET ROLE regress_xt_app;
CREATE TRIGGER hostile_ref BEFORE INSERT OR UPDATE ON xt.orders FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('ref', 'pg_temp', 'pg_temp', 'id', 'new', 'note', '', 'int', 'id', 'note');
SELECT pg_temp.try($$INSERT INTO xt.orders VALUES (5001, now(), 'n')$$) AS ref_insert;
SELECT pg_temp.try($$UPDATE xt.orders SET note = 'y' WHERE id = 2$$) AS ref_update;
RESET ROLE;
DROP TRIGGER hostile_ref ON xt.orders;
SET ROLE regress_xt_app;
CREATE CONSTRAINT TRIGGER hostile_fix AFTER INSERT ON xt.orders DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('fix', 'pg_temp', 'pg_temp', 'id', 'new', 'note', '', 'int', 'id', 'note');
SELECT pg_temp.try($$INSERT INTO xt.orders VALUES (5002, now(), NULL)$$) AS fix_insert;
RESET ROLE;
DROP TRIGGER hostile_fix ON xt.orders;
SET ROLE regress_xt_app;
CREATE TRIGGER hostile_back BEFORE INSERT ON xt.orders FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('back', 'pg_temp', 'id', 'note');
SELECT pg_temp.try($$INSERT INTO xt.orders VALUES (5003, now(), NULL)$$) AS back_insert;
RESET ROLE;
DROP TRIGGER hostile_back ON xt.orders;
SET ROLE regress_xt_app;
-- no argument at all, and an unknown kind
CREATE TRIGGER hostile_none BEFORE INSERT ON xt.orders FOR EACH ROW EXECUTE FUNCTION public.xid_move_trigger();
SELECT pg_temp.try($$INSERT INTO xt.orders VALUES (5004, now(), NULL)$$) AS no_arguments;
RESET ROLE;
DROP TRIGGER hostile_none ON xt.orders;
SET ROLE regress_xt_app;
RESET ROLE;
SELECT count(*) AS orders_written FROM xt.orders WHERE id > 1000;

-- (b) A2: a role with only the default privileges, on its own temporary
-- table with a text column: an error, no crash; the session goes on
SET ROLE regress_xt_nobody;
CREATE TEMP TABLE mine (id bigint, note text, t timestamptz);
INSERT INTO mine VALUES (1, NULL, now());
CREATE TRIGGER crash BEFORE UPDATE ON mine FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('key', 'public', 'id', 'note', '', 'int');
SELECT pg_temp.try($$UPDATE mine SET id = 2$$) AS key_on_text;
DROP TRIGGER crash ON mine;
CREATE TRIGGER crash BEFORE INSERT ON mine FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('ref', 'public', 'public', 'id', 'new', 'note', '', 'int', 'id', 'note');
SELECT pg_temp.try($$INSERT INTO mine VALUES (3, NULL, now())$$) AS ref_on_text;
SELECT 'still here' AS next_statement, count(*) AS rows FROM mine;
DROP TABLE mine;

-- (c) called not as a trigger
SELECT pg_temp.try($$SELECT public.xid_move_trigger()$$) AS not_a_trigger;
RESET ROLE;

-- item 5: a REPLICA or ALWAYS UPDATE trigger on a referencing table would
-- be fired by the fix's fill, run in replica mode: the plan refuses it
SET ROLE regress_xt_owner;
ALTER TABLE xt.ledger ENABLE ALWAYS TRIGGER audit;
SELECT action, detail FROM xid_move_plan('xt.orders', 'created_at') WHERE object = 'audit on xt.ledger';
ALTER TABLE xt.ledger ENABLE REPLICA TRIGGER audit;
SELECT action, sqlstate FROM xid_move_plan('xt.orders', 'created_at') WHERE object = 'audit on xt.ledger';
SELECT pg_temp.try($$CALL xid_move_start('xt.orders', time_column => 'created_at')$$) AS start_refused;
ALTER TABLE xt.ledger ENABLE TRIGGER audit;
SELECT object, action FROM xid_move_plan('xt.orders', 'created_at') WHERE object_type = 'trigger' ORDER BY object;
RESET ROLE;

-- (e) item 4: a role with CREATE on the application's schema plants
-- operators and functions there, first on the writers' search_path
SET ROLE regress_xt_planter;
CREATE FUNCTION xt.eq_oid(oid, oid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.=(oid,oid)');
	RETURN $1 OPERATOR(pg_catalog.=) $2;
END
$$;
CREATE OPERATOR xt.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = xt.eq_oid);
CREATE FUNCTION xt.eq_name(name, name) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.=(name,name)');
	RETURN $1 OPERATOR(pg_catalog.=) $2;
END
$$;
CREATE OPERATOR xt.= (LEFTARG = name, RIGHTARG = name, FUNCTION = xt.eq_name);
CREATE FUNCTION xt.eq_regclass(regclass, regclass) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.=(regclass,regclass)');
	RETURN $1::oid OPERATOR(pg_catalog.=) $2::oid;
END
$$;
CREATE OPERATOR xt.= (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = xt.eq_regclass);
CREATE FUNCTION xt.pg_partition_ancestors(regclass) RETURNS SETOF regclass LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.pg_partition_ancestors');
	RETURN QUERY SELECT * FROM pg_catalog.pg_partition_ancestors($1);
END
$$;
CREATE FUNCTION xt.xid_new() RETURNS public.xid LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.xid_new');
	RETURN NULL;
END
$$;
CREATE FUNCTION xt.xid_from_key(timestamptz, bigint) RETURNS public.xid LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO xt.canary VALUES (current_user, 'xt.xid_from_key');
	RETURN NULL;
END
$$;
RESET ROLE;

-- (d) a whole move, with the writers (the app, the owner, a superuser)
-- on a search_path that puts the planted schema first
SET ROLE regress_xt_owner;
CALL xid_move_start('xt.orders', time_column => 'created_at');
-- every trigger the move made is recorded by OID, with its columns
SELECT o.kind, o.relation, o.mode, a.attname AS src, b.attname AS target
FROM xid_move_objects o
JOIN pg_trigger t ON t.oid = o.objid
LEFT JOIN pg_attribute a ON a.attrelid = o.relation AND a.attnum = o.src
LEFT JOIN pg_attribute b ON b.attrelid = o.relation AND b.attnum = o.target
WHERE o.tbl = 'xt.orders'::regclass ORDER BY o.relation::text, t.tgname;
-- the move's triggers have no arguments
SELECT count(*) AS with_arguments FROM pg_trigger t
WHERE t.tgfoid = 'xid_move_trigger()'::regprocedure AND t.tgnargs > 0;
-- a trigger cloned onto a partition is not recorded: it finds its parent's
SELECT count(*) AS clones FROM pg_trigger t
WHERE t.tgfoid = 'xid_move_trigger()'::regprocedure AND t.tgparentid <> 0
  AND NOT EXISTS (SELECT FROM xid_move_objects o WHERE o.objid = t.oid);
-- a trigger whose record is gone (as after a restore, which changes the
-- OIDs) does nothing until xid_move_relink() records it again, even in a
-- session that has used it before
INSERT INTO xt.orders VALUES (4100, now(), 'renamed');
UPDATE xt.orders SET id = 4101 WHERE id = 4100;
SELECT xid_move_state('xt.orders', 'forget_object', ARRAY[o.classid::oid::text, o.objid::text])
FROM xid_move_objects o WHERE o.kind = 'key';
SELECT pg_temp.try($$UPDATE xt.orders SET id = 4102 WHERE id = 4101$$) AS unrecorded_key;
SELECT xid_move_relink('xt.orders') AS relinked, xid_move_relink('xt.orders') AS again;
-- the owner may record a trigger of its own on its own table, with any
-- columns: one whose target is a text column errors before anything is
-- stored (an 8-byte datum in a text column crashed the server)
ALTER TABLE xt.orders ADD COLUMN label text;
CREATE TRIGGER own_key BEFORE UPDATE ON xt.orders FOR EACH ROW EXECUTE FUNCTION xid_move_trigger();
SELECT xid_move_state('xt.orders', 'object', ARRAY['pg_catalog.pg_trigger'::regclass::oid::text, t.oid::text, 'key',
	'xt.orders'::regclass::oid::text, 'new', '1', (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = 'xt.orders'::regclass AND a.attname = 'label')::text, NULL])
FROM pg_trigger t WHERE t.tgrelid = 'xt.orders'::regclass AND t.tgname = 'own_key';
SELECT pg_temp.try($$UPDATE xt.orders SET id = 4103 WHERE id = 4101$$) AS key_into_text;
SELECT xid_move_state('xt.orders', 'forget_object', ARRAY['pg_catalog.pg_trigger'::regclass::oid::text, t.oid::text])
FROM pg_trigger t WHERE t.tgrelid = 'xt.orders'::regclass AND t.tgname = 'own_key';
DROP TRIGGER own_key ON xt.orders;
ALTER TABLE xt.orders DROP COLUMN label;
SELECT 'still here' AS after_type_check;
RESET ROLE;

-- (a) again while the move is under way: a trigger the app attaches with
-- the move's own table, columns and kind is still not one the move made
SET ROLE regress_xt_app;
CREATE TRIGGER hostile_ref BEFORE INSERT ON xt.ledger FOR EACH ROW
	EXECUTE FUNCTION public.xid_move_trigger('ref', 'pg_temp', 'public', 'id', 'new', 'id_xid', 'created_at', 'int', 'order_id', 'amount');
SELECT pg_temp.try($$INSERT INTO xt.ledger VALUES (2001, 1, 1)$$) AS ref_during_move;
RESET ROLE;
DROP TRIGGER hostile_ref ON xt.ledger;

SET ROLE regress_xt_app;
SET search_path = xt, pg_catalog, public;
INSERT INTO xt.items VALUES (1500, 7, 1), (500, 8, 1), (2500, 12, 1);
UPDATE xt.items SET order_id = 9 WHERE id OPERATOR(pg_catalog.=) 1;
INSERT INTO xt.orders VALUES (4000, now(), 'new');
UPDATE xt.orders SET id = 4001 WHERE id OPERATOR(pg_catalog.=) 4000;
UPDATE xt.orders SET note = 'touched' WHERE id OPERATOR(pg_catalog.=) 150;
-- (f) item 5: a line before its order, in one transaction: the deferred
-- fix fills it at commit without firing the ledger's UPDATE triggers
BEGIN;
INSERT INTO xt.ledger VALUES (1001, 1001, 5);
INSERT INTO xt.orders VALUES (1001, now(), 'late order');
COMMIT;
RESET ROLE;
RESET search_path;
SET ROLE regress_xt_owner;
SET search_path = xt, pg_catalog, public;
INSERT INTO xt.items VALUES (1501, 10, 1);
RESET ROLE;
INSERT INTO xt.items VALUES (1502, 11, 1);
RESET search_path;

SELECT count(*) AS audited FROM xt.audit;
SELECT l.order_id_xid IS NOT NULL AND l.order_id_xid = o.id_xid AS late_line_filled
FROM xt.ledger l JOIN xt.orders o ON o.id = l.order_id WHERE l.id = 1001;

SET ROLE regress_xt_owner;
CALL xid_move_backfill('xt.orders');
RESET ROLE;
-- what the writers' statements filled is what the backfill computed
SELECT count(*) AS items, count(*) FILTER (WHERE i.order_id_xid = o.id_xid) AS following
FROM xt.items i JOIN xt.orders o ON o.id = i.order_id WHERE i.id IN (1, 500, 1500, 1501, 1502, 2500);
SELECT a.attnum AS items_3_attnum, b.attnum AS items_attnum FROM pg_attribute a, pg_attribute b
WHERE a.attrelid = 'xt.items_3'::regclass AND b.attrelid = 'xt.items'::regclass AND a.attname = 'order_id_xid' AND b.attname = a.attname;
SELECT id_xid IS NOT NULL AS touched_has_id FROM xt.orders WHERE id = 150;
SELECT count(*) AS new_keys_with_id FROM xt.orders WHERE id = 4001 AND id_xid IS NOT NULL;
SET ROLE regress_xt_owner;
SELECT * FROM xid_move_index_commands('xt.orders') \gexec
CALL xid_move_validate('xt.orders');
CALL xid_move_swap('xt.orders');
-- after the swap the old columns follow the new ones (ref 'old')
SELECT o.kind, o.relation, o.mode, a.attname AS src, b.attname AS target
FROM xid_move_objects o
JOIN pg_trigger t ON t.oid = o.objid
LEFT JOIN pg_attribute a ON a.attrelid = o.relation AND a.attnum = o.src
LEFT JOIN pg_attribute b ON b.attrelid = o.relation AND b.attnum = o.target
WHERE o.tbl = 'xt.orders'::regclass ORDER BY o.relation::text, t.tgname;
RESET ROLE;
SET ROLE regress_xt_app;
SET search_path = xt, pg_catalog, public;
INSERT INTO xt.items (id, order_id, qty) SELECT 1600, o.id, 1 FROM xt.orders o WHERE o.id_old OPERATOR(pg_catalog.=) 12;
-- a line before its order after the swap too (the fix follows the old
-- column; a new order has no old key)
SELECT public.xid_new() AS late \gset
BEGIN;
INSERT INTO xt.ledger (id, order_id, amount) VALUES (1002, :'late', 5);
INSERT INTO xt.orders (id, created_at, note) VALUES (:'late', now(), 'late after the swap');
COMMIT;
RESET ROLE;
RESET search_path;
SELECT i.order_id_old = o.id_old AS old_follows FROM xt.items i JOIN xt.orders o ON o.id = i.order_id WHERE i.id = 1600;
SELECT count(*) AS late_lines FROM xt.ledger l JOIN xt.orders o ON o.id = l.order_id WHERE l.id = 1002;
SET ROLE regress_xt_owner;
CALL xid_move_finish('xt.orders');
SELECT count(*) AS objects_left FROM xid_move_objects;
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgfoid = 'xid_move_trigger()'::regprocedure;
RESET ROLE;

-- nothing planted ran, as anyone; the application's UPDATE triggers were
-- fired by no one
SELECT who, what FROM xt.canary ORDER BY 1, 2;
SELECT count(*) AS audited FROM xt.audit;

DROP SCHEMA xt CASCADE;
RESET client_min_messages;
REVOKE SET ON PARAMETER session_replication_role FROM regress_xt_owner;
DROP OWNED BY regress_xt_owner, regress_xt_app, regress_xt_nobody, regress_xt_planter;
DROP ROLE regress_xt_owner, regress_xt_app, regress_xt_nobody, regress_xt_planter;
