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
	n pg_catalog.int8;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	IF m.step NOT IN ('backfilled', 'validated') THEN
		RAISE EXCEPTION 'the move of table % is at step %', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = 'Validate after the backfill is complete, before the swap.';
	END IF;
	-- every partition backfilled (one made or attached since the backfill
	-- has rows the backfill has not seen)
	PERFORM @extschema@.xid_move_check_leaves(tbl, false);
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
	stmts pg_catalog.text[];
	def pg_catalog.text;
	id pg_catalog.text;
	val pg_catalog.text;
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
	-- the statistics target and attribute options, relation by relation
	-- (ONLY: a partition may have its own)
	stmts := stmts || ARRAY(
		SELECT s FROM @extschema@.xid_move_tree(p.relation) r
		JOIN pg_attribute a ON a.attrelid = r AND a.attname = p.column_name,
		LATERAL (SELECT format('ALTER TABLE ONLY %s ALTER COLUMN %I SET STATISTICS %s', r, p.column_name, a.attstattarget) AS s, 1 AS k
		         WHERE a.attstattarget >= 0
		         UNION ALL
		         SELECT format('ALTER TABLE ONLY %s ALTER COLUMN %I SET (%s)', r, p.column_name,
		                       (SELECT string_agg(format('%s = %L', split_part(o, '=', 1), substr(o, strpos(o, '=') + 1)), ', ')
		                        FROM unnest(a.attoptions) o WHERE o ~ '^n_distinct(_inherited)?=')), 2
		         WHERE EXISTS (SELECT FROM unnest(a.attoptions) o WHERE o ~ '^n_distinct(_inherited)?=')) x
		ORDER BY r::text, x.k);
	-- the comments of the primary key and its index, made again under
	-- their names before these run; of the moved indexes, on their copies
	-- (a unique constraint's copy has taken the constraint's name)
	IF p.role = 'parent' THEN
		stmts := stmts || ARRAY(
			SELECT format('COMMENT ON CONSTRAINT %I ON %s IS %L', con.conname, tbl, obj_description(con.oid, 'pg_constraint'))
			FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p' AND obj_description(con.oid, 'pg_constraint') IS NOT NULL
			UNION ALL
			SELECT format('COMMENT ON INDEX %I.%I IS %L', n.nspname, con.conname, obj_description(con.conindid, 'pg_class'))
			FROM pg_constraint con JOIN pg_class c ON c.oid = con.conindid JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE con.conrelid = tbl AND con.contype = 'p' AND obj_description(con.conindid, 'pg_class') IS NOT NULL);
	END IF;
	stmts := stmts || ARRAY(
		SELECT s FROM @extschema@.xid_move_moved_indexes(tbl) mi
		JOIN pg_class ic ON ic.oid = mi.old_index JOIN pg_namespace n ON n.oid = ic.relnamespace
		JOIN pg_index i ON i.indexrelid = mi.old_index
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attname = p.column_name AND a.attnum = ANY (i.indkey::int2[]),
		LATERAL (SELECT format('COMMENT ON INDEX %I.%I IS %L', n.nspname, coalesce(mi.constraint_name, (SELECT cc.relname FROM pg_class cc WHERE cc.oid = mi.copy_index)), obj_description(mi.old_index, 'pg_class')) AS s
		         WHERE obj_description(mi.old_index, 'pg_class') IS NOT NULL
		         UNION ALL
		         SELECT format('COMMENT ON CONSTRAINT %I ON %s IS %L', con.conname, mi.relation, obj_description(con.oid, 'pg_constraint'))
		         FROM pg_constraint con WHERE con.conindid = mi.old_index AND con.conrelid = mi.relation
		           AND obj_description(con.oid, 'pg_constraint') IS NOT NULL) x
		WHERE mi.relation = p.relation
		ORDER BY mi.old_index::text);
	IF p.role = 'child' THEN
		SELECT pg_get_expr(ad.adbin, ad.adrelid), @extschema@.xid_move_default_const(a.attrelid, a.attnum) INTO def, val
		  FROM pg_attrdef ad JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
		 WHERE a.attrelid = p.relation AND a.attname = p.column_name AND a.attidentity = '';
		IF def IS NOT NULL AND val IS NULL THEN
			RAISE EXCEPTION 'the default of column % of table %, %, is not a constant', quote_ident(p.column_name), p.relation, def
				USING ERRCODE = 'feature_not_supported',
				      DETAIL = 'The swap gives the new column the id of the row its default references, and never evaluates the default.',
				      HINT = 'Drop the default, swap, and set it again as an xid.';
		ELSIF def IS NOT NULL THEN
			-- the constant the default is, read from the catalog, never
			-- evaluated (a cast to a domain would run its CHECK); looked up
			-- as the owner, in the key's own type
			id := @extschema@.xid_move_query(tbl, format('SELECT p.%I::text AS id FROM %s AS p WHERE p.%I = %L::%s',
				m.new_column, tbl, m.key_column, val, m.key_type)) ->> 'id';
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
'the statements that give the new column of a move the privileges, comment, default, statistics target and options of the old one, and its keys and moved indexes their comments';

-- The statements that put the replica identity of each table of a move
-- whose identity is an index over a moved column on the index that takes
-- that one's place: at the swap (back => false) the copy of it the move
-- recorded, at a swap back the index that copy was made of (both by OID).
-- Read before the statements that drop or rename the indexes, run after
-- them.
CREATE FUNCTION @extschema@.xid_move_replident(tbl regclass, back boolean)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT coalesce(array_agg(format('ALTER TABLE %s REPLICA IDENTITY USING INDEX %I', x.relation, x.target) ORDER BY x.relation::text), '{}')
	FROM (
		SELECT DISTINCT p.relation,
		       CASE WHEN con.contype IN ('p', 'u') THEN con.conname
		            WHEN NOT back THEN (SELECT c.relname FROM pg_class c WHERE c.oid = @extschema@.xid_move_copy_of($1, i.indexrelid))
		            ELSE (SELECT oc.relname FROM @extschema@.xid_move_objects o JOIN pg_class oc ON oc.oid = o.original
		                  WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index' AND o.mode IS NULL AND o.objid = i.indexrelid) END AS target
		FROM @extschema@.xid_move_parts p
		JOIN pg_class c ON c.oid = p.relation AND c.relreplident = 'i'
		JOIN pg_index i ON i.indrelid = p.relation AND i.indisreplident
		JOIN pg_attribute a ON a.attrelid = p.relation AND a.attnum = ANY (i.indkey::int2[]) AND a.attname = p.column_name
		LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = p.relation AND con.contype IN ('p', 'u')
		WHERE p.tbl = $1) x
	WHERE x.target IS NOT NULL
$$;

COMMENT ON FUNCTION @extschema@.xid_move_replident(regclass, boolean) IS
'the statements that put a replica identity over a moved column on the index that takes its index''s place';
