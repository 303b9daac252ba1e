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

-- The copy a move of tbl built of index original, as it recorded it (by
-- OID, never by its name); a valid one first.  NULL when there is none.
CREATE FUNCTION @extschema@.xid_move_copy_of(tbl regclass, original oid)
RETURNS regclass
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT o.objid::regclass FROM @extschema@.xid_move_objects o JOIN pg_index i ON i.indexrelid = o.objid AND i.indrelid = o.relation
	WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index' AND o.mode IS NULL AND o.original = $2
	ORDER BY i.indisvalid DESC, o.objid LIMIT 1
$$;

COMMENT ON FUNCTION @extschema@.xid_move_copy_of(regclass, oid) IS
'the copy of an index that a move recorded, by OID';

-- The first of base, base_1, base_2 ... that no relation of rel's schema
-- has and that is not in taken (the names given already in one pass).  A
-- name held only by an invalid index on rel that no move recorded is what
-- a build stopped before its record left: it is given again, and the
-- caller drops that index first.
CREATE FUNCTION @extschema@.xid_move_free_name(base text, rel regclass, taken name[])
RETURNS name
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp pg_catalog.oid := (SELECT c.relnamespace FROM pg_class c WHERE c.oid = rel);
	cand pg_catalog.name;
	k pg_catalog.int4 := 0;
BEGIN
	LOOP
		cand := CASE WHEN k = 0 THEN base ELSE left(base, 62 - length(k::text)) || '_' || k END;
		EXIT WHEN NOT cand = ANY (coalesce(taken, '{}'))
		      AND NOT EXISTS (SELECT FROM pg_class c WHERE c.relnamespace = nsp AND c.relname = cand
		                        AND NOT EXISTS (SELECT FROM pg_index i WHERE i.indexrelid = c.oid AND i.indrelid = rel AND NOT i.indisvalid
		                                          AND NOT EXISTS (SELECT FROM @extschema@.xid_move_objects o
		                                                          WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid)));
		k := k + 1;
	END LOOP;
	RETURN cand;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_free_name(text, regclass, name[]) IS
'a name for an index a move builds on a relation, free in its schema';

-- The name of a new copy of index original on rel: a prefix of the
-- original's name, '_xm' and a hash of its whole name and its table's
-- (schema-qualified, no OID: the name survives a dump and restore), so
-- that two indexes or two partitions that share a prefix never share a
-- copy's name; made free in the schema by xid_move_free_name()
CREATE FUNCTION @extschema@.xid_move_copy_name(original oid, rel regclass, taken name[])
RETURNS name
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT @extschema@.xid_move_free_name(
		left(ic.relname, 40) || '_xm' || left(md5(format('%I.%I.%I', n.nspname, tc.relname, ic.relname)), 8), rel, taken)
	FROM pg_class ic, pg_class tc JOIN pg_namespace n ON n.oid = tc.relnamespace
	WHERE ic.oid = original AND tc.oid = rel
$$;

COMMENT ON FUNCTION @extschema@.xid_move_copy_name(oid, regclass, name[]) IS
'the name of a new copy of an index: a prefix of its name and a hash of its whole name, unique in its schema';

