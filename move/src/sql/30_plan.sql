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

-- A row of the plan
CREATE TYPE @extschema@.xid_move_decision AS (object_type text, object text, action text, detail text, sqlstate text, hint text);

COMMENT ON TYPE @extschema@.xid_move_decision IS
'a row of the plan of a move: what it does with one object';

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
	keytype pg_catalog.regtype;
	n pg_catalog.int8;
	bad pg_catalog.text;
	other pg_catalog.regclass;
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
		n := (@extschema@.xid_move_query(tbl, format('SELECT count(*) AS n FROM %s WHERE %I IS NULL', tbl, time_column)) ->> 'n')::bigint;
		IF n > 0 THEN
			sqlstate := '23502';
			detail := format('%s rows have no time in column %I: an existing row''s id is made from its time.', n, time_column);
			hint := 'Give them a time before the move.';
			RETURN NEXT; RETURN;
		END IF;
	ELSE
		-- each key's own time: every existing key must be a UUIDv7 (rows
		-- written during the move get xid_new())
		bad := @extschema@.xid_move_query(tbl, format('SELECT k::text AS k FROM %s AS t(k) WHERE substr(k::text, 15, 1) <> ''7''
		                  OR substr(k::text, 20, 1) NOT IN (''8'', ''9'', ''a'', ''b'') LIMIT 1',
		               format('(SELECT %I FROM %s)', (SELECT attname FROM pg_attribute WHERE attrelid = tbl AND attnum = pk.conkey[1]), tbl))) ->> 'k';
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
	pkkey pg_catalog.int2[] := (SELECT con.conkey FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p');
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
	-- a domain of another role on a referencing column: after the swap the
	-- triggers that keep the old column following run its constraints as
	-- the owner of the tables
	IF p.role = 'child' THEN
		FOR d IN WITH RECURSIVE dom(t) AS (
		             SELECT a.atttypid FROM pg_attribute a WHERE a.attrelid = p.relation AND a.attname = p.column_name
		             UNION SELECT ty.typbasetype FROM dom JOIN pg_type ty ON ty.oid = dom.t WHERE ty.typtype = 'd')
		          SELECT ty.oid::regtype AS typ, ty.typowner FROM dom JOIN pg_type ty ON ty.oid = dom.t
		          WHERE ty.typtype = 'd' AND ty.typowner <> (SELECT c.relowner FROM pg_class c WHERE c.oid = tbl)
		            AND NOT (SELECT r.rolsuper FROM pg_roles r WHERE r.oid = ty.typowner)
		          ORDER BY 1 LOOP
			object_type := 'domain'; object := d.typ::text; action := 'refuse'; sqlstate := '42501';
			detail := format('Column %I of %s is of the domain %s of role %s: the move would run its constraints with the privileges of the owner of the tables.',
				p.column_name, p.relation, d.typ, quote_ident(pg_get_userbyid(d.typowner)));
			hint := 'Give the domain to the owner of the tables (ALTER DOMAIN ... OWNER TO), or change the column to the domain''s base type for the move.';
			RETURN NEXT;
		END LOOP;
		sqlstate := NULL; hint := NULL;
	END IF;
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
	owner pg_catalog.oid := (SELECT c.relowner FROM pg_class c WHERE c.oid = tbl);
	replica pg_catalog.bool := can_replica AND NOT fire_triggers;
	fires pg_catalog.bool;
BEGIN
	-- every trigger but the foreign keys' and the move's own
	FOR d IN SELECT t.tgname, t.tgenabled, t.tgrelid::regclass AS r, t.tgtype, t.tgisinternal, t.tgconstraint,
	                t.tgdeferrable, p2.proowner, (t.tgtype & 1) = 1 AS per_row, (t.tgtype & 16) = 16 AS on_update,
	                (SELECT con.contype FROM pg_constraint con WHERE con.oid = t.tgconstraint) AS contype,
	                -- would the fix's UPDATE of the reference's column fire it
	                ((t.tgtype & 1) = 0 OR cardinality(t.tgattr::int2[]) = 0
	                 OR (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = t.tgrelid AND a.attname = p.column_name) = ANY (t.tgattr::int2[])) AS fix_fires
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
		ELSIF p.role = 'child' AND d.tgenabled IN ('A', 'R') AND d.fix_fires THEN
			-- the deferred fill of a reference (xid_move_trigger(), fix) is
			-- an UPDATE in replica mode: it fires no trigger enabled for
			-- origin sessions, and would fire this one
			action := 'refuse'; sqlstate := '55000';
			detail := format('A %s trigger on UPDATE enabled %s on a table that references the key: a reference written before the row it references (a deferred foreign key) is filled at commit by an UPDATE of the move''s own, run in replica mode as the owner of the table, which would fire it.',
				CASE WHEN d.per_row THEN 'row' ELSE 'statement' END, CASE d.tgenabled WHEN 'A' THEN 'ALWAYS' ELSE 'REPLICA' END);
			hint := 'Enable it for origin sessions only (ALTER TABLE ... ENABLE TRIGGER ...) for the move, or drop it and create it again after the move.';
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
		ELSIF d.tgdeferrable THEN
			action := 'refuse'; sqlstate := '0A000';
			detail := 'A deferrable constraint trigger on UPDATE: the backfill''s updates run in a security-restricted operation, in which PostgreSQL cannot queue a deferred trigger, so every batch would fail.';
			hint := 'Drop it (or make it NOT DEFERRABLE) for the move and create it again after it; or start the move as a role that may set session_replication_role, so that it does not fire.';
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
	col pg_catalog.text := format('%s.%I', p.relation, p.column_name);
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
			-- the constant at the root of the default, read from the
			-- catalog without evaluating it (a cast to a domain would run
			-- the domain's CHECK): anything else is refused
			IF @extschema@.xid_move_default_const(d.rel, (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = d.rel AND a.attname = p.column_name)) IS NULL THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('Its default, %s, is not a constant of a built-in type: the swap gives the new column the id of the row the default references, read from the default without evaluating it.', d.def);
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

-- What the move cannot reach through pg_depend on its columns: foreign
-- keys declared on a partition, typed tables, the row types of the tables
-- it changes (stored in other columns, used by functions) and the
-- functions whose signatures use the key's type.  Catalog reads only.
CREATE FUNCTION @extschema@.xid_move_plan_walk(tbl regclass, keytype regtype)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
	rels pg_catalog.regclass[];
	keycol name := (SELECT a.attname FROM pg_attribute a JOIN pg_constraint con ON con.conrelid = a.attrelid AND a.attnum = con.conkey[1]
	                WHERE con.conrelid = tbl AND con.contype = 'p');
	words pg_catalog.text;
BEGIN
	-- every relation the move changes, at every partition level
	rels := ARRAY(SELECT DISTINCT r FROM @extschema@.xid_move_parts_of(tbl) x, @extschema@.xid_move_tree(x.relation) r);

	-- a foreign key declared on a partition (its partitioned table has
	-- none it belongs to): the move adds its column to the partitioned
	-- table, and a partition cannot take a column of its own
	FOR d IN SELECT con.conname, con.conrelid::regclass AS rel, i.inhparent::regclass AS parent
	          FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
	          JOIN pg_inherits i ON i.inhrelid = con.conrelid
	          WHERE con.contype = 'f' AND con.confrelid = tbl AND con.conparentid = 0 AND c.relispartition
	          ORDER BY con.conrelid::regclass::text, con.conname LOOP
		object_type := 'foreign key'; object := format('%I on %s', d.conname, d.rel); action := 'refuse'; sqlstate := '0A000';
		detail := format('It is declared on %s, a partition of %s, and not on the partitioned table: the move adds the new column to a partitioned table as a whole, and a partition cannot take a column of its own.',
			d.rel, d.parent);
		hint := format('Declare the foreign key on the partitioned table %s instead (ALTER TABLE %s ADD FOREIGN KEY ..., which gives every partition one; then ALTER TABLE %s DROP CONSTRAINT %I), or detach the partition for the move.',
			pg_partition_root(d.rel), pg_partition_root(d.rel), d.rel, d.conname);
		RETURN NEXT;
	END LOOP;

	-- typed tables (CREATE TABLE ... OF type): their columns are the
	-- type's, so the move cannot add one
	FOR d IN SELECT c.oid::regclass AS rel, c.reloftype::regtype AS typ FROM pg_class c
	          WHERE c.oid = ANY (rels) AND c.reloftype <> 0 ORDER BY c.oid::regclass::text LOOP
		object_type := 'table'; object := d.rel::text; action := 'refuse'; sqlstate := '0A000';
		detail := format('It is a typed table (OF %s): its columns are those of the type, and the move adds one.', d.typ);
		hint := format('ALTER TABLE %s NOT OF for the move (the type then no longer describes it).', d.rel);
		RETURN NEXT;
	END LOOP;

	-- the row types of the relations the move changes, and every type
	-- that holds one: its array, a domain over it, a composite type or
	-- table with a column of it, a range over it.  A value of one stored
	-- anywhere keeps the old key after the swap.
	FOR d IN WITH RECURSIVE rowtype(typ, via) AS (
	              SELECT c.reltype, c.oid::regclass FROM pg_class c WHERE c.oid = ANY (rels) AND c.reltype <> 0
	              UNION
	              SELECT n.typ, r.via FROM rowtype r, LATERAL (
	                  SELECT t.typarray AS typ FROM pg_type t WHERE t.oid = r.typ AND t.typarray <> 0
	                  UNION ALL SELECT t.oid FROM pg_type t WHERE t.typbasetype = r.typ AND t.typtype = 'd'
	                  UNION ALL SELECT t.oid FROM pg_type t WHERE t.typelem = r.typ AND t.typsubscript = 'array_subscript_handler'::regproc
	                  UNION ALL SELECT rg.rngtypid FROM pg_range rg WHERE rg.rngsubtype = r.typ
	                  UNION ALL SELECT rg.rngmultitypid FROM pg_range rg WHERE rg.rngtypid = r.typ
	                  UNION ALL SELECT c.reltype FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	                            WHERE a.atttypid = r.typ AND a.attnum > 0 AND NOT a.attisdropped AND c.reltype <> 0) n)
	          SELECT DISTINCT ON (a.attrelid, a.attnum) a.attrelid::regclass AS rel, a.attname, a.atttypid::regtype AS typ, c.relkind, r.via
	          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN rowtype r ON r.typ = a.atttypid
	          WHERE a.attnum > 0 AND NOT a.attisdropped
	          ORDER BY a.attrelid, a.attnum, r.via LOOP
		object := format('%s.%I', d.rel, d.attname); hint := NULL;
		IF d.relkind IN ('v', 'c') THEN
			object_type := CASE d.relkind WHEN 'v' THEN 'view column' ELSE 'type attribute' END;
			action := 'keep'; sqlstate := NULL;
			detail := format('Its type, %s, holds the row type of table %s, which the swap changes (column %I becomes an xid, the old key another column); nothing of it is stored.',
				d.typ, d.via, keycol);
		ELSE
			object_type := 'column'; action := 'refuse'; sqlstate := '0A000';
			detail := format('Its type, %s, holds the row type of table %s: the rows stored in it would keep the old key after the swap, and lose it when the finish drops the old column.',
				d.typ, d.via);
			hint := format('Store the key (a column of its own, or a reference) instead of the row, or drop column %I for the move.', d.attname);
		END IF;
		RETURN NEXT;
	END LOOP;

	-- functions and procedures whose signature uses such a row type, or
	-- the key's type and whose body names the table, the key or a
	-- referencing column: calls that pass or compare the old key break at
	-- the swap.  Listed (kept), never run: only their text is read.
	-- the table's name, the key's and each referencing column's, as words
	words := '\m(' || (SELECT string_agg(regexp_replace(w, '([^[:alnum:]_])', '\\\1', 'g'), '|')
	                   FROM (SELECT c.relname::text AS w FROM pg_class c WHERE c.oid = tbl
	                         UNION SELECT x.column_name FROM @extschema@.xid_move_parts_of(tbl) x) ws) || ')\M';
	FOR d IN WITH RECURSIVE rowtype(typ) AS (
	              SELECT c.reltype FROM pg_class c WHERE c.oid = ANY (rels) AND c.reltype <> 0
	              UNION
	              SELECT n.typ FROM rowtype r, LATERAL (
	                  SELECT t.typarray AS typ FROM pg_type t WHERE t.oid = r.typ AND t.typarray <> 0
	                  UNION ALL SELECT t.oid FROM pg_type t WHERE t.typbasetype = r.typ AND t.typtype = 'd') n)
	          SELECT pr.oid::regprocedure AS fn, pr.prokind,
	                 (SELECT string_agg(format('%s %s', coalesce(nullif(pr.proargnames[k.i], ''), '$' || k.i), k.t::regtype), ', ' ORDER BY k.i)
	                  FROM unnest(coalesce(pr.proallargtypes, pr.proargtypes::oid[])) WITH ORDINALITY k(t, i)
	                  WHERE k.t = keytype OR k.t IN (SELECT r.typ FROM rowtype r)) AS args,
	                 (pr.prorettype = keytype OR pr.prorettype IN (SELECT r.typ FROM rowtype r)) AS ret,
	                 pr.prorettype::regtype AS rettype,
	                 (pr.prorettype IN (SELECT r.typ FROM rowtype r)
	                  OR EXISTS (SELECT FROM unnest(coalesce(pr.proallargtypes, pr.proargtypes::oid[])) k(t) WHERE k.t IN (SELECT r.typ FROM rowtype r))) AS rowtyped
	          FROM pg_proc pr
	          WHERE pr.prokind IN ('f', 'p')
	            AND pr.pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
	            AND NOT EXISTS (SELECT FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = pr.oid AND e.deptype = 'e')
	            AND ((pr.prorettype IN (SELECT r.typ FROM rowtype r)
	                  OR EXISTS (SELECT FROM unnest(coalesce(pr.proallargtypes, pr.proargtypes::oid[])) k(t) WHERE k.t IN (SELECT r.typ FROM rowtype r)))
	                 OR ((pr.prorettype = keytype OR keytype = ANY (coalesce(pr.proallargtypes, pr.proargtypes::oid[])))
	                     AND pr.prosrc ~* words))
	          ORDER BY pr.oid::regprocedure::text LOOP
		object_type := CASE d.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END; object := d.fn::text;
		action := 'keep'; sqlstate := NULL;
		detail := format('%s%s%s: the swap changes column %I of table %s to xid%s, so the callers that pass or compare an old key, and its body where it does, need changing.',
			CASE WHEN d.rowtyped THEN format('It uses the row type of table %s', tbl) ELSE format('It takes or returns %s values and its body names table %s, its key or a column that references it', keytype, tbl) END,
			coalesce(' (argument ' || d.args || ')', ''),
			CASE WHEN d.ret THEN format(' (result %s)', d.rettype) ELSE '' END,
			keycol, tbl, CASE WHEN d.rowtyped THEN ' (and adds the old key as another column)' ELSE '' END);
		hint := NULL;
		RETURN NEXT;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_walk(regclass, regtype) IS
'the plan of a move: foreign keys declared on partitions, typed tables, the uses of the row types it changes, the functions whose signatures use the key''s type';

-- What the swap would drop without a word, on the column of a part and
-- each of its partitions: CLUSTER ON an index over it (refused), its
-- statistics target and attribute options (carried), the comments of the
-- primary key, the foreign key and the moved indexes (carried, or refused
-- where the swap cannot put them back)
CREATE FUNCTION @extschema@.xid_move_plan_properties(tbl regclass, p @extschema@.xid_move_part)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	d record;
BEGIN
	-- CLUSTER ON: the index that takes its place is not marked
	FOR d IN SELECT i.indexrelid::regclass AS idx, i.indrelid::regclass AS rel
	          FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
	          WHERE i.indrelid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND i.indisclustered AND a.attname = p.column_name
	          ORDER BY i.indexrelid::regclass::text LOOP
		object_type := 'cluster'; object := format('%s on %s', d.idx, d.rel); action := 'refuse'; sqlstate := '0A000';
		detail := format('Table %s is clustered on index %s over column %I: the index that takes its place is not marked, and this one stays with the old column.', d.rel, d.idx, p.column_name);
		hint := format('ALTER TABLE %s SET WITHOUT CLUSTER for the move, and ALTER TABLE %s CLUSTER ON the index over the new column after it.', d.rel, d.rel);
		RETURN NEXT;
	END LOOP;
	sqlstate := NULL; hint := NULL;
	-- the statistics target (-1 before 17, NULL from 17 is the default)
	-- and the attribute options core defines (n_distinct,
	-- n_distinct_inherited; a build may keep options of its own there)
	FOR d IN SELECT r AS rel, a.attstattarget AS target, o.attoptions
	          FROM @extschema@.xid_move_tree(p.relation) r
	          JOIN pg_attribute a ON a.attrelid = r AND a.attname = p.column_name,
	          LATERAL (SELECT array_agg(x ORDER BY x) AS attoptions FROM unnest(a.attoptions) x
	                   WHERE x ~ '^n_distinct(_inherited)?=') o
	          WHERE a.attstattarget >= 0 OR o.attoptions IS NOT NULL
	          ORDER BY r = p.relation DESC, r::text LOOP
		object := format('%s.%I', d.rel, p.column_name); action := 'carry';
		IF d.target >= 0 THEN
			object_type := 'statistics target';
			detail := format('Its statistics target, %s: the swap sets the same on the new column.', d.target);
			RETURN NEXT;
		END IF;
		IF d.attoptions IS NOT NULL THEN
			object_type := 'attribute options';
			detail := format('Its options %s: the swap sets the same on the new column.', array_to_string(d.attoptions, ', '));
			RETURN NEXT;
		END IF;
	END LOOP;
	-- comments: the primary key and its index are made again under their
	-- names before the swap gives the new column its comment
	IF p.role = 'parent' THEN
		FOR d IN SELECT format('%I on %s', con.conname, tbl) AS obj, 'constraint comment' AS typ, obj_description(con.oid, 'pg_constraint') AS cmt
		          FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p'
		          UNION ALL
		          SELECT con.conindid::regclass::text, 'index comment', obj_description(con.conindid, 'pg_class')
		          FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p' LOOP
			CONTINUE WHEN d.cmt IS NULL;
			object_type := d.typ; object := d.obj; action := 'carry';
			detail := 'The comment of the primary key: the swap puts it on the one it makes on the new column.';
			RETURN NEXT;
		END LOOP;
	ELSE
		-- the foreign key is made again after the swap's comments (on a
		-- partitioned table, by the finish)
		FOR d IN SELECT con.conname, con.conrelid::regclass AS rel FROM pg_constraint con
		          WHERE con.contype = 'f' AND con.confrelid = tbl AND con.conrelid IN (SELECT @extschema@.xid_move_tree(p.relation))
		            AND (con.conname = p.constraint_name OR con.conparentid <> 0)
		            AND obj_description(con.oid, 'pg_constraint') IS NOT NULL
		          ORDER BY con.conrelid = p.relation DESC, con.conrelid::regclass::text LOOP
			object_type := 'constraint comment'; object := format('%I on %s', d.conname, d.rel); action := 'refuse'; sqlstate := '0A000';
			detail := 'A comment on the foreign key: the swap drops the foreign key and makes it again on the new column, without it.';
			hint := format('COMMENT ON CONSTRAINT %I ON %s IS NULL for the move, and comment it again after the finish.', d.conname, d.rel);
			RETURN NEXT;
		END LOOP;
		sqlstate := NULL; hint := NULL;
	END IF;
	-- the indexes the move builds again (and their unique constraints)
	FOR d IN SELECT i.indexrelid::regclass AS idx, i.indrelid::regclass AS rel, con.conname, h.inhrelid IS NOT NULL AS attached,
	                obj_description(i.indexrelid, 'pg_class') AS icmt, obj_description(con.oid, 'pg_constraint') AS ccmt
	          FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
	          LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
	          LEFT JOIN pg_inherits h ON h.inhrelid = i.indexrelid
	          WHERE i.indrelid IN (SELECT @extschema@.xid_move_tree(p.relation)) AND a.attname = p.column_name
	            AND i.indexprs IS NULL AND i.indpred IS NULL
	            AND (con.contype IS NULL OR con.contype = 'u')
	            AND (obj_description(i.indexrelid, 'pg_class') IS NOT NULL OR obj_description(con.oid, 'pg_constraint') IS NOT NULL)
	          ORDER BY i.indexrelid::regclass::text LOOP
		IF d.attached THEN
			object_type := 'index comment'; object := d.idx::text; action := 'refuse'; sqlstate := '0A000';
			detail := format('A comment on index %s of a partition, which the move builds again: the copy does not take it.', d.idx);
			hint := format('COMMENT ON INDEX %s IS NULL for the move, and comment the index that takes its place after it.', d.idx);
			RETURN NEXT;
			sqlstate := NULL; hint := NULL;
			CONTINUE;
		END IF;
		action := 'carry';
		IF d.icmt IS NOT NULL THEN
			object_type := 'index comment'; object := d.idx::text;
			detail := 'The comment of an index the move builds again: the swap puts it on the copy, which takes its place.';
			RETURN NEXT;
		END IF;
		IF d.ccmt IS NOT NULL THEN
			object_type := 'constraint comment'; object := format('%I on %s', d.conname, d.rel);
			detail := 'The comment of a unique constraint the move makes again: the swap puts it on the new one.';
			RETURN NEXT;
		END IF;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan_properties(regclass, @extschema@.xid_move_part) IS
'the plan of a move: the cluster index, statistics target, attribute options and comments of a column it changes, its keys and its indexes';

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
	n pg_catalog.int8;
	keytype pg_catalog.regtype;
	can_replica pg_catalog.bool := @extschema@.xid_move_can_replica();
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
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_properties(tbl, p);
		-- a table referenced through several columns is looked at once
		CONTINUE WHEN p.role = 'child' AND (p.relation = tbl OR EXISTS (
			SELECT FROM @extschema@.xid_move_parts_of(tbl) y WHERE y.role = 'child' AND y.relation = p.relation AND y.constraint_name < p.constraint_name));
		RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_code(tbl, p, fire_triggers, can_replica);
	END LOOP;
	RETURN QUERY SELECT * FROM @extschema@.xid_move_plan_walk(tbl, keytype);

	-- ids that existing rows would share
	n := (@extschema@.xid_move_query(tbl, format('SELECT count(*) - count(DISTINCT %s) AS n FROM %s AS row',
		@extschema@.xid_move_id_expr('row', (SELECT a.attname FROM pg_attribute a JOIN pg_constraint con ON con.conrelid = a.attrelid AND a.attnum = con.conkey[1]
		                                      WHERE con.conrelid = tbl AND con.contype = 'p'), keytype, time_column), tbl)) ->> 'n')::bigint;
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
