/* move/xid_move--1.1--1.2.sql: xid_move 1.1 to 1.2 (history: released
 * as 1.2 was, never edited) */

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

-- The upgrade from 1.1 replays everything from here on.
------------------------------------------------------------------------------
-- Helpers
------------------------------------------------------------------------------

-- The settings every transaction of a move runs with, for the rest of the
-- transaction.  Called first by every procedure and right after each
-- COMMIT, before any other expression: a call of a qualified function
-- with no argument is resolved the same under any search_path.
CREATE FUNCTION @extschema@.xid_move_settings()
RETURNS void
LANGUAGE sql VOLATILE
AS $$
	SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	SELECT pg_catalog.set_config('row_security', 'off', true);
$$;

COMMENT ON FUNCTION @extschema@.xid_move_settings() IS
'search_path pg_catalog, pg_temp and row_security off for the rest of the transaction';

-- The schema of xid, quoted
CREATE FUNCTION @extschema@.xid_move_xs()
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e
	JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'xid'
$$;

COMMENT ON FUNCTION @extschema@.xid_move_xs() IS
'the schema of the xid extension, quoted';

-- The schema of an extension (xid, xid_move), as a name: a trigger's
-- argument (xid's functions; the state of the move its lookups read)
CREATE FUNCTION @extschema@.xid_move_schema_of(ext name)
RETURNS name
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT n.nspname FROM pg_catalog.pg_extension e
	JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = ext
$$;

COMMENT ON FUNCTION @extschema@.xid_move_schema_of(name) IS
'the schema of an extension, unquoted';

-- The id of an existing row "r": its millisecond and 22 bits of its key,
-- or a UUIDv7 key's own time (xid_from_key(), xid_from_uuidv7()).  Rows
-- written during the move get xid_new() instead: a row's id is set once and
-- never recomputed, so a time column may change during the move.
CREATE FUNCTION @extschema@.xid_move_id_expr(r text, key_col name, key_type regtype, time_col name)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT CASE
		WHEN time_col IS NULL THEN
			format('%s.xid_from_uuidv7(%s.%I)', @extschema@.xid_move_xs(), r, key_col)
		WHEN key_type = 'uuid'::regtype THEN
			format('%s.xid_from_key(%s.%I, %s.%I)', @extschema@.xid_move_xs(), r, time_col, r, key_col)
		ELSE
			format('%s.xid_from_key(%s.%I, %s.%I::pg_catalog.int8)', @extschema@.xid_move_xs(), r, time_col, r, key_col)
	END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_id_expr(text, name, regtype, name) IS
'the expression that makes the id of an existing row of a table being moved to xid';

-- Run one statement as the owner of rel, in a security-restricted
-- operation with search_path pg_catalog, pg_temp and row_security off;
-- the caller must have the owner's privileges.  Returns the rows it
-- processed.  (src/xid_move_run.c)
CREATE FUNCTION @extschema@.xid_move_run(rel regclass, statement text)
RETURNS bigint
AS 'MODULE_PATHNAME', 'xid_move_run'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION @extschema@.xid_move_run(regclass, text) IS
'run a statement of a move as the owner of a table, in a security-restricted operation';

-- The function of every trigger a move puts on its tables: key, ref, fix
-- and back, told apart by its first argument (src/xid_move_trigger.c)
CREATE FUNCTION @extschema@.xid_move_trigger()
RETURNS trigger
AS 'MODULE_PATHNAME', 'xid_move_trigger'
LANGUAGE C;

COMMENT ON FUNCTION @extschema@.xid_move_trigger() IS
'the triggers that keep the new columns of a move in step; works only as a trigger a move made';

-- Run statements in one subtransaction under lock_timeout, retrying them
-- all when a lock is not granted in time (or a writer deadlocks with
-- them): a failed attempt releases every lock it took, so no writer waits
-- on the move longer than the timeout plus the statements' own time.  The
-- short DDL of every step goes through here, each statement run as the
-- owner of tbl (xid_move_run()).  Returns the attempts made.
CREATE FUNCTION @extschema@.xid_move_exec(tbl regclass, stmts text[], timeout interval, retries integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	attempt integer := 0;
	stmt text;
BEGIN
	IF timeout IS NULL OR timeout < '0'::interval OR retries IS NULL OR retries < 0 THEN
		RAISE EXCEPTION 'lock_timeout must not be negative and retries must be at least 0'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM set_config('lock_timeout', (extract(epoch FROM timeout) * 1000)::bigint::text || 'ms', true);
	LOOP
		attempt := attempt + 1;
		BEGIN
			FOREACH stmt IN ARRAY stmts LOOP
				PERFORM @extschema@.xid_move_run(tbl, stmt);
			END LOOP;
			RETURN attempt;
		EXCEPTION WHEN lock_not_available OR deadlock_detected THEN
			IF attempt > retries THEN
				RAISE EXCEPTION 'could not lock the tables of the move after % attempts', attempt
					USING ERRCODE = 'lock_not_available',
					      DETAIL = format('Each attempt waited at most %s for a lock of: %s', timeout, left(stmt, 200)),
					      HINT = 'Call the step again when the tables are less busy, or with a longer lock_timeout.';
			END IF;
			RAISE NOTICE 'lock not granted within % (attempt %), retrying', timeout, attempt;
			PERFORM pg_sleep(least(0.05 * attempt, 1));
		END;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_exec(regclass, text[], interval, integer) IS
'run statements of a move as the owner of its tables in one subtransaction under lock_timeout, all retried when a lock is not granted';

-- The move of tbl under way, checked against the catalog: the caller has
-- the privileges of the owner of every relation it names, and each still
-- has the columns it names.  An error when there is none.
CREATE FUNCTION @extschema@.xid_move_get(tbl regclass)
RETURNS @extschema@.xid_move_moves
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	p record;
BEGIN
	IF tbl IS NOT NULL AND @extschema@.xid_move_owns(tbl) IS NOT true THEN
		RAISE EXCEPTION 'must be owner of table %', tbl USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT * INTO m FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no move of table % is under way', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = format('Start one with CALL %s.xid_move_start(%L, ...).', '@extschema@', tbl::text);
	END IF;
	FOR p IN SELECT * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 LOOP
		IF @extschema@.xid_move_owns(p.relation) IS NOT true OR @extschema@.xid_move_owns(p.leaf) IS NOT true THEN
			RAISE EXCEPTION 'must be owner of table %, which the move of table % changes', p.leaf, tbl
				USING ERRCODE = 'insufficient_privilege';
		END IF;
		-- one owner for every relation: a row another role wrote into the
		-- state (it may write rows of its own tables only) is never acted on
		IF (SELECT count(DISTINCT c.relowner) FROM pg_class c WHERE c.oid IN (tbl, p.relation, p.leaf)) <> 1
		   OR (p.leaf <> p.relation AND NOT EXISTS (SELECT FROM pg_partition_tree(p.relation) t WHERE t.relid = p.leaf)) THEN
			RAISE EXCEPTION 'the state of the move of table % names table %, which is not one of its tables', tbl, p.leaf
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = 'Every table of a move has the owner of the table whose key moves, and a partition belongs to its table.',
				      HINT = 'A move started before xid_move 1.2 may span tables of several owners: give them one owner (ALTER TABLE ... OWNER TO ...), then call the step again.';
		END IF;
		IF NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.relation AND NOT a.attisdropped
		                 AND a.attname IN (p.column_name, p.old_column)) THEN
			RAISE EXCEPTION 'table % has no column % any more', p.relation, quote_ident(p.column_name)
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = 'The state of the move does not match the table.',
				      HINT = format('CALL %s.xid_move_abort(%L) undoes the move.', '@extschema@', tbl::text);
		END IF;
	END LOOP;
	RETURN m;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_get(regclass) IS
'the move of a table under way, checked against the catalog; an error if there is none or the caller does not own its tables';

-- Set a move's step
CREATE FUNCTION @extschema@.xid_move_set_step(tbl regclass, step text)
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
	UPDATE @extschema@.xid_move_moves m SET step = $2, updated = clock_timestamp() WHERE m.tbl = $1
$$;

COMMENT ON FUNCTION @extschema@.xid_move_set_step(regclass, text) IS
'set the step of a move under way';

-- The relations of a move, one row per (relation, constraint), parent first
CREATE FUNCTION @extschema@.xid_move_rels(tbl regclass)
RETURNS SETOF @extschema@.xid_move_parts
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT DISTINCT ON (p.role, p.relation::text, p.constraint_name) p.*
	FROM @extschema@.xid_move_parts p WHERE p.tbl = $1
	ORDER BY p.role DESC, p.relation::text, p.constraint_name, p.leaf::text
$$;

COMMENT ON FUNCTION @extschema@.xid_move_rels(regclass) IS
'the relations a move changes, one row per relation and constraint, the table itself first';

-- "LOCK TABLE ... IN mode MODE" for the tables of a move: the table first,
-- then those that reference it, in the order writers lock them
CREATE FUNCTION @extschema@.xid_move_lock(tbl regclass, mode text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('LOCK TABLE %s IN %s MODE', string_agg(x, ', ' ORDER BY o, x), mode)
	FROM (SELECT DISTINCT p.relation::text AS x, p.relation <> $1 AS o
	      FROM @extschema@.xid_move_parts p WHERE p.tbl = $1) l
$$;

COMMENT ON FUNCTION @extschema@.xid_move_lock(regclass, text) IS
'the LOCK TABLE statement for the tables of a move, the moved table first';

-- The name of an object the move makes for one of its relations: a prefix
-- of the relation's name and a hash of the move's table and constraint, so
-- that the name survives a dump and restore and two moves never share one
CREATE FUNCTION @extschema@.xid_move_name(rel regclass, tag text, suffix text)
RETURNS name
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT (left(c.relname, 40) || '_xm' || tag || suffix)::name FROM pg_class c WHERE c.oid = rel
$$;

COMMENT ON FUNCTION @extschema@.xid_move_name(regclass, text, text) IS
'the name of a function or index a move makes for a relation';

-- A function a move of xid_move 1.1 or 1.0 made on rel, quoted with rel's
-- schema (a move started before 1.2 may still have them)
CREATE FUNCTION @extschema@.xid_move_fn(rel regclass, tag text, suffix text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('%I.%I', n.nspname, @extschema@.xid_move_name(rel, tag, suffix))
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = rel
$$;

COMMENT ON FUNCTION @extschema@.xid_move_fn(regclass, text, text) IS
'the quoted name of a trigger function a move makes for a relation';

-- DROP FUNCTION IF EXISTS for a function of the move on rel, only if the
-- owner of rel owns it (a function of that name made by another role is
-- left alone)
CREATE FUNCTION @extschema@.xid_move_drop_fn(rel regclass, tag text, suffix text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT CASE WHEN EXISTS (
		SELECT FROM pg_proc f JOIN pg_class c ON c.relnamespace = f.pronamespace
		WHERE c.oid = rel AND f.proname = @extschema@.xid_move_name(rel, tag, suffix)
		  AND f.pronargs = 0 AND f.proowner = c.relowner)
	THEN format('DROP FUNCTION %s()', @extschema@.xid_move_fn(rel, tag, suffix))
	ELSE 'SELECT' END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_drop_fn(regclass, text, text) IS
'the statement that drops a trigger function of a move, if the owner of the table owns it';

------------------------------------------------------------------------------
-- The plan
------------------------------------------------------------------------------

-- May the current role keep application triggers from firing, by setting
-- session_replication_role (a superuser, or a role granted SET on it)?
-- The plan decides with it, and the backfill acts on the same answer.
CREATE FUNCTION @extschema@.xid_move_can_replica()
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user)
	       OR has_parameter_privilege('session_replication_role', 'SET')
$$;

COMMENT ON FUNCTION @extschema@.xid_move_can_replica() IS
'whether the current role may set session_replication_role, so that a backfill fires no application trigger';

-- The relations a move of tbl changes: the table itself, then each foreign
-- key that references its primary key (a partitioned table's leaves one
-- by one).  No check: xid_move_plan() makes them.
CREATE TYPE @extschema@.xid_move_part AS (role text, relation regclass, leaf regclass, constraint_name name,
	column_name name, attnum smallint, new_column name, old_column name, not_null boolean, tag text);

COMMENT ON TYPE @extschema@.xid_move_part IS
'a relation a move of a table''s key to xid would change, as the plan sees it';

CREATE FUNCTION @extschema@.xid_move_parts_of(tbl regclass)
RETURNS SETOF @extschema@.xid_move_part
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT 'parent', c.oid::regclass, c.oid::regclass, con.conname, a.attname, a.attnum,
	       (left(a.attname, 59) || '_xid')::name, (left(a.attname, 59) || '_old')::name, true,
	       '_' || left(md5(c.relname || '/' || con.conname), 6)
	FROM pg_class c
	JOIN pg_constraint con ON con.conrelid = c.oid AND con.contype = 'p'
	JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = con.conkey[1]
	WHERE c.oid = tbl
	UNION ALL
	SELECT * FROM (
		SELECT 'child', con.conrelid::regclass, coalesce(t.relid, con.conrelid)::regclass, con.conname, a.attname, a.attnum,
		       (left(a.attname, 59) || '_xid')::name, (left(a.attname, 59) || '_old')::name, a.attnotnull,
		       '_' || left(md5(pc.relname || '/' || con.conname), 6)
		FROM pg_constraint con
		JOIN pg_class pc ON pc.oid = con.confrelid
		JOIN pg_class cc ON cc.oid = con.conrelid
		JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
		LEFT JOIN LATERAL (SELECT x.relid FROM pg_partition_tree(con.conrelid) x
		                   WHERE cc.relkind = 'p' AND x.isleaf) t ON true
		WHERE con.contype = 'f' AND con.confrelid = tbl AND con.conparentid = 0
		ORDER BY con.conrelid::regclass::text, con.conname, t.relid::regclass::text) ch
$$;

COMMENT ON FUNCTION @extschema@.xid_move_parts_of(regclass) IS
'the relations a move of a table''s key to xid would change, unchecked';

-- The plan is read from the catalogs and denies by default: every catalog
-- that can attach code, meaning or a privilege to the tables and columns a
-- move touches is read, at every partition level, and each object found
-- is handled (changed, moved, carried over, suppressed, kept) or refused
-- by name, before anything changes.  One function per catalog family, all
-- returning rows of the plan:
--   object_type, object  what it is
--   action   change   the move adds a column and triggers to it and swaps
--                     the key
--            move     an index, a unique constraint or the replica identity
--                     over the key or a reference: the same is built on the
--                     new column and takes its place
--            carry    a privilege, default or comment of the column: the
--                     swap gives it to the new column
--            keep     stays as it is (named so that nothing is a surprise)
--            fire     an application trigger the backfill fires
--                     (fire_triggers)
--            suppress an application trigger the backfill keeps from firing
--            refuse   the move cannot go on; sqlstate, detail and hint say
--                     why and what to do
--   detail, sqlstate, hint

-- The relation of a part and every partition below it, at every level
CREATE FUNCTION @extschema@.xid_move_tree(rel regclass)
RETURNS SETOF regclass
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT rel UNION SELECT t.relid::regclass FROM pg_partition_tree(rel) t
$$;

COMMENT ON FUNCTION @extschema@.xid_move_tree(regclass) IS
'a relation and its partitions at every level';

-- The table itself: kind, owner, key, time column, existing ids; one
-- refusal and nothing else when it cannot be moved at all
CREATE FUNCTION @extschema@.xid_move_plan_table(tbl regclass, time_column name)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	rel record;
	pk record;
	keytype regtype;
	n bigint;
	bad text;
	other regclass;
BEGIN
	SELECT c.relkind, c.relispartition INTO rel FROM pg_class c WHERE c.oid = tbl;
	object_type := 'table'; object := tbl::text; action := 'refuse'; hint := NULL;
	IF rel.relkind <> 'r' OR rel.relispartition THEN
		sqlstate := '0A000';
		detail := 'Only a plain table''s key can be moved; a partitioned table''s key includes its partition key.';
		RETURN NEXT; RETURN;
	END IF;
	IF @extschema@.xid_move_owns(tbl) IS NOT true THEN
		sqlstate := '42501'; detail := format('must be owner of table %s', tbl);
		RETURN NEXT; RETURN;
	END IF;
	-- another move under way on this table or on any table this move
	-- would change, or changing any of them
	SELECT x.tbl INTO other FROM @extschema@.xid_move_parts x
	 WHERE x.relation IN (SELECT y.relation FROM @extschema@.xid_move_parts_of($1) y)
	    OR x.leaf IN (SELECT y.leaf FROM @extschema@.xid_move_parts_of($1) y)
	    OR x.tbl = $1
	 LIMIT 1;
	IF FOUND THEN
		sqlstate := '55006';
		detail := format('A move of table %s is under way, and it changes a table this move would change.', other);
		hint := format('Finish or abort it first: SELECT * FROM %s.xid_move_status(%L) says where it is.', '@extschema@', other::text);
		RETURN NEXT; RETURN;
	END IF;
	SELECT con.conname, con.conkey, con.condeferrable INTO pk FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p';
	IF NOT FOUND THEN
		sqlstate := '55000';
		detail := 'The table has no primary key: the move replaces a primary key of one column with an xid.';
		RETURN NEXT; RETURN;
	END IF;
	IF cardinality(pk.conkey) <> 1 THEN
		sqlstate := '0A000';
		detail := format('The primary key has %s columns: the move replaces a primary key of one column with an xid.', cardinality(pk.conkey));
		RETURN NEXT; RETURN;
	END IF;
	SELECT a.atttypid::regtype INTO keytype FROM pg_attribute a WHERE a.attrelid = tbl AND a.attnum = pk.conkey[1];
	IF keytype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'uuid'::regtype) THEN
		sqlstate := '0A000';
		detail := format('The primary key is of type %s; the move takes smallint, integer, bigint or uuid.', keytype);
		-- a domain over one of those: its constraints could not hold on
		-- the xid that replaces it, so the way is through its base type
		hint := (SELECT format('Change the key and the columns that reference it to %1$s, the domain''s base type, first (ALTER TABLE ... ALTER COLUMN ... TYPE %1$s).', t.typbasetype::regtype)
		         FROM pg_type t WHERE t.oid = keytype AND t.typtype = 'd'
		           AND t.typbasetype IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'uuid'::regtype));
		RETURN NEXT; RETURN;
	END IF;
	IF pk.condeferrable THEN
		sqlstate := '0A000'; detail := 'The primary key is deferrable.'; RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NULL AND keytype <> 'uuid'::regtype THEN
		sqlstate := '22023';
		detail := format('A move of a %s key needs the column that holds each row''s time.', keytype);
		hint := 'Pass time_column => ''created_at'' (a timestamptz column), or the like.';
		RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NOT NULL AND NOT EXISTS (
		SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = time_column
		   AND NOT a.attisdropped AND a.attnum > 0 AND a.atttypid = 'timestamptz'::regtype) THEN
		sqlstate := '42703';
		detail := format('The table has no column %s of type timestamp with time zone.', quote_ident(time_column));
		RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NOT NULL THEN
		EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NULL', tbl, time_column) INTO n;
		IF n > 0 THEN
			sqlstate := '23502';
			detail := format('%s rows have no time in column %I: an existing row''s id is made from its time.', n, time_column);
			hint := 'Give them a time before the move.';
			RETURN NEXT; RETURN;
		END IF;
	ELSE
		-- each key's own time: every existing key must be a UUIDv7 (rows
		-- written during the move get xid_new())
		EXECUTE format('SELECT k::text FROM %s AS t(k) WHERE substr(k::text, 15, 1) <> ''7''
		                  OR substr(k::text, 20, 1) NOT IN (''8'', ''9'', ''a'', ''b'') LIMIT 1',
		               format('(SELECT %I FROM %s)', (SELECT attname FROM pg_attribute WHERE attrelid = tbl AND attnum = pk.conkey[1]), tbl))
			INTO bad;
		IF bad IS NOT NULL THEN
			sqlstate := '22023';
			detail := format('The table has keys that are not version 7 uuids, such as %s.', bad);
			hint := 'Pass time_column => the column that holds each row''s time.';
			RETURN NEXT; RETURN;
		END IF;
	END IF;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_table(regclass, name) IS
