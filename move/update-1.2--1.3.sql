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
-- What a move made, by OID (never found again by a name or a pattern):
-- its triggers, with what each does and the columns it reads and fills
-- (xid_move_trigger() acts on this row of its own trigger and on nothing
-- in the trigger's arguments), the indexes it built with the index each
-- copies, the constraints it added.  classid is the catalog the object is
-- in; src, target and attnum columns are attribute numbers of relation.
CREATE TABLE @extschema@.xid_move_objects (
	tbl regclass NOT NULL REFERENCES @extschema@.xid_move_moves ON DELETE CASCADE,
	classid regclass NOT NULL CHECK (classid IN ('pg_catalog.pg_trigger'::regclass, 'pg_catalog.pg_class'::regclass,
	                                             'pg_catalog.pg_constraint'::regclass)),
	objid oid NOT NULL,
	kind text NOT NULL CHECK (kind IN ('key', 'ref', 'fix', 'back', 'index', 'check')),
	relation regclass NOT NULL,
	mode text CHECK (mode IN ('new', 'old')),
	src smallint,
	target smallint,
	original oid,
	PRIMARY KEY (classid, objid)
);

COMMENT ON TABLE @extschema@.xid_move_objects IS
'what each move under way made (triggers, indexes, constraints), by OID';

-- The plan as it was decided when the move started, one row per object:
-- every later step, whoever runs it, acts on these decisions and compares
-- the catalog with them (xid_move_drift()).
CREATE TABLE @extschema@.xid_move_decisions (
	tbl regclass NOT NULL REFERENCES @extschema@.xid_move_moves ON DELETE CASCADE,
	ord integer NOT NULL,
	object_type text NOT NULL,
	object text NOT NULL,
	action text NOT NULL,
	detail text,
	classid regclass,
	objid oid,
	PRIMARY KEY (tbl, ord)
);

COMMENT ON TABLE @extschema@.xid_move_decisions IS
'the plan of each move under way, as decided at its start';

-- Every role may read the state; none may write or lock it (UPDATE,
-- DELETE or TRUNCATE would let a role LOCK it in any mode, INSERT in ROW
-- EXCLUSIVE mode).  It is written only through xid_move_state() (C), which
-- checks that the caller has the privileges of the owner of the move's
-- table and of every relation a row names, and runs one of its own fixed
-- statements as the owner of the state.
REVOKE ALL ON @extschema@.xid_move_moves, @extschema@.xid_move_parts,
	@extschema@.xid_move_objects, @extschema@.xid_move_decisions FROM PUBLIC;
GRANT SELECT ON @extschema@.xid_move_moves, @extschema@.xid_move_parts,
	@extschema@.xid_move_objects, @extschema@.xid_move_decisions TO PUBLIC;

