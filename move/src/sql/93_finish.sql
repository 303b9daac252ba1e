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
	r @extschema@.xid_move_parts;
	d record;
	stmts pg_catalog.text[];
	renames pg_catalog.text[];
	oldidx pg_catalog.regclass;
	n pg_catalog.int8;
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
	IF m.step = 'swapped' THEN
		-- the checks, abort still possible
		CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
		PERFORM @extschema@.xid_move_settings();
		PERFORM @extschema@.xid_move_verify_swapped(tbl, 'the move can still be aborted');
		-- kept, an old column is NULL in every row written from here on: a
		-- unique index over it that treats NULLs as equal (NULLS NOT
		-- DISTINCT) would refuse every such row after the first
		IF NOT drop_old THEN
			FOR d IN SELECT i.indexrelid::regclass AS idx, x.relation, x.old_column
			         FROM @extschema@.xid_move_rels(tbl) x
			         JOIN pg_attribute a ON a.attrelid = x.relation AND a.attname = x.old_column
			         JOIN pg_index i ON i.indrelid = x.relation AND a.attnum = ANY (i.indkey::int2[])
			         WHERE i.indisunique AND coalesce((to_jsonb(i) ->> 'indnullsnotdistinct')::boolean, false)
			         ORDER BY 1::text LIMIT 1 LOOP
				RAISE EXCEPTION 'the old column % of table % cannot be kept: index % over it is NULLS NOT DISTINCT', quote_ident(d.old_column), d.relation, d.idx
					USING ERRCODE = 'object_not_in_prerequisite_state',
					      DETAIL = 'Rows written after the finish leave the old column empty, and that index would refuse every such row after the first.',
					      HINT = 'Finish with drop_old => true, or drop that index first; the move can still be aborted.';
			END LOOP;
		END IF;
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
			stmts := stmts || @extschema@.xid_move_trigger_forget(tbl, tbl, 'xid_move_back')
			               || format('DROP TRIGGER %I ON %s', 'xid_move_back', tbl);
		END IF;
		-- the checks the move added that are still there (those of an
		-- abort that stopped before its swap back), found by OID
		stmts := stmts || ARRAY(SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname)
		                        FROM @extschema@.xid_move_objects o JOIN pg_constraint c ON c.oid = o.objid
		                        WHERE o.tbl = $1 AND o.kind = 'check' AND c.conrelid = o.relation ORDER BY c.conrelid::regclass::text, c.conname);
		stmts := stmts || format('SELECT %s.xid_move_set_step(%L, ''finishing'')', '@extschema@', tbl::oid);
		PERFORM @extschema@.xid_move_exec(tbl, stmts, lock_timeout, retries);
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
	END IF;
	CALL @extschema@.xid_move_fk_validate(tbl, lock_timeout, retries);
	PERFORM @extschema@.xid_move_settings();
	IF drop_old THEN
		-- each relation's old column goes with the indexes over it, and in
		-- the same transaction each copy the move recorded (by OID) on the
		-- relation or a partition of it takes the name of the index it was
		-- made of (a copy that holds a unique constraint has its name
		-- already): a finish stopped between the two cannot lose a name
		FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
			renames := ARRAY(
				SELECT format('ALTER INDEX %s RENAME TO %I', o.objid::regclass, oc.relname)
				  FROM @extschema@.xid_move_objects o
				  JOIN pg_index ci ON ci.indexrelid = o.objid AND ci.indrelid = o.relation
				  JOIN pg_class oc ON oc.oid = o.original
				 WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index' AND o.mode IS NULL
				   AND o.relation IN (SELECT @extschema@.xid_move_tree(r.relation))
				   AND NOT EXISTS (SELECT FROM pg_constraint con WHERE con.conindid IN (o.objid, o.original))
				   AND EXISTS (SELECT FROM pg_attribute a JOIN pg_index oi ON oi.indexrelid = o.original
				               WHERE a.attrelid = oi.indrelid AND a.attnum = ANY (oi.indkey::int2[]) AND a.attname = r.old_column)
				 ORDER BY oc.relname);
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.old_column)] || renames,
				lock_timeout, retries);
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END LOOP;
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
	PERFORM @extschema@.xid_move_state(tbl, 'delete', '{}');
	RAISE NOTICE 'move of table % to xid finished%', tbl,
		CASE WHEN drop_old THEN '; the old key columns are dropped' ELSE '; the old key stays in column ' || quote_ident(m.old_column) END;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_finish(regclass, boolean, interval, integer) IS
'finish a move to xid: its checks, then the point of no return, then the old key columns kept or dropped; resumable';