'the plan of a move: the table itself (kind, owner, key, time column, other moves)';

-- A relation of the move: its column, its foreign key, its owner, its
-- kind and partitions
CREATE FUNCTION @extschema@.xid_move_plan_relation(tbl regclass, p @extschema@.xid_move_part, keytype regtype, time_column name)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
	pkkey int2[] := (SELECT con.conkey FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p');
BEGIN
	object_type := 'column'; object := format('%s.%I', p.relation, p.column_name);
	sqlstate := NULL; hint := NULL; action := 'change';
	IF p.role = 'parent' THEN
		detail := format('The key: an xid column %I, filled with %s for existing rows and xid_new() for new ones, becomes the primary key %I; the old key stays as %I, unique.',
			p.new_column, @extschema@.xid_move_id_expr('row', p.column_name, keytype, time_column), p.constraint_name, p.old_column);
	ELSE
		detail := format('References the key through foreign key %I: an xid column %I follows it, then takes its name; the old values stay as %I.',
			p.constraint_name, p.new_column, p.old_column);
		-- a domain over the key's type: the new column is a plain xid,
		-- and the domain's constraints stay with the old values
		detail := detail || coalesce((SELECT format(' Its type, the domain %s, is not carried over: the new column is a plain xid.', a.atttypid::regtype)
		                              FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
		                              WHERE a.attrelid = p.relation AND a.attname = p.column_name AND t.typtype = 'd'), '');
	END IF;
	RETURN NEXT;
	sqlstate := NULL; hint := NULL;
	IF p.role = 'child' THEN
		SELECT con.conkey, con.confkey, con.convalidated, c.relkind
		  INTO d FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
		 WHERE con.conrelid = p.relation AND con.conname = p.constraint_name AND con.contype = 'f';
		object_type := 'foreign key'; object := format('%I on %s', p.constraint_name, p.relation);
		action := 'refuse';
		IF cardinality(d.conkey) <> 1 THEN
			sqlstate := '0A000';
			detail := format('It has %s columns; the move takes foreign keys of one column.', cardinality(d.conkey));
			RETURN NEXT;
		ELSIF d.confkey <> pkkey THEN
			sqlstate := '0A000';
			detail := 'It references another unique constraint of the table, not its primary key.';
			RETURN NEXT;
		ELSIF NOT d.convalidated THEN
			sqlstate := '55000';
			detail := 'It is NOT VALID: rows may reference keys that do not exist.';
			hint := format('Validate it first: ALTER TABLE %s VALIDATE CONSTRAINT %I.', p.relation, p.constraint_name);
			RETURN NEXT;
		ELSIF d.relkind NOT IN ('r', 'p') THEN
			sqlstate := '0A000';
			detail := 'The referencing relation is not a table.';
			RETURN NEXT;
		END IF;
		hint := NULL;
		-- the column in another foreign key, in a primary key
		FOR d IN SELECT con.conname, con.contype FROM pg_constraint con
		          WHERE con.conrelid = p.relation AND con.conname <> p.constraint_name AND p.attnum = ANY (con.conkey)
		            AND con.contype IN ('f', 'p') AND con.conparentid = 0 LOOP
			object_type := 'constraint'; object := format('%I on %s', d.conname, p.relation);
			action := 'refuse'; sqlstate := '0A000';
			detail := format('Column %I is also in this %s; the move changes a column that only references the key.',
				p.column_name, CASE d.contype WHEN 'p' THEN 'primary key' ELSE 'foreign key' END);
			RETURN NEXT;
		END LOOP;
		IF p.relation = tbl THEN
			object_type := 'foreign key'; object := format('%I on %s', p.constraint_name, p.relation);
			action := 'keep'; sqlstate := NULL;
			detail := 'The table references itself: the references move with the key.';
			RETURN NEXT;
		END IF;
	END IF;
	-- one owner: every statement runs as the owner of the table whose key
	-- moves, so a table of another owner would run that owner's code (a
	-- CHECK, a trigger) with the first owner's privileges
	FOR d IN SELECT r AS rel, pg_get_userbyid(c.relowner) AS own FROM @extschema@.xid_move_tree(p.relation) r
	          JOIN pg_class c ON c.oid = r WHERE c.relowner <> (SELECT c2.relowner FROM pg_class c2 WHERE c2.oid = tbl)
	          ORDER BY r::text LOOP
		object_type := 'table'; object := d.rel::text; action := 'refuse'; sqlstate := '42501';
		detail := format('It belongs to role %s, not to %s, the owner of table %s: a move runs every statement as the owner of the table whose key moves, and would run the code of one role with the privileges of the other.',
			quote_ident(d.own), quote_ident(pg_get_userbyid((SELECT c.relowner FROM pg_class c WHERE c.oid = tbl))), tbl);
		hint := format('Give the tables one owner for the move (ALTER TABLE %s OWNER TO %s), or drop the foreign key and add it again after the move.',
			d.rel, quote_ident(pg_get_userbyid((SELECT c.relowner FROM pg_class c WHERE c.oid = tbl))));
		RETURN NEXT;
	END LOOP;
	hint := NULL;
	-- the new and old column names
	IF EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.relation
	             AND a.attname IN (p.new_column, p.old_column) AND NOT a.attisdropped) THEN
		object_type := 'column'; object := format('%s.%I', p.relation, p.column_name);
		action := 'refuse'; sqlstate := '42701';
		detail := format('Table %s already has a column %I or %I.', p.relation, p.new_column, p.old_column);
		RETURN NEXT;
	END IF;
	-- forced row security: the owner would not see every row
	IF EXISTS (SELECT FROM @extschema@.xid_move_tree(p.relation) r JOIN pg_class c ON c.oid = r WHERE c.relforcerowsecurity) THEN
		object_type := 'table'; object := p.relation::text;
		action := 'refuse'; sqlstate := '55000';
		detail := 'It has FORCE ROW LEVEL SECURITY: its policies would hide rows from the move, which must see every row.';
		hint := format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY for the move, and FORCE again after it.', p.relation);
		RETURN NEXT;
	END IF;
	hint := NULL;
	-- inheritance (not partitions)
	IF EXISTS (SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
	           WHERE (i.inhparent = p.relation OR i.inhrelid = p.relation) AND NOT c.relispartition) THEN
		object_type := 'table'; object := p.relation::text;
		action := 'refuse'; sqlstate := '0A000';
		detail := 'It has inheritance parents or children; the move takes plain and partitioned tables.';
		RETURN NEXT;
	END IF;
	-- partitions: each a table (a foreign table cannot take the column
	-- and its triggers)
	FOR d IN SELECT r AS rel, c.relkind FROM @extschema@.xid_move_tree(p.relation) r JOIN pg_class c ON c.oid = r
	          WHERE c.relkind NOT IN ('r', 'p') ORDER BY r::text LOOP
		object_type := 'partition'; object := d.rel::text; action := 'refuse'; sqlstate := '0A000';
		detail := format('A partition of %s that is not a table (relkind %s): the move adds a column and triggers to every partition.', p.relation, d.relkind);
		hint := 'Detach it for the move and attach it again after it.';
		RETURN NEXT;
	END LOOP;
	hint := NULL;
	IF (SELECT c.relkind FROM pg_class c WHERE c.oid = p.relation) = 'p' THEN
		object_type := 'partitions'; object := p.relation::text; action := 'change'; sqlstate := NULL;
		detail := format('%s partitions%s, each backfilled on its own.',
			(SELECT count(*) FROM pg_partition_tree(p.relation) t WHERE t.isleaf),
			(SELECT CASE WHEN max(t.level) > 1 THEN format(' on %s levels (each index the move builds goes on every level)', max(t.level)) ELSE '' END
			 FROM pg_partition_tree(p.relation) t));
		RETURN NEXT;
	END IF;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_relation(regclass, @extschema@.xid_move_part, regtype, name) IS
'the plan of a move: one of its relations, its column, foreign key, owner, kind and partitions';

-- Every object that depends on the column (pg_depend), on the relation and
-- on each of its partitions: what is not one of the kinds below is refused
CREATE FUNCTION @extschema@.xid_move_plan_dependents(tbl regclass, p @extschema@.xid_move_part)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
	o record;
