/* move/xid_move--1.0--1.1.sql: xid_move 1.0 to 1.1 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION xid_move UPDATE TO '1.1'" to load this file. \quit

-- 1.1: rows written during a move take their id from the new column's
-- default (no trigger on the writers' inserts); the reference lookup runs
-- without SET clauses; the functions a move makes depend on the extension
-- (DROP EXTENSION is refused mid-move); moved indexes keep their method,
-- storage parameters, tablespace and the other columns' collations and
-- operator classes.  A move started under 1.0 goes on under 1.1: the swap
-- and the abort drop its insert trigger too.

-- What a move of tbl changes, moves with the key, keeps, and refuses,
-- before anything changes: one row an object.  action is one of
--   change   the move adds a column and triggers to it and swaps the key
--   move     an index or a unique constraint over the key or a reference:
--            the same is built on the new column and takes its place
--   keep     stays as it is (named so that nothing is a surprise)
--   fire     an application trigger the backfill fires (fire_triggers)
--   suppress an application trigger the backfill keeps from firing
--   refuse   the move cannot go on; sqlstate, detail and hint say why and
--            what to do
-- xid_move_start() raises the first refusal as its error.
CREATE OR REPLACE FUNCTION @extschema@.xid_move_plan(tbl regclass, time_column name DEFAULT NULL, fire_triggers boolean DEFAULT false)
RETURNS TABLE (object_type text, object text, action text, detail text, sqlstate text, hint text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	rel record;
	pk record;
	o record;
	keytype regtype;
	p record;
	d record;
	n bigint;
	can_replica boolean;
	cols text;
	bad text;
	xs text := @extschema@.xid_move_xs();
BEGIN
	SELECT c.relkind, c.relispartition, c.relforcerowsecurity, c.relname INTO rel FROM pg_class c WHERE c.oid = tbl;
	object_type := 'table'; object := tbl::text;
	IF rel.relkind <> 'r' OR rel.relispartition THEN
		action := 'refuse'; sqlstate := '0A000';
		detail := 'Only a plain table''s key can be moved; a partitioned table''s key includes its partition key.';
		hint := NULL; RETURN NEXT; RETURN;
	END IF;
	IF @extschema@.xid_move_owns(tbl) IS NOT true THEN
		action := 'refuse'; sqlstate := '42501'; detail := format('must be owner of table %s', tbl);
		hint := NULL; RETURN NEXT; RETURN;
	END IF;
	IF EXISTS (SELECT FROM @extschema@.xid_move_moves m WHERE m.tbl = $1)
	   OR EXISTS (SELECT FROM @extschema@.xid_move_parts m WHERE m.relation = $1) THEN
		action := 'refuse'; sqlstate := '55006';
		detail := format('A move of table %s (or of a table it references) is under way.', tbl);
		hint := format('SELECT * FROM %s.xid_move_status(%L) says where it is.', '@extschema@', tbl::text);
		RETURN NEXT; RETURN;
	END IF;
	SELECT con.conname, con.conkey, con.condeferrable INTO pk FROM pg_constraint con WHERE con.conrelid = tbl AND con.contype = 'p';
	IF NOT FOUND THEN
		action := 'refuse'; sqlstate := '55000';
		detail := 'The table has no primary key: the move replaces a primary key of one column with an xid.';
		hint := NULL; RETURN NEXT; RETURN;
	END IF;
	IF cardinality(pk.conkey) <> 1 THEN
		action := 'refuse'; sqlstate := '0A000';
		detail := format('The primary key has %s columns: the move replaces a primary key of one column with an xid.', cardinality(pk.conkey));
		hint := NULL; RETURN NEXT; RETURN;
	END IF;
	SELECT a.atttypid::regtype INTO keytype FROM pg_attribute a WHERE a.attrelid = tbl AND a.attnum = pk.conkey[1];
	IF keytype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'uuid'::regtype) THEN
		action := 'refuse'; sqlstate := '0A000';
		detail := format('The primary key is of type %s; the move takes smallint, integer, bigint or uuid.', keytype);
		-- a domain over one of those: its constraints could not hold on
		-- the xid that replaces it, so the way is through its base type
		hint := (SELECT format('Change the key and the columns that reference it to %1$s, the domain''s base type, first (ALTER TABLE ... ALTER COLUMN ... TYPE %1$s).', t.typbasetype::regtype)
		         FROM pg_type t WHERE t.oid = keytype AND t.typtype = 'd'
		           AND t.typbasetype IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'uuid'::regtype));
		RETURN NEXT; RETURN;
	END IF;
	IF pk.condeferrable THEN
		action := 'refuse'; sqlstate := '0A000';
		detail := 'The primary key is deferrable.'; hint := NULL; RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NULL AND keytype <> 'uuid'::regtype THEN
		action := 'refuse'; sqlstate := '22023';
		detail := format('A move of a %s key needs the column that holds each row''s time.', keytype);
		hint := 'Pass time_column => ''created_at'' (a timestamptz column), or the like.';
		RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NOT NULL AND NOT EXISTS (
		SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = time_column
		   AND NOT a.attisdropped AND a.attnum > 0 AND a.atttypid = 'timestamptz'::regtype) THEN
		action := 'refuse'; sqlstate := '42703';
		detail := format('The table has no column %s of type timestamp with time zone.', quote_ident(time_column));
		hint := NULL; RETURN NEXT; RETURN;
	END IF;
	IF time_column IS NOT NULL THEN
		EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NULL', tbl, time_column) INTO n;
		IF n > 0 THEN
			action := 'refuse'; sqlstate := '23502';
			detail := format('%s rows have no time in column %I: an existing row''s id is made from its time.', n, time_column);
			hint := 'Give them a time before the move.';
			RETURN NEXT; RETURN;
		END IF;
	END IF;
	IF time_column IS NULL THEN
		-- each key's own time: every existing key must be a UUIDv7 (rows
		-- written during the move get xid_new())
		EXECUTE format('SELECT k::text FROM %s AS t(k) WHERE substr(k::text, 15, 1) <> ''7''
		                  OR substr(k::text, 20, 1) NOT IN (''8'', ''9'', ''a'', ''b'') LIMIT 1',
		               format('(SELECT %I FROM %s)', (SELECT attname FROM pg_attribute WHERE attrelid = tbl AND attnum = pk.conkey[1]), tbl))
			INTO bad;
		IF bad IS NOT NULL THEN
			action := 'refuse'; sqlstate := '22023';
			detail := format('The table has keys that are not version 7 uuids, such as %s.', bad);
			hint := 'Pass time_column => the column that holds each row''s time.';
			RETURN NEXT; RETURN;
		END IF;
	END IF;
	can_replica := @extschema@.xid_move_can_replica();

	FOR p IN SELECT DISTINCT ON (x.role, x.relation::text, x.constraint_name) * FROM @extschema@.xid_move_parts_of(tbl) x
	          ORDER BY x.role DESC, x.relation::text, x.constraint_name, x.leaf::text LOOP
		object_type := 'column'; object := format('%s.%I', p.relation, p.column_name);
		sqlstate := NULL; hint := NULL;
		IF p.role = 'parent' THEN
			action := 'change';
			detail := format('The key: an xid column %I, filled with %s for existing rows and xid_new() for new ones, becomes the primary key %I; the old key stays as %I, unique.',
				p.new_column, @extschema@.xid_move_id_expr('row', p.column_name, keytype, time_column), p.constraint_name, p.old_column);
		ELSE
			action := 'change';
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
		-- the foreign key itself
		IF p.role = 'child' THEN
			SELECT con.conkey, con.confkey, con.convalidated, c.relkind, c.relforcerowsecurity, c.relowner
			  INTO d FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
			 WHERE con.conrelid = p.relation AND con.conname = p.constraint_name AND con.contype = 'f';
			object_type := 'foreign key'; object := format('%I on %s', p.constraint_name, p.relation);
			IF cardinality(d.conkey) <> 1 THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := format('It has %s columns; the move takes foreign keys of one column.', cardinality(d.conkey));
				RETURN NEXT;
			ELSIF d.confkey <> pk.conkey THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := 'It references another unique constraint of the table, not its primary key.';
				RETURN NEXT;
			ELSIF NOT d.convalidated THEN
				action := 'refuse'; sqlstate := '55000';
				detail := 'It is NOT VALID: rows may reference keys that do not exist.';
				hint := format('Validate it first: ALTER TABLE %s VALIDATE CONSTRAINT %I.', p.relation, p.constraint_name);
				RETURN NEXT;
			ELSIF @extschema@.xid_move_owns(p.relation) IS NOT true THEN
				action := 'refuse'; sqlstate := '42501';
				detail := format('must be owner of table %s, which references table %s', p.relation, tbl);
				RETURN NEXT;
			ELSIF d.relkind NOT IN ('r', 'p') THEN
				action := 'refuse'; sqlstate := '0A000';
				detail := 'The referencing relation is not a table.';
				RETURN NEXT;
			END IF;
			-- the column in another foreign key, in a primary key
			FOR d IN SELECT con.conname, con.contype FROM pg_constraint con
			          WHERE con.conrelid = p.relation AND con.conname <> p.constraint_name AND p.attnum = ANY (con.conkey)
			            AND con.contype IN ('f', 'p') AND con.conparentid = 0 LOOP
				object_type := 'constraint'; object := format('%I on %s', d.conname, p.relation);
				action := 'refuse'; sqlstate := '0A000'; hint := NULL;
				detail := format('Column %I is also in this %s; the move changes a column that only references the key.',
					p.column_name, CASE d.contype WHEN 'p' THEN 'primary key' ELSE 'foreign key' END);
				RETURN NEXT;
			END LOOP;
			IF p.relation = tbl THEN
				object_type := 'foreign key'; object := format('%I on %s', p.constraint_name, p.relation);
				action := 'keep'; sqlstate := NULL; hint := NULL;
				detail := 'The table references itself: the references move with the key.';
				RETURN NEXT;
			END IF;
		END IF;
		-- the new and old column names
		IF EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = p.relation
		             AND a.attname IN (p.new_column, p.old_column) AND NOT a.attisdropped) THEN
			object_type := 'column'; object := format('%s.%I', p.relation, p.column_name);
			action := 'refuse'; sqlstate := '42701'; hint := NULL;
			detail := format('Table %s already has a column %I or %I.', p.relation, p.new_column, p.old_column);
			RETURN NEXT;
		END IF;
		-- forced row security: the owner would not see every row
		IF (SELECT c.relforcerowsecurity FROM pg_class c WHERE c.oid = p.relation)
		   OR EXISTS (SELECT FROM pg_partition_tree(p.relation) t JOIN pg_class c ON c.oid = t.relid WHERE c.relforcerowsecurity) THEN
			object_type := 'table'; object := p.relation::text;
			action := 'refuse'; sqlstate := '55000';
			detail := 'It has FORCE ROW LEVEL SECURITY: its policies would hide rows from the move, which must see every row.';
			hint := format('ALTER TABLE %s NO FORCE ROW LEVEL SECURITY for the move, and FORCE again after it.', p.relation);
			RETURN NEXT;
		END IF;
		-- the move's trigger functions go in the table's schema, owned by
		-- the table's owner
		IF NOT (SELECT has_schema_privilege(c.relowner, c.relnamespace, 'CREATE') FROM pg_class c WHERE c.oid = p.relation) THEN
			object_type := 'schema'; object := (SELECT quote_ident(n.nspname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = p.relation);
			action := 'refuse'; sqlstate := '42501';
			detail := format('The owner of table %s may not create objects in its schema; the move puts its trigger functions there.', p.relation);
			hint := format('GRANT CREATE ON SCHEMA %s TO %s for the move.', object, @extschema@.xid_move_owner(p.relation));
			RETURN NEXT;
		END IF;
		-- inheritance (not partitions)
		IF EXISTS (SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		           WHERE (i.inhparent = p.relation OR i.inhrelid = p.relation) AND NOT c.relispartition) THEN
			object_type := 'table'; object := p.relation::text;
			action := 'refuse'; sqlstate := '0A000'; hint := NULL;
			detail := 'It has inheritance parents or children; the move takes plain and partitioned tables.';
			RETURN NEXT;
		END IF;
		IF p.role = 'child' AND p.relation <> p.leaf THEN
			object_type := 'partitions'; object := p.relation::text; action := 'change'; sqlstate := NULL; hint := NULL;
			detail := format('%s partitions, each backfilled on its own.',
				(SELECT count(*) FROM pg_partition_tree(p.relation) t WHERE t.isleaf));
			RETURN NEXT;
		END IF;

		-- every object that depends on the column, on the relation and on
		-- each of its partitions
		FOR d IN
			SELECT dep.classid, dep.objid, dep.objsubid, dep.refobjid,
			       pg_describe_object(dep.classid, dep.objid, dep.objsubid) AS descr
			FROM pg_depend dep
			WHERE dep.refclassid = 'pg_class'::regclass AND dep.refobjsubid = p.attnum
			  AND dep.refobjid IN (SELECT p.relation UNION SELECT t.relid FROM pg_partition_tree(p.relation) t)
			  AND dep.deptype IN ('n', 'a')
			ORDER BY 5
		LOOP
			object_type := NULL; sqlstate := NULL; hint := NULL; object := d.descr;
			IF d.classid = 'pg_rewrite'::regclass THEN
				object_type := 'view';
				SELECT format('%s', r.ev_class::regclass) INTO object FROM pg_rewrite r WHERE r.oid = d.objid;
				action := 'refuse'; sqlstate := '0A000';
				detail := format('It uses column %I, whose type and name the swap change.', p.column_name);
				hint := format('Drop %s before the move and create it again after the swap, or define it without column %I.', object, p.column_name);
			ELSIF d.classid = 'pg_policy'::regclass THEN
				object_type := 'policy'; action := 'refuse'; sqlstate := '0A000';
				detail := format('It uses column %I.', p.column_name);
				hint := 'Drop the policy for the move and create it again after the swap.';
			ELSIF d.classid = 'pg_trigger'::regclass THEN
				CONTINUE WHEN (SELECT tgisinternal FROM pg_trigger WHERE oid = d.objid);
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
				CONTINUE WHEN o.relkind NOT IN ('i', 'I');
				-- the primary key's, the foreign key's partitions' and the
				-- constraints' indexes are counted with their constraint
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
				ELSIF EXISTS (SELECT FROM unnest(o.indkey::int2[]) WITH ORDINALITY k(att, i)
				              WHERE k.att = p.attnum AND k.i > o.indnkeyatts) THEN
					action := 'move';
					detail := format('It includes column %I: the same is built on %I and takes its place.', p.column_name, p.new_column);
				ELSIF o.complex OR NOT (p.attnum = ANY (o.indkey::int2[])) THEN
					action := 'refuse'; sqlstate := '0A000';
					detail := format('Its expressions or its predicate use column %I.', p.column_name);
					hint := 'Drop it for the move and create it again after the swap.';
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
				CONTINUE WHEN (SELECT a.adnum FROM pg_attrdef a WHERE a.oid = d.objid) = p.attnum;
				object_type := 'generated column'; action := 'refuse'; sqlstate := '0A000';
				detail := format('A generated column is computed from column %I.', p.column_name);
				hint := 'Drop it for the move and add it again after the swap.';
			ELSIF d.classid = 'pg_class'::regclass OR d.classid = 'pg_type'::regclass THEN
				CONTINUE;
			ELSE
				object_type := 'object'; action := 'refuse'; sqlstate := '0A000';
				detail := format('It depends on column %I.', p.column_name);
				hint := 'Drop it for the move and create it again after the swap.';
			END IF;
			RETURN NEXT;
		END LOOP;

		-- views over the table that do not use the column are kept
		FOR d IN SELECT s.v FROM (SELECT DISTINCT r.ev_class::regclass AS v FROM pg_depend dep JOIN pg_rewrite r ON r.oid = dep.objid
		          WHERE dep.classid = 'pg_rewrite'::regclass AND dep.refobjid = p.relation AND r.ev_class <> p.relation
		            AND NOT EXISTS (SELECT FROM pg_depend x WHERE x.classid = 'pg_rewrite'::regclass AND x.objid = dep.objid
		                            AND x.refobjid = p.relation AND x.refobjsubid = p.attnum)) s
		          ORDER BY s.v::text LOOP
			object_type := 'view'; object := d.v::text; action := 'keep'; sqlstate := NULL; hint := NULL;
			detail := format('It does not use column %I.', p.column_name);
			RETURN NEXT;
		END LOOP;

		-- application row triggers that an UPDATE fires: the backfill's
		-- updates would fire them on every row
		FOR d IN SELECT t.tgname, t.tgenabled, t.tgrelid::regclass AS r FROM pg_trigger t
		          WHERE (t.tgrelid = p.relation OR t.tgrelid IN (SELECT x.relid FROM pg_partition_tree(p.relation) x))
		            AND NOT t.tgisinternal AND t.tgparentid = 0
		            AND t.tgtype & 1 = 1 AND t.tgtype & 16 = 16 AND t.tgenabled <> 'D'
		            AND t.tgname NOT LIKE 'xid_move%'
		          ORDER BY 1 LOOP
			object_type := 'trigger'; object := format('%I on %s', d.tgname, d.r); sqlstate := NULL; hint := NULL;
			IF can_replica AND d.tgenabled = 'O' THEN
				action := 'suppress';
				detail := 'A row trigger on UPDATE: the backfill runs with session_replication_role = replica, so it does not fire.';
			ELSIF fire_triggers THEN
				action := 'fire';
				detail := 'A row trigger on UPDATE: the backfill fires it on every row it fills (fire_triggers => true), with search_path pg_catalog, pg_temp: its function needs its own SET search_path if it names tables unqualified.';
			ELSE
				action := 'refuse'; sqlstate := '55000';
				detail := 'A row trigger on UPDATE: the backfill''s updates would fire it on every row.';
				hint := CASE WHEN d.tgenabled = 'O'
					THEN 'A superuser can GRANT SET ON PARAMETER session_replication_role to the owner, so that the backfill does not fire it; or pass fire_triggers => true to fire it.'
					ELSE 'It is enabled ALWAYS or REPLICA, so the backfill cannot keep it from firing: pass fire_triggers => true to fire it.' END;
			END IF;
			RETURN NEXT;
		END LOOP;

		-- publications of the whole table: the new columns are published
		FOR d IN SELECT pub.pubname FROM pg_publication_tables pt JOIN pg_publication pub ON pub.pubname = pt.pubname
		          WHERE (pt.schemaname, pt.tablename) = (SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = p.relation)
		          ORDER BY 1 LOOP
			object_type := 'publication'; object := quote_ident(d.pubname); action := 'keep'; sqlstate := NULL;
			detail := format('It publishes table %s: subscribers need the new column %I before the start (ALTER TABLE on each).', p.relation, p.new_column);
			hint := NULL;
			RETURN NEXT;
		END LOOP;
	END LOOP;

	-- ids that existing rows would share
	IF NOT EXISTS (SELECT FROM @extschema@.xid_move_parts_of(tbl) x, pg_attribute a
	               WHERE x.role = 'parent' AND a.attrelid = tbl AND a.attname IN (x.new_column, x.old_column) AND NOT a.attisdropped) THEN
		EXECUTE format('SELECT count(*) - count(DISTINCT %s) FROM %s AS row',
			@extschema@.xid_move_id_expr('row', (SELECT attname FROM pg_attribute WHERE attrelid = tbl AND attnum = pk.conkey[1]), keytype, time_column), tbl)
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
	END IF;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_plan(regclass, name, boolean) IS
'what a move of a table''s key to xid changes, moves with the key, keeps and refuses, before any change';

-- The statements that make a function of the move on rel safe and its
-- owner's: no privilege to anyone, owned by rel's owner (its SECURITY
-- DEFINER lookup runs as that owner, whoever ran the step), and depending
-- on this extension (DROP EXTENSION xid_move is refused while it exists)
CREATE FUNCTION @extschema@.xid_move_fn_own(fn text, rel regclass)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT ARRAY[format('REVOKE ALL ON FUNCTION %s() FROM PUBLIC', fn),
	             format('ALTER FUNCTION %s() OWNER TO %s', fn, @extschema@.xid_move_owner(rel)),
	             format('ALTER FUNCTION %s() DEPENDS ON EXTENSION xid_move', fn)]
$$;

COMMENT ON FUNCTION @extschema@.xid_move_fn_own(text, regclass) IS
'the statements that take a function of the move from PUBLIC, give it to the owner of the relation and make it depend on the extension';

-- The statements that make the trigger functions and triggers of a child
-- part: a column that references p_key of parent (the key) gets, in
-- target, the value of p_val of the row it references.  A BEFORE trigger
-- looks the row up; when it cannot see it yet (a deferred foreign key
-- whose row comes later in the transaction, a row committed while a
-- multi-row statement runs), a deferred constraint trigger looks again at
-- commit, and an error stops the commit if it still cannot: a reference is
-- never left empty silently.  Both run as the owner of the tables
-- (SECURITY DEFINER, no privilege granted), so that a writer needs no
-- privilege it did not need before.  suffix: 'c' before the swap, 'b'
-- after it (the old columns kept following, for an abort).
CREATE OR REPLACE FUNCTION @extschema@.xid_move_ref_ddl(p @extschema@.xid_move_parts, parent regclass, p_key name, p_val text,
                                             col name, target name, target_type text, eq text, suffix text)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	lookup text;
	fn text := @extschema@.xid_move_fn(p.relation, p.tag, suffix);
	fix text := @extschema@.xid_move_fn(p.relation, p.tag, suffix || 'f');
	opts text := 'LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp SET row_security = off';
BEGIN
	lookup := format('SELECT %s FROM %s AS p WHERE p.%I %s NEW.%I', p_val, parent, p_key, eq, col);
	RETURN ARRAY[
		-- The lookup runs on every insert of a writer: no SET clause (they
		-- cost a settings save and restore per call), so every name in it
		-- is qualified and every operator written with its schema (the
		-- writer's search_path finds nothing).  Under row security that
		-- hides the parent from its owner (FORCE set during the move) it
		-- finds no row and leaves the reference empty; the deferred check
		-- below, with row_security off, then fails the commit.
		format('CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS %L', fn,
			format('BEGIN IF NEW.%1$I IS NULL THEN NEW.%2$I := NULL; ELSE %3$s INTO NEW.%2$I; END IF; RETURN NEW; END',
			       col, target, lookup))]
		|| @extschema@.xid_move_fn_own(fn, p.relation)
		|| format('CREATE FUNCTION %s() RETURNS trigger %s AS %L', fix, opts,
			format($f$DECLARE v %3$s; n integer; BEGIN
				EXECUTE pg_catalog.format('SELECT FROM ONLY %%s WHERE ctid OPERATOR(pg_catalog.=) $1', TG_RELID::pg_catalog.regclass) USING NEW.ctid;
				GET DIAGNOSTICS n = ROW_COUNT;
				IF n = 0 THEN RETURN NULL; END IF;
				%4$s INTO v;
				IF NOT FOUND THEN
					RAISE EXCEPTION 'a row of table %% references a row of table %% that cannot be found', TG_RELID::pg_catalog.regclass, %5$L
						USING ERRCODE = 'foreign_key_violation',
						      DETAIL = 'The move of the table to xid could not give the row its new reference.';
				END IF;
				IF v IS NULL THEN RETURN NULL; END IF;
				EXECUTE pg_catalog.format('UPDATE ONLY %%s SET %%I = $1 WHERE ctid OPERATOR(pg_catalog.=) $2 AND %%I IS NULL', TG_RELID::pg_catalog.regclass, %6$L, %6$L)
					USING v, NEW.ctid;
				RETURN NULL; END$f$,
			       col, target, target_type, lookup, parent::text, target))
		|| @extschema@.xid_move_fn_own(fix, p.relation)
		|| ARRAY[
		format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s()',
			'xid_move' || p.tag || '_' || suffix || 'i', p.relation, fn),
		-- IS DISTINCT FROM, written with the qualified operator of the
		-- column's type (an xid's after the swap)
		format('CREATE TRIGGER %1$I BEFORE UPDATE ON %2$s FOR EACH ROW WHEN ((NEW.%3$I IS NULL) <> (OLD.%3$I IS NULL) OR NOT (NEW.%3$I %6$s OLD.%3$I) OR (NEW.%4$I IS NULL AND NEW.%3$I IS NOT NULL)) EXECUTE FUNCTION %5$s()',
			'xid_move' || p.tag || '_' || suffix || 'u', p.relation, col, target, fn, eq),
		format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %s DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.%I IS NULL AND NEW.%I IS NOT NULL) EXECUTE FUNCTION %s()',
			'xid_move' || p.tag || '_' || suffix || 'f', p.relation, target, col, fix)];
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_ddl(@extschema@.xid_move_parts, regclass, name, text, name, name, text, text, text) IS
'the trigger functions and triggers that keep a referencing column''s new (or old) value in step';

CREATE OR REPLACE PROCEDURE @extschema@.xid_move_start(
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
	stmts text[] := '{}';
	s text;
	xs text;
	fn text;
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
	fn := @extschema@.xid_move_fn(tbl, par.tag, 'p');
	stmts := stmts || format(
		'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L', fn,
		format('BEGIN IF NEW.%3$I IS DISTINCT FROM OLD.%3$I THEN NEW.%1$I := %2$s.xid_new();'
		       ' ELSIF NEW.%1$I IS NULL THEN NEW.%1$I := %4$s; END IF; RETURN NEW; END',
		       par.new_column, xs, par.column_name,
		       @extschema@.xid_move_id_expr('NEW', par.column_name, key_type, time_column)));
	stmts := stmts || @extschema@.xid_move_fn_own(fn, tbl);
	-- an update fires it only when the id may change (its condition is
	-- checked without calling it): not for the backfill's own updates, nor
	-- for updates of other columns of a row that has its id
	stmts := stmts || format('CREATE TRIGGER %I BEFORE UPDATE ON %s FOR EACH ROW WHEN (NEW.%I IS NULL OR NEW.%I IS DISTINCT FROM OLD.%I) EXECUTE FUNCTION %s()',
		'xid_move_sync_update', tbl, par.new_column, par.column_name, par.column_name, fn);
	FOR p IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		stmts := stmts || @extschema@.xid_move_ref_ddl(p, tbl, par.column_name,
			format('coalesce(p.%I, %s)', par.new_column,
			       @extschema@.xid_move_id_expr('p', par.column_name, key_type, time_column)),
			p.column_name, p.new_column, xs || '.xid', 'OPERATOR(pg_catalog.=)', 'c');
	END LOOP;
	PERFORM @extschema@.xid_move_exec(@extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
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

-- its result gains the method and storage of each index
DROP FUNCTION @extschema@.xid_move_moved_indexes(regclass);
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

-- The indexes the swap needs, built CONCURRENTLY by the caller (no
-- procedure may): a unique index on the new key, one on the old key (it
-- stays unique and findable), and each index over the key or a
-- referencing column built again on the new column (a partitioned table's
-- partition by partition, then attached).  Only the missing ones; an index
-- left invalid by a failed build is dropped first.  For psql's \gexec.
CREATE OR REPLACE FUNCTION @extschema@.xid_move_index_commands(tbl regclass)
RETURNS SETOF text
LANGUAGE plpgsql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	par @extschema@.xid_move_parts;
	r record;
	part regclass;
	nsp name;
	pidx name;
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
		def := format('%s %%s%I ON %s%s USING %I %s%s%s', CASE WHEN r.is_unique THEN 'CREATE UNIQUE INDEX' ELSE 'CREATE INDEX' END, r.new_index,
			CASE WHEN r.relkind = 'p' THEN 'ONLY ' ELSE '' END, r.relation, r.method, r.cols,
			CASE WHEN r.nulls_not_distinct THEN ' NULLS NOT DISTINCT' ELSE '' END, r.storage);
		IF EXISTS (SELECT FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
		           WHERE i.indrelid = r.relation AND c.relname = r.new_index
		             AND (i.indisvalid OR r.relkind = 'p')) THEN
			CONTINUE;
		END IF;
		IF EXISTS (SELECT FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
		           WHERE i.indrelid = r.relation AND c.relname = r.new_index) THEN
			RETURN NEXT format('DROP INDEX CONCURRENTLY %I.%I', r.nspname, r.new_index);
		END IF;
		IF r.relkind = 'p' THEN
			RETURN NEXT format(def, '');
			FOR part IN SELECT t.relid FROM pg_partition_tree(r.relation) t WHERE t.isleaf AND t.level = 1 ORDER BY t.relid::regclass::text LOOP
				pidx := (left((SELECT relname FROM pg_class WHERE oid = part), 40) || '_xm' || par.tag || '_i')::name;
				RETURN NEXT format('%s INDEX CONCURRENTLY %I ON %s USING %I %s%s%s', CASE WHEN r.is_unique THEN 'CREATE UNIQUE' ELSE 'CREATE' END,
					pidx, part, r.method, r.cols, CASE WHEN r.nulls_not_distinct THEN ' NULLS NOT DISTINCT' ELSE '' END, r.storage);
				RETURN NEXT format('ALTER INDEX %I.%I ATTACH PARTITION %I.%I', r.nspname, r.new_index,
					(SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = part), pidx);
			END LOOP;
		ELSE
			RETURN NEXT format(def, 'CONCURRENTLY ');
		END IF;
	END LOOP;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_index_commands(regclass) IS
'the CREATE INDEX CONCURRENTLY statements a move still needs, for psql''s \gexec';

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

CREATE OR REPLACE PROCEDURE @extschema@.xid_move_swap(
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
	fn text;
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
	newidx := @extschema@.xid_move_unique_index(tbl, m.new_column, m.constraint_name);
	oldidx := @extschema@.xid_move_unique_index(tbl, m.key_column, m.constraint_name);
	IF newidx IS NULL OR oldidx IS NULL OR EXISTS (SELECT FROM @extschema@.xid_move_index_commands(tbl)) THEN
		RAISE EXCEPTION 'the move of table % lacks a valid index', tbl
			USING ERRCODE = 'object_not_in_prerequisite_state',
			      HINT = format('Run SELECT * FROM %s.xid_move_index_commands(%L) \gexec in psql, then validate again.', '@extschema@', tbl::text);
	END IF;

	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		fkdef := @extschema@.xid_move_fk_actions((SELECT oid FROM pg_constraint WHERE conrelid = r.relation AND conname = r.constraint_name));
		stmts := stmts || @extschema@.xid_move_ref_drop(r, 'c')
		               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, r.constraint_name)
		               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.column_name, r.old_column)
		               || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', r.relation, r.old_column)
		               || format('ALTER TABLE %s RENAME COLUMN %I TO %I', r.relation, r.new_column, r.column_name);
		IF r.not_null THEN
			stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET NOT NULL', r.relation, r.column_name)
			               || format('ALTER TABLE %s DROP CONSTRAINT %I', r.relation, left(r.new_column, 50) || '_not_null');
		END IF;
		-- the old column kept following the new one, so that
		-- xid_move_abort() can swap back until the finish
		stmts := stmts || @extschema@.xid_move_ref_ddl(r, tbl, m.key_column, format('p.%I', m.old_column),
			r.column_name, r.old_column,
			(SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a WHERE a.attrelid = r.relation AND a.attname = r.column_name),
			format('OPERATOR(%s.=)', xs), 'b');
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
		fn := @extschema@.xid_move_fn(tbl, par.tag, 'q');
		stmts := stmts || format(
			'CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS %L', fn,
			format('BEGIN IF NEW.%1$I IS NULL THEN NEW.%1$I := NEW.%2$I::pg_catalog.uuid; END IF; RETURN NEW; END',
			       m.old_column, m.key_column))
		               || @extschema@.xid_move_fn_own(fn, tbl)
		               || format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s()', 'xid_move_back', tbl, fn);
	ELSIF NOT EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = tbl AND a.attname = m.key_column
	                  AND (a.atthasdef OR a.attidentity <> '')) THEN
		stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I DROP NOT NULL', tbl, m.old_column);
	END IF;
	stmts := stmts || post;
	stmts := stmts || format('SELECT %s.xid_move_set_step(%L, ''swapped'')', '@extschema@', tbl::oid);

	-- all of it in one transaction: a failed lock attempt undoes it all and
	-- is tried again
	t0 := clock_timestamp();
	attempts := @extschema@.xid_move_exec(@extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
	RAISE NOTICE 'table % swapped to xid in % attempt(s), % after the first', tbl, attempts, clock_timestamp() - t0;
	RAISE NOTICE 'its key is now an xid (default %.xid_new()); the old key is column %, still unique; next: CALL %.xid_move_finish(%)',
		xs, quote_ident(m.old_column), '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_swap(regclass, interval, integer) IS
'swap a table''s key and its foreign keys to the new xid columns, in one short transaction under lock_timeout';

-- Every check first, while xid_move_abort() still works: the foreign keys
-- validated, every row verified against the old columns, nothing that
-- would stop the old columns from being dropped.  Then the point of no
-- return: the triggers that keep the old columns following go.  Every
-- later statement is idempotent, so a finish stopped half-way completes
-- when called again.
CREATE OR REPLACE PROCEDURE @extschema@.xid_move_finish(
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
		PERFORM @extschema@.xid_move_exec(stmts, lock_timeout, retries);
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
		FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
			PERFORM @extschema@.xid_move_exec(ARRAY[format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', r.relation, r.old_column)],
				lock_timeout, retries);
			COMMIT;
			PERFORM @extschema@.xid_move_settings();
		END LOOP;
		IF renames IS NOT NULL THEN
			PERFORM @extschema@.xid_move_exec(renames, lock_timeout, retries);
		END IF;
	ELSE
		-- the old key's index a unique constraint
		oldidx := @extschema@.xid_move_unique_index(tbl, m.old_column, '');
		IF oldidx IS NOT NULL AND NOT EXISTS (SELECT FROM pg_constraint WHERE conindid = oldidx AND conrelid = tbl) THEN
			PERFORM @extschema@.xid_move_exec(ARRAY[
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

CREATE OR REPLACE PROCEDURE @extschema@.xid_move_abort(
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
	PERFORM @extschema@.xid_move_exec(@extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
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
CREATE OR REPLACE PROCEDURE @extschema@.xid_move_swap_back(
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
		attempts := @extschema@.xid_move_exec(@extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
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
