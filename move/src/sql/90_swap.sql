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
	stmts pg_catalog.text[] := '{}';
	post pg_catalog.text[] := '{}';
	fkdef pg_catalog.text;
	newidx pg_catalog.regclass;
	oldidx pg_catalog.regclass;
	attempts pg_catalog.int4;
	t0 pg_catalog.timestamptz;
	xs pg_catalog.text;
	carry pg_catalog.text[];
	late pg_catalog.text[] := '{}';
	replident pg_catalog.text[];
	avoid pg_catalog.name[];
	aside pg_catalog.name;
	adds pg_catalog.text[] := '{}';
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
		@extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_sync_update'),
		format('DROP TRIGGER %I ON %s', 'xid_move_sync_update', tbl),
		@extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_sync_replace'),
		format('DROP TRIGGER %I ON %s', 'xid_move_sync_replace', tbl),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, m.constraint_name),
		format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, m.new_column),
		format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(m.new_column, 50) || '_not_null'),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.key_column, m.old_column),
		format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.new_column, m.key_column),
		format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, m.constraint_name,
		       (SELECT relname FROM pg_class WHERE oid = newidx)),
		format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.xid_new()', tbl, m.key_column, xs)];
	-- unique constraints over a moved column: the one on the new column
	-- (the copy the move recorded, by OID) takes the name, the old one
	-- keeps enforcing on the old column under a free name.  Every old one
	-- is renamed before any copy takes a name: a constraint a first move
	-- left (x and x_old) moves again without a clash.
	avoid := ARRAY(SELECT x.constraint_name FROM @extschema@.xid_move_moved_indexes(tbl) x WHERE x.constraint_name IS NOT NULL);
	FOR u IN SELECT * FROM @extschema@.xid_move_moved_indexes(tbl) x WHERE x.constraint_name IS NOT NULL
	         ORDER BY x.relation::text, x.constraint_name LOOP
		aside := @extschema@.xid_move_aside_name(u.relation, u.constraint_name, avoid);
		avoid := avoid || aside;
		stmts := stmts || format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', u.relation, u.constraint_name, aside);
		adds := adds || format('ALTER TABLE %s ADD CONSTRAINT %I UNIQUE USING INDEX %I %s', u.relation, u.constraint_name,
			(SELECT c.relname FROM pg_class c WHERE c.oid = u.copy_index), u.deferral);
	END LOOP;
	stmts := stmts || adds;
	-- The old key's unique index stays a plain index until the finish (it
	-- becomes the primary key again if the move is aborted).  Rows written
	-- from here on get an old key from the column's default, a uuid key
	-- the id's own UUIDv7; one without either may stay empty.
	IF m.key_type = 'uuid'::regtype THEN
		stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger()',
			'xid_move_back', tbl, '@extschema@')
			|| @extschema@.xid_move_trigger_always(tbl, 'xid_move_back')
			|| @extschema@.xid_move_trigger_record(tbl, tbl, 'xid_move_back', 'back', 'old', m.key_column, m.old_column);
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
	-- under the swap's lock: no partition has come into the move since
	-- its rows were backfilled and verified
	attempts := @extschema@.xid_move_exec(tbl, ARRAY[@extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE'),
		format('SELECT %s.xid_move_check_leaves(%s::pg_catalog.oid::pg_catalog.regclass)', '@extschema@', tbl::oid)] || stmts,
		lock_timeout, retries);
	RAISE NOTICE 'table % swapped to xid in % attempt(s), % after the first', tbl, attempts, clock_timestamp() - t0;
	RAISE NOTICE 'its key is now an xid (default %.xid_new()); the old key is column %, still unique; next: CALL %.xid_move_finish(%)',
		xs, quote_ident(m.old_column), '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap(regclass, interval, integer) IS
'swap a table''s key and its foreign keys to the new xid columns, in one short transaction under lock_timeout';