BEGIN
	FOR d IN
		SELECT DISTINCT dep.classid, dep.objid, dep.objsubid, dep.refobjid,
		       pg_describe_object(dep.classid, dep.objid, dep.objsubid) AS descr
		FROM pg_depend dep
		JOIN pg_attribute a ON a.attrelid = dep.refobjid AND a.attnum = dep.refobjsubid
		WHERE dep.refclassid = 'pg_class'::regclass AND a.attname = p.column_name
		  AND dep.refobjid IN (SELECT @extschema@.xid_move_tree(p.relation))
		  AND dep.deptype IN ('n', 'a')
		ORDER BY 5
	LOOP
		object_type := NULL; sqlstate := NULL; hint := NULL; object := d.descr;
		IF d.classid = 'pg_rewrite'::regclass THEN
			SELECT r.ev_class::regclass AS v, r.rulename, c.relkind INTO o
			  FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class WHERE r.oid = d.objid;
			-- a rule on one of the tables is refused with the rules below
			CONTINUE WHEN o.v IN (SELECT @extschema@.xid_move_tree(p.relation));
			object_type := CASE WHEN o.rulename = '_RETURN' THEN CASE o.relkind WHEN 'm' THEN 'materialized view' ELSE 'view' END ELSE 'rule' END;
			object := CASE WHEN o.rulename = '_RETURN' THEN o.v::text ELSE format('%I on %s', o.rulename, o.v) END;
			action := 'refuse'; sqlstate := '0A000';
			detail := format('It uses column %I, whose type and name the swap change.', p.column_name);
			hint := format('Drop %s before the move and create it again after the swap, or define it without column %I.', object, p.column_name);
		ELSIF d.classid = 'pg_policy'::regclass THEN
			object_type := 'policy'; action := 'refuse'; sqlstate := '0A000';
			detail := format('It uses column %I.', p.column_name);
			hint := 'Drop the policy for the move and create it again after the swap.';
		ELSIF d.classid = 'pg_trigger'::regclass THEN
			CONTINUE WHEN (SELECT t.tgisinternal FROM pg_trigger t WHERE t.oid = d.objid);
			CONTINUE WHEN (SELECT t.tgfoid = '@extschema@.xid_move_trigger()'::regprocedure FROM pg_trigger t WHERE t.oid = d.objid);
			object_type := 'trigger'; action := 'refuse'; sqlstate := '0A000';
			detail := format('Its WHEN condition or UPDATE OF list names column %I, which the swap renames.', p.column_name);
			hint := 'Drop the trigger for the move and create it again after the swap.';
		ELSIF d.classid = 'pg_constraint'::regclass THEN
			SELECT con.contype, con.conname, con.conkey, con.conindid, con.conrelid, con.confrelid, con.conparentid
			  INTO o FROM pg_constraint con WHERE con.oid = d.objid;
			-- the key and the foreign keys are the move's own; a NOT NULL
			-- constraint (catalogued from PostgreSQL 18) stays with its
			-- column, and the swap makes the new one NOT NULL as well
			CONTINUE WHEN o.contype = 'n';
			CONTINUE WHEN o.contype = 'p' AND o.conrelid = tbl;
			CONTINUE WHEN o.contype = 'f' AND o.confrelid = tbl;
			CONTINUE WHEN o.conparentid <> 0;
			object_type := 'constraint';
			IF o.contype = 'u' AND (SELECT c.relkind FROM pg_class c WHERE c.oid = o.conrelid) = 'p' THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('A unique constraint over column %I of a partitioned table: PostgreSQL cannot make one from an index built beforehand.', p.column_name);
				hint := 'Drop it for the move and add it again after the swap.';
			ELSIF o.contype = 'u' THEN
				action := 'move';
				detail := format('A unique constraint over column %I: the same is built on %I (xid_move_index_commands) and takes its name at the swap.',
					p.column_name, p.new_column);
			ELSIF o.contype = 'f' THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('Column %I also references another table.', p.column_name);
			ELSE
				action := 'refuse'; sqlstate := '0A000';
				detail := format('A %s constraint on column %I, which the swap renames and changes to xid.',
					CASE o.contype WHEN 'c' THEN 'check' WHEN 'u' THEN 'unique' WHEN 'x' THEN 'exclusion' WHEN 'p' THEN 'primary key'
					               WHEN 't' THEN 'constraint trigger' ELSE 'other' END, p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
			END IF;
		ELSIF d.classid = 'pg_class'::regclass THEN
			SELECT c.relkind, i.indisunique, i.indexprs IS NOT NULL OR i.indpred IS NOT NULL AS complex,
			       c.relam, i.indkey, i.indclass, i.indrelid, i.indnkeyatts
			  INTO o FROM pg_class c LEFT JOIN pg_index i ON i.indexrelid = c.oid WHERE c.oid = d.objid;
			IF o.relkind = 'S' THEN
				object_type := 'sequence'; object := d.objid::regclass::text; action := 'keep';
				detail := format('Owned by column %I: it stays with the old column %I (and goes with it if the finish drops it).', p.column_name, p.old_column);
				RETURN NEXT;
				CONTINUE;
			ELSIF o.relkind NOT IN ('i', 'I') THEN
				object_type := 'relation'; action := 'refuse'; sqlstate := '0A000';
				detail := format('It depends on column %I.', p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
				RETURN NEXT;
				CONTINUE;
			END IF;
			-- the primary key's, the foreign key's partitions' and the
			-- constraints' indexes are counted with their constraint; an
			-- index of a partition, with the index it is attached to
			CONTINUE WHEN EXISTS (SELECT FROM pg_constraint con WHERE con.conindid = d.objid AND con.conrelid = o.indrelid);
			CONTINUE WHEN EXISTS (SELECT FROM pg_inherits i WHERE i.inhrelid = d.objid);
			object_type := 'index'; object := d.objid::regclass::text;
			-- the methods xid has operator classes for; the new column
			-- takes xid's default one, so a BRIN index on the column
			-- must use its type's default (minmax) too
			IF (SELECT am.amname FROM pg_am am WHERE am.oid = o.relam) NOT IN ('btree', 'hash', 'brin') THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('It uses column %I and is not a btree, hash or BRIN index.', p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
			ELSIF EXISTS (SELECT FROM unnest(o.indkey::int2[]) WITH ORDINALITY k(att, i)
			              JOIN pg_opclass oc ON oc.oid = (o.indclass::oid[])[k.i - 1]
			              WHERE k.att = p.attnum AND k.i <= o.indnkeyatts AND NOT oc.opcdefault) THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('It indexes column %I with an operator class that is not its type''s default.', p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
			ELSIF o.complex OR NOT (p.attnum = ANY (o.indkey::int2[])) THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('Its expressions or its predicate use column %I.', p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
			ELSIF EXISTS (SELECT FROM unnest(o.indkey::int2[]) WITH ORDINALITY k(att, i)
			              WHERE k.att = p.attnum AND k.i > o.indnkeyatts) THEN
				action := 'move';
				detail := format('It includes column %I: the same is built on %I and takes its place.', p.column_name, p.new_column);
			ELSE
				action := 'move';
				detail := format('An index over column %I: the same is built on %I (xid_move_index_commands) and takes its place.', p.column_name, p.new_column);
			END IF;
		ELSIF d.classid = 'pg_statistic_ext'::regclass THEN
			object_type := 'statistics'; action := 'refuse'; sqlstate := '0A000';
			detail := format('Extended statistics on column %I.', p.column_name);
			hint := 'Drop them for the move and create them again after the swap.';
		ELSIF d.classid = 'pg_publication_rel'::regclass THEN
			object_type := 'publication'; action := 'refuse'; sqlstate := '0A000';
			detail := format('It publishes a column list or a row filter that names column %I.', p.column_name);
			hint := 'Take the table out of the publication for the move.';
		ELSIF d.classid = 'pg_attrdef'::regclass THEN
			-- the column's own default: see xid_move_plan_column()
			CONTINUE WHEN (SELECT a.adnum FROM pg_attrdef a WHERE a.oid = d.objid) = p.attnum;
			object_type := 'generated column'; action := 'refuse'; sqlstate := '0A000';
			detail := format('A generated column is computed from column %I.', p.column_name);
			hint := 'Drop it for the move and add it again after the swap.';
		ELSIF d.classid = 'pg_type'::regclass THEN
			CONTINUE;
		ELSE
			-- default deny: a kind of object this plan does not know
			object_type := 'object'; action := 'refuse'; sqlstate := '0A000';
			detail := format('It depends on column %I, and the move does not know how to carry it over.', p.column_name);
			hint := 'Drop it for the move and create it again after the swap.';
		END IF;
		RETURN NEXT;
	END LOOP;

	-- views over the table that do not use the column are kept
	FOR d IN SELECT s.v FROM (SELECT DISTINCT r.ev_class::regclass AS v FROM pg_depend dep JOIN pg_rewrite r ON r.oid = dep.objid
	          WHERE dep.classid = 'pg_rewrite'::regclass AND dep.refobjid = p.relation AND r.ev_class <> p.relation
	            AND r.rulename = '_RETURN'
	            AND NOT EXISTS (SELECT FROM pg_depend x WHERE x.classid = 'pg_rewrite'::regclass AND x.objid = dep.objid
	                            AND x.refobjid = p.relation AND x.refobjsubid = p.attnum)) s
	          ORDER BY s.v::text LOOP
		object_type := 'view'; object := d.v::text; action := 'keep'; sqlstate := NULL; hint := NULL;
		detail := format('It does not use column %I.', p.column_name);
		RETURN NEXT;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_dependents(regclass, @extschema@.xid_move_part) IS
'the plan of a move: every object that depends on a column it changes, at every partition level';

-- What the backfill's updates run on a relation and its partitions:
-- triggers of every level, timing and enable mode, rules, and the code of
-- CHECK constraints, index expressions and generated columns, which must
-- be the owner's
CREATE FUNCTION @extschema@.xid_move_plan_code(tbl regclass, p @extschema@.xid_move_part, fire_triggers boolean, can_replica boolean)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
	owner oid := (SELECT c.relowner FROM pg_class c WHERE c.oid = tbl);
	replica boolean := can_replica AND NOT fire_triggers;
	fires boolean;
BEGIN
	-- every trigger but the foreign keys' and the move's own
	FOR d IN SELECT t.tgname, t.tgenabled, t.tgrelid::regclass AS r, t.tgtype, t.tgisinternal, t.tgconstraint,
	                p2.proowner, (t.tgtype & 1) = 1 AS per_row, (t.tgtype & 16) = 16 AS on_update,
	                (SELECT con.contype FROM pg_constraint con WHERE con.oid = t.tgconstraint) AS contype
	          FROM pg_trigger t JOIN pg_proc p2 ON p2.oid = t.tgfoid
	          WHERE t.tgrelid IN (SELECT @extschema@.xid_move_tree(p.relation))
	            AND t.tgparentid = 0
	            AND t.tgfoid <> '@extschema@.xid_move_trigger()'::regprocedure
	            AND NOT (t.tgisinternal AND (SELECT con.contype FROM pg_constraint con WHERE con.oid = t.tgconstraint) = 'f')
	          ORDER BY t.tgname, t.tgrelid::regclass::text LOOP
		object_type := 'trigger'; object := format('%I on %s', d.tgname, d.r); sqlstate := NULL; hint := NULL;
		-- does the backfill fire it: it runs in replica mode where it may
		-- and is not asked to fire triggers
		fires := d.on_update AND (d.tgenabled = 'A' OR (d.tgenabled = 'O' AND NOT replica) OR (d.tgenabled = 'R' AND replica));
		IF d.tgisinternal THEN
			action := 'refuse'; sqlstate := '0A000';
			detail := 'An internal trigger the move does not know.';
			hint := 'Drop what made it for the move.';
		ELSIF d.tgenabled = 'D' THEN
			action := 'keep'; detail := 'Disabled: it fires for nothing.';
		ELSIF NOT d.on_update THEN
			action := 'keep'; detail := 'It does not fire on UPDATE: the backfill''s updates do not fire it; the writers'' statements fire it as before.';
		ELSIF NOT fires AND d.tgenabled = 'O' THEN
			action := 'suppress';
			detail := format('A %s trigger on UPDATE: the backfill runs with session_replication_role = replica, so it does not fire.', CASE WHEN d.per_row THEN 'row' ELSE 'statement' END);
		ELSIF NOT fires THEN
			action := 'keep';
			detail := 'Enabled for replica sessions only: the backfill''s updates, in an origin session, do not fire it.';
		ELSIF NOT (d.proowner = owner OR (SELECT r.rolsuper FROM pg_roles r WHERE r.oid = d.proowner)) THEN
			action := 'refuse'; sqlstate := '42501';
			detail := format('A trigger on UPDATE whose function belongs to role %s: the backfill would run another role''s code with the privileges of the owner of the table.', quote_ident(pg_get_userbyid(d.proowner)));
			hint := 'Drop it for the move and create it again after it.';
		ELSIF fire_triggers THEN
			action := 'fire';
			detail := format('A %s trigger on UPDATE: the backfill fires it %s (fire_triggers => true), as the owner of the table, with search_path pg_catalog, pg_temp: its function needs its own SET search_path if it names tables unqualified.',
				CASE WHEN d.per_row THEN 'row' ELSE 'statement' END, CASE WHEN d.per_row THEN 'on every row it fills' ELSE 'once per batch' END);
		ELSE
			action := 'refuse'; sqlstate := '55000';
			detail := format('A %s trigger on UPDATE: the backfill''s updates would fire it %s.', CASE WHEN d.per_row THEN 'row' ELSE 'statement' END,
				CASE WHEN d.per_row THEN 'on every row' ELSE 'once per batch' END);
			hint := CASE WHEN d.tgenabled = 'O'
				THEN 'A superuser can GRANT SET ON PARAMETER session_replication_role to the owner, so that the backfill does not fire it; or pass fire_triggers => true to fire it.'
				ELSE 'It is enabled ALWAYS or REPLICA, so the backfill cannot keep it from firing: pass fire_triggers => true to fire it.' END;
		END IF;
		RETURN NEXT;
	END LOOP;
	-- rules change what the backfill's updates do (DO ALSO writes a row
	-- for each, DO INSTEAD NOTHING leaves the column empty) and what the
	-- writers' statements do to the columns the move keeps in step
	FOR d IN SELECT r.rulename, r.ev_class::regclass AS rel, r.ev_type FROM pg_rewrite r
	          WHERE r.ev_class IN (SELECT @extschema@.xid_move_tree(p.relation)) AND r.rulename <> '_RETURN'
	          ORDER BY r.rulename, r.ev_class::regclass::text LOOP
		object_type := 'rule'; object := format('%I on %s', d.rulename, d.rel); action := 'refuse'; sqlstate := '0A000';
		detail := format('A rule ON %s: %s', CASE d.ev_type WHEN '1' THEN 'SELECT' WHEN '2' THEN 'UPDATE' WHEN '3' THEN 'INSERT' ELSE 'DELETE' END,
			CASE d.ev_type WHEN '2' THEN 'the backfill''s updates would be rewritten by it (an action for every row, or none done).'
			               ELSE 'the rows the writers'' statements write would not pass the move''s triggers as written.' END);
		hint := format('Drop it for the move and create it again after it (pg_get_ruledef() shows its definition).');
		RETURN NEXT;
	END LOOP;
	-- the code the backfill's updates run: CHECK constraints, index
	-- expressions and predicates, generated columns.  As the owner, in a
	-- security-restricted operation; a function of another role would run
	-- with the owner's privileges.
	FOR d IN SELECT DISTINCT dep.classid, dep.objid, pr.oid::regprocedure AS fn, pr.proowner,
	                pg_describe_object(dep.classid, dep.objid, 0) AS descr
	          FROM pg_depend dep
	          JOIN pg_proc pr ON (dep.refclassid = 'pg_proc'::regclass AND pr.oid = dep.refobjid)
	                          OR (dep.refclassid = 'pg_operator'::regclass AND pr.oid = (SELECT o.oprcode FROM pg_operator o WHERE o.oid = dep.refobjid))
	          WHERE ((dep.classid = 'pg_constraint'::regclass AND dep.objid IN (SELECT con.oid FROM pg_constraint con WHERE con.conrelid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND con.contype IN ('c', 'x')))
	              OR (dep.classid = 'pg_class'::regclass AND dep.objid IN (SELECT i.indexrelid FROM pg_index i WHERE i.indrelid IN (SELECT @extschema@.xid_move_tree(p.relation))))
	              OR (dep.classid = 'pg_attrdef'::regclass AND dep.objid IN (SELECT ad.oid FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
	                                                                       WHERE ad.adrelid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND a.attgenerated <> '')))
	            AND pr.proowner <> owner AND NOT (SELECT r.rolsuper FROM pg_roles r WHERE r.oid = pr.proowner)
	          ORDER BY 5, 3 LOOP
		object_type := 'function'; object := format('%s, called by %s', d.fn, d.descr); action := 'refuse'; sqlstate := '42501';
		detail := format('%s calls it, and it belongs to role %s: the backfill''s updates would run another role''s code with the privileges of the owner of the table.',
			d.descr, quote_ident(pg_get_userbyid(d.proowner)));
		hint := format('Give the function to the owner of the table for the move (ALTER FUNCTION %s OWNER TO ...), or drop what calls it.', d.fn);
		RETURN NEXT;
	END LOOP;
	-- every other constraint of the relations: CHECK and exclusion
	-- constraints are evaluated by the backfill's updates, as the owner;
	-- unique constraints and foreign keys over other columns stay
	FOR d IN SELECT con.conname, con.conrelid::regclass AS rel, con.contype FROM pg_constraint con
	          WHERE con.conrelid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND con.contype IN ('c', 'x', 'u', 'f', 't')
	            AND con.conparentid = 0
	            AND NOT EXISTS (SELECT FROM pg_depend x JOIN pg_attribute a ON a.attrelid = x.refobjid AND a.attnum = x.refobjsubid
	                            WHERE x.classid = 'pg_constraint'::regclass AND x.objid = con.oid AND a.attname = p.column_name)
	            AND NOT (con.contype = 'f' AND con.confrelid = tbl)
	            AND con.conname NOT LIKE '%\_not\_null' AND con.conname NOT LIKE 'xid\_move%'
	          ORDER BY con.conname, con.conrelid::regclass::text LOOP
		object_type := 'constraint'; object := format('%I on %s', d.conname, d.rel); action := 'keep'; sqlstate := NULL; hint := NULL;
		detail := CASE d.contype
			WHEN 'c' THEN 'A check constraint: each update of the backfill evaluates it, as the owner of the table.'
			WHEN 'x' THEN 'An exclusion constraint over other columns: the backfill''s updates check it, as the owner of the table.'
			WHEN 'u' THEN 'A unique constraint over other columns.'
			WHEN 'f' THEN 'A foreign key over other columns: the backfill''s updates do not change them.'
			ELSE 'A constraint trigger (see the trigger).' END;
		RETURN NEXT;
	END LOOP;
	-- row security policies that do not use the column: the move runs as
	-- the owner with row_security off (FORCE is refused), so they hide
	-- nothing from it and stay as they are
	FOR d IN SELECT pol.polname, pol.polrelid::regclass AS rel FROM pg_policy pol
	          WHERE pol.polrelid IN (SELECT @extschema@.xid_move_tree(p.relation))
	            AND NOT EXISTS (SELECT FROM pg_depend x JOIN pg_attribute a ON a.attrelid = x.refobjid AND a.attnum = x.refobjsubid
	                            WHERE x.classid = 'pg_policy'::regclass AND x.objid = pol.oid AND a.attname = p.column_name)
	          ORDER BY pol.polname, pol.polrelid::regclass::text LOOP
		object_type := 'policy'; object := format('%I on %s', d.polname, d.rel); action := 'keep'; sqlstate := NULL; hint := NULL;
		detail := 'A row security policy that does not use the column: the move runs as the owner of the table, which it does not restrict.';
		RETURN NEXT;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_code(regclass, @extschema@.xid_move_part, boolean, boolean) IS
'the plan of a move: the triggers, rules and functions its backfill would run on a relation';

-- What the column itself carries and the swap must give the new one: its
-- default, privileges, comment, identity, security labels; and the
-- relation's replica identity and publications
CREATE FUNCTION @extschema@.xid_move_plan_column(tbl regclass, p @extschema@.xid_move_part)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
	col text := format('%s.%I', p.relation, p.column_name);
BEGIN
	FOR d IN SELECT r AS rel, a.attidentity, a.attgenerated, a.attacl, pg_get_expr(ad.adbin, ad.adrelid) AS def,
	                ad.adbin IS NOT NULL AS hasdef, col_description(a.attrelid, a.attnum) AS comment,
	                c.relreplident
	          FROM @extschema@.xid_move_tree(p.relation) r
	          JOIN pg_class c ON c.oid = r
	          JOIN pg_attribute a ON a.attrelid = r AND a.attname = p.column_name
	          LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
	          ORDER BY r = p.relation DESC, r::text LOOP
		object := CASE WHEN d.rel = p.relation THEN col ELSE format('%s.%I', d.rel, p.column_name) END;
		sqlstate := NULL; hint := NULL;
		IF d.attidentity <> '' AND p.role = 'child' THEN
			object_type := 'identity'; action := 'refuse'; sqlstate := '0A000';
			detail := 'A referencing column that is an identity column.';
			hint := 'ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY for the move.';
			RETURN NEXT;
		ELSIF d.attidentity <> '' THEN
			object_type := 'identity'; action := 'keep';
			detail := format('The old key stays an identity column (%I): rows written without a key get an xid from the new key''s default and an old key from the identity.', p.old_column);
			RETURN NEXT;
		END IF;
		IF d.hasdef AND p.role = 'child' AND d.attidentity = '' THEN
			object_type := 'default';
			IF EXISTS (SELECT FROM pg_attrdef ad WHERE ad.adrelid = d.rel AND ad.adnum = (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = d.rel AND a.attname = p.column_name)
			           AND (ad.adbin ~ '\{(OPEXPR|VAR|SUBLINK|PARAM|NEXTVALUEEXPR|SQLVALUEFUNCTION|CASE|COALESCE) |:funcformat 0 '
			                OR EXISTS (SELECT FROM regexp_matches(ad.adbin, ':funcid (\d+)', 'g') f WHERE f[1]::oid >= 16384))) THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('Its default, %s, is not a constant (or casts with a function that is not built in): the swap gives the new column the id of the row the default references, which must be known then.', d.def);
				hint := 'Drop the default for the move and set it again, as an xid, after the swap.';
			ELSE
				action := 'carry';
				detail := format('Its default, %s: the swap gives the new column the id of the row it references (ON DELETE SET DEFAULT and inserts without it go on working).', d.def);
			END IF;
			RETURN NEXT;
		END IF;
		IF d.attacl IS NOT NULL AND d.rel = p.relation THEN
			object_type := 'privileges'; action := 'carry';
			detail := format('Column privileges %s: the swap grants the same on the new column.', d.attacl::text);
			RETURN NEXT;
		END IF;
		IF d.comment IS NOT NULL AND d.rel = p.relation THEN
			object_type := 'comment'; action := 'carry';
			detail := 'Its comment: the swap puts it on the new column.';
			RETURN NEXT;
		END IF;
		IF d.relreplident = 'i' AND EXISTS (SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
		                                     WHERE i.indrelid = d.rel AND i.indisreplident AND a.attname = p.column_name) THEN
			object_type := 'replica identity'; object := d.rel::text;
			IF d.rel <> p.relation THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('A partition whose replica identity is an index over column %I.', p.column_name);
				hint := format('ALTER TABLE %s REPLICA IDENTITY DEFAULT (or FULL) for the move.', d.rel);
			ELSE
				action := 'move';
				detail := format('Its replica identity is an index over column %I: the swap makes it the index that takes that one''s place.', p.column_name);
			END IF;
			RETURN NEXT;
		END IF;
	END LOOP;
	FOR d IN SELECT l.provider, l.label FROM pg_seclabel l JOIN pg_attribute a ON a.attrelid = l.objoid AND a.attnum = l.objsubid
	          WHERE l.classoid = 'pg_class'::regclass AND l.objoid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND a.attname = p.column_name LOOP
		object_type := 'security label'; object := col; action := 'refuse'; sqlstate := '0A000';
		detail := format('A security label of provider %s on the column: the move does not carry it over.', d.provider);
		hint := 'Drop it for the move and set it again after the swap.';
		RETURN NEXT;
	END LOOP;
	-- publications of the whole table: the new columns are published
	FOR d IN SELECT pub.pubname FROM pg_publication_tables pt JOIN pg_publication pub ON pub.pubname = pt.pubname
	          WHERE (pt.schemaname, pt.tablename) = (SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = p.relation)
	            -- a column list is refused or leaves the column out
	            AND NOT EXISTS (SELECT FROM pg_publication_rel pr WHERE pr.prpubid = pub.oid AND pr.prrelid = p.relation AND pr.prattrs IS NOT NULL)
	          ORDER BY 1 LOOP
		object_type := 'publication'; object := quote_ident(d.pubname); action := 'keep'; sqlstate := NULL;
		detail := format('It publishes table %s: subscribers need the new column %I before the start (ALTER TABLE on each).', p.relation, p.new_column);
		hint := NULL;
		RETURN NEXT;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_column(regclass, @extschema@.xid_move_part) IS
'the plan of a move: the default, privileges, comment, identity, labels, replica identity and publications of a column it changes';

-- What a move of tbl changes, moves with the key, carries over, keeps, and
-- refuses, before anything changes: one row an object (see above).
-- xid_move_start() raises the first refusal as its error.
CREATE FUNCTION @extschema@.xid_move_plan(tbl regclass, time_column name DEFAULT NULL, fire_triggers boolean DEFAULT false)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	p @extschema@.xid_move_part;
	n bigint;
	keytype regtype;
	can_replica boolean := @extschema@.xid_move_can_replica();
BEGIN
	RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_table(tbl, time_column);
	IF FOUND THEN
		RETURN;
	END IF;
	keytype := (SELECT a.atttypid FROM pg_attribute a JOIN pg_constraint con ON con.conrelid = a.attrelid AND a.attnum = con.conkey[1]
	            WHERE con.conrelid = tbl AND con.contype = 'p');
	FOR p IN SELECT DISTINCT ON (x.role, x.relation::text, x.constraint_name) * FROM @extschema@.xid_move_parts_of(tbl) x
	          ORDER BY x.role DESC, x.relation::text, x.constraint_name, x.leaf::text LOOP
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_relation(tbl, p, keytype, time_column);
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_dependents(tbl, p);
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_column(tbl, p);
		-- a table referenced through several columns is looked at once
		CONTINUE WHEN p.role = 'child' AND (p.relation = tbl OR EXISTS (
			SELECT FROM @extschema@.xid_move_parts_of(tbl) y WHERE y.role = 'child' AND y.relation = p.relation AND y.constraint_name < p.constraint_name));
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_code(tbl, p, fire_triggers, can_replica);
	END LOOP;

	-- ids that existing rows would share
	EXECUTE format('SELECT count(*) - count(DISTINCT %s) FROM %s AS row',
		@extschema@.xid_move_id_expr('row', (SELECT a.attname FROM pg_attribute a JOIN pg_constraint con ON con.conrelid = a.attrelid AND a.attnum = con.conkey[1]
		                                      WHERE con.conrelid = tbl AND con.contype = 'p'), keytype, time_column), tbl)
		INTO n;
	object_type := 'ids'; object := tbl::text; sqlstate := NULL; hint := NULL;
	IF n = 0 THEN
		action := 'keep'; detail := 'No two existing rows would share an id; rows written during the move get xid_new().';
	ELSE
		action := 'refuse'; sqlstate := '23505';
		detail := format('%s existing rows would share their id with another row.', n);
		hint := 'Pass another time_column, or key those rows with xid_from_key() of another column by hand.';
	END IF;
	RETURN NEXT;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan(regclass, name, boolean) IS
'what a move of a table''s key to xid changes, moves with the key, carries over, keeps and refuses, before any change';

------------------------------------------------------------------------------
-- The triggers that keep the new columns in step
------------------------------------------------------------------------------

-- The statements that make the triggers of a child part: a column that
-- references the key of the move's table gets, in target, the value of
-- that row's column ('new': before the swap, the new id, or the id its
-- time and key make while it has none; 'old': after the swap, the old key,
-- for an abort).  A BEFORE trigger looks the row up; when it cannot see it
-- yet (a deferred foreign key whose row comes later in the transaction, a
-- row committed while a multi-row statement runs), a deferred constraint
-- trigger looks again at commit, and an error stops the commit if it
-- still cannot: a reference is never left empty silently.  Both are
-- xid_move_trigger() (C, as core's RI triggers): the lookup runs as the
-- owner of the referenced table, so that a writer needs no privilege it
-- did not need before.  suffix: 'c' before the swap, 'b' after it (the
-- old columns kept following, for an abort).
CREATE FUNCTION @extschema@.xid_move_ref_ddl(p @extschema@.xid_move_parts, m @extschema@.xid_move_moves, mode text,
                                             col name, target name, eq text, suffix text)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT ARRAY[
		format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger(%L, %s)',
			'xid_move' || p.tag || '_' || suffix || 'i', p.relation, '@extschema@', 'ref', a.args),
		-- IS DISTINCT FROM, written with the qualified operator of the
		-- column's type (an xid's after the swap)
		format('CREATE TRIGGER %1$I BEFORE UPDATE ON %2$s FOR EACH ROW WHEN ((NEW.%3$I IS NULL) <> (OLD.%3$I IS NULL) OR NOT (NEW.%3$I %6$s OLD.%3$I) OR (NEW.%4$I IS NULL AND NEW.%3$I IS NOT NULL)) EXECUTE FUNCTION %5$s.xid_move_trigger(%7$L, %8$s)',
			'xid_move' || p.tag || '_' || suffix || 'u', p.relation, col, target, '@extschema@', eq, 'ref', a.args),
		format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %s DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.%I IS NULL AND NEW.%I IS NOT NULL) EXECUTE FUNCTION %s.xid_move_trigger(%L, %s)',
			'xid_move' || p.tag || '_' || suffix || 'f', p.relation, target, col, '@extschema@', 'fix', a.args)]
	FROM (SELECT format('%L, %L, %L, %L, %L, %L, %L, %L, %L', @extschema@.xid_move_schema_of('xid'), @extschema@.xid_move_schema_of('xid_move'),
	                    m.key_column, mode, CASE mode WHEN 'new' THEN m.new_column ELSE m.old_column END,
	                    coalesce(m.time_column, ''), CASE WHEN m.key_type = 'uuid'::regtype THEN 'uuid' ELSE 'int' END,
	                    col, target) AS args) a
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_ddl(@extschema@.xid_move_parts, @extschema@.xid_move_moves, text, name, name, text, text) IS
'the triggers that keep a referencing column''s new (or old) value in step';

