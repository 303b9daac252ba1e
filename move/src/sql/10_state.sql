------------------------------------------------------------------------------
-- State
------------------------------------------------------------------------------

-- One row per move under way
CREATE TABLE @extschema@.xid_move_moves (
	tbl regclass PRIMARY KEY,
	step text NOT NULL DEFAULT 'started'
		CHECK (step IN ('started', 'backfilled', 'validated', 'swapped', 'aborting', 'finishing')),
	constraint_name name NOT NULL,
	key_column name NOT NULL,
	new_column name NOT NULL,
	old_column name NOT NULL,
	key_type regtype NOT NULL,
	time_column name,
	fire_triggers boolean NOT NULL,
	started timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	updated timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	-- recorded at the start: the backfill keeps application triggers from
	-- firing (session_replication_role = replica), whoever runs it
	replica boolean NOT NULL DEFAULT false
);

-- One row per relation the move changes (a partitioned table's leaves
-- one by one), with the backfill's progress and the last verification
CREATE TABLE @extschema@.xid_move_parts (
	tbl regclass NOT NULL REFERENCES @extschema@.xid_move_moves ON DELETE CASCADE,
	role text NOT NULL CHECK (role IN ('parent', 'child')),
	relation regclass NOT NULL,
	leaf regclass NOT NULL,
	constraint_name name NOT NULL,
	column_name name NOT NULL,
	new_column name NOT NULL,
	old_column name NOT NULL,
	not_null boolean NOT NULL,
	tag text NOT NULL,
	blocks bigint NOT NULL DEFAULT 0,
	blocks_done bigint NOT NULL DEFAULT 0,
	rows_done bigint NOT NULL DEFAULT 0,
	rows_estimated bigint NOT NULL DEFAULT 0,
	pass integer NOT NULL DEFAULT 0,
	pass_started timestamptz,
	verified_rows bigint,
	verified_refs bigint,
	mismatches bigint,
	checksum bigint,
	verified timestamptz,
	updated timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	busy interval NOT NULL DEFAULT '0',
	PRIMARY KEY (tbl, role, leaf, constraint_name)
);

COMMENT ON TABLE @extschema@.xid_move_moves IS
'the moves of a table''s key to xid under way; written only through xid_move''s procedures, by the tables'' owners';
COMMENT ON TABLE @extschema@.xid_move_parts IS
'the relations each move under way changes, with its progress and its last verification';

-- New in 1.3 (move/Makefile puts what follows into the update from 1.2).
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
	rels pg_catalog.regclass[] := ARRAY[NEW.tbl];
	rel pg_catalog.regclass;
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

-- End of what is new in 1.3.

-- A dump keeps the moves of the tables the dumping role owns (regclass is
-- written as the table's name and read back as the restored table's).
-- The regclass, regtype columns keep pg_upgrade possible (their OIDs are
-- preserved by it).
SELECT pg_catalog.pg_extension_config_dump('@extschema@.xid_move_moves',
	'WHERE pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) tbl::pg_catalog.oid), ''USAGE'')');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.xid_move_parts',
	'WHERE pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) tbl::pg_catalog.oid), ''USAGE'')');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.xid_move_decisions',
	'WHERE pg_catalog.pg_has_role((SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) tbl::pg_catalog.oid), ''USAGE'')');
