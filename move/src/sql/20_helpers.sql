------------------------------------------------------------------------------
-- Helpers
------------------------------------------------------------------------------

-- Has the current role the privileges of the owner of rel?  NULL when rel
-- is gone.
CREATE FUNCTION @extschema@.xid_move_owns(rel regclass)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT pg_catalog.pg_has_role(c.relowner, 'USAGE') FROM pg_catalog.pg_class c WHERE c.oid = rel
$$;

COMMENT ON FUNCTION @extschema@.xid_move_owns(regclass) IS
'whether the current role has the privileges of the owner of a relation';

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

-- The constant a column's own default is, as text, read from the catalog
-- without evaluating the default; NULL when it is not a constant of a
-- built-in type.  (src/xid_move_catalog.c)
CREATE FUNCTION @extschema@.xid_move_default_const(rel regclass, attnum int2)
RETURNS text
AS 'MODULE_PATHNAME', 'xid_move_default_const'
LANGUAGE C STABLE STRICT;

COMMENT ON FUNCTION @extschema@.xid_move_default_const(regclass, int2) IS
'the constant of a column''s default, read without evaluating it';

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

-- The first row of a query, read as the owner of rel as xid_move_run()
-- runs a statement, as a JSON object: no step reads the tables in the
-- caller's own context.  (src/xid_move_run.c)
CREATE FUNCTION @extschema@.xid_move_query(rel regclass, query text)
RETURNS jsonb
AS 'MODULE_PATHNAME', 'xid_move_query'
LANGUAGE C VOLATILE STRICT;

COMMENT ON FUNCTION @extschema@.xid_move_query(regclass, text) IS
'the first row of a query of a move, read as the owner of a table in a security-restricted operation';

-- The only writer of the state, which no role may write: one of its fixed
-- statements for the move of tbl, run as the owner of the state, for a
-- caller with the privileges of the owner of tbl.  (src/xid_move_state.c)
CREATE FUNCTION @extschema@.xid_move_state(tbl regclass, op text, args text[])
RETURNS bigint
AS 'MODULE_PATHNAME', 'xid_move_state'
LANGUAGE C VOLATILE;

COMMENT ON FUNCTION @extschema@.xid_move_state(regclass, text, text[]) IS
'write the state of a move, for the owner of its table';