-- The statements that drop what xid_move_ref_ddl() made
CREATE FUNCTION @extschema@.xid_move_ref_drop(p @extschema@.xid_move_parts, suffix text)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT ARRAY[
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'i', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'u', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'f', p.relation),
		-- the trigger functions of a move started before 1.2
		@extschema@.xid_move_drop_fn(p.relation, p.tag, suffix),
		@extschema@.xid_move_drop_fn(p.relation, p.tag, suffix || 'f')]
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_drop(@extschema@.xid_move_parts, text) IS
'the statements that drop the triggers that keep a referencing column in step';

------------------------------------------------------------------------------
-- Start
------------------------------------------------------------------------------

CREATE PROCEDURE @extschema@.xid_move_start(
	tbl regclass,
	time_column name DEFAULT NULL,
	dry_run boolean DEFAULT false,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100,
	fire_triggers boolean DEFAULT false)
LANGUAGE plpgsql
AS $$
DECLARE
	r record;
	par record;
	p @extschema@.xid_move_parts;
	m @extschema@.xid_move_moves;
	stmts text[] := '{}';
	s text;
	xs text;
	refused record;
	key_type regtype;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	xs := @extschema@.xid_move_xs();
	IF tbl IS NULL OR dry_run IS NULL OR fire_triggers IS NULL THEN
		RAISE EXCEPTION 'tbl, dry_run and fire_triggers must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF dry_run THEN
		RAISE NOTICE 'move of table % to xid: the plan', tbl;
		FOR r IN SELECT * FROM @extschema@.xid_move_plan(tbl, time_column, fire_triggers) LOOP
			RAISE NOTICE '  % %: % (%)%', r.action, r.object_type, r.object, r.detail,
				CASE WHEN r.hint IS NULL THEN '' ELSE ' ' || r.hint END;
		END LOOP;
		RAISE NOTICE '%', format('then: CALL %1$s.xid_move_backfill(%2$L); SELECT * FROM %1$s.xid_move_index_commands(%2$L) \gexec; CALL %1$s.xid_move_validate(%2$L); CALL %1$s.xid_move_swap(%2$L); CALL %1$s.xid_move_finish(%2$L)',
			'@extschema@', tbl::text);
		RETURN;
	END IF;
	-- every check before any change
	SELECT * INTO refused FROM @extschema@.xid_move_plan(tbl, time_column, fire_triggers) x WHERE x.action = 'refuse' LIMIT 1;
	IF FOUND THEN
		-- "table t cannot be moved to xid", and what refuses when that is
		-- not the table itself; a hint only when the plan gives one
		refused.object := CASE WHEN refused.object_type = 'table' AND refused.object = tbl::text THEN ''
		                       ELSE format(': %s %s', refused.object_type, refused.object) END;
		IF refused.hint IS NULL THEN
			RAISE EXCEPTION 'table % cannot be moved to xid%', tbl, refused.object
				USING ERRCODE = refused.sqlstate, DETAIL = refused.detail;
		END IF;
		RAISE EXCEPTION 'table % cannot be moved to xid%', tbl, refused.object
			USING ERRCODE = refused.sqlstate, DETAIL = refused.detail, HINT = refused.hint;
	END IF;

	SELECT * INTO par FROM @extschema@.xid_move_parts_of(tbl) x WHERE x.role = 'parent';
	key_type := (SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = par.column_name);
	INSERT INTO @extschema@.xid_move_moves (tbl, constraint_name, key_column, new_column, old_column, key_type, time_column, fire_triggers)
	VALUES (tbl, par.constraint_name, par.column_name, par.new_column, par.old_column, key_type, time_column, fire_triggers);
	INSERT INTO @extschema@.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name, new_column, old_column, not_null, tag)
	SELECT tbl, x.role, x.relation, x.leaf, x.constraint_name, x.column_name, x.new_column, x.old_column, x.not_null, x.tag
	FROM @extschema@.xid_move_parts_of(tbl) x;

	-- the columns first (the triggers name them), then the triggers
	FOR p IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
		stmts := stmts || format('ALTER TABLE %s ADD COLUMN %I %s.xid', p.relation, p.new_column, xs);
	END LOOP;
	-- a row written during the move gets a new id from the column's
	-- default, as it will after the swap: no trigger on the writers'
	-- inserts (a default costs a function call, a trigger a PL/pgSQL one)
	stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.xid_new()', tbl, par.new_column, xs);
	-- an update fires the key trigger only when the id may change (its
	-- condition is checked without calling it): not for the backfill's own
	-- updates, nor for updates of other columns of a row that has its id.
	-- A row still without an id gets that of its old version, the one a
	-- reference written since may hold (xid_move_trigger(), 'key').
	stmts := stmts || format('CREATE TRIGGER %I BEFORE UPDATE ON %s FOR EACH ROW WHEN (NEW.%I IS NULL OR NEW.%I IS DISTINCT FROM OLD.%I) EXECUTE FUNCTION %s.xid_move_trigger(%L, %L, %L, %L, %L, %L)',
		'xid_move_sync_update', tbl, par.new_column, par.column_name, par.column_name, '@extschema@',
		'key', @extschema@.xid_move_schema_of('xid'), par.column_name, par.new_column, coalesce(time_column, ''),
		CASE WHEN key_type = 'uuid'::regtype THEN 'uuid' ELSE 'int' END);
	SELECT * INTO m FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	FOR p IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		stmts := stmts || @extschema@.xid_move_ref_ddl(p, m, 'new', p.column_name, p.new_column, 'OPERATOR(pg_catalog.=)', 'c');
	END LOOP;
	PERFORM @extschema@.xid_move_exec(tbl, @extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
	-- the blocks to backfill: rows written from here on pass the triggers,
	-- which the locks above waited for; older rows lie below
	UPDATE @extschema@.xid_move_parts x
	   SET blocks = pg_relation_size(x.leaf) / current_setting('block_size')::bigint,
	       rows_estimated = greatest((SELECT c.reltuples FROM pg_class c WHERE c.oid = x.leaf), 0)::bigint,
	       pass_started = clock_timestamp()
	 WHERE x.tbl = $1;
	RAISE NOTICE 'move of table % started: the new columns are kept in step; next: CALL %.xid_move_backfill(%)', tbl, '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_start(regclass, name, boolean, interval, integer, boolean) IS
'start moving a table''s key and its foreign keys to xid: new columns and the triggers that keep them in step (dry_run: print the plan)';

------------------------------------------------------------------------------
-- Status
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_move_status(tbl regclass)
RETURNS TABLE (role text, relation regclass, leaf regclass, step text, blocks bigint,
               blocks_done bigint, rows_done bigint, percent numeric, updated timestamptz,
               rows_estimated bigint, pass integer, rows_per_second numeric, time_left interval,
               verified_rows bigint, verified_refs bigint, mismatches bigint, checksum bigint, verified timestamptz)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT p.role, p.relation, p.leaf, m.step, p.blocks, p.blocks_done, p.rows_done,
	       CASE WHEN p.blocks = 0 THEN 100 ELSE round(100.0 * p.blocks_done / p.blocks, 1) END,
	       p.updated,
	       CASE WHEN p.rows_estimated > 0 THEN p.rows_estimated
	            WHEN p.blocks_done > 0 THEN (p.rows_done * p.blocks / p.blocks_done)::bigint END,
	       p.pass,
	       -- over the backfill's own time: the batches of this relation,
	       -- not the time since the start nor the pauses between batches
	       round(p.rows_done / nullif(extract(epoch FROM p.busy), 0), 1),
	       CASE WHEN p.blocks_done >= p.blocks THEN '0'::interval
	            WHEN p.blocks_done > 0 THEN p.busy * ((p.blocks - p.blocks_done)::float8 / p.blocks_done) END,
	       p.verified_rows, p.verified_refs, p.mismatches, p.checksum, p.verified
	FROM @extschema@.xid_move_parts p JOIN @extschema@.xid_move_moves m ON m.tbl = p.tbl
	WHERE p.tbl = $1
	ORDER BY p.role DESC, p.relation::text, p.leaf::text, p.constraint_name
$$;

COMMENT ON FUNCTION @extschema@.xid_move_status(regclass) IS
'where the move of a table''s key to xid is: its step, each relation''s progress, rate, time left and last verification';

------------------------------------------------------------------------------
-- Backfill
------------------------------------------------------------------------------

-- Each batch updates the rows of a range of blocks and commits: a writer
-- that updates or deletes one of those rows waits for the commit.  With
-- batch_time, the ranges are sized so that a batch takes about that long
-- (at most batch_blocks blocks), whatever the load.  Once every range
-- recorded at the start is done, a sweep counts the rows still without
-- their new value (rows that VACUUM FULL, CLUSTER or pg_repack moved to
-- blocks already done) and, if there are any, goes over each such
-- relation again, as it is now.  Application triggers: kept from firing
-- (session_replication_role = replica) where the caller may, else fired
-- only when the move was started with fire_triggers => true.
CREATE PROCEDURE @extschema@.xid_move_backfill(
	tbl regclass,
	batch_blocks integer DEFAULT 64,
	pause interval DEFAULT '0',
	max_batches integer DEFAULT NULL,
	batch_time interval DEFAULT '200ms')
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r @extschema@.xid_move_parts;
	upto bigint;
	n bigint;
	missing bigint;
	batches integer := 0;
	sweeps integer := 0;
	size integer;
	t0 timestamptz;
	took float8;
	target float8;
	replica boolean;
	det text;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	IF m.step NOT IN ('started', 'backfilled') THEN
		RAISE EXCEPTION 'the move of table % is past its backfill (step %)', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	IF batch_blocks IS NULL OR batch_blocks < 1 THEN
		RAISE EXCEPTION 'batch_blocks must be at least 1' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF batch_time < '0'::interval THEN
		RAISE EXCEPTION 'batch_time must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF pause < '0'::interval THEN
		RAISE EXCEPTION 'pause must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	target := coalesce(extract(epoch FROM batch_time), 0);
	replica := NOT m.fire_triggers AND @extschema@.xid_move_can_replica();
	-- partitions made or attached since the start (they have the move's
	-- triggers, and an attached table may bring rows without a value):
	-- each backfilled on its own too
	INSERT INTO @extschema@.xid_move_parts (tbl, role, relation, leaf, constraint_name, column_name, new_column, old_column, not_null, tag,
	                                        blocks, rows_estimated, pass_started)
	SELECT $1, x.role, x.relation, x.leaf, x.constraint_name, x.column_name, x.new_column, x.old_column, x.not_null, x.tag,
	       pg_relation_size(x.leaf) / current_setting('block_size')::bigint,
	       greatest((SELECT c.reltuples FROM pg_class c WHERE c.oid = x.leaf), 0)::bigint, clock_timestamp()
	  FROM @extschema@.xid_move_parts_of($1) x
	 WHERE x.role = 'child'
	   AND EXISTS (SELECT FROM @extschema@.xid_move_parts y WHERE y.tbl = $1 AND y.relation = x.relation AND y.constraint_name = x.constraint_name)
	   AND NOT EXISTS (SELECT FROM @extschema@.xid_move_parts y WHERE y.tbl = $1 AND y.leaf = x.leaf AND y.constraint_name = x.constraint_name);
	COMMIT;
	PERFORM @extschema@.xid_move_settings();
	det := @extschema@.xid_move_id_expr('p', m.key_column, m.key_type, m.time_column);
	-- timed batches start small and grow (at most doubling) while they
	-- take less than batch_time
	size := CASE WHEN target > 0 THEN least(batch_blocks, 8) ELSE batch_blocks END;
	LOOP
		PERFORM @extschema@.xid_move_settings();
		IF replica THEN
			PERFORM set_config('session_replication_role', 'replica', true);
		END IF;
		SELECT * INTO r FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.blocks_done < x.blocks
		 ORDER BY x.role DESC, x.leaf::text, x.constraint_name LIMIT 1;
		IF NOT FOUND THEN
			-- the sweep
			missing := 0;
			FOR r IN SELECT * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 ORDER BY x.role DESC, x.leaf::text LOOP
				EXECUTE format('SELECT count(*) FROM ONLY %s AS c WHERE c.%I IS NULL%s', r.leaf, r.new_column,
					CASE WHEN r.role = 'child' THEN format(' AND c.%I IS NOT NULL', r.column_name) ELSE '' END) INTO n;
				IF n > 0 THEN
					missing := missing + n;
					RAISE NOTICE 'backfill of %: % rows of % lack their new value (moved since their blocks were done); going over % again',
						tbl, n, r.leaf, r.leaf;
					UPDATE @extschema@.xid_move_parts x
					   SET blocks = pg_relation_size(r.leaf) / current_setting('block_size')::bigint, blocks_done = 0,
					       pass = x.pass + 1, pass_started = clock_timestamp(), updated = clock_timestamp()
					 WHERE x.tbl = $1 AND x.leaf = r.leaf AND x.role = r.role AND x.constraint_name = r.constraint_name;
				END IF;
			END LOOP;
			EXIT WHEN missing = 0;
			sweeps := sweeps + 1;
			IF sweeps > 3 THEN
				RAISE EXCEPTION 'the backfill of % left % rows without their new value after % passes', tbl, missing, sweeps
					USING ERRCODE = 'object_not_in_prerequisite_state',
					      HINT = 'A referencing row whose key has no row in the referenced table cannot get one; check the foreign keys, or abort.';
			END IF;
			COMMIT;
			CONTINUE;
		END IF;
		EXIT WHEN max_batches IS NOT NULL AND batches >= max_batches;
		upto := least(r.blocks, r.blocks_done + size);
		t0 := clock_timestamp();
		-- as the owner of the tables, in a security-restricted operation:
		-- the CHECK constraints, triggers and index expressions an update
		-- runs have the owner's privileges, whoever calls the backfill
		IF r.role = 'parent' THEN
			n := @extschema@.xid_move_run(tbl, format('UPDATE ONLY %1$s AS p SET %2$I = %3$s WHERE p.ctid OPERATOR(pg_catalog.>=) %4$L::pg_catalog.tid AND p.ctid OPERATOR(pg_catalog.<) %5$L::pg_catalog.tid AND p.%2$I IS NULL',
				r.leaf, r.new_column, det, format('(%s,0)', r.blocks_done), format('(%s,0)', upto)));
		ELSE
			-- each child row looks its parent up through the parent's
			-- primary key: a subquery in SET is never made a join, so no
			-- plan reads the whole parent for a batch
			n := @extschema@.xid_move_run(tbl, format('UPDATE ONLY %1$s AS c SET %2$I = (SELECT coalesce(p.%3$I, %4$s) FROM %5$s AS p WHERE p.%6$I = c.%7$I)'
				' WHERE c.ctid OPERATOR(pg_catalog.>=) %8$L::pg_catalog.tid AND c.ctid OPERATOR(pg_catalog.<) %9$L::pg_catalog.tid AND c.%2$I IS NULL AND c.%7$I IS NOT NULL',
				r.leaf, r.new_column, m.new_column, det, tbl, m.key_column, r.column_name,
				format('(%s,0)', r.blocks_done), format('(%s,0)', upto)));
		END IF;
		UPDATE @extschema@.xid_move_parts x SET blocks_done = upto, rows_done = x.rows_done + n, updated = clock_timestamp(),
		       busy = x.busy + (clock_timestamp() - t0)
		 WHERE x.tbl = $1 AND x.role = r.role AND x.leaf = r.leaf AND x.constraint_name = r.constraint_name;
		batches := batches + 1;
		IF batches % 10 = 1 OR upto = r.blocks THEN
			RAISE NOTICE 'backfill of %: % of % blocks of % (pass %), % rows in all', tbl, upto, r.blocks, r.leaf, r.pass,
				(SELECT sum(x.rows_done) FROM @extschema@.xid_move_parts x WHERE x.tbl = $1);
		END IF;
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
		IF target > 0 THEN
			took := greatest(extract(epoch FROM clock_timestamp() - t0), 0.0001);
			size := greatest(1, least(batch_blocks::float8, 2.0 * size, floor(size * target / took)))::integer;
		END IF;
		IF pause > '0'::interval THEN
			PERFORM pg_sleep(extract(epoch FROM pause)::float8);
		END IF;
	END LOOP;
	PERFORM @extschema@.xid_move_settings();
	IF NOT EXISTS (SELECT FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.blocks_done < x.blocks) THEN
		PERFORM @extschema@.xid_move_set_step(tbl, 'backfilled');
		RAISE NOTICE 'backfill of % complete; next: SELECT * FROM %.xid_move_index_commands(%) \gexec', tbl, '@extschema@', quote_literal(tbl::text);
	END IF;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_backfill(regclass, integer, interval, integer, interval) IS
'fill the new xid columns of a move, in batches of blocks that each commit (sized to take batch_time), then sweep for rows missed; resumes where it stopped';

------------------------------------------------------------------------------
-- Indexes and constraints
------------------------------------------------------------------------------

-- A valid unique index on exactly one column of tbl, not the one of the
-- constraint "skip"; NULL when there is none
CREATE FUNCTION @extschema@.xid_move_unique_index(tbl regclass, col name, skip name)
RETURNS regclass
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT i.indexrelid::regclass FROM pg_index i
	JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	WHERE i.indrelid = tbl AND a.attname = col AND i.indisunique AND i.indisvalid AND i.indisready
	  AND i.indnatts = 1 AND i.indexprs IS NULL AND i.indpred IS NULL
	  AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = tbl AND c.conname = skip)
	ORDER BY i.indexrelid LIMIT 1
