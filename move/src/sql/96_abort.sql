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
	r @extschema@.xid_move_parts;
	i pg_catalog.regclass;
	stmts pg_catalog.text[] := '{}';
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl, for_abort => true);
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
	stmts := stmts || @extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_sync_update')
	               || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync_update', tbl);
	stmts := stmts || @extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_sync_replace')
	               || format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move_sync_replace', tbl);
	-- the index on the old key that the move built (by its OID)
	FOR i IN SELECT o.objid FROM @extschema@.xid_move_objects o JOIN pg_index x ON x.indexrelid = o.objid AND x.indrelid = o.relation
	          WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index' AND o.mode = 'old' LOOP
		stmts := stmts || format('DROP INDEX %s', i);
	END LOOP;
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		stmts := stmts || @extschema@.xid_move_ref_drop(r, 'c');
	END LOOP;
	-- its indexes and constraints go with the column
	FOR r IN SELECT DISTINCT ON (x.relation, x.new_column) * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 LOOP
		stmts := stmts || format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.new_column);
	END LOOP;
	stmts := stmts || format('SELECT %s.xid_move_state(%L, ''delete'', ''{}'')', '@extschema@', tbl::oid);
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
	r @extschema@.xid_move_parts;
	u record;
	oldidx pg_catalog.regclass;
	n pg_catalog.int8;
	stmts pg_catalog.text[] := '{}';
	post pg_catalog.text[] := '{}';
	fkdef pg_catalog.text;
	attempts pg_catalog.int4;
	replident pg_catalog.text[];
	back pg_catalog.text[] := '{}';
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl, for_abort => true);
	-- called by the abort after the swap only: on a move not swapped it
	-- would end the move and leave its columns and triggers behind
	IF m.step NOT IN ('swapped', 'aborting') THEN
		RAISE EXCEPTION 'table % has not been swapped', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      DETAIL = format('The move is at step %s; the swap back is the abort''s after the swap.', m.step),
			      HINT = format('Abort the move: CALL %s.xid_move_abort(%L).', '@extschema@', tbl::text);
	END IF;
	IF m.step = 'swapped' THEN
		oldidx := @extschema@.xid_move_unique_index(tbl, m.old_column, '');
		IF oldidx IS NULL THEN
			RAISE EXCEPTION 'table % has no valid unique index on %', tbl, quote_ident(m.old_column)
				USING ERRCODE = 'object_not_in_prerequisite_state',
				      DETAIL = 'The swap back makes it the primary key again.';
		END IF;
		n := (@extschema@.xid_move_query(tbl, format('SELECT count(*) AS n FROM %s WHERE %I IS NULL', tbl, m.old_column)) ->> 'n')::bigint;
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
		-- the replica identity on the old index again, read before the
		-- statements that drop the copy it is on: the swap's inverse
		replident := @extschema@.xid_move_replident(tbl, true);

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
		-- unique constraints over a moved column: each copy the move
		-- recorded (by OID) that holds one gives its name back to the
		-- constraint of the index it was made of; every copy's goes first
		-- (the new ones also go with the xid columns)
		FOR u IN SELECT o.relation, cc.conname AS copy_name, oc.conname AS old_name
		         FROM @extschema@.xid_move_objects o
		         JOIN pg_constraint cc ON cc.conindid = o.objid AND cc.conrelid = o.relation AND cc.contype = 'u'
		         JOIN pg_constraint oc ON oc.conindid = o.original AND oc.conrelid = o.relation AND oc.contype = 'u'
		         WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index' AND o.mode IS NULL
		         ORDER BY o.relation::text, cc.conname LOOP
			stmts := stmts || format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', u.relation, u.copy_name);
			back := back || format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', u.relation, u.old_name, u.copy_name);
		END LOOP;
		stmts := stmts || back;
		IF EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = tbl AND t.tgname = 'xid_move_back') THEN
			stmts := stmts || @extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_back')
			               || format('DROP TRIGGER %I ON %s', 'xid_move_back', tbl);
		END IF;
		stmts := stmts || ARRAY[
			format('ALTER TABLE %s DROP COLUMN %I', tbl, m.key_column),
			format('ALTER TABLE %s RENAME COLUMN %I TO %I', tbl, m.old_column, m.key_column),
			format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', tbl, m.key_column),
			format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, left(m.old_column, 50) || '_not_null'),
			format('ALTER TABLE %s ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', tbl, m.constraint_name,
			       (SELECT relname FROM pg_class WHERE oid = oldidx))]
			|| replident
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
	PERFORM @extschema@.xid_move_state(tbl, 'delete', '{}');
	RAISE NOTICE 'move of table % aborted after its swap: its key is column % again, the xid columns are dropped', tbl, quote_ident(m.key_column);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap_back(regclass, interval, integer) IS
'xid_move_abort() after the swap: the old key and the foreign keys on it back, the xid columns dropped';