-- Record the copy of index original that xid_move_index_commands() just
-- had built on rel under the name index_name: from here on the move knows
-- it by its OID only (xid_move_objects).  Called by the statement that
-- follows each build, in the same \gexec (the tables and the original are
-- written as names there, read as OIDs when it runs, so that the
-- statements read the same in every database); again, it records nothing
-- twice.  The unique indexes on the key's new and old columns are
-- recorded with mode 'new' and 'old' (original: the key's index).
CREATE PROCEDURE @extschema@.xid_move_record_index(tbl regclass, rel regclass, index_name name, original regclass, mode text DEFAULT NULL)
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	idx pg_catalog.oid;
BEGIN
	PERFORM @extschema@.xid_move_get(tbl);
	SELECT c.oid INTO idx FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
	 WHERE i.indrelid = rel AND c.relname = index_name
	   AND c.relnamespace = (SELECT t.relnamespace FROM pg_class t WHERE t.oid = rel);
	IF idx IS NULL THEN
		RAISE EXCEPTION 'index % of table % was not built', quote_ident(index_name), rel
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = format('Run SELECT * FROM %s.xid_move_index_commands(%L) \gexec in psql again.', '@extschema@', tbl::text);
	END IF;
	IF NOT EXISTS (SELECT FROM pg_index i WHERE i.indexrelid = original AND i.indrelid = rel) OR idx = original THEN
		RAISE EXCEPTION 'index % of table % is not a copy of an index of that table', quote_ident(index_name), rel
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT EXISTS (SELECT FROM @extschema@.xid_move_objects o WHERE o.classid = 'pg_class'::regclass AND o.objid = idx) THEN
		PERFORM @extschema@.xid_move_state(tbl, 'object',
			ARRAY['pg_catalog.pg_class'::regclass::oid::text, idx::text, 'index', rel::oid::text, mode, NULL, NULL, original::oid::text]);
	END IF;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_record_index(regclass, regclass, name, regclass, text) IS
'record by OID the copy of an index that a move just built';

-- The indexes over the key or a referencing column that the move builds
-- again on the new column: one row each, with the copy the move recorded
-- of it (NULL before it is built).  Those of each relation and those
-- declared on a partition only (attached to no index of the table above):
-- a partition's index attached to one above is built with that one.  The
-- key's own (the primary key) is not among them, nor any copy a move
-- under way recorded; any other index is one, whatever its name.
CREATE FUNCTION @extschema@.xid_move_moved_indexes(tbl regclass)
RETURNS TABLE (relation regclass, old_index regclass, copy_index regclass, cols text, is_unique boolean,
               nulls_not_distinct boolean, constraint_name name, deferral text, method name, storage text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT i.indrelid::regclass, i.indexrelid::regclass, @extschema@.xid_move_copy_of($1, i.indexrelid),
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
	CROSS JOIN LATERAL @extschema@.xid_move_tree(p.relation) r
	JOIN pg_attribute p_att ON p_att.attrelid = r AND p_att.attname = p.column_name
	JOIN pg_index i ON i.indrelid = r AND p_att.attnum = ANY (i.indkey::int2[])
	JOIN pg_class ic ON ic.oid = i.indexrelid
	LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
	WHERE NOT (p.role = 'parent' AND con.contype IS NOT DISTINCT FROM 'p')
	  AND (con.contype IS NULL OR con.contype = 'u')
	  AND i.indexprs IS NULL AND i.indpred IS NULL
	  AND NOT EXISTS (SELECT FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)
	  AND NOT EXISTS (SELECT FROM @extschema@.xid_move_objects o WHERE o.classid = 'pg_class'::regclass AND o.objid = i.indexrelid)
	ORDER BY i.indrelid::regclass::text, i.indexrelid::regclass::text
$$;

COMMENT ON FUNCTION @extschema@.xid_move_moved_indexes(regclass) IS
'the indexes over a moved column that a move builds again on the new column, with their copies';

-- The name a unique constraint con of rel over a moved column takes when
-- its copy takes its own (at the swap): con || '_old' (shortened to fit)
-- or, when that is taken, con_old_1, con_old_2 ...: the first that no
-- relation of rel's schema and no constraint of rel has and that is not
-- in avoid (the names the copies take and those given already), so that a
-- second move over the same constraint never renames into a clash
CREATE FUNCTION @extschema@.xid_move_aside_name(rel regclass, con name, avoid name[])
RETURNS name
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	nsp pg_catalog.oid := (SELECT c.relnamespace FROM pg_class c WHERE c.oid = rel);
	cand pg_catalog.name;
	k pg_catalog.int4 := 0;
BEGIN
	LOOP
		cand := CASE WHEN k = 0 THEN left(con, 59) || '_old' ELSE left(con, 58 - length(k::text)) || '_old_' || k END;
		EXIT WHEN NOT cand = ANY (coalesce(avoid, '{}'))
		      AND NOT EXISTS (SELECT FROM pg_class c WHERE c.relnamespace = nsp AND c.relname = cand)
		      AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conrelid = rel AND c.conname = cand);
		k := k + 1;
	END LOOP;
	RETURN cand;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_aside_name(regclass, name, name[]) IS
'the name a unique constraint takes when the copy of its index takes its own, free in its table and schema';

-- The indexes the swap needs, built CONCURRENTLY by the caller (no
-- procedure may): a unique index on the new key, one on the old key (it
-- stays unique and findable), and each index over the key or a
-- referencing column built again on the new column (a partitioned table's
-- partition by partition at every level, then attached; one declared on a
-- partition only, on that partition).  Each build is followed by the
-- statement that records the copy by its OID (xid_move_record_index);
-- from then on the move finds it by that OID only.  Only the missing
-- ones; a copy left invalid by a failed build is dropped first.  For
-- psql's \gexec.
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
	nsp pg_catalog.name;
	idx pg_catalog.name;
	col pg_catalog.name;
	cp pg_catalog.regclass;
	keyidx pg_catalog.oid;
	taken pg_catalog.name[] := '{}';
	rels pg_catalog.oid[];
	names pg_catalog.text[];
BEGIN
	m := @extschema@.xid_move_get(tbl);
	SELECT * INTO par FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.role = 'parent';
	SELECT n.nspname INTO nsp FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
	IF m.step NOT IN ('started', 'backfilled', 'validated') THEN
		RETURN;
	END IF;
	keyidx := (SELECT c.conindid FROM pg_constraint c WHERE c.conrelid = tbl AND c.conname = m.constraint_name);
	FOREACH col IN ARRAY ARRAY[m.new_column, m.key_column] LOOP
		-- the move's own, recorded with mode new or old: one left invalid
		-- by a failed build goes first
		FOR cp IN SELECT o.objid FROM @extschema@.xid_move_objects o JOIN pg_index i ON i.indexrelid = o.objid
		          WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index'
		            AND o.mode = CASE WHEN col = m.new_column THEN 'new' ELSE 'old' END AND NOT i.indisvalid LOOP
			RETURN NEXT format('DROP INDEX CONCURRENTLY %s', cp);
			RETURN NEXT format('SELECT %s.xid_move_state(%L, %L, %L)', '@extschema@', tbl::oid, 'forget_object',
				ARRAY['pg_catalog.pg_class'::regclass::oid::text, cp::oid::text]);
		END LOOP;
		IF @extschema@.xid_move_unique_index(tbl, col, m.constraint_name) IS NULL THEN
			idx := @extschema@.xid_move_free_name(@extschema@.xid_move_name(tbl, par.tag, CASE WHEN col = m.new_column THEN '_n' ELSE '_o' END),
				tbl, taken);
			taken := taken || idx;
			-- taken only by what a build stopped before its record left
			IF EXISTS (SELECT FROM pg_class c WHERE c.relname = idx AND c.relnamespace = (SELECT t.relnamespace FROM pg_class t WHERE t.oid = tbl)) THEN
				RETURN NEXT format('DROP INDEX CONCURRENTLY %I.%I', nsp, idx);
			END IF;
			-- with the storage of the key's index
			RETURN NEXT format('CREATE UNIQUE INDEX CONCURRENTLY %I ON %s (%I)%s', idx, tbl, col,
				coalesce(@extschema@.xid_move_index_storage(keyidx), ''));
			RETURN NEXT format('CALL %s.xid_move_record_index(%L, %L, %L, %L, %L)', '@extschema@', tbl, tbl, idx, keyidx::regclass,
				CASE WHEN col = m.new_column THEN 'new' ELSE 'old' END);
		END IF;
	END LOOP;
	-- a recorded index that is gone (dropped by hand) is forgotten
	FOR cp IN SELECT o.objid FROM @extschema@.xid_move_objects o
	          WHERE o.tbl = $1 AND o.classid = 'pg_class'::regclass AND o.kind = 'index'
	            AND NOT EXISTS (SELECT FROM pg_index i WHERE i.indexrelid = o.objid AND i.indrelid = o.relation)
	          ORDER BY o.objid LOOP
		RETURN NEXT format('SELECT %s.xid_move_state(%L, %L, %L)', '@extschema@', tbl::oid, 'forget_object',
			ARRAY['pg_catalog.pg_class'::regclass::oid::text, cp::oid::text]);
	END LOOP;
	FOR r IN SELECT x.*, c.relkind FROM @extschema@.xid_move_moved_indexes(tbl) x JOIN pg_class c ON c.oid = x.relation LOOP
		-- the relation and, a partitioned one, every partition below it,
		-- each with its own index of the original (a plain table or a
		-- partition is a tree of one).  What exists (a leaf's valid) is not
		-- asked again.
		rels := '{}';
		names := '{}';
		FOR node IN SELECT t.rel, t.level, c.relkind, n.nspname,
		                   (SELECT h.inhparent FROM pg_inherits h WHERE h.inhrelid = t.rel AND t.rel <> r.relation) AS parent,
		                   CASE WHEN t.rel = r.relation THEN r.old_index::oid
		                        ELSE (SELECT x.indexrelid FROM pg_partition_tree(r.old_index) it JOIN pg_index x ON x.indexrelid = it.relid
		                              WHERE x.indrelid = t.rel) END AS original
		            FROM (SELECT r.relation::oid AS rel, 0 AS level
		                  UNION SELECT pt.relid::oid, pt.level FROM pg_partition_tree(r.relation) pt) t
		            JOIN pg_class c ON c.oid = t.rel JOIN pg_namespace n ON n.oid = c.relnamespace
		            ORDER BY t.level, t.rel::regclass::text LOOP
			CONTINUE WHEN node.original IS NULL;
			cp := @extschema@.xid_move_copy_of(tbl, node.original);
			IF cp IS NOT NULL AND node.relkind <> 'p' AND NOT (SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = cp) THEN
				RETURN NEXT format('DROP INDEX CONCURRENTLY %s', cp);
				RETURN NEXT format('SELECT %s.xid_move_state(%L, %L, %L)', '@extschema@', tbl::oid, 'forget_object',
					ARRAY['pg_catalog.pg_class'::regclass::oid::text, cp::oid::text]);
				cp := NULL;
			END IF;
			-- a partition made since the copy of its parent was built: core
			-- gave it an index of the copy's definition, attached to it,
			-- which becomes its copy
			IF cp IS NULL AND node.parent IS NOT NULL THEN
				cp := (SELECT h.inhrelid FROM pg_inherits h JOIN pg_index i ON i.indexrelid = h.inhrelid
				       WHERE i.indrelid = node.rel AND i.indisvalid
				         AND h.inhparent = @extschema@.xid_move_copy_of(tbl,
				               (SELECT x.indexrelid FROM pg_partition_tree(r.old_index) it JOIN pg_index x ON x.indexrelid = it.relid
				                WHERE x.indrelid = node.parent)));
				IF cp IS NOT NULL THEN
					idx := (SELECT c.relname FROM pg_class c WHERE c.oid = cp);
					RETURN NEXT format('CALL %s.xid_move_record_index(%L, %L, %L, %L)', '@extschema@', tbl, node.rel::regclass, idx, node.original::regclass);
				END IF;
			END IF;
			IF cp IS NOT NULL THEN
				idx := (SELECT c.relname FROM pg_class c WHERE c.oid = cp);
			ELSE
				idx := @extschema@.xid_move_copy_name(node.original, node.rel, taken);
				taken := taken || idx;
				IF EXISTS (SELECT FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = node.nspname AND c.relname = idx) THEN
					RETURN NEXT format('DROP INDEX %s%I.%I', CASE WHEN node.relkind = 'p' THEN '' ELSE 'CONCURRENTLY ' END, node.nspname, idx);
				END IF;
				RETURN NEXT format('%s %s%I ON %s%s USING %I %s%s%s', CASE WHEN r.is_unique THEN 'CREATE UNIQUE INDEX' ELSE 'CREATE INDEX' END,
					CASE WHEN node.relkind = 'p' THEN '' ELSE 'CONCURRENTLY ' END, idx,
					CASE WHEN node.relkind = 'p' THEN 'ONLY ' ELSE '' END, node.rel::regclass, r.method, r.cols,
					CASE WHEN r.nulls_not_distinct THEN ' NULLS NOT DISTINCT' ELSE '' END, r.storage);
				RETURN NEXT format('CALL %s.xid_move_record_index(%L, %L, %L, %L)', '@extschema@', tbl, node.rel::regclass, idx, node.original::regclass);
			END IF;
			rels := rels || node.rel;
			names := names || format('%I.%I', node.nspname, idx);
		END LOOP;
		-- each partition's copy attached to its parent's, bottom up:
		-- attaching the last index below a partitioned index that is
		-- attached already would validate that one's parent too, taking
		-- ACCESS EXCLUSIVE on the table above in the middle of the
		-- statement, a deadlock with the writers
		CONTINUE WHEN r.relkind <> 'p';
		FOR node IN SELECT pt.relid::oid AS rel, pt.parentrelid::oid AS parent,
		                   (SELECT x.indexrelid FROM pg_partition_tree(r.old_index) it JOIN pg_index x ON x.indexrelid = it.relid
		                    WHERE x.indrelid = pt.relid) AS original
		            FROM pg_partition_tree(r.relation) pt
		            WHERE pt.level > 0
		            ORDER BY pt.level DESC, pt.relid::regclass::text LOOP
			cp := @extschema@.xid_move_copy_of(tbl, node.original);
			CONTINUE WHEN cp IS NOT NULL AND EXISTS (SELECT FROM pg_index i JOIN pg_inherits h ON h.inhrelid = i.indexrelid
			                                         WHERE i.indexrelid = cp AND i.indisvalid);
			CONTINUE WHEN array_position(rels, node.rel) IS NULL OR array_position(rels, node.parent) IS NULL;
			RETURN NEXT format('ALTER INDEX %s ATTACH PARTITION %s', names[array_position(rels, node.parent)], names[array_position(rels, node.rel)]);
		END LOOP;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_index_commands(regclass) IS
'the CREATE INDEX CONCURRENTLY statements a move still needs, each followed by the record of its copy, for psql''s \gexec';

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
	col pg_catalog.name;
	cname pg_catalog.text;
	checks pg_catalog.text[] := '{}';
	s pg_catalog.text;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	PERFORM @extschema@.xid_move_get(tbl);
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'parent' OR x.not_null LOOP
		col := CASE WHEN old THEN r.old_column ELSE r.new_column END;
		cname := left(col, 50) || '_not_null';
		IF NOT EXISTS (SELECT FROM pg_constraint WHERE conrelid = r.relation AND conname = cname) THEN
			-- recorded by OID with the move, so that whatever ends it (a
			-- finish after an abort that failed half-way) removes it
			PERFORM @extschema@.xid_move_exec(tbl, ARRAY[format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%I IS NOT NULL) NOT VALID',
				r.relation, cname, col),
				format('SELECT %s.xid_move_state(%L, ''object'', ARRAY[%L, c.oid::text, ''check'', %L, NULL, NULL, NULL, NULL])'
				       ' FROM pg_catalog.pg_constraint c WHERE c.conrelid OPERATOR(pg_catalog.=) %L AND c.conname OPERATOR(pg_catalog.=) %L',
				       '@extschema@', tbl::oid, 'pg_catalog.pg_constraint'::regclass::oid, r.relation::oid, r.relation::oid, cname)],
				lock_timeout, retries);
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