$$;

COMMENT ON FUNCTION @extschema@.xid_move_unique_index(regclass, name, name) IS
'a valid unique index on one column of a table, other than a given constraint''s';

-- The ON DELETE / ON UPDATE clause and deferrability of a foreign key
CREATE FUNCTION @extschema@.xid_move_fk_actions(con oid)
RETURNS text
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('ON DELETE %s ON UPDATE %s %s',
		CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE'
		                   WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END,
		CASE c.confupdtype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE'
		                   WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END,
		CASE WHEN NOT c.condeferrable THEN 'NOT DEFERRABLE'
		     WHEN c.condeferred THEN 'DEFERRABLE INITIALLY DEFERRED' ELSE 'DEFERRABLE INITIALLY IMMEDIATE' END)
	FROM pg_constraint c WHERE c.oid = con
$$;

COMMENT ON FUNCTION @extschema@.xid_move_fk_actions(oid) IS
'the actions and deferrability of a foreign key, as ALTER TABLE writes them';

-- The statements that add a foreign key from rel (col) to tbl (refcol)
-- NOT VALID: on a partitioned table partition by partition (before 18 it
-- refuses NOT VALID; one way on every version), and xid_move_fk_validate()
-- then puts the table's own on top
CREATE FUNCTION @extschema@.xid_move_fk_add_commands(rel regclass, con name, col name, tbl regclass, refcol name, actions text)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT array_agg(format('ALTER TABLE %s ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES %s (%I) %s NOT VALID',
		x.leaf, con, col, tbl, refcol, actions) ORDER BY x.leaf::text)
	FROM (SELECT t.relid::regclass AS leaf FROM pg_partition_tree(rel) t
	      WHERE t.isleaf AND (SELECT relkind FROM pg_class WHERE oid = rel) = 'p'
	      UNION ALL
	      SELECT rel WHERE (SELECT relkind FROM pg_class WHERE oid = rel) <> 'p') x
