/* move/xid_move--1.2--1.3.sql: xid_move 1.2 to 1.3 (made by the Makefile
 * from move/update-1.2--1.3.sql and the routines of move/src/sql) */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION xid_move UPDATE TO '1.3'" to load this file. \quit

-- 1.3: the state is written only through xid_move_state(), and no role may
-- write or lock it; the plan is recorded at the start and every step holds
-- the catalog to it; what the move makes is known by OID; the writers'
-- triggers act on what the state records for them, never on their
-- arguments.  A move started under 1.2 cannot go on under 1.3 (its
-- triggers are not recorded): abort it before the update.
DO $$
BEGIN
	IF EXISTS (SELECT FROM @extschema@.xid_move_moves) THEN
		RAISE EXCEPTION 'a move is under way'
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'The triggers of a move started under xid_move 1.2 do not work under 1.3.',
			      HINT = 'Finish or abort every move (SELECT tbl FROM xid_move_moves lists them), then update.';
	END IF;
END
$$;

DROP TRIGGER xid_move_guard ON @extschema@.xid_move_moves;
DROP TRIGGER xid_move_guard ON @extschema@.xid_move_parts;

ALTER TABLE @extschema@.xid_move_moves ADD COLUMN replica boolean NOT NULL DEFAULT false;

-- every routine of 1.2 goes; 1.3's follow
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid = d.objid
	          WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.deptype = 'e'
	            AND d.refobjid = (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname = 'xid_move')
	          ORDER BY p.oid LOOP
		EXECUTE pg_catalog.format('DROP ROUTINE %s', f);
	END LOOP;
END
$$;
DROP TYPE @extschema@.xid_move_part;
-- The new state, with its guard, and every routine: made from the sources
-- of 1.3 by move/Makefile.