-- The function of every trigger a move puts on its tables: key, ref, fix
-- and back, told apart by the record the move made of each trigger, by
-- OID, in xid_move_objects; it takes nothing from its arguments and errors
-- for a trigger no move under way recorded (src/xid_move_trigger.c)
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
	attempt pg_catalog.int4 := 0;
	stmt pg_catalog.text;
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
CREATE FUNCTION @extschema@.xid_move_get(tbl regclass, for_abort boolean DEFAULT false)
RETURNS @extschema@.xid_move_moves
LANGUAGE plpgsql VOLATILE
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
	-- partitions dropped or detached since the start (retention): a
	-- dropped one leaves the move; a detached one that still carries what
	-- the move added to it stops every step but the abort, which takes it
	-- out of the move as it takes the move out of the other tables
	FOR p IN SELECT * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.leaf <> x.relation
	           AND NOT EXISTS (SELECT FROM pg_partition_tree(x.relation) t WHERE t.relid = x.leaf) LOOP
		IF NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = p.leaf)
		   OR NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.leaf AND a.attname = p.new_column AND NOT a.attisdropped) THEN
			RAISE NOTICE 'partition % left the move of table %: it was dropped or detached, and holds nothing of the move', p.leaf::oid, tbl;
			PERFORM @extschema@.xid_move_state(tbl, 'remove_part', ARRAY[p.leaf::oid::text]);
		ELSIF for_abort THEN
			RAISE NOTICE 'partition % was detached from % during the move of table %: its column % goes', p.leaf, p.relation, tbl, quote_ident(p.new_column);
			PERFORM @extschema@.xid_move_run(tbl, format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', p.leaf, p.new_column));
			PERFORM @extschema@.xid_move_state(tbl, 'remove_part', ARRAY[p.leaf::oid::text]);
		ELSE
			RAISE EXCEPTION 'table % was detached from % during the move of table %', p.leaf, p.relation, tbl
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = format('It still has the column %I the move added, and its own foreign key on column %I (a detached partition keeps the one it inherited).',
				                      p.new_column, p.column_name),
				      HINT = format('Attach it again; or take it out of the move: ALTER TABLE %s DROP COLUMN %I, and drop its foreign key on %I (or the table) before the swap; or abort the move.',
				                    p.leaf, p.new_column, p.column_name);
		END IF;
	END LOOP;
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

COMMENT ON FUNCTION @extschema@.xid_move_get(regclass, boolean) IS
'the move of a table under way, checked against the catalog; an error if there is none or the caller does not own its tables';

-- Set a move's step
CREATE FUNCTION @extschema@.xid_move_set_step(tbl regclass, step text)
RETURNS void
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT @extschema@.xid_move_state($1, 'set_step', ARRAY[$2])
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
'the name of an index a move makes for a relation';

-- The catalog held to the plan recorded at the start: every trigger and
-- rule the backfill's updates or the writers could run is planned again,
-- with the decisions the start recorded (fire_triggers, replica), and any
-- whose decision is not one the start recorded (attached, enabled or
-- changed since) stops the step, named, before it changes anything
CREATE FUNCTION @extschema@.xid_move_check_plan(tbl regclass)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	p @extschema@.xid_move_part;
	d record;
BEGIN
	SELECT * INTO m FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	FOR p IN SELECT DISTINCT ON (x.relation::text) * FROM @extschema@.xid_move_parts_of(tbl) x ORDER BY x.relation::text LOOP
		FOR d IN SELECT * FROM @extschema@.xid_move_plan_code(tbl, p, m.fire_triggers, m.replica) c
		          WHERE NOT EXISTS (SELECT FROM @extschema@.xid_move_decisions x WHERE x.tbl = $1 AND x.object_type = c.object_type
		                              AND x.object = c.object AND x.action = c.action)
		          LIMIT 1 LOOP
			RAISE EXCEPTION '% % is not as the move of table % planned it', d.object_type, d.object, tbl
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = format('It was attached, enabled or changed since the move started; the plan would now say: %s (%s)', d.action, d.detail),
				      HINT = format('Put it back as it was (or drop it), then call the step again; or abort the move: CALL %s.xid_move_abort(%L).',
				                    '@extschema@', tbl::text);
		END LOOP;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_check_plan(regclass) IS
'stop a step of a move when a trigger or rule is not as the plan recorded at its start decided';

-- Every leaf of every relation of the move is one the move backfilled and
-- (verified => true) verified: a partition attached or made since the
-- backfill (its rows have no new value, or were never verified) stops
-- validate, and the swap under its lock, before anything changes
CREATE FUNCTION @extschema@.xid_move_check_leaves(tbl regclass, verified boolean DEFAULT true)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
BEGIN
	FOR d IN SELECT DISTINCT x.relation, t.relid::regclass AS leaf, t.relid::regclass::text AS leaf_name, x.constraint_name
	          FROM @extschema@.xid_move_parts x, pg_partition_tree(x.relation) t
	          WHERE x.tbl = $1 AND t.isleaf AND t.relid <> x.relation
	            AND NOT EXISTS (SELECT FROM @extschema@.xid_move_parts y WHERE y.tbl = $1 AND y.leaf = t.relid
	                              AND y.constraint_name = x.constraint_name AND y.blocks_done >= y.blocks AND (y.verified IS NOT NULL OR NOT $2))
	          ORDER BY leaf_name LIMIT 1 LOOP
		RAISE EXCEPTION 'partition % of % came into the move of table % after its backfill', d.leaf, d.relation, tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = 'Its rows have not been given their new values, or not verified.',
			      HINT = format('Run the backfill and validate again: CALL %1$s.xid_move_backfill(%2$L); CALL %1$s.xid_move_validate(%2$L).',
			                    '@extschema@', tbl::text);
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_check_leaves(regclass, boolean) IS
'stop the swap of a move when a partition came into it after its backfill';