$$;

COMMENT ON FUNCTION @extschema@.xid_move_fk_add_commands(regclass, name, name, regclass, name, text) IS
'the statements that add a foreign key NOT VALID, partition by partition on a partitioned table';

-- Validate each foreign key a swap (or a swap back) added NOT VALID, one
-- transaction each (SHARE UPDATE EXCLUSIVE: writers go on); a partitioned
-- table's, added partition by partition, then goes on the table itself.
-- Resumable: only the foreign keys not valid yet.
CREATE PROCEDURE @extschema@.xid_move_fk_validate(
	tbl regclass,
	lock_timeout interval,
	retries integer)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r @extschema@.xid_move_parts;
	c record;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child'
	LOOP
		FOR c IN SELECT con.conrelid::regclass AS rel, con.conname FROM pg_constraint con
		          WHERE con.contype = 'f' AND con.conname = r.constraint_name AND NOT con.convalidated
		            AND con.conparentid = 0
		            AND (con.conrelid = r.relation OR con.conrelid IN (SELECT relid FROM pg_partition_tree(r.relation)))
		          ORDER BY con.conrelid::regclass::text
		LOOP
			PERFORM @extschema@.xid_move_run(tbl, format('ALTER TABLE %s VALIDATE CONSTRAINT %I', c.rel, c.conname));
			RAISE NOTICE 'foreign key % of % validated', quote_ident(c.conname), c.rel;
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END LOOP;
		-- a partitioned table's foreign key went on each partition: now
		-- that they are valid, the table's own takes them over
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = r.relation AND conname = r.constraint_name) THEN
			-- the referenced table first, as writers lock them
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[
				format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', tbl),
				format('ALTER TABLE %s ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES %s (%I) %s',
					r.relation, r.constraint_name, r.column_name, tbl, m.key_column,
					@extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.leaf AND conname = r.constraint_name)))],
				lock_timeout, retries);
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END IF;
	END LOOP;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_fk_validate(regclass, interval, integer) IS
'validate the foreign keys a move of a table to xid added NOT VALID';
-- An index's storage clauses, to build its copy with: WITH (its
-- options) and TABLESPACE (when not the database's default), or ''
CREATE FUNCTION @extschema@.xid_move_index_storage(idx regclass)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT coalesce(' WITH (' || (SELECT string_agg(quote_ident(split_part(o, '=', 1)) || ' = ' || quote_literal(substr(o, strpos(o, '=') + 1)), ', ')
	                              FROM unnest(c.reloptions) o) || ')', '')
	       || coalesce(' TABLESPACE ' || (SELECT quote_ident(t.spcname) FROM pg_tablespace t WHERE t.oid = c.reltablespace), '')
	FROM pg_class c WHERE c.oid = idx
$$;

COMMENT ON FUNCTION @extschema@.xid_move_index_storage(regclass) IS
'an index''s WITH and TABLESPACE clauses, for a copy of it';

-- The indexes over the key or a referencing column that the move builds
-- again on the new column: one row each, with the name of the new one.
-- The key's own (the primary key) is not among them.
CREATE FUNCTION @extschema@.xid_move_moved_indexes(tbl regclass)
RETURNS TABLE (relation regclass, old_index regclass, new_index name, cols text, is_unique boolean,
               nulls_not_distinct boolean, constraint_name name, deferral text, method name, storage text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT p.relation, i.indexrelid::regclass, (left(ic.relname, 40) || '_xm' || p.tag)::name,
	       '(' || (SELECT string_agg(
	                  CASE WHEN k.att = p_att.attnum THEN quote_ident(p.new_column) ELSE quote_ident(a.attname) END
	                  -- another column's collation and operator class, when
	                  -- not its own and not its type's default (the new
	                  -- column takes xid's default)
	                  || CASE WHEN k.att = p_att.attnum OR i.indcollation[k.i - 1] IN (0, a.attcollation) THEN ''
	                          ELSE (SELECT ' COLLATE ' || quote_ident(n.nspname) || '.' || quote_ident(co.collname)
	                                FROM pg_collation co JOIN pg_namespace n ON n.oid = co.collnamespace
	                                WHERE co.oid = i.indcollation[k.i - 1]) END
	                  || CASE WHEN k.att = p_att.attnum THEN ''
	                          ELSE (SELECT CASE WHEN oc.opcdefault AND oc.opcintype = a.atttypid THEN ''
	                                            ELSE ' ' || quote_ident(n.nspname) || '.' || quote_ident(oc.opcname) END
	                                FROM pg_opclass oc JOIN pg_namespace n ON n.oid = oc.opcnamespace
	                                WHERE oc.oid = i.indclass[k.i - 1]) END
	                  || CASE WHEN k.i > i.indnkeyatts THEN ''
	                          WHEN (i.indoption[k.i - 1] & 1) = 1 AND (i.indoption[k.i - 1] & 2) = 0 THEN ' DESC NULLS LAST'
	                          WHEN (i.indoption[k.i - 1] & 1) = 1 THEN ' DESC'
	                          WHEN (i.indoption[k.i - 1] & 2) = 2 THEN ' NULLS FIRST' ELSE '' END,
	                  ', ' ORDER BY k.i) FILTER (WHERE k.i <= i.indnkeyatts)
	        FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(att, i)
	        JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.att) || ')'
	       || coalesce(' INCLUDE (' || (
	            SELECT string_agg(CASE WHEN k.att = p_att.attnum THEN quote_ident(p.new_column) ELSE quote_ident(a.attname) END, ', ' ORDER BY k.i)
	            FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(att, i)
	            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.att WHERE k.i > i.indnkeyatts) || ')', ''),
	       i.indisunique,
	       coalesce((to_jsonb(i) ->> 'indnullsnotdistinct')::boolean, false),
	       con.conname,
	       CASE WHEN con.condeferred THEN 'DEFERRABLE INITIALLY DEFERRED' WHEN con.condeferrable THEN 'DEFERRABLE' ELSE '' END,
	       (SELECT am.amname FROM pg_am am WHERE am.oid = ic.relam),
	       @extschema@.xid_move_index_storage(i.indexrelid)
	FROM (SELECT DISTINCT ON (x.relation, x.constraint_name) * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1) p
	JOIN pg_attribute p_att ON p_att.attrelid = p.relation AND p_att.attname = p.column_name
	JOIN pg_index i ON i.indrelid = p.relation AND p_att.attnum = ANY (i.indkey::int2[])
	JOIN pg_class ic ON ic.oid = i.indexrelid
	LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = p.relation
	WHERE NOT (p.role = 'parent' AND con.contype IS NOT DISTINCT FROM 'p')
	  AND (con.contype IS NULL OR con.contype = 'u')
	  AND ic.relname NOT LIKE '%\_xm\_%' AND i.indexprs IS NULL AND i.indpred IS NULL
	  AND NOT EXISTS (SELECT FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)
	ORDER BY p.relation::text, i.indexrelid::regclass::text
$$;

COMMENT ON FUNCTION @extschema@.xid_move_moved_indexes(regclass) IS
'the indexes over a moved column that a move builds again on the new column';

-- The name of the copy of a moved index on a partition rel of a
-- partitioned table top (new_index on top itself): the partition's name,
-- the move's tag and a hash of the index, so that two moved indexes of one
-- table never share one
CREATE FUNCTION @extschema@.xid_move_part_index(rel oid, top regclass, new_index name, tag text)
RETURNS name
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT CASE WHEN rel = top THEN new_index
	            ELSE (left(c.relname, 36) || '_xm' || tag || '_' || left(md5(new_index), 4))::name END
	FROM pg_class c WHERE c.oid = rel
$$;

COMMENT ON FUNCTION @extschema@.xid_move_part_index(oid, regclass, name, text) IS
'the name of the copy of a moved index on a partition';

-- The indexes the swap needs, built CONCURRENTLY by the caller (no
-- procedure may): a unique index on the new key, one on the old key (it
-- stays unique and findable), and each index over the key or a
-- referencing column built again on the new column (a partitioned table's
-- partition by partition at every level, then attached).  Only the missing ones; an index
-- left invalid by a failed build is dropped first.  For psql's \gexec.
CREATE FUNCTION @extschema@.xid_move_index_commands(tbl regclass)
RETURNS SETOF text
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r record;
	node record;
	ix record;
	nsp name;
	idx name;
	col name;
	def text;
BEGIN
	m := @extschema@.xid_move_get(tbl);
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	SELECT n.nspname INTO nsp FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
	IF m.step NOT IN ('started', 'backfilled', 'validated') THEN
		RETURN;
	END IF;
	FOREACH col IN ARRAY ARRAY[m.new_column, m.key_column] LOOP
		idx := @extschema@.xid_move_name(tbl, par.tag, CASE WHEN col = m.new_column THEN '_n' ELSE '_o' END);
		IF EXISTS (SELECT FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
		           WHERE i.indrelid = tbl AND c.relname = idx AND NOT i.indisvalid) THEN
			RETURN NEXT format('DROP INDEX CONCURRENTLY %I.%I', nsp, idx);
		END IF;
		IF @extschema@.xid_move_unique_index(tbl, col, m.constraint_name) IS NULL THEN
			-- with the storage of the key's index
			RETURN NEXT format('CREATE UNIQUE INDEX CONCURRENTLY %I ON %s (%I)%s', idx, tbl, col,
				coalesce(@extschema@.xid_move_index_storage((SELECT c.conindid FROM pg_constraint c
				                                             WHERE c.conrelid = tbl AND c.conname = m.constraint_name)), ''));
		END IF;
	END LOOP;
	FOR r IN SELECT x.*, c.relkind, n.nspname FROM @extschema@.xid_move_moved_indexes(tbl) x
	         JOIN pg_class c ON c.oid = x.relation JOIN pg_namespace n ON n.oid = c.relnamespace LOOP
		IF r.relkind <> 'p' THEN
			def := format('%s %%s%I ON %s USING %I %s%s%s', CASE WHEN r.is_unique THEN 'CREATE UNIQUE INDEX' ELSE 'CREATE INDEX' END, r.new_index,
				r.relation, r.method, r.cols, CASE WHEN r.nulls_not_distinct THEN ' NULLS NOT DISTINCT' ELSE '' END, r.storage);
			CONTINUE WHEN EXISTS (SELECT FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
			                      WHERE i.indrelid = r.relation AND c.relname = r.new_index AND i.indisvalid);
			IF EXISTS (SELECT FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
			           WHERE i.indrelid = r.relation AND c.relname = r.new_index) THEN
				RETURN NEXT format('DROP INDEX CONCURRENTLY %I.%I', r.nspname, r.new_index);
			END IF;
			RETURN NEXT format(def, 'CONCURRENTLY ');
			CONTINUE;
		END IF;
		-- a partitioned table, at every level: the index ON ONLY each
		-- partitioned table, CONCURRENTLY on each leaf, each attached to
		-- its parent's; what exists, valid and attached, is not asked again
		-- (the partitioned table's own is valid once every one below is).
		-- The attaches go bottom up: attaching the last index below a
		-- partitioned index that is attached already would validate that
		-- one's parent too, taking ACCESS EXCLUSIVE on the table above in
		-- the middle of the statement, a deadlock with the writers.
		FOR node IN SELECT t.relid::regclass AS rel, t.level, c.relkind, n.nspname,
		                   @extschema@.xid_move_part_index(t.relid, r.relation, r.new_index, par.tag) AS idx
		            FROM pg_partition_tree(r.relation) t JOIN pg_class c ON c.oid = t.relid JOIN pg_namespace n ON n.oid = c.relnamespace
		            ORDER BY t.level, t.relid::regclass::text LOOP
			SELECT i.indexrelid, i.indisvalid INTO ix FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			 WHERE i.indrelid = node.rel AND c.relname = node.idx;
			IF FOUND AND node.relkind <> 'p' AND NOT ix.indisvalid THEN
				RETURN NEXT format('DROP INDEX CONCURRENTLY %I.%I', node.nspname, node.idx);
			END IF;
			IF NOT FOUND OR (node.relkind <> 'p' AND NOT ix.indisvalid) THEN
				RETURN NEXT format('%s %s%I ON %s%s USING %I %s%s%s', CASE WHEN r.is_unique THEN 'CREATE UNIQUE INDEX' ELSE 'CREATE INDEX' END,
					CASE WHEN node.relkind = 'p' THEN '' ELSE 'CONCURRENTLY ' END, node.idx,
					CASE WHEN node.relkind = 'p' THEN 'ONLY ' ELSE '' END, node.rel, r.method, r.cols,
					CASE WHEN r.nulls_not_distinct THEN ' NULLS NOT DISTINCT' ELSE '' END, r.storage);
			END IF;
		END LOOP;
		FOR node IN SELECT t.relid::regclass AS rel, t.parentrelid::regclass AS parent, n.nspname,
		                   @extschema@.xid_move_part_index(t.relid, r.relation, r.new_index, par.tag) AS idx,
		                   @extschema@.xid_move_part_index(t.parentrelid, r.relation, r.new_index, par.tag) AS parent_idx
		            FROM pg_partition_tree(r.relation) t JOIN pg_class c ON c.oid = t.relid JOIN pg_namespace n ON n.oid = c.relnamespace
		            WHERE t.level > 0
		            ORDER BY t.level DESC, t.relid::regclass::text LOOP
			CONTINUE WHEN EXISTS (SELECT FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_inherits h ON h.inhrelid = i.indexrelid
			                      WHERE i.indrelid = node.rel AND c.relname = node.idx AND i.indisvalid);
			RETURN NEXT format('ALTER INDEX %I.%I ATTACH PARTITION %I.%I',
				(SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = node.parent),
				node.parent_idx, node.nspname, node.idx);
		END LOOP;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_index_commands(regclass) IS
'the CREATE INDEX CONCURRENTLY statements a move still needs, for psql''s \gexec';

-- CHECK (column IS NOT NULL) on the key of the table and on each
-- referencing column that is NOT NULL, validated, so that SET NOT NULL need
-- not scan: the new xid columns (old => false, before the swap) or the old
-- ones (old => true, before a swap back).  Each is added NOT VALID (a brief
-- lock, committed at once), then validated one table at a time under SHARE
-- UPDATE EXCLUSIVE (writers go on).
CREATE PROCEDURE @extschema@.xid_move_not_null_checks(
	tbl regclass,
	old boolean,
	lock_timeout interval,
	retries integer)
LANGUAGE plpgsql
AS $$
DECLARE
	r @extschema@.xid_move_parts;
	col name;
	cname text;
	checks text[] := '{}';
	s text;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	PERFORM @extschema@.xid_move_get(tbl);
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'parent' OR x.not_null LOOP
		col := CASE WHEN old THEN r.old_column ELSE r.new_column END;
		cname := left(col, 50) || '_not_null';
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = r.relation AND conname = cname) THEN
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%I IS NOT NULL) NOT VALID',
				r.relation, cname, col)], lock_timeout, retries);
		END IF;
		checks := checks || format('ALTER TABLE %s VALIDATE CONSTRAINT %I', r.relation, cname);
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END LOOP;
	FOREACH s IN ARRAY checks LOOP
		PERFORM @extschema@.xid_move_run(tbl, s);
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END LOOP;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_not_null_checks(regclass, boolean, interval, integer) IS
'prove the new (or the old) key columns of a move NOT NULL with validated CHECK constraints';

