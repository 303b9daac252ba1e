/* xid--1.1--1.2.sql: update the xid extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.2'" to load this file. \quit

------------------------------------------------------------------------------
-- The durable mark: the database owner may read and set it (pg_dump and
-- pg_restore do), whoever installed the extension.  1.1 grants this since
-- the owner's dump was found to fail; granted here again for a 1.1
-- installed before that, and a no-op where the grant is there.
------------------------------------------------------------------------------

GRANT SELECT, UPDATE ON SEQUENCE @extschema@.xid_durable_mark TO pg_database_owner;

------------------------------------------------------------------------------
-- Casts to and from uuid
--
-- An id as a UUIDv7 with its time: the 22 bits below the time in rand_a
-- and the first 10 bits of rand_b, the rest zero, so ids and their uuids
-- sort alike and the round trip is exact.  The cast from uuid takes only
-- such uuids (an error for any other: a silent truncation would make two
-- uuids one id).  Explicit only, as every cast of the type.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_to_uuid(@extschema@.xid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'xid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_uuid(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (@extschema@.xid AS uuid)
	WITH FUNCTION @extschema@.xid_to_uuid(@extschema@.xid);
CREATE CAST (uuid AS @extschema@.xid)
	WITH FUNCTION @extschema@.xid_from_uuid(uuid);

COMMENT ON FUNCTION @extschema@.xid_to_uuid(@extschema@.xid) IS
'the id as a version 7 uuid with its time, sorting alike (the cast to uuid)';
COMMENT ON FUNCTION @extschema@.xid_from_uuid(uuid) IS
'the id a uuid made by xid_to_uuid() stands for; an error for any other uuid (the cast from uuid)';

------------------------------------------------------------------------------
-- Ids of the other time-sortable formats, keeping their time
--
-- Each takes the time and the 22 bits that follow it and drops the rest:
-- the id sorts where the original did (ties aside), and an id converted
-- to that format comes back exactly.  They cannot keep uniqueness, but for
-- ulid-flake, whose 20 bits fit whole.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_from_uuidv7(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_to_ulid(@extschema@.xid)
RETURNS text
AS 'MODULE_PATHNAME', 'xid_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid_flake(bigint)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_flake'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_from_uuidv7(uuid) IS
'the id of a version 7 uuid: its time and the 22 bits after it';
COMMENT ON FUNCTION @extschema@.xid_from_ulid(uuid) IS
'the id of a ULID stored as a uuid: its time and the first 22 bits of its randomness';
COMMENT ON FUNCTION @extschema@.xid_from_ulid(text) IS
'the id of a ULID''s 26 symbols: its time and the first 22 bits of its randomness';
COMMENT ON FUNCTION @extschema@.xid_to_ulid(@extschema@.xid) IS
'the id as a ULID''s 26 symbols with its time, sorting alike';
COMMENT ON FUNCTION @extschema@.xid_from_ulid_flake(bigint) IS
'the id of a ulid-flake id: its time and its 20 bits, unique and in order as they were';

------------------------------------------------------------------------------
-- Ids for existing rows
--
-- xid_from_key(t, key): the row's millisecond and 22 bits of its old key
-- (the key modulo 2^22, or the first 22 bits of a uuid).  Immutable: the
-- same row always gets the same id.  Two rows with distinct bigint keys
-- get the same id only when they share a millisecond and their keys differ
-- by a multiple of 2^22; the move checks it and the unique index turns it
-- into an error (src/xid_key.c has the whole argument).
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_from_key(timestamptz, bigint)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_key_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_key(timestamptz, uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_key_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_from_key(timestamptz, bigint) IS
'the id of an existing row: its millisecond and its bigint key modulo 2^22';
COMMENT ON FUNCTION @extschema@.xid_from_key(timestamptz, uuid) IS
'the id of an existing row: its millisecond and the first 22 bits of its uuid key';

------------------------------------------------------------------------------
-- The online move of a table's key to xid
--
-- For one table and every foreign key that references its primary key:
--   xid_move_start       new columns, sync triggers (dry_run: the plan)
--   xid_move_backfill    batched, resumable, throttled; NOTICEs and
--                        xid_move_status()
--   xid_move_index_commands()  the CREATE INDEX CONCURRENTLY statements,
--                        for psql's \gexec (no procedure may run them)
--   xid_move_validate    every row checked, NOT NULL proved by constraints
--   xid_move_swap        one short transaction under lock_timeout, retried
--   xid_move_finish      foreign keys validated, old columns kept or dropped
--   xid_move_abort       undoes every step before the swap
--
-- All run as the caller (SECURITY INVOKER): the table's owner, who must
-- also own every referencing table; nothing needs a superuser.  Each
-- transaction they run sets search_path to pg_catalog, pg_temp for its own
-- duration (a procedure with a SET clause could not commit between
-- batches), and every name they write into SQL is quoted with %I or is a
-- regclass.  The state of a move is a table beside the moved one,
-- <table>_xid_move, owned by the caller: each batch of the backfill
-- commits with its progress, so a crash or a cancel loses at most the
-- batch under way.
------------------------------------------------------------------------------

-- The state table of the move of tbl (whether it exists or not)
CREATE FUNCTION @extschema@.xid_move_state_name(tbl regclass)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
	SELECT format('%I.%I', n.nspname, left(c.relname, 54) || '_xid_move')
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = tbl
$$;

-- An object of the move beside tbl, in its schema: the name quoted
CREATE FUNCTION @extschema@.xid_move_object_name(tbl regclass, suffix text)
RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
	SELECT format('%I.%I', n.nspname, left(c.relname, 40) || suffix)
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE c.oid = tbl
$$;

COMMENT ON FUNCTION @extschema@.xid_move_object_name(regclass, text) IS
'the quoted name of an object a move of a table to xid makes beside it';

COMMENT ON FUNCTION @extschema@.xid_move_state_name(regclass) IS
'the table that holds the state of the move of a table''s key to xid';

-- The state table of the move of tbl under way; an error when there is none
CREATE FUNCTION @extschema@.xid_move_state(tbl regclass)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	st text := @extschema@.xid_move_state_name(tbl);
BEGIN
	IF to_regclass(st) IS NULL THEN
		RAISE EXCEPTION 'no move of table % is under way', tbl USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	RETURN st;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_state(regclass) IS
'the state table of a move of a table''s key to xid that is under way; an error if none is';

-- The id expression of the parent's row "r" (NEW in a trigger)
CREATE FUNCTION @extschema@.xid_move_id_expr(r text, key_col name, key_type regtype, time_col name)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
	SELECT CASE
		WHEN time_col IS NULL THEN
			format('%s.xid_from_uuidv7(%s.%I)', '@extschema@', r, key_col)
		WHEN key_type = 'uuid'::regtype THEN
			format('%s.xid_from_key(%s.%I, %s.%I)', '@extschema@', r, time_col, r, key_col)
		ELSE
			format('%s.xid_from_key(%s.%I, %s.%I::pg_catalog.int8)', '@extschema@', r, time_col, r, key_col)
	END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_id_expr(text, name, regtype, name) IS
'the expression that makes the id of a row of a table being moved to xid';

-- Run statements in one subtransaction under lock_timeout, retrying them
-- all when a lock is not granted in time (or a writer deadlocks with
-- them): a failed attempt releases every lock it took, so no writer waits
-- on the move longer than the timeout plus the statements' own time.  The
-- short DDL of every step goes through here.  Returns the attempts made.
CREATE FUNCTION @extschema@.xid_move_exec(stmts text[], timeout interval, retries integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	attempt integer := 0;
	stmt text;
BEGIN
	PERFORM set_config('lock_timeout', (extract(epoch FROM timeout) * 1000)::bigint::text || 'ms', true);
	LOOP
		attempt := attempt + 1;
		BEGIN
			FOREACH stmt IN ARRAY stmts LOOP
				EXECUTE stmt;
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

COMMENT ON FUNCTION @extschema@.xid_move_exec(text[], interval, integer) IS
'run statements of a move in one subtransaction under lock_timeout, all retried when a lock is not granted';

-- The move's plan: the referencing foreign keys, and every check that
-- must pass before anything changes.  Raises the error of the first
-- check that fails; returns one row per relation to change.
CREATE FUNCTION @extschema@.xid_move_plan(tbl regclass, time_column name DEFAULT NULL)
RETURNS TABLE (role text, relation regclass, leaf regclass, constraint_name name,
               column_name name, new_column name, not_null boolean, key_type regtype)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	pk record;
	fk record;
	keytype regtype;
	rel record;
BEGIN
	SELECT c.relkind, c.relowner, c.relname INTO rel FROM pg_class c WHERE c.oid = tbl;
	IF rel.relkind <> 'r' THEN
		RAISE EXCEPTION 'table % cannot be moved to xid', tbl
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = 'Only a plain table''s key can be moved; a partitioned table''s key includes its partition key.';
	END IF;
	IF NOT pg_has_role(rel.relowner, 'USAGE') THEN
		RAISE EXCEPTION 'must be owner of table %', tbl USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT con.conname, con.conkey INTO pk FROM pg_constraint con
	 WHERE con.conrelid = tbl AND con.contype = 'p';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'table % has no primary key', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'The move replaces a primary key of one column with an xid.';
	END IF;
	IF cardinality(pk.conkey) <> 1 THEN
		RAISE EXCEPTION 'the primary key of table % has % columns', tbl, cardinality(pk.conkey)
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = 'The move replaces a primary key of one column with an xid.';
	END IF;
	SELECT a.attname, a.atttypid::regtype AS typ INTO fk FROM pg_attribute a
	 WHERE a.attrelid = tbl AND a.attnum = pk.conkey[1];
	keytype := fk.typ;
	IF keytype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'uuid'::regtype) THEN
		RAISE EXCEPTION 'the primary key of table % is of type %', tbl, keytype
			USING ERRCODE = 'feature_not_supported',
			      DETAIL = 'The move takes a key of type smallint, integer, bigint or uuid.';
	END IF;
	IF time_column IS NULL AND keytype <> 'uuid'::regtype THEN
		RAISE EXCEPTION 'a move of a % key needs the column that holds each row''s time', keytype
			USING ERRCODE = 'invalid_parameter_value',
			      HINT = 'Pass time_column => ''created_at'' (a timestamptz column), or the like.';
	END IF;
	-- without a time column each key's own time is used: every key must be
	-- a version 7 uuid (rows written during the move too: the trigger
	-- refuses others)
	IF time_column IS NULL THEN
		EXECUTE format('SELECT k FROM %s AS t(k) WHERE pg_catalog.substr(k::text, 15, 1) OPERATOR(pg_catalog.<>) ''7''
		                  OR pg_catalog.substr(k::text, 20, 1) NOT IN (''8'', ''9'', ''a'', ''b'') LIMIT 1',
		               format('(SELECT %I FROM %s)', fk.attname, tbl)) INTO rel;
		IF rel IS NOT NULL THEN
			RAISE EXCEPTION 'table % has keys that are not version 7 uuids, such as %', tbl, rel.k
				USING ERRCODE = 'invalid_parameter_value',
				      HINT = 'Pass time_column => the column that holds each row''s time.';
		END IF;
	END IF;
	IF time_column IS NOT NULL AND NOT EXISTS (
		SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = time_column
		   AND NOT a.attisdropped AND a.attnum > 0 AND a.atttypid = 'timestamptz'::regtype) THEN
		RAISE EXCEPTION 'table % has no column % of type timestamp with time zone', tbl, quote_ident(time_column)
			USING ERRCODE = 'undefined_column';
	END IF;
	IF EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = tbl
	             AND a.attname IN (fk.attname || '_xid', fk.attname || '_old') AND NOT a.attisdropped) THEN
		RAISE EXCEPTION 'table % already has a column %_xid or %_old', tbl, fk.attname, fk.attname
			USING ERRCODE = 'duplicate_column',
			      HINT = 'A move in progress goes on with its next step; xid_move_status() says which.';
	END IF;
	role := 'parent'; relation := tbl; leaf := tbl; constraint_name := pk.conname;
	column_name := fk.attname; new_column := fk.attname || '_xid'; not_null := true; key_type := keytype;
	RETURN NEXT;

	FOR fk IN
		SELECT con.conname, con.conrelid::regclass AS child, con.conkey, c.relowner, c.relkind,
		       a.attname, a.attnotnull
		FROM pg_constraint con
		JOIN pg_class c ON c.oid = con.conrelid
		JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
		WHERE con.contype = 'f' AND con.confrelid = tbl AND con.conparentid = 0
		  AND con.confkey = ARRAY[pk.conkey[1]]
		ORDER BY con.conrelid::regclass::text, con.conname
	LOOP
		IF fk.child = tbl THEN
			RAISE EXCEPTION 'table % references itself through %', tbl, quote_ident(fk.conname)
				USING ERRCODE = 'feature_not_supported';
		END IF;
		IF cardinality(fk.conkey) <> 1 THEN
			RAISE EXCEPTION 'foreign key % of table % has % columns', quote_ident(fk.conname), fk.child, cardinality(fk.conkey)
				USING ERRCODE = 'feature_not_supported';
		END IF;
		IF NOT pg_has_role(fk.relowner, 'USAGE') THEN
			RAISE EXCEPTION 'must be owner of table %, which references table %', fk.child, tbl
				USING ERRCODE = 'insufficient_privilege',
				      DETAIL = format('The move changes foreign key %s of table %s.', quote_ident(fk.conname), fk.child);
		END IF;
		IF EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = fk.child
		             AND a.attname IN (fk.attname || '_xid', fk.attname || '_old') AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'table % already has a column %_xid or %_old', fk.child, fk.attname, fk.attname
				USING ERRCODE = 'duplicate_column';
		END IF;
		role := 'child'; relation := fk.child; constraint_name := fk.conname;
		column_name := fk.attname; new_column := fk.attname || '_xid'; not_null := fk.attnotnull;
		IF fk.relkind = 'p' THEN
			FOR leaf IN SELECT t.relid FROM pg_partition_tree(fk.child) t WHERE t.isleaf ORDER BY t.relid::regclass::text
			LOOP
				RETURN NEXT;
			END LOOP;
		ELSE
			leaf := fk.child;
			RETURN NEXT;
		END IF;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan(regclass, name) IS
'the relations a move of a table''s key to xid changes, after checking that it can';

CREATE PROCEDURE @extschema@.xid_move_start(
	tbl regclass,
	time_column name DEFAULT NULL,
	dry_run boolean DEFAULT false,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	p record;
	par record;
	expr text;
	stmts text[] := '{}';
	s text;
	ncoll bigint;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state_name(tbl);
	IF to_regclass(st) IS NOT NULL THEN
		RAISE EXCEPTION 'a move of table % is under way', tbl
			USING ERRCODE = 'object_in_use',
			      HINT = format('SELECT * FROM %s.xid_move_status(%L) says where it is.', '@extschema@', tbl::text);
	END IF;
	-- every check before any change
	SELECT * INTO par FROM @extschema@.xid_move_plan(tbl, time_column) WHERE role = 'parent';
	expr := @extschema@.xid_move_id_expr('NEW', par.column_name, par.key_type, time_column);

	stmts := stmts || format('CREATE TABLE %s (role text NOT NULL, relation regclass NOT NULL, leaf regclass NOT NULL,'
		' constraint_name name NOT NULL, column_name name NOT NULL, new_column name NOT NULL, not_null boolean NOT NULL,'
		' key_type regtype NOT NULL, time_column name, step text NOT NULL DEFAULT %L,'
		' blocks bigint NOT NULL DEFAULT 0, blocks_done bigint NOT NULL DEFAULT 0, rows_done bigint NOT NULL DEFAULT 0,'
		' updated timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(), PRIMARY KEY (role, leaf, constraint_name))', st, 'started');
	stmts := stmts || format('ALTER TABLE %s ADD COLUMN %I %s.xid', tbl, par.new_column, '@extschema@');
	stmts := stmts || format(
		'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, @extschema@, pg_temp AS %L',
		@extschema@.xid_move_object_name(tbl, '_xid_sync_p'), format('BEGIN NEW.%I := %s; RETURN NEW; END', par.new_column, expr));
	-- an update fires the function only when the id may change (its
	-- condition is checked without calling it): not for the backfill's own
	-- updates, nor for updates of other columns of a row that has its id
	stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s()',
		'xid_move_sync', tbl, @extschema@.xid_move_object_name(tbl, '_xid_sync_p'));
	stmts := stmts || format('CREATE TRIGGER %I BEFORE UPDATE ON %s FOR EACH ROW'
		' WHEN (NEW.%I IS NULL OR NEW.%I IS DISTINCT FROM OLD.%I%s) EXECUTE FUNCTION %s()',
		'xid_move_sync_update', tbl, par.new_column, par.column_name, par.column_name,
		CASE WHEN time_column IS NULL THEN '' ELSE format(' OR NEW.%I IS DISTINCT FROM OLD.%I', time_column, time_column) END,
		@extschema@.xid_move_object_name(tbl, '_xid_sync_p'));
	FOR p IN SELECT DISTINCT ON (relation, constraint_name) * FROM @extschema@.xid_move_plan(tbl, time_column)
	          WHERE role = 'child' ORDER BY relation, constraint_name
	LOOP
		stmts := stmts || format('ALTER TABLE %s ADD COLUMN %I %s.xid', p.relation, p.new_column, '@extschema@');
		stmts := stmts || format(
			'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, @extschema@, pg_temp AS %L',
			@extschema@.xid_move_object_name(tbl, '_xid_sync_c' || p.relation::oid),
			format('BEGIN IF NEW.%1$I IS NULL THEN NEW.%2$I := NULL; ELSE SELECT %3$s INTO NEW.%2$I FROM %4$s AS p WHERE p.%5$I OPERATOR(pg_catalog.=) NEW.%1$I; END IF; RETURN NEW; END',
			       p.column_name, p.new_column, @extschema@.xid_move_id_expr('p', par.column_name, par.key_type, time_column),
			       tbl, par.column_name));
		stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OF %I ON %s FOR EACH ROW EXECUTE FUNCTION %s()',
			'xid_move_sync_' || p.constraint_name, p.column_name, p.relation, @extschema@.xid_move_object_name(tbl, '_xid_sync_c' || p.relation::oid));
	END LOOP;

	IF dry_run THEN
		RAISE NOTICE 'move of table % to xid: the plan', tbl;
		FOR p IN SELECT * FROM @extschema@.xid_move_plan(tbl, time_column) LOOP
			RAISE NOTICE '  %: % (leaf %) column % -> new column % (constraint %, % blocks)', p.role, p.relation, p.leaf,
				quote_ident(p.column_name), quote_ident(p.new_column), quote_ident(p.constraint_name),
				pg_relation_size(p.leaf) / current_setting('block_size')::bigint;
		END LOOP;
		RAISE NOTICE 'id of a row: %', @extschema@.xid_move_id_expr('row', par.column_name, par.key_type, time_column);
		EXECUTE format('SELECT count(*) - count(DISTINCT %s) FROM %s AS row', @extschema@.xid_move_id_expr('row', par.column_name, par.key_type, time_column), tbl)
			INTO ncoll;
		RAISE NOTICE 'rows whose id another row has too: % (the move needs 0)', ncoll;
		RAISE NOTICE 'start (each statement under lock_timeout %):', lock_timeout;
		FOREACH s IN ARRAY stmts LOOP
			RAISE NOTICE '  %;', s;
		END LOOP;
		RAISE NOTICE '%', format('then: CALL %1$s.xid_move_backfill(%2$L); SELECT * FROM %1$s.xid_move_index_commands(%2$L) \gexec; CALL %1$s.xid_move_validate(%2$L); CALL %1$s.xid_move_swap(%2$L); CALL %1$s.xid_move_finish(%2$L)',
			'@extschema@', tbl::text);
		RETURN;
	END IF;

	-- the state first (the plan's checks see no new column yet), then the DDL
	EXECUTE stmts[1];
	EXECUTE format('INSERT INTO %s (role, relation, leaf, constraint_name, column_name, new_column, not_null, key_type, time_column)'
		' SELECT role, relation, leaf, constraint_name, column_name, new_column, not_null, key_type, $1'
		' FROM %s.xid_move_plan($2, $1)', st, '@extschema@')
		USING time_column, tbl;
	PERFORM @extschema@.xid_move_exec(
		format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE',
		       (SELECT string_agg(x, ', ' ORDER BY o) FROM (
		            SELECT DISTINCT ON (relation) relation::text AS x, role <> 'parent' AS o
		            FROM @extschema@.xid_move_status(tbl) ORDER BY relation, role DESC) l))
		|| stmts[2:], lock_timeout, retries);
	-- the blocks to backfill: rows written from here on pass the triggers,
	-- which the locks of the DDL above waited for; older rows lie below
	EXECUTE format('UPDATE %s SET blocks = pg_catalog.pg_relation_size(leaf) / pg_catalog.current_setting(''block_size'')::bigint', st);
	RAISE NOTICE 'move of table % started: the new columns are kept in sync; next: CALL %.xid_move_backfill(%)', tbl, '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_start(regclass, name, boolean, interval, integer) IS
'start moving a table''s key and its foreign keys to xid: new columns and sync triggers (dry_run: print the plan)';

CREATE FUNCTION @extschema@.xid_move_status(tbl regclass)
RETURNS TABLE (role text, relation regclass, leaf regclass, step text, blocks bigint,
               blocks_done bigint, rows_done bigint, percent numeric, updated timestamptz)
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	st text := @extschema@.xid_move_state_name(tbl);
BEGIN
	IF to_regclass(st) IS NULL THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format('SELECT s.role, s.relation, s.leaf, (SELECT p.step FROM %1$s p WHERE p.role = ''parent''),'
		' s.blocks, s.blocks_done, s.rows_done,'
		' CASE WHEN s.blocks = 0 THEN 100 ELSE round(100.0 * s.blocks_done / s.blocks, 1) END, s.updated'
		' FROM %1$s s ORDER BY s.role DESC, s.relation::text, s.leaf::text', st);
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_status(regclass) IS
'where the move of a table''s key to xid is: its step, and the backfill''s progress per relation';

-- Each batch updates the rows of a range of blocks and commits: a writer
-- that updates or deletes one of those rows waits for the commit.  With
-- batch_time, the ranges are sized so that a batch takes about that long
-- (at most batch_blocks blocks), whatever the load: the longest such wait
-- follows batch_time, not the table or the machine.
CREATE PROCEDURE @extschema@.xid_move_backfill(
	tbl regclass,
	batch_blocks integer DEFAULT 64,
	pause interval DEFAULT '0',
	max_batches integer DEFAULT NULL,
	batch_time interval DEFAULT '200ms')
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	r record;
	par record;
	upto bigint;
	n bigint;
	batches integer := 0;
	total bigint;
	done bigint;
	size integer;
	t0 timestamptz;
	took float8;
	target float8 := extract(epoch FROM batch_time);
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	IF par.step NOT IN ('started', 'backfilled') THEN
		RAISE EXCEPTION 'the move of table % is past its backfill (step %)', tbl, par.step
			USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	IF batch_blocks IS NULL OR batch_blocks < 1 THEN
		RAISE EXCEPTION 'batch_blocks must be at least 1' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF target IS NOT NULL AND target < 0 THEN
		RAISE EXCEPTION 'batch_time must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- timed batches start small and grow (at most doubling) while they take
	-- less than batch_time
	size := CASE WHEN target > 0 THEN least(batch_blocks, 8) ELSE batch_blocks END;
	LOOP
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
		EXECUTE format('SELECT * FROM %s WHERE blocks_done < blocks ORDER BY role DESC, leaf::text LIMIT 1', st) INTO r;
		EXIT WHEN r IS NULL;
		EXIT WHEN max_batches IS NOT NULL AND batches >= max_batches;
		upto := least(r.blocks, r.blocks_done + size);
		t0 := clock_timestamp();
		IF r.role = 'parent' THEN
			EXECUTE format('UPDATE %1$s AS row SET %2$I = %3$s WHERE row.ctid >= $1 AND row.ctid < $2 AND row.%2$I IS NULL',
				r.leaf, r.new_column, @extschema@.xid_move_id_expr('row', r.column_name, r.key_type, r.time_column))
				USING format('(%s,0)', r.blocks_done)::tid, format('(%s,0)', upto)::tid;
		ELSE
			-- each child row looks its parent up through the parent's
			-- primary key: a subquery in SET is never made a join, so no
			-- plan reads the whole parent for a batch (a join did, by a
			-- hash join, once the child's statistics said its new column
			-- was mostly null: every batch paid for the whole parent)
			EXECUTE format('UPDATE %1$s AS c SET %2$I = (SELECT %3$s FROM %4$s AS row WHERE row.%5$I = c.%6$I)'
				' WHERE c.ctid >= $1 AND c.ctid < $2 AND c.%2$I IS NULL AND c.%6$I IS NOT NULL',
				r.leaf, r.new_column, @extschema@.xid_move_id_expr('row', par.column_name, par.key_type, par.time_column),
				tbl, par.column_name, r.column_name)
				USING format('(%s,0)', r.blocks_done)::tid, format('(%s,0)', upto)::tid;
		END IF;
		GET DIAGNOSTICS n = ROW_COUNT;
		EXECUTE format('UPDATE %s SET blocks_done = $1, rows_done = rows_done + $2, updated = clock_timestamp()'
			' WHERE role = $3 AND leaf = $4 AND constraint_name = $5', st)
			USING upto, n, r.role, r.leaf, r.constraint_name;
		EXECUTE format('SELECT sum(blocks), sum(blocks_done) FROM %s', st) INTO total, done;
		batches := batches + 1;
		IF batches % 10 = 1 OR done = total THEN
			RAISE NOTICE 'backfill of %: % blocks of % done (% rows in this batch of %)', tbl, done, total, n, r.leaf;
		END IF;
		COMMIT;
		IF target > 0 THEN
			took := greatest(extract(epoch FROM clock_timestamp() - t0), 0.0001);
			size := greatest(1, least(batch_blocks::float8, 2.0 * size, floor(size * target / took)))::integer;
		END IF;
		IF pause > '0'::interval THEN
			PERFORM pg_catalog.pg_sleep(extract(epoch FROM pause)::float8);
		END IF;
	END LOOP;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	EXECUTE format('SELECT count(*) FROM %s WHERE blocks_done < blocks', st) INTO n;
	IF n = 0 THEN
		EXECUTE format('UPDATE %s SET step = ''backfilled'' WHERE role = ''parent''', st);
		RAISE NOTICE 'backfill of % complete; next: SELECT * FROM %.xid_move_index_commands(%) \gexec', tbl, '@extschema@', quote_literal(tbl::text);
	END IF;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_backfill(regclass, integer, interval, integer, interval) IS
'fill the new xid columns of a move, in batches of blocks that each commit (sized to take batch_time); resumes where it stopped';

-- The indexes the swap needs, built CONCURRENTLY by the caller (no
-- procedure may): a unique index on the new key, one on the old key (it
-- stays unique and findable), and one on each referencing column that had
-- one (a partitioned table's index built partition by partition, then
-- attached).  Only the missing ones; for psql's \gexec.
CREATE FUNCTION @extschema@.xid_move_index_commands(tbl regclass)
RETURNS SETOF text
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, @extschema@, pg_temp
AS $$
DECLARE
	st text := @extschema@.xid_move_state(tbl);
	r record;
	idx text;
	part regclass;
	pidx text;
BEGIN
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s ORDER BY relation, constraint_name', st)
	LOOP
		IF r.role = 'parent' THEN
			FOREACH idx IN ARRAY ARRAY[r.new_column, r.column_name] LOOP
				IF @extschema@.xid_move_unique_index(tbl, idx, r.constraint_name) IS NULL THEN
					RETURN NEXT format('CREATE UNIQUE INDEX CONCURRENTLY %I ON %s (%I)',
						left((SELECT relname FROM pg_class WHERE oid = tbl), 40) || '_' || left(idx, 16) || '_xm', tbl, idx);
				END IF;
			END LOOP;
		ELSIF EXISTS (SELECT FROM pg_index i WHERE i.indrelid = r.relation AND i.indkey[0] = (
				SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = r.relation AND a.attname = r.column_name))
			AND NOT EXISTS (SELECT FROM pg_index i WHERE i.indrelid = r.relation AND i.indkey[0] = (
				SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = r.relation AND a.attname = r.new_column)) THEN
			idx := left((SELECT relname FROM pg_class WHERE oid = r.relation), 40) || '_' || left(r.new_column, 16) || '_xm';
			IF (SELECT relkind FROM pg_class WHERE oid = r.relation) = 'p' THEN
				RETURN NEXT format('CREATE INDEX %I ON ONLY %s (%I)', idx, r.relation, r.new_column);
				FOR part IN SELECT t.relid FROM pg_partition_tree(r.relation) t WHERE t.isleaf AND t.level = 1 ORDER BY 1::text
				LOOP
					pidx := left((SELECT relname FROM pg_class WHERE oid = part), 40) || '_' || left(r.new_column, 16) || '_xm';
					RETURN NEXT format('CREATE INDEX CONCURRENTLY %I ON %s (%I)', pidx, part, r.new_column);
					RETURN NEXT format('ALTER INDEX %I.%I ATTACH PARTITION %I.%I',
						(SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = r.relation), idx,
						(SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = part), pidx);
				END LOOP;
			ELSE
				RETURN NEXT format('CREATE INDEX CONCURRENTLY %I ON %s (%I)', idx, r.relation, r.new_column);
			END IF;
		END IF;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_index_commands(regclass) IS
'the CREATE INDEX CONCURRENTLY statements a move still needs, for psql''s \gexec';

-- A valid unique index on exactly one column of tbl, not the one of the
-- constraint "skip"; NULL when there is none
CREATE FUNCTION @extschema@.xid_move_unique_index(tbl regclass, col name, skip name)
RETURNS regclass
LANGUAGE sql STABLE
SET search_path = pg_catalog, @extschema@, pg_temp
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
	r record;
	col name;
	cname text;
	checks text[] := '{}';
	s text;
	st text;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''parent'' OR not_null'
	                        ' ORDER BY relation, constraint_name', st)
	LOOP
		col := CASE WHEN old THEN left(r.column_name, 59) || '_old' ELSE r.new_column END;
		cname := CASE WHEN old THEN left(r.column_name, 50) || '_old_not_null' ELSE left(r.new_column, 50) || '_not_null' END;
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = r.relation AND conname = cname) THEN
			PERFORM @extschema@.xid_move_exec(ARRAY[format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%I IS NOT NULL) NOT VALID',
				r.relation, cname, col)], lock_timeout, retries);
		END IF;
		checks := checks || format('ALTER TABLE %s VALIDATE CONSTRAINT %I', r.relation, cname);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	END LOOP;
	FOREACH s IN ARRAY checks LOOP
		EXECUTE s;
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	END LOOP;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_not_null_checks(regclass, boolean, interval, integer) IS
'prove the new (or the old) key columns of a move NOT NULL with validated CHECK constraints';

CREATE PROCEDURE @extschema@.xid_move_validate(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	par record;
	r record;
	n bigint;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	IF par.step NOT IN ('backfilled', 'validated') THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, par.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'Validate after the backfill is complete, before the swap.';
	END IF;
	-- every row has its id, and the one its time and key give
	EXECUTE format('SELECT count(*) FROM %s AS row WHERE row.%I IS DISTINCT FROM %s', tbl, par.new_column,
		@extschema@.xid_move_id_expr('row', par.column_name, par.key_type, par.time_column)) INTO n;
	IF n > 0 THEN
		RAISE EXCEPTION '% rows of table % lack their id or have another', n, tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'A time column updated during the move changes the id; run the backfill again, or abort.';
	END IF;
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
	LOOP
		EXECUTE format('SELECT count(*) FROM %1$s AS c LEFT JOIN %2$s AS p ON p.%3$I = c.%4$I'
			' WHERE c.%5$I IS DISTINCT FROM p.%6$I', r.relation, tbl, par.column_name, r.column_name, r.new_column, par.new_column) INTO n;
		IF n > 0 THEN
			RAISE EXCEPTION '% rows of table % lack the new id of the row they reference', n, r.relation
				USING ERRCODE = 'object_not_in_prerequisite_state';
		END IF;
	END LOOP;
	IF @extschema@.xid_move_unique_index(tbl, par.new_column, par.constraint_name) IS NULL
	   OR @extschema@.xid_move_unique_index(tbl, par.column_name, par.constraint_name) IS NULL THEN
		RAISE EXCEPTION 'table % lacks a valid unique index on % or on %', tbl, quote_ident(par.new_column), quote_ident(par.column_name)
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = format('Run SELECT * FROM %s.xid_move_index_commands(%L) \gexec in psql (an index left invalid by a failed build is dropped first; a duplicate id fails the build: xid_move_start(..., dry_run => true) counts them).',
			                    '@extschema@', tbl::text);
	END IF;
	-- NOT NULL proved by validated constraints, so that the swap need not
	-- scan
	CALL @extschema@.xid_move_not_null_checks(tbl, false, lock_timeout, retries);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	EXECUTE format('UPDATE %s SET step = ''validated'' WHERE role = ''parent''', st);
	RAISE NOTICE 'move of table % validated; next: CALL %.xid_move_swap(%)', tbl, '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_validate(regclass, interval, integer) IS
'check every row of a move and prove the new columns NOT NULL with validated constraints';

-- The ON DELETE / ON UPDATE clause and deferrability of a foreign key
CREATE FUNCTION @extschema@.xid_move_fk_actions(con oid)
RETURNS text
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, @extschema@, pg_temp
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
SET search_path = pg_catalog, @extschema@, pg_temp
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

CREATE PROCEDURE @extschema@.xid_move_swap(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	par record;
	r record;
	stmts text[] := '{}';
	post text[] := '{}';
	locks text;
	fkdef text;
	newidx regclass;
	oldidx regclass;
	attempts integer;
	t0 timestamptz;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	IF par.step <> 'validated' THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, par.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'The swap comes after xid_move_validate().';
	END IF;
	newidx := @extschema@.xid_move_unique_index(tbl, par.new_column, par.constraint_name);
	oldidx := @extschema@.xid_move_unique_index(tbl, par.column_name, par.constraint_name);
	IF newidx IS NULL OR oldidx IS NULL THEN
		RAISE EXCEPTION 'table % lacks a valid unique index on % or on %', tbl, quote_ident(par.new_column), quote_ident(par.column_name)
			USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;

	-- the parent first: the order every writer takes them in (a child row's
	-- foreign key check locks its parent row)
	SELECT string_agg(x, ', ') INTO locks FROM (
		SELECT tbl::text AS x
		UNION ALL
		SELECT DISTINCT relation::text FROM @extschema@.xid_move_status(tbl) WHERE role = 'child') s;
	stmts := stmts || format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', locks);
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
	LOOP
		stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_sync_' || r.constraint_name, r.relation);
		stmts := stmts || format('DROP FUNCTION %s()', @extschema@.xid_move_object_name(tbl, '_xid_sync_c' || r.relation::oid));
		fkdef := @extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.relation AND conname = r.constraint_name));
		stmts := stmts || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, r.constraint_name);
		stmts := stmts || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.column_name, left(r.column_name, 59) || '_old');
		stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', r.relation, left(r.column_name, 59) || '_old');
		stmts := stmts || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.new_column, r.column_name);
		-- the old column kept in step with the new one, so that
		-- xid_move_abort() can swap back until the finish
		stmts := stmts || format(
			'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, @extschema@, pg_temp AS %L',
			@extschema@.xid_move_object_name(tbl, '_xid_back_c' || r.relation::oid),
			format('BEGIN IF NEW.%1$I IS NULL THEN NEW.%2$I := NULL; ELSE SELECT p.%3$I INTO NEW.%2$I FROM %4$s AS p WHERE p.%5$I OPERATOR(@extschema@.=) NEW.%1$I; END IF; RETURN NEW; END',
			       r.column_name, left(r.column_name, 59) || '_old', left(par.column_name, 59) || '_old', tbl, par.column_name));
		stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT OR UPDATE OF %I ON %s FOR EACH ROW EXECUTE FUNCTION %s()',
			'xid_move_back_' || r.constraint_name, r.column_name, r.relation, @extschema@.xid_move_object_name(tbl, '_xid_back_c' || r.relation::oid));
		IF r.not_null THEN
			stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', r.relation, r.column_name);
			stmts := stmts || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, left(r.new_column, 50) || '_not_null');
		END IF;
		-- the foreign key again, on the new column, NOT VALID: finish
		-- validates it without blocking writers.  A partitioned table takes
		-- it partition by partition (before 18 it refuses NOT VALID; one
		-- way on every version), and finish puts the table's own on top
		post := post || @extschema@.xid_move_fk_add_commands(r.relation, r.constraint_name, r.column_name, tbl, par.column_name, fkdef);
	END LOOP;
	-- the old foreign keys go before the old primary key they depend on,
	-- the new ones come after the new primary key
	stmts := stmts || ARRAY[
		format('DROP TRIGGER %I ON %s', 'xid_move_sync', tbl),
		format('DROP TRIGGER %I ON %s', 'xid_move_sync_update', tbl),
		format('DROP FUNCTION %s()', @extschema@.xid_move_object_name(tbl, '_xid_sync_p')),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, par.constraint_name),
		format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, par.new_column),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(par.new_column, 50) || '_not_null'),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, par.column_name, left(par.column_name, 59) || '_old'),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, par.new_column, par.column_name),
		format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, par.constraint_name,
		       (SELECT relname FROM pg_class WHERE oid = newidx)),
		format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.xid_new()', tbl, par.column_name, '@extschema@')];
	-- The old key's unique index stays a plain index until the finish (it
	-- becomes the primary key again if the move is aborted).  Rows written
	-- from here on get an old key from the column's default, a uuid key
	-- the id's own UUIDv7; one without either may stay empty.
	IF par.key_type = 'uuid'::regtype THEN
		stmts := stmts || format(
			'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, @extschema@, pg_temp AS %L',
			@extschema@.xid_move_object_name(tbl, '_xid_back_p'),
			format('BEGIN IF NEW.%1$I IS NULL THEN NEW.%1$I := NEW.%2$I::pg_catalog.uuid; END IF; RETURN NEW; END',
			       left(par.column_name, 59) || '_old', par.column_name));
		stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s()',
			'xid_move_back', tbl, @extschema@.xid_move_object_name(tbl, '_xid_back_p'));
	ELSIF NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = par.column_name
	                  AND (a.atthasdef OR a.attidentity <> '')) THEN
		stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', tbl, left(par.column_name, 59) || '_old');
	END IF;
	stmts := stmts || post;
	stmts := stmts || format('UPDATE %s SET step = ''swapped'', updated = pg_catalog.clock_timestamp()', st);

	-- all of it in one transaction: a failed lock attempt undoes it all and
	-- is tried again
	t0 := clock_timestamp();
	attempts := @extschema@.xid_move_exec(stmts, lock_timeout, retries);
	RAISE NOTICE 'table % swapped to xid in % attempt(s), % after the first', tbl, attempts, clock_timestamp() - t0;
	RAISE NOTICE 'its key is now an xid (default %.xid_new()); the old key is column %, still unique; next: CALL %.xid_move_finish(%)',
		'@extschema@', quote_ident(left(par.column_name, 59) || '_old'), '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap(regclass, interval, integer) IS
'swap a table''s key and its foreign keys to the new xid columns, in one short transaction under lock_timeout';

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
	st text;
	par record;
	r record;
	c record;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
	LOOP
		FOR c IN SELECT con.conrelid::regclass AS rel, con.conname FROM pg_constraint con
		          WHERE con.contype = 'f' AND con.conname = r.constraint_name AND NOT con.convalidated
		            AND con.conparentid = 0
		            AND (con.conrelid = r.relation OR con.conrelid IN (SELECT relid FROM pg_partition_tree(r.relation)))
		          ORDER BY 1::text
		LOOP
			EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', c.rel, c.conname);
			RAISE NOTICE 'foreign key % of % validated', quote_ident(c.conname), c.rel;
			COMMIT;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
		END LOOP;
		-- a partitioned table's foreign key went on each partition: now
		-- that they are valid, the table's own takes them over
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = r.relation AND conname = r.constraint_name) THEN
			-- the referenced table first, as writers lock them
			PERFORM @extschema@.xid_move_exec(ARRAY[
				format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', tbl),
				format('ALTER TABLE %s ADD CONSTRAINT %I FOREIGN KEY (%I) REFERENCES %s (%I) %s',
					r.relation, r.constraint_name, r.column_name, tbl, par.column_name,
					@extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.leaf AND conname = r.constraint_name)))],
				lock_timeout, retries);
			COMMIT;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
		END IF;
	END LOOP;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_fk_validate(regclass, interval, integer) IS
'validate the foreign keys a move of a table to xid added NOT VALID';

CREATE PROCEDURE @extschema@.xid_move_finish(
	tbl regclass,
	drop_old boolean DEFAULT false,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	par record;
	r record;
	stmts text[];
	oldidx regclass;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	IF par.step NOT IN ('swapped', 'finishing') THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, par.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = CASE WHEN par.step = 'aborting' THEN format('Its abort is under way: CALL %s.xid_move_abort(%L).', '@extschema@', tbl::text)
			                  ELSE 'Finish comes after xid_move_swap().' END;
	END IF;
	-- From here the move can only go forward: the old columns stop
	-- following the new ones (again, if a finish stopped before its end)
	stmts := ARRAY[format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', tbl)];
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
	LOOP
		stmts := stmts || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_back_' || r.constraint_name, r.relation)
		               || format('DROP FUNCTION IF EXISTS %s()', @extschema@.xid_move_object_name(tbl, '_xid_back_c' || r.relation::oid));
	END LOOP;
	stmts := stmts || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_back', tbl)
	               || format('DROP FUNCTION IF EXISTS %s()', @extschema@.xid_move_object_name(tbl, '_xid_back_p'))
	               || format('UPDATE %s SET step = ''finishing'', updated = pg_catalog.clock_timestamp()', st);
	PERFORM @extschema@.xid_move_exec(stmts, lock_timeout, retries);
	COMMIT;
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	-- the old key's index a unique constraint, unless the column goes
	oldidx := @extschema@.xid_move_unique_index(tbl, left(par.column_name, 59) || '_old', '');
	IF NOT drop_old AND oldidx IS NOT NULL
	   AND NOT EXISTS (SELECT FROM pg_constraint WHERE conindid = oldidx AND conrelid = tbl) THEN
		PERFORM @extschema@.xid_move_exec(ARRAY[
			format('ALTER TABLE %s ADD CONSTRAINT %I UNIQUE USING INDEX %I', tbl,
			       left((SELECT relname FROM pg_class WHERE oid = tbl), 30) || '_' || left(par.column_name, 25) || '_old_key',
			       (SELECT relname FROM pg_class WHERE oid = oldidx))], lock_timeout, retries);
		COMMIT;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	END IF;
	IF drop_old THEN
		FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s ORDER BY relation, constraint_name', st)
		LOOP
			PERFORM @extschema@.xid_move_exec(ARRAY[format('ALTER TABLE %s DROP COLUMN %I', r.relation, left(r.column_name, 59) || '_old')],
				lock_timeout, retries);
			COMMIT;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
		END LOOP;
	END IF;
	EXECUTE format('DROP TABLE %s', st);
	RAISE NOTICE 'move of table % to xid finished%', tbl,
		CASE WHEN drop_old THEN '; the old key columns are dropped' ELSE '; the old key stays in column ' || quote_ident(left(par.column_name, 59) || '_old') END;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_finish(regclass, boolean, interval, integer) IS
'finish a move to xid: validate the new foreign keys, keep or drop the old key columns';

CREATE PROCEDURE @extschema@.xid_move_abort(
	tbl regclass,
	lock_timeout interval DEFAULT '100ms',
	retries integer DEFAULT 100)
LANGUAGE plpgsql
AS $$
DECLARE
	st text;
	par record;
	r record;
	i regclass;
	stmts text[] := '{}';
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	IF par.step = 'finishing' THEN
		RAISE EXCEPTION 'the move of table % is finishing', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'Its old key columns stopped following the new ones when xid_move_finish() began.',
			      HINT = format('Finish it: CALL %s.xid_move_finish(%L).', '@extschema@', tbl::text);
	END IF;
	IF par.step IN ('swapped', 'aborting') THEN
		CALL @extschema@.xid_move_swap_back(tbl, lock_timeout, retries);
		RETURN;
	END IF;
	FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s ORDER BY relation, constraint_name', st)
	LOOP
		IF r.role = 'parent' THEN
			stmts := stmts || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync', tbl)
			               || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync_update', tbl)
			               || format('DROP FUNCTION IF EXISTS %s()', @extschema@.xid_move_object_name(tbl, '_xid_sync_p'));
			-- the index on the old key that the move asked for
			FOR i IN SELECT x.indexrelid::regclass FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
			          WHERE x.indrelid = tbl AND c.relname = left((SELECT relname FROM pg_class WHERE oid = tbl), 40) || '_' || left(r.column_name, 16) || '_xm'
			LOOP
				stmts := stmts || format('DROP INDEX %s', i);
			END LOOP;
		ELSE
			stmts := stmts || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync_' || r.constraint_name, r.relation)
			               || format('DROP FUNCTION IF EXISTS %s()', @extschema@.xid_move_object_name(tbl, '_xid_sync_c' || r.relation::oid));
		END IF;
		-- its indexes and constraints go with the column
		stmts := stmts || format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.new_column);
	END LOOP;
	stmts := stmts || format('DROP TABLE %s', st);
	-- the table first, then those that reference it, as writers lock them
	PERFORM @extschema@.xid_move_exec(
		format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE',
		       (SELECT string_agg(x, ', ' ORDER BY o) FROM (
		            SELECT DISTINCT ON (relation) relation::text AS x, role <> 'parent' AS o
		            FROM @extschema@.xid_move_status(tbl) ORDER BY relation, role DESC) l))
		|| stmts, lock_timeout, retries);
	RAISE NOTICE 'move of table % aborted: the tables are as they were before it started', tbl;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_abort(regclass, interval, integer) IS
'undo a move to xid, before or after its swap, until its finish begins';

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
	st text;
	par record;
	r record;
	old_col name;
	oldidx regclass;
	n bigint;
	s text;
	stmts text[] := '{}';
	post text[] := '{}';
	fkdef text;
	attempts integer;
BEGIN
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	st := @extschema@.xid_move_state(tbl);
	EXECUTE format('SELECT * FROM %s WHERE role = ''parent''', st) INTO par;
	old_col := left(par.column_name, 59) || '_old';
	IF par.step = 'swapped' THEN
		oldidx := @extschema@.xid_move_unique_index(tbl, old_col, '');
		IF oldidx IS NULL THEN
			RAISE EXCEPTION 'table % has no valid unique index on %', tbl, quote_ident(old_col)
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = 'The swap back makes it the primary key again.';
		END IF;
		-- every row has an old key, and every reference its old value
		EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NULL', tbl, old_col) INTO n;
		IF n > 0 THEN
			RAISE EXCEPTION '% rows of table % have no old key', n, tbl
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = format('Column %s has no default, and rows written since the swap left it empty.', quote_ident(old_col)),
				      HINT = format('Give them old keys, then abort again; or finish the move: CALL %s.xid_move_finish(%L).', '@extschema@', tbl::text);
		END IF;
		FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
		LOOP
			EXECUTE format('SELECT count(*) FROM %1$s AS c LEFT JOIN %2$s AS p ON p.%3$I = c.%4$I WHERE c.%5$I IS DISTINCT FROM p.%6$I',
				r.relation, tbl, par.column_name, r.column_name, left(r.column_name, 59) || '_old', old_col) INTO n;
			IF n > 0 THEN
				RAISE EXCEPTION '% rows of table % lack the old key of the row they reference', n, r.relation
					USING ERRCODE = 'object_not_in_prerequisite_state';
			END IF;
		END LOOP;
		-- NOT NULL proved by validated constraints, as xid_move_validate()
		-- does, so that the swap back need not scan
		CALL @extschema@.xid_move_not_null_checks(tbl, true, lock_timeout, retries);
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);

		-- the swap back: the same locks in the same order as the swap
		SELECT string_agg(x, ', ') INTO s FROM (
			SELECT tbl::text AS x
			UNION ALL
			SELECT DISTINCT relation::text FROM @extschema@.xid_move_status(tbl) WHERE role = 'child') l;
		stmts := stmts || format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', s);
		FOR r IN EXECUTE format('SELECT DISTINCT ON (relation, constraint_name) * FROM %s WHERE role = ''child'' ORDER BY relation, constraint_name', st)
		LOOP
			fkdef := @extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.leaf AND conname = r.constraint_name));
			stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_back_' || r.constraint_name, r.relation)
			               || format('DROP FUNCTION %s()', @extschema@.xid_move_object_name(tbl, '_xid_back_c' || r.relation::oid))
			               -- the table's own foreign key (the finish may have
			               -- added it) takes its partitions' with it
			               || format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', r.relation, r.constraint_name);
			IF (SELECT relkind FROM pg_class WHERE oid = r.relation) = 'p' THEN
				stmts := stmts || (SELECT array_agg(format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid::regclass, r.constraint_name)
				                                    ORDER BY t.relid::regclass::text)
				                   FROM pg_partition_tree(r.relation) t WHERE t.isleaf);
			END IF;
			post := post || @extschema@.xid_move_fk_add_commands(r.relation, r.constraint_name, r.column_name, tbl, par.column_name, fkdef);
			-- the xid column goes with its indexes; the old one is renamed back
			stmts := stmts || format('ALTER TABLE %s DROP COLUMN %I', r.relation, r.column_name)
			               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, left(r.column_name, 59) || '_old', r.column_name);
			IF r.not_null THEN
				stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', r.relation, r.column_name)
				               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, left(r.column_name, 50) || '_old_not_null');
			END IF;
		END LOOP;
		IF par.key_type = 'uuid'::regtype THEN
			stmts := stmts || format('DROP TRIGGER %I ON %s', 'xid_move_back', tbl)
			               || format('DROP FUNCTION %s()', @extschema@.xid_move_object_name(tbl, '_xid_back_p'));
		END IF;
		stmts := stmts || ARRAY[
			format('ALTER TABLE %s DROP COLUMN %I', tbl, par.column_name),
			format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, old_col, par.column_name),
			format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, par.column_name),
			format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(par.column_name, 50) || '_old_not_null'),
			format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, par.constraint_name,
			       (SELECT relname FROM pg_class WHERE oid = oldidx))]
			|| post
			|| format('UPDATE %s SET step = ''aborting'', updated = pg_catalog.clock_timestamp()', st);
		attempts := @extschema@.xid_move_exec(stmts, lock_timeout, retries);
		RAISE NOTICE 'table % swapped back to its old key in % attempt(s)', tbl, attempts;
		COMMIT;
	END IF;
	-- the foreign keys, added NOT VALID, validated without blocking writers
	CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, @extschema@, pg_temp', true);
	EXECUTE format('DROP TABLE %s', st);
	RAISE NOTICE 'move of table % aborted after its swap: its key is column % again, the xid columns are dropped', tbl, quote_ident(par.column_name);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap_back(regclass, interval, integer) IS
'xid_move_abort() after the swap: the old key and the foreign keys on it back, the xid columns dropped';
