--
-- move_owner: what the move makes belongs to the owner of the tables and
-- is found by the table it belongs to.  A superuser who runs a step makes
-- trigger functions the owner owns (their lookups never run as the
-- superuser); state rows of a dropped table can be deleted; an index of
-- another table that has the name of the move's index is left alone; an
-- index with INCLUDE columns moves, and so do an index's method, storage
-- parameters, tablespace and another column's collation and operator
-- class; finish(drop_old) refuses a trigger on an old column before its
-- point of no return.
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
CREATE ROLE regress_xm_other;
CREATE SCHEMA mo AUTHORIZATION regress_xm_owner;
GRANT USAGE, CREATE ON SCHEMA mo TO regress_xm_other;
\set VERBOSITY terse
SET client_min_messages = warning;

SET allow_in_place_tablespaces = on;
CREATE TABLESPACE regress_xm_ts LOCATION '';
RESET allow_in_place_tablespaces;
GRANT CREATE ON TABLESPACE regress_xm_ts TO regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = mo, public;
CREATE TABLE p (id bigint PRIMARY KEY WITH (fillfactor = 80) USING INDEX TABLESPACE regress_xm_ts, t timestamptz NOT NULL);
CREATE TABLE c (id bigint PRIMARY KEY, p_id bigint NOT NULL REFERENCES p, qty int, code text);
CREATE INDEX c_p_id_incl ON c (p_id) INCLUDE (qty);
CREATE INDEX c_code_p_id ON c (code COLLATE "C" text_pattern_ops, p_id DESC) WITH (fillfactor = 70) TABLESPACE regress_xm_ts;
CREATE INDEX c_p_id_hash ON c USING hash (p_id);
-- a BRIN index whose operator class for the column is not its type's
-- default is refused up front (the new column takes xid's default); the
-- default moves
CREATE INDEX c_p_id_brin ON c USING brin (p_id int8_minmax_multi_ops);
SELECT object_type, object, action, detail, sqlstate FROM public.xid_move_plan('mo.p', 't') WHERE action = 'refuse';
DROP INDEX c_p_id_brin;
CREATE INDEX c_p_id_brin ON c USING brin (p_id);
CREATE TABLE spied (who name);
INSERT INTO p SELECT g, timestamptz '2024-01-01' + g * interval '1 s' FROM generate_series(1, 300) g;
INSERT INTO c SELECT g, g, g FROM generate_series(1, 300) g;
RESET ROLE;

-- a superuser starts the move: it makes no function (its triggers call
-- xid_move's own C function), so nothing of it has an owner to steal
CALL xid_move_start('mo.p', time_column => 't');
SELECT p.proname ~ '^(p|c)_xm_' AS ours, r.rolname AS owner, p.prosecdef AS security_definer
FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner
WHERE p.pronamespace = 'mo'::regnamespace ORDER BY p.proname;

-- the owner swaps the table for a view whose function records who reads
-- it: a child row written now is looked up in the table itself (by its
-- OID, as core's RI triggers do), so no view planted under its name runs
SET ROLE regress_xm_owner;
CREATE FUNCTION mo.spy() RETURNS boolean LANGUAGE sql AS
	'INSERT INTO mo.spied VALUES (current_user) RETURNING true';
ALTER TABLE c DROP CONSTRAINT c_p_id_fkey;
ALTER TABLE p RENAME TO p_real;
CREATE VIEW p AS SELECT id, id_xid, t FROM p_real WHERE mo.spy();
SELECT pg_temp.try($$INSERT INTO mo.c VALUES (1000, 1, 0)$$) AS insert_child;
SELECT DISTINCT who FROM spied;
DROP VIEW p;
ALTER TABLE p_real RENAME TO p;
DELETE FROM c WHERE id = 1000;
ALTER TABLE c ADD CONSTRAINT c_p_id_fkey FOREIGN KEY (p_id) REFERENCES p;
RESET ROLE;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_xm_owner';

-- abort by the superuser drops them; the move starts again
CALL xid_move_abort('mo.p');
SELECT count(*) AS functions_left FROM pg_proc WHERE pronamespace = 'mo'::regnamespace AND proname ~ '_xm_';

-- another role's index with the name of the move's index on the old key
SET ROLE regress_xm_owner;
CALL xid_move_start('mo.p', time_column => 't');
CALL xid_move_backfill('mo.p');
SET ROLE regress_xm_other;
CREATE TABLE mo.mine (id bigint);
SELECT format('CREATE INDEX %I ON mo.mine (id)', xid_move_name('mo.p', p.tag, '_o'))
FROM xid_move_parts p WHERE p.tbl = 'mo.p'::regclass AND p.role = 'parent' \gexec
SET ROLE regress_xm_owner;
-- an index with INCLUDE columns is built again on the new column
SELECT regexp_replace(x, '_xm_[0-9a-f]+', '_xm_TAG', 'g') AS command FROM xid_move_index_commands('mo.p') x ORDER BY 1;
CALL xid_move_abort('mo.p');
SELECT count(*) AS others_index FROM pg_index WHERE indrelid = 'mo.mine'::regclass;
-- (while it has the name, the move's index takes the next free one:
-- index names are per schema, and the move knows its own by OID)
SET ROLE regress_xm_other;
DROP TABLE mo.mine;
SET ROLE regress_xm_owner;

-- the whole move with the INCLUDE index, then a trigger on an old column:
-- finish(drop_old) refuses it before its point of no return
CALL xid_move_start('mo.p', time_column => 't');
CALL xid_move_backfill('mo.p');
SELECT * FROM xid_move_index_commands('mo.p') \gexec
CALL xid_move_validate('mo.p');
CALL xid_move_swap('mo.p');
CREATE FUNCTION mo.noop() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
CREATE TRIGGER c_old_upd BEFORE UPDATE OF p_id_old ON c FOR EACH ROW EXECUTE FUNCTION mo.noop();
\set VERBOSITY sqlstate
CALL xid_move_finish('mo.p', drop_old => true);
\set VERBOSITY terse
CALL xid_move_finish('mo.p', drop_old => true);
SELECT step FROM xid_move_moves WHERE tbl = 'mo.p'::regclass;
DROP TRIGGER c_old_upd ON c;
CALL xid_move_finish('mo.p', drop_old => true);
SELECT indexrelid::regclass AS index, pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'mo.c'::regclass ORDER BY indexrelid::regclass::text COLLATE "C";
SELECT c.relname AS index, c.reloptions, t.spcname AS tablespace FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
WHERE c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN ('mo.c'::regclass, 'mo.p'::regclass)) ORDER BY c.relname COLLATE "C";
SELECT count(*) AS lines, count(p.id) AS with_parent FROM c LEFT JOIN p ON p.id OPERATOR(public.=) c.p_id;

-- the state of a table dropped during its move can be deleted
CALL xid_move_start('mo.p', time_column => 't');
RESET ROLE;
DROP TABLE mo.c, mo.p;
SET ROLE regress_xm_other;
SELECT pg_temp.try($$SELECT public.xid_move_state(m.tbl, $q$delete$q$, $q${}$q$) FROM public.xid_move_moves m$$) AS delete_state;
RESET ROLE;
SELECT count(*) AS moves, (SELECT count(*) FROM xid_move_parts) AS parts FROM xid_move_moves;

DROP SCHEMA mo CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xm_owner;
DROP OWNED BY regress_xm_other;
DROP ROLE regress_xm_owner;
DROP ROLE regress_xm_other;
DROP TABLESPACE regress_xm_ts;