------------------------------------------------------------------------------
-- Verification
------------------------------------------------------------------------------

-- Every row of every relation of the move checked: before the swap, each
-- row of the table has its new id, and each reference's new value is the
-- new id of the row its old value references; after it, the same read
-- from the old columns (the old value of each reference is the old key of
-- the row its new value references).  Records per relation the rows, the
-- references, the mismatches and a checksum of the (old, new) pairs in
-- the state (xid_move_status() shows them); returns the mismatches.
CREATE FUNCTION @extschema@.xid_move_verify(tbl regclass)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r @extschema@.xid_move_parts;
	after boolean;
	key_old name;
	key_new name;
	ref_old name;
	ref_new name;
	v record;
	total bigint := 0;
BEGIN
	m := @extschema@.xid_move_get(tbl);
	after := m.step IN ('swapped', 'aborting', 'finishing');
	key_old := CASE WHEN after THEN m.old_column ELSE m.key_column END;
	key_new := CASE WHEN after THEN m.key_column ELSE m.new_column END;
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
		IF r.role = 'parent' THEN
			EXECUTE format('SELECT count(*) AS n, count(p.%2$I) AS refs, count(*) FILTER (WHERE p.%2$I IS NULL AND %3$s) AS bad,'
				' bit_xor(hashtextextended(p.%1$I::text || '' '' || p.%2$I::text, 0)) AS sum FROM %4$s AS p',
				key_old, key_new, CASE WHEN after THEN 'false' ELSE 'true' END, tbl) INTO v;
		ELSE
			ref_old := CASE WHEN after THEN r.old_column ELSE r.column_name END;
			ref_new := CASE WHEN after THEN r.column_name ELSE r.new_column END;
			EXECUTE format('SELECT count(*) AS n, count(c.%1$I) AS refs,'
				' count(*) FILTER (WHERE c.%1$I IS NOT NULL AND (p.%3$I IS NULL OR c.%2$I IS NULL OR c.%2$I::text <> p.%4$I::text)'
				'                    OR c.%1$I IS NULL AND c.%2$I IS NOT NULL AND %6$s) AS bad,'
				' bit_xor(hashtextextended(c.%1$I::text || '' '' || c.%2$I::text, 0)) AS sum'
				' FROM %5$s AS c LEFT JOIN %7$s AS p ON p.%3$I = c.%1$I',
				ref_old, ref_new, key_old, key_new, r.relation, CASE WHEN after THEN 'false' ELSE 'true' END, tbl) INTO v;
		END IF;
		UPDATE @extschema@.xid_move_parts x
		   SET verified_rows = v.n, verified_refs = v.refs, mismatches = v.bad, checksum = v.sum, verified = clock_timestamp()
		 WHERE x.tbl = $1 AND x.relation = r.relation AND x.constraint_name = r.constraint_name AND x.role = r.role;
		RAISE NOTICE 'verified %: % rows, % with a % to check, % mismatches', r.relation, v.n, v.refs,
			CASE WHEN r.role = 'parent' THEN 'new id' ELSE 'reference' END, v.bad;
		IF v.bad > 0 THEN
			RAISE WARNING '% of % rows of table % do not match their old % (column %)', v.bad, v.n, r.relation,
				CASE WHEN r.role = 'parent' THEN 'key' ELSE 'reference' END, quote_ident(r.column_name);
		END IF;
		total := total + v.bad;
	END LOOP;
	RETURN total;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_verify(regclass) IS
'check every row and reference of a move against the old key; records counts and checksums, returns the mismatches';

-- After the swap (finish, abort): every row verified against the old
-- columns, or an error naming how many do not match; note ends its detail
CREATE FUNCTION @extschema@.xid_move_verify_swapped(tbl regclass, note text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	n bigint;
BEGIN
	n := @extschema@.xid_move_verify(tbl);
	IF n > 0 THEN
		RAISE EXCEPTION '% rows of the move of table % do not match their old key or reference', n, tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = format('SELECT * FROM %s.xid_move_status(%L) shows them per relation%s.', '@extschema@', tbl::text,
			                      coalesce('; ' || note, ''));
	END IF;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_verify_swapped(regclass, text) IS
'verify every row of a swapped move against its old columns, or fail';

------------------------------------------------------------------------------
-- Validate
------------------------------------------------------------------------------

CREATE PROCEDURE @extschema@.xid_move_validate(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r record;
	n bigint;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	IF m.step NOT IN ('backfilled', 'validated') THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'Validate after the backfill is complete, before the swap.';
	END IF;
	-- the indexes the swap needs, all valid
	FOR r IN SELECT * FROM @extschema@.xid_move_index_commands(tbl) x LIMIT 1 LOOP
		RAISE EXCEPTION 'the move of table % still needs an index', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = format('For example: %s', r.x),
			      HINT = format('Run SELECT * FROM %s.xid_move_index_commands(%L) \gexec in psql (a duplicate id fails the build: xid_move_plan() counts them).',
			                    '@extschema@', tbl::text);
	END LOOP;
	-- every row, every reference
	n := @extschema@.xid_move_verify(tbl);
	IF n > 0 THEN
		RAISE EXCEPTION '% rows of the move of table % lack their new value or have another', n, tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = format('SELECT * FROM %s.xid_move_status(%L) shows them per relation.', '@extschema@', tbl::text),
			      HINT = format('Run the backfill again (it sweeps for rows it missed): CALL %s.xid_move_backfill(%L).', '@extschema@', tbl::text);
	END IF;
	COMMIT;
	-- NOT NULL proved by validated constraints, so that the swap need not
	-- scan
	CALL @extschema@.xid_move_not_null_checks(tbl, false, lock_timeout, retries);
	PERFORM @extschema@.xid_move_settings();
	PERFORM @extschema@.xid_move_set_step(tbl, 'validated');
	RAISE NOTICE 'move of table % validated; next: CALL %.xid_move_swap(%)', tbl, '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_validate(regclass, interval, integer) IS
'check the indexes and every row of a move, and prove the new columns NOT NULL with validated constraints';

-- The statements that give the new column of part p, at the swap, what
-- its old column carries: its column privileges (granted again by the
-- owner), its comment and, on a referencing column, its default as the id
-- of the row the default references (ON DELETE SET DEFAULT and inserts
-- without the column go on working).  Read before the swap's renames,
-- run after them (the new column then has the name).
CREATE FUNCTION @extschema@.xid_move_carry(p @extschema@.xid_move_parts, tbl regclass, m @extschema@.xid_move_moves)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	stmts text[];
	def text;
	id text;
BEGIN
	SELECT coalesce(array_agg(format('GRANT %s (%I) ON %s TO %s%s', x.privilege_type, p.column_name, p.relation,
	                                 CASE WHEN x.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(x.grantee)) END,
	                                 CASE WHEN x.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END)
	                          ORDER BY x.grantee, x.privilege_type), '{}')
	  INTO stmts
	  FROM pg_attribute a, aclexplode(a.attacl) x
	 WHERE a.attrelid = p.relation AND a.attname = p.column_name;
	stmts := stmts || (SELECT format('COMMENT ON COLUMN %s.%I IS %L', p.relation, p.column_name, col_description(a.attrelid, a.attnum))
	                   FROM pg_attribute a WHERE a.attrelid = p.relation AND a.attname = p.column_name
	                     AND col_description(a.attrelid, a.attnum) IS NOT NULL);
	IF p.role = 'child' THEN
		SELECT pg_get_expr(ad.adbin, ad.adrelid) INTO def
		  FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		 WHERE a.attrelid = p.relation AND a.attname = p.column_name AND a.attidentity = '';
		IF def IS NOT NULL THEN
			-- a constant (the plan refuses any other default)
			EXECUTE format('SELECT p.%I::text FROM %s AS p WHERE p.%I = (%s)', m.new_column, tbl, m.key_column, def) INTO id;
			IF id IS NULL THEN
				RAISE EXCEPTION 'the default of column % of table %, %, references no row of table %', quote_ident(p.column_name), p.relation, def, tbl
					USING ERRCODE = 'foreign_key_violation',
					      DETAIL = 'The swap gives the new column the id of the row its default references.',
					      HINT = 'Add that row, or drop the default, then swap again.';
			END IF;
			stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %L::%s.xid', p.relation, p.column_name, id, @extschema@.xid_move_xs());
		END IF;
	END IF;
	RETURN stmts;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_carry(@extschema@.xid_move_parts, regclass, @extschema@.xid_move_moves) IS
'the statements that give the new column of a move the privileges, comment and default of the old one';

-- The statements that put the replica identity of each table of a move
-- whose identity is an index over a moved column on the index that takes
-- that one's place: at the swap (back => false) the copy on the new column,
-- at a swap back the old one.  Read before the statements that drop or
-- rename the indexes, run after them.
CREATE FUNCTION @extschema@.xid_move_replident(tbl regclass, back boolean)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT coalesce(array_agg(format('ALTER TABLE %s REPLICA IDENTITY USING INDEX %I', x.relation, x.target) ORDER BY x.relation::text), '{}')
	FROM (
		SELECT DISTINCT p.relation,
		       CASE WHEN con.contype IN ('p', 'u') THEN con.conname
		            WHEN NOT back THEN (left(ic.relname, 40) || '_xm' || p.tag)::name
		            ELSE (SELECT oc.relname FROM pg_index oi JOIN pg_class oc ON oc.oid = oi.indexrelid
		                  JOIN pg_attribute oa ON oa.attrelid = oi.indrelid AND oa.attnum = ANY (oi.indkey::int2[])
		                  WHERE oi.indrelid = p.relation AND oa.attname = p.old_column
		                    AND (left(oc.relname, 40) || '_xm' || p.tag) = ic.relname LIMIT 1) END AS target
		FROM @extschema@.xid_move_parts p
		JOIN pg_class c ON c.oid = p.relation AND c.relreplident = 'i'
		JOIN pg_index i ON i.indrelid = p.relation AND i.indisreplident
		JOIN pg_class ic ON ic.oid = i.indexrelid
		JOIN pg_attribute a ON a.attrelid = p.relation AND a.attnum = ANY (i.indkey::int2[]) AND a.attname = p.column_name
		LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = p.relation AND con.contype IN ('p', 'u')
		WHERE p.tbl = $1) x
	WHERE x.target IS NOT NULL
$$;

COMMENT ON FUNCTION @extschema@.xid_move_replident(regclass, boolean) IS
'the statements that put a replica identity over a moved column on the index that takes its index''s place';

------------------------------------------------------------------------------
-- Swap
------------------------------------------------------------------------------

CREATE PROCEDURE @extschema@.xid_move_swap(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r @extschema@.xid_move_parts;
	u record;
	stmts text[] := '{}';
	post text[] := '{}';
	fkdef text;
	newidx regclass;
	oldidx regclass;
	attempts integer;
	t0 timestamptz;
	xs text;
	carry text[];
	late text[] := '{}';
	replident text[];
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	xs := @extschema@.xid_move_xs();
	IF m.step <> 'validated' THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'The swap comes after xid_move_validate().';
	END IF;
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	carry := @extschema@.xid_move_carry(par, tbl, m);
	replident := @extschema@.xid_move_replident(tbl, false);
	newidx := @extschema@.xid_move_unique_index(tbl, m.new_column, m.constraint_name);
	oldidx := @extschema@.xid_move_unique_index(tbl, m.key_column, m.constraint_name);
	IF newidx IS NULL OR oldidx IS NULL OR EXISTS (SELECT FROM @extschema@.xid_move_index_commands(tbl)) THEN
		RAISE EXCEPTION 'the move of table % lacks a valid index', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = format('Run SELECT * FROM %s.xid_move_index_commands(%L) \gexec in psql, then validate again.', '@extschema@', tbl::text);
	END IF;

	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		fkdef := @extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.relation AND conname = r.constraint_name));
		-- what the column carries, read before the renames
		carry := carry || @extschema@.xid_move_carry(r, tbl, m);
		stmts := stmts || @extschema@.xid_move_ref_drop(r, 'c')
		               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, r.constraint_name)
		               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.column_name, r.old_column)
		               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.new_column, r.column_name);
		IF r.not_null THEN
			stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', r.relation, r.column_name)
			               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, left(r.new_column, 50) || '_not_null');
		END IF;
		-- after the replica identity has left the old column
		late := late || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', r.relation, r.old_column);
		-- the old column kept following the new one, so that
		-- xid_move_abort() can swap back until the finish
		stmts := stmts || @extschema@.xid_move_ref_ddl(r, m, 'old', r.column_name, r.old_column, format('OPERATOR(%s.=)', xs), 'b');
		-- the foreign key again, on the new column, NOT VALID: finish
		-- validates it without blocking writers.  A partitioned table takes
		-- it partition by partition (before 18 it refuses NOT VALID; one
		-- way on every version), and finish puts the table's own on top
		post := post || @extschema@.xid_move_fk_add_commands(r.relation, r.constraint_name, r.column_name, tbl, m.key_column, fkdef);
	END LOOP;
	-- the old foreign keys go before the old primary key they depend on,
	-- the new ones come after the new primary key
	stmts := stmts || ARRAY[
		format('DROP TRIGGER %I ON %s', 'xid_move_sync_update', tbl),
		-- the trigger function of a move started before 1.2
		@extschema@.xid_move_drop_fn(tbl, par.tag, 'p'),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, m.constraint_name),
		format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, m.new_column),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(m.new_column, 50) || '_not_null'),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.key_column, m.old_column),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.new_column, m.key_column),
		format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, m.constraint_name,
		       (SELECT relname FROM pg_class WHERE oid = newidx)),
		format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.xid_new()', tbl, m.key_column, xs)];
	-- a move started under 1.0 has an insert trigger too
	IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'xid_move_sync') THEN
		stmts := format('DROP TRIGGER %I ON %s', 'xid_move_sync', tbl) || stmts;
	END IF;
	-- unique constraints over a moved column: the one on the new column
	-- takes the name, the old one keeps enforcing on the old column
	FOR u IN SELECT * FROM @extschema@.xid_move_moved_indexes(tbl) x WHERE x.constraint_name IS NOT NULL LOOP
		stmts := stmts || format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', u.relation, u.constraint_name, left(u.constraint_name, 59) || '_old')
		               || format('ALTER TABLE %s ADD CONSTRAINT %I UNIQUE USING INDEX %I %s', u.relation, u.constraint_name, u.new_index, u.deferral);
	END LOOP;
	-- The old key's unique index stays a plain index until the finish (it
	-- becomes the primary key again if the move is aborted).  Rows written
	-- from here on get an old key from the column's default, a uuid key
	-- the id's own UUIDv7; one without either may stay empty.
	IF m.key_type = 'uuid'::regtype THEN
		stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger(%L, %L, %L, %L)',
			'xid_move_back', tbl, '@extschema@', 'back', @extschema@.xid_move_schema_of('xid'), m.key_column, m.old_column);
	ELSIF NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = m.key_column
	                  AND (a.atthasdef OR a.attidentity <> '')) THEN
		late := late || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', tbl, m.old_column);
	END IF;
	-- the replica identity on the index that took its index's place, then
	-- the old columns may be NULL; privileges, defaults and comments of the
	-- old columns given to the new ones
	stmts := stmts || replident || late || carry;
	stmts := stmts || post;
	stmts := stmts || format('SELECT %s.xid_move_set_step(%L, ''swapped'')', '@extschema@', tbl::oid);

	-- all of it in one transaction: a failed lock attempt undoes it all and
	-- is tried again
	t0 := clock_timestamp();
	attempts := @extschema@.xid_move_exec(tbl, @extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
	RAISE NOTICE 'table % swapped to xid in % attempt(s), % after the first', tbl, attempts, clock_timestamp() - t0;
	RAISE NOTICE 'its key is now an xid (default %.xid_new()); the old key is column %, still unique; next: CALL %.xid_move_finish(%)',
		xs, quote_ident(m.old_column), '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap(regclass, interval, integer) IS
'swap a table''s key and its foreign keys to the new xid columns, in one short transaction under lock_timeout';

------------------------------------------------------------------------------
-- Finish
------------------------------------------------------------------------------

-- Every check first, while xid_move_abort() still works: the foreign keys
-- validated, every row verified against the old columns, nothing that
-- would stop the old columns from being dropped.  Then the point of no
-- return: the triggers that keep the old columns following go.  Every
-- later statement is idempotent, so a finish stopped half-way completes
-- when called again.
CREATE PROCEDURE @extschema@.xid_move_finish(
	tbl regclass,
	drop_old boolean DEFAULT false,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r @extschema@.xid_move_parts;
	d record;
	stmts text[];
	renames text[];
	oldidx regclass;
	n bigint;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	IF drop_old IS NULL THEN
		RAISE EXCEPTION 'drop_old must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF m.step NOT IN ('swapped', 'finishing') THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = CASE WHEN m.step = 'aborting' THEN format('Its abort is under way: CALL %s.xid_move_abort(%L).', '@extschema@', tbl::text)
			                  ELSE 'Finish comes after xid_move_swap().' END;
	END IF;
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	IF m.step = 'swapped' THEN
		-- the checks, abort still possible
		CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
		PERFORM @extschema@.xid_move_settings();
		PERFORM @extschema@.xid_move_verify_swapped(tbl, 'the move can still be aborted');
		IF drop_old THEN
			FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
				FOR d IN SELECT pg_describe_object(dep.classid, dep.objid, dep.objsubid) AS o
				         FROM pg_depend dep JOIN pg_attribute a ON a.attrelid = dep.refobjid AND a.attnum = dep.refobjsubid
				         WHERE dep.refclassid = 'pg_class'::regclass AND dep.refobjid = r.relation AND a.attname = r.old_column
				           AND dep.deptype = 'n'
				           AND dep.classid <> 'pg_class'::regclass
				           AND NOT (dep.classid = 'pg_constraint'::regclass
				                    AND (SELECT c.conrelid = r.relation AND c.contype <> 'f' FROM pg_constraint c WHERE c.oid = dep.objid))
				           AND NOT (dep.classid = 'pg_trigger'::regclass
				                    AND (SELECT t.tgname LIKE 'xid\_move%' FROM pg_trigger t WHERE t.oid = dep.objid))
				         LIMIT 1 LOOP
					RAISE EXCEPTION 'column % of table % cannot be dropped: % depends on it', quote_ident(r.old_column), r.relation, d.o
						USING ERRCODE = 'dependent_objects_still_exist',
						      HINT = 'Drop or change it, then finish again; or finish with drop_old => false.';
				END LOOP;
			END LOOP;
		END IF;
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END IF;
	-- the point of no return: the old columns stop following the new ones
	-- (again, if a finish stopped before its end)
	IF true THEN
		stmts := ARRAY[format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', tbl)];
		FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
			stmts := stmts || @extschema@.xid_move_ref_drop(r, 'b');
		END LOOP;
		IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'xid_move_back') THEN
			stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_back', tbl);
		END IF;
		stmts := stmts || @extschema@.xid_move_drop_fn(tbl, par.tag, 'q')
		               || format('SELECT %s.xid_move_set_step(%L, ''finishing'')', '@extschema@', tbl::oid);
		PERFORM @extschema@.xid_move_exec(tbl, stmts, lock_timeout, retries);
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END IF;
	CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
	PERFORM @extschema@.xid_move_settings();
	IF drop_old THEN
		-- the indexes moved with the key take the names of those that go
		-- with the old columns
		SELECT array_agg(format('ALTER INDEX %I.%I RENAME TO %I', n.nspname, left(ic.relname, 40) || '_xm' || p.tag, ic.relname))
		  INTO renames
		  FROM (SELECT DISTINCT ON (x.relation, x.constraint_name) * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1) p
		  JOIN pg_attribute a ON a.attrelid = p.relation AND a.attname = p.old_column
		  JOIN pg_index i ON i.indrelid = p.relation AND a.attnum = ANY (i.indkey::int2[])
		  JOIN pg_class ic ON ic.oid = i.indexrelid
		  JOIN pg_namespace n ON n.oid = ic.relnamespace
		 WHERE NOT EXISTS (SELECT FROM pg_constraint con WHERE con.conindid = i.indexrelid)
		   AND ic.relname NOT LIKE '%\_xm\_%'
		   AND EXISTS (SELECT FROM pg_class c2 JOIN pg_index i2 ON i2.indexrelid = c2.oid
		               WHERE i2.indrelid = p.relation AND c2.relname = left(ic.relname, 40) || '_xm' || p.tag);
		-- and on a partitioned table, each partition's at every level
		renames := renames || ARRAY(
			SELECT format('ALTER INDEX %I.%I RENAME TO %I', pn.nspname,
			              @extschema@.xid_move_part_index(pi.indrelid, p.relation, (left(ic.relname, 40) || '_xm' || p.tag)::name, par.tag), pc.relname)
			  FROM (SELECT DISTINCT ON (x.relation, x.constraint_name) * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1) p
			  JOIN pg_attribute a ON a.attrelid = p.relation AND a.attname = p.old_column
			  JOIN pg_index i ON i.indrelid = p.relation AND a.attnum = ANY (i.indkey::int2[])
			  JOIN pg_class ic ON ic.oid = i.indexrelid AND ic.relkind = 'I'
			  CROSS JOIN LATERAL pg_partition_tree(ic.oid) t
			  JOIN pg_index pi ON pi.indexrelid = t.relid
			  JOIN pg_class pc ON pc.oid = t.relid
			  JOIN pg_namespace pn ON pn.oid = pc.relnamespace
			 WHERE t.level > 0 AND ic.relname NOT LIKE '%\_xm\_%'
			   AND EXISTS (SELECT FROM pg_class c2 JOIN pg_index i2 ON i2.indexrelid = c2.oid
			               WHERE i2.indrelid = pi.indrelid
			                 AND c2.relname = @extschema@.xid_move_part_index(pi.indrelid, p.relation, (left(ic.relname, 40) || '_xm' || p.tag)::name, par.tag))
			 ORDER BY pc.relname);
		FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.old_column)],
				lock_timeout, retries);
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END LOOP;
		IF cardinality(renames) > 0 THEN
			PERFORM @extschema@.xid_move_exec(tbl, renames, lock_timeout, retries);
		END IF;
	ELSE
		-- the old key's index a unique constraint
		oldidx := @extschema@.xid_move_unique_index(tbl, m.old_column, '');
		IF oldidx IS NOT NULL AND NOT EXISTS (SELECT FROM pg_constraint WHERE conindid = oldidx AND conrelid = tbl) THEN
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[
				format('ALTER TABLE %s ADD CONSTRAINT %I UNIQUE USING INDEX %I', tbl,
				       left((SELECT relname FROM pg_class WHERE oid = tbl), 30) || '_' || left(m.key_column, 25) || '_old_key',
				       (SELECT relname FROM pg_class WHERE oid = oldidx))], lock_timeout, retries);
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END IF;
	END IF;
	DELETE FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	RAISE NOTICE 'move of table % to xid finished%', tbl,
		CASE WHEN drop_old THEN '; the old key columns are dropped' ELSE '; the old key stays in column ' || quote_ident(m.old_column) END;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_finish(regclass, boolean, interval, integer) IS
