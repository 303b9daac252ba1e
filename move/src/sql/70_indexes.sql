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
