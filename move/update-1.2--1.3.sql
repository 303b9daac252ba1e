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

-- Every role may read the state; none may update, delete or lock it
-- (UPDATE, DELETE or TRUNCATE would let a role LOCK it in any mode and
-- stall every move's writers).  It is written through xid_move_state()
-- (C), which checks that the caller has the privileges of the owner of the
-- move's table and of every relation a row names, and runs one of its own
-- fixed statements as the owner of the state.  INSERT is granted for one
-- purpose, a restore by the owner of the tables (pg_dump writes the
-- moves, their relations and their plans as COPY): a row is refused unless
-- the role inserting it owns every relation it names.  What INSERT lets a
-- role lock (ROW EXCLUSIVE) conflicts with no write of the state.
CREATE FUNCTION @extschema@.xid_move_guard()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	rels regclass[] := ARRAY[NEW.tbl];
	rel regclass;
BEGIN
	IF TG_TABLE_NAME = 'xid_move_parts' THEN
		rels := rels || NEW.relation || NEW.leaf;
	END IF;
	FOREACH rel IN ARRAY rels LOOP
		IF @extschema@.xid_move_owns(rel) IS NOT true THEN
			RAISE EXCEPTION 'must be owner of table %', rel
				USING ERRCODE = 'insufficient_privilege',
				      DETAIL = 'Only the owner of a table writes the state of its move.';
		END IF;
	END LOOP;
	RETURN NEW;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_guard() IS
'refuses a row inserted into a move''s state that names a relation the current role does not own';

CREATE TRIGGER xid_move_guard BEFORE INSERT ON @extschema@.xid_move_moves
	FOR EACH ROW EXECUTE FUNCTION @extschema@.xid_move_guard();
CREATE TRIGGER xid_move_guard BEFORE INSERT ON @extschema@.xid_move_parts
	FOR EACH ROW EXECUTE FUNCTION @extschema@.xid_move_guard();
CREATE TRIGGER xid_move_guard BEFORE INSERT ON @extschema@.xid_move_decisions
	FOR EACH ROW EXECUTE FUNCTION @extschema@.xid_move_guard();
-- also under session_replication_role = replica
ALTER TABLE @extschema@.xid_move_moves ENABLE ALWAYS TRIGGER xid_move_guard;
ALTER TABLE @extschema@.xid_move_parts ENABLE ALWAYS TRIGGER xid_move_guard;
ALTER TABLE @extschema@.xid_move_decisions ENABLE ALWAYS TRIGGER xid_move_guard;

REVOKE ALL ON @extschema@.xid_move_moves, @extschema@.xid_move_parts,
	@extschema@.xid_move_objects, @extschema@.xid_move_decisions FROM PUBLIC;
GRANT SELECT ON @extschema@.xid_move_moves, @extschema@.xid_move_parts,
	@extschema@.xid_move_objects, @extschema@.xid_move_decisions TO PUBLIC;
GRANT INSERT ON @extschema@.xid_move_moves, @extschema@.xid_move_parts,
	@extschema@.xid_move_decisions TO PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('@extschema@.xid_move_decisions',
	'WHERE pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) tbl::pg_catalog.oid), ''USAGE'')');