'finish a move to xid: its checks, then the point of no return, then the old key columns kept or dropped; resumable';

------------------------------------------------------------------------------
-- Abort
------------------------------------------------------------------------------

CREATE PROCEDURE @extschema@.xid_move_abort(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r @extschema@.xid_move_parts;
	i regclass;
	stmts text[] := '{}';
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	IF m.step = 'finishing' THEN
		RAISE EXCEPTION 'the move of table % is finishing', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'Its old key columns stopped following the new ones when xid_move_finish() passed its checks.',
			      HINT = format('Finish it: CALL %s.xid_move_finish(%L).', '@extschema@', tbl::text);
	END IF;
	IF m.step IN ('swapped', 'aborting') THEN
		CALL @extschema@.xid_move_swap_back(tbl, lock_timeout, retries);
		RETURN;
	END IF;
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	-- (xid_move_sync: the insert trigger of a move started under 1.0)
	IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'xid_move_sync') THEN
		stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_sync', tbl);
	END IF;
	stmts := stmts || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync_update', tbl)
	               || @extschema@.xid_move_drop_fn(tbl, par.tag, 'p');
	-- the index on the old key that the move asked for
	FOR i IN SELECT c.oid FROM pg_class c JOIN pg_index x ON x.indexrelid = c.oid
	          WHERE x.indrelid = tbl AND c.relname = @extschema@.xid_move_name(tbl, par.tag, '_o') LOOP
		stmts := stmts || format('DROP INDEX %s', i);
	END LOOP;
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		stmts := stmts || @extschema@.xid_move_ref_drop(r, 'c');
	END LOOP;
	-- its indexes and constraints go with the column
	FOR r IN SELECT DISTINCT ON (x.relation, x.new_column) * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 LOOP
		stmts := stmts || format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.new_column);
	END LOOP;
	stmts := stmts || format('DELETE FROM %s.xid_move_moves WHERE tbl = %L', '@extschema@', tbl::oid);
	PERFORM @extschema@.xid_move_exec(tbl, @extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
	RAISE NOTICE 'move of table % aborted: the tables are as they were before it started', tbl;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_abort(regclass, interval, integer) IS
'undo a move to xid, before or after its swap, until its finish passes its checks';

-- xid_move_abort() after the swap: the old key back as the primary key and
-- the foreign keys back on the old columns, in one short transaction under
-- lock_timeout like the swap; then the foreign keys validated.  Since the
-- swap, the old columns followed the new ones (triggers); rows the
-- triggers could not give an old key (a key column with no default)
-- stop it with an error, before any change.
CREATE PROCEDURE @extschema@.xid_move_swap_back(
	tbl regclass,
	lock_timeout interval,
	retries integer)
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r @extschema@.xid_move_parts;
	u record;
	oldidx regclass;
	n bigint;
	stmts text[] := '{}';
	post text[] := '{}';
	fkdef text;
	attempts integer;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	IF m.step = 'swapped' THEN
		oldidx := @extschema@.xid_move_unique_index(tbl, m.old_column, '');
		IF oldidx IS NULL THEN
			RAISE EXCEPTION 'table % has no valid unique index on %', tbl, quote_ident(m.old_column)
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = 'The swap back makes it the primary key again.';
		END IF;
		EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NULL', tbl, m.old_column) INTO n;
		IF n > 0 THEN
			RAISE EXCEPTION '% rows of table % have no old key', n, tbl
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = format('Column %s has no default, and rows written since the swap left it empty.', quote_ident(m.old_column)),
				      HINT = format('Give them old keys, then abort again; or finish the move: CALL %s.xid_move_finish(%L).', '@extschema@', tbl::text);
		END IF;
		PERFORM @extschema@.xid_move_verify_swapped(tbl, NULL);
		COMMIT;
		-- NOT NULL proved by validated constraints, as xid_move_validate()
		-- does, so that the swap back need not scan
		CALL @extschema@.xid_move_not_null_checks(tbl, true, lock_timeout, retries);
		PERFORM @extschema@.xid_move_settings();

		FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
			fkdef := @extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.leaf AND conname = r.constraint_name));
			stmts := stmts || @extschema@.xid_move_ref_drop(r, 'b')
			               -- the table's own foreign key (the finish may have
			               -- added it) takes its partitions' with it
			               || format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', r.relation, r.constraint_name);
			IF (SELECT relkind FROM pg_class WHERE oid = r.relation) = 'p' THEN
				stmts := stmts || (SELECT array_agg(format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid::regclass, r.constraint_name)
				                                    ORDER BY t.relid::regclass::text)
				                   FROM pg_partition_tree(r.relation) t WHERE t.isleaf);
			END IF;
			post := post || @extschema@.xid_move_fk_add_commands(r.relation, r.constraint_name, r.column_name, tbl, m.key_column, fkdef);
			-- the xid column goes with its indexes; the old one is renamed back
			stmts := stmts || format('ALTER TABLE %s DROP COLUMN %I', r.relation, r.column_name)
			               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.old_column, r.column_name);
			IF r.not_null THEN
				stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', r.relation, r.column_name)
				               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, left(r.old_column, 50) || '_not_null');
			END IF;
		END LOOP;
		-- unique constraints over a moved column: the old ones get their
		-- names back (the new ones go with the xid columns)
		FOR u IN SELECT con.conrelid::regclass AS relation, con.conname FROM pg_constraint con
		         WHERE con.contype = 'u' AND con.conrelid IN (SELECT x.relation FROM @extschema@.xid_move_parts x WHERE x.tbl = $1)
		           AND con.conname LIKE '%\_old' ESCAPE '\'
		           AND EXISTS (SELECT FROM pg_constraint c2 WHERE c2.conrelid = con.conrelid AND c2.conname = left(con.conname, length(con.conname) - 4)
		                       AND c2.contype = 'u') LOOP
			stmts := stmts || format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', u.relation, left(u.conname, length(u.conname) - 4))
			               || format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', u.relation, u.conname, left(u.conname, length(u.conname) - 4));
		END LOOP;
		IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'xid_move_back') THEN
			stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_back', tbl);
		END IF;
		stmts := stmts || @extschema@.xid_move_drop_fn(tbl, par.tag, 'q')
		               || ARRAY[
			format('ALTER TABLE %s DROP COLUMN %I', tbl, m.key_column),
			format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.old_column, m.key_column),
			format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, m.key_column),
			format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(m.old_column, 50) || '_not_null'),
			format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, m.constraint_name,
			       (SELECT relname FROM pg_class WHERE oid = oldidx))]
			|| post
			|| format('SELECT %s.xid_move_set_step(%L, ''aborting'')', '@extschema@', tbl::oid);
		attempts := @extschema@.xid_move_exec(tbl, @extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
		RAISE NOTICE 'table % swapped back to its old key in % attempt(s)', tbl, attempts;
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END IF;
	-- the foreign keys, added NOT VALID, validated without blocking writers
	CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
	PERFORM @extschema@.xid_move_settings();
	DELETE FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	RAISE NOTICE 'move of table % aborted after its swap: its key is column % again, the xid columns are dropped', tbl, quote_ident(m.key_column);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap_back(regclass, interval, integer) IS
'xid_move_abort() after the swap: the old key and the foreign keys on it back, the xid columns dropped';
