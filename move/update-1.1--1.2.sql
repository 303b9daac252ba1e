/* move/xid_move--1.1--1.2.sql: xid_move 1.1 to 1.2 (made by the Makefile
 * from move/update-1.1--1.2.sql and the routines of xid_move--1.2.sql) */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION xid_move UPDATE TO '1.2'" to load this file. \quit

-- 1.2: every statement of a step runs as the owner of the tables in a
-- security-restricted operation, the writers' triggers are C, the plan
-- denies by default, the guard of the state fires in every replication
-- role, progress is measured over the backfill's own time.  A move under
-- way goes on: its triggers of 1.1 keep working until a step replaces
-- them, and the steps of 1.2 drop their functions.

ALTER TABLE @extschema@.xid_move_parts ADD COLUMN busy interval NOT NULL DEFAULT '0';
ALTER TABLE @extschema@.xid_move_moves ENABLE ALWAYS TRIGGER xid_move_guard;
ALTER TABLE @extschema@.xid_move_parts ENABLE ALWAYS TRIGGER xid_move_guard;

-- every routine of 1.1 but the state's guard goes; 1.2's follow
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid = d.objid
	          WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.deptype = 'e'
	            AND d.refobjid = (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'xid_move')
	            AND p.proname NOT IN ('xid_move_owns', 'xid_move_guard')
	          ORDER BY p.oid LOOP
		EXECUTE pg_catalog.format('DROP ROUTINE %s', f);
	END LOOP;
END
$$;

