------------------------------------------------------------------------------
-- The triggers that keep the new columns in step
------------------------------------------------------------------------------

-- The statement that records a trigger the move has just made on rel,
-- in the same transaction, by OID: xid_move_trigger() acts on that record
-- (its kind, mode and the attribute numbers of the columns it reads and
-- fills, read from the catalog when the statement runs, after the renames
-- before it) and on nothing in the trigger's arguments.
CREATE FUNCTION @extschema@.xid_move_trigger_record(tbl regclass, rel regclass, tgname name, kind text, mode text,
                                                    src name, target name)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('SELECT %1$s.xid_move_state(%2$s::pg_catalog.oid::pg_catalog.regclass, %3$L, ARRAY[%4$L,'
	              ' (SELECT t.oid FROM pg_catalog.pg_trigger t WHERE t.tgrelid OPERATOR(pg_catalog.=) %5$s::pg_catalog.oid'
	              '  AND t.tgname OPERATOR(pg_catalog.=) %6$L::pg_catalog.name)::pg_catalog.text,'
	              ' %7$L, %5$s::pg_catalog.oid::pg_catalog.text, %8$L,'
	              ' (SELECT a.attnum FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) %5$s::pg_catalog.oid'
	              '  AND a.attname OPERATOR(pg_catalog.=) %9$L::pg_catalog.name AND NOT a.attisdropped)::pg_catalog.text,'
	              ' (SELECT a.attnum FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) %5$s::pg_catalog.oid'
	              '  AND a.attname OPERATOR(pg_catalog.=) %10$L::pg_catalog.name AND NOT a.attisdropped)::pg_catalog.text,'
	              ' NULL::pg_catalog.text])',
	              '@extschema@', tbl::oid, 'object', 'pg_catalog.pg_trigger'::regclass::oid, rel::oid, tgname, kind, mode, src, target)
$$;

COMMENT ON FUNCTION @extschema@.xid_move_trigger_record(regclass, regclass, name, text, text, name, name) IS
'the statement that records, by OID, a trigger a move has just made';

-- The statement that makes a trigger of the move fire in every session,
-- whatever its session_replication_role: a writer who may set it to
-- replica (which keeps ORIGIN triggers from firing) cannot write past the
-- move's triggers
CREATE FUNCTION @extschema@.xid_move_trigger_always(rel regclass, tgname name)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('ALTER TABLE %s ENABLE ALWAYS TRIGGER %I', rel, tgname)
$$;

COMMENT ON FUNCTION @extschema@.xid_move_trigger_always(regclass, name) IS
'the statement that makes a trigger a move has just made fire in every replication role';

-- The statement that forgets a trigger of the move before it is dropped
-- (nothing when there is none by that name)
CREATE FUNCTION @extschema@.xid_move_trigger_forget(tbl regclass, rel regclass, tgname name)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT format('SELECT %1$s.xid_move_state(%2$s::pg_catalog.oid::pg_catalog.regclass, %3$L, ARRAY[%4$L,'
	              ' t.oid::pg_catalog.text]) FROM pg_catalog.pg_trigger t WHERE t.tgrelid OPERATOR(pg_catalog.=) %5$s::pg_catalog.oid'
	              ' AND t.tgname OPERATOR(pg_catalog.=) %6$L::pg_catalog.name',
	              '@extschema@', tbl::oid, 'forget_object', 'pg_catalog.pg_trigger'::regclass::oid, rel::oid, tgname)
$$;

COMMENT ON FUNCTION @extschema@.xid_move_trigger_forget(regclass, regclass, name) IS
'the statement that forgets a trigger of a move before it is dropped';

-- The statements that make the triggers of a child part: a column that
-- references the key of the move's table gets, in target, the value of
-- that row's column ('new': before the swap, the new id, or the id its
-- time and key make while it has none; 'old': after the swap, the old key,
-- for an abort).  A BEFORE trigger looks the row up; when it cannot see it
-- yet (a deferred foreign key whose row comes later in the transaction, a
-- row committed while a multi-row statement runs), a deferred constraint
-- trigger looks again at commit, and an error stops the commit if it
-- still cannot: a reference is never left empty silently.  Both are
-- xid_move_trigger() (C, as core's RI triggers): the lookup runs as the
-- owner of the referenced table, so that a writer needs no privilege it
-- did not need before.  suffix: 'c' before the swap, 'b' after it (the
-- old columns kept following, for an abort).
CREATE FUNCTION @extschema@.xid_move_ref_ddl(p @extschema@.xid_move_parts, m @extschema@.xid_move_moves, mode text,
                                             col name, target name, eq text, suffix text)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT ARRAY[
		format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger()',
			n.i, p.relation, '@extschema@'),
		@extschema@.xid_move_trigger_always(p.relation, n.i),
		@extschema@.xid_move_trigger_record(p.tbl, p.relation, n.i, 'ref', mode, col, target),
		-- IS DISTINCT FROM, written with the qualified operator of the
		-- column's type (an xid's after the swap)
		format('CREATE TRIGGER %1$I BEFORE UPDATE ON %2$s FOR EACH ROW WHEN ((NEW.%3$I IS NULL) <> (OLD.%3$I IS NULL) OR NOT (NEW.%3$I %6$s OLD.%3$I) OR (NEW.%4$I IS NULL AND NEW.%3$I IS NOT NULL)) EXECUTE FUNCTION %5$s.xid_move_trigger()',
			n.u, p.relation, col, target, '@extschema@', eq),
		@extschema@.xid_move_trigger_always(p.relation, n.u),
		@extschema@.xid_move_trigger_record(p.tbl, p.relation, n.u, 'ref', mode, col, target),
		format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %s DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.%I IS NULL AND NEW.%I IS NOT NULL) EXECUTE FUNCTION %s.xid_move_trigger()',
			n.f, p.relation, target, col, '@extschema@'),
		@extschema@.xid_move_trigger_always(p.relation, n.f),
		@extschema@.xid_move_trigger_record(p.tbl, p.relation, n.f, 'fix', mode, col, target)]
	FROM (SELECT ('xid_move' || p.tag || '_' || suffix || 'i')::name AS i, ('xid_move' || p.tag || '_' || suffix || 'u')::name AS u,
	             ('xid_move' || p.tag || '_' || suffix || 'f')::name AS f) n
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_ddl(@extschema@.xid_move_parts, @extschema@.xid_move_moves, text, name, name, text, text) IS
'the triggers that keep a referencing column''s new (or old) value in step';

-- The statements that drop what xid_move_ref_ddl() made
CREATE FUNCTION @extschema@.xid_move_ref_drop(p @extschema@.xid_move_parts, suffix text)
RETURNS text[]
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT ARRAY[
		@extschema@.xid_move_trigger_forget(p.tbl, p.relation, ('xid_move' || p.tag || '_' || suffix || 'i')::name),
		@extschema@.xid_move_trigger_forget(p.tbl, p.relation, ('xid_move' || p.tag || '_' || suffix || 'u')::name),
		@extschema@.xid_move_trigger_forget(p.tbl, p.relation, ('xid_move' || p.tag || '_' || suffix || 'f')::name),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'i', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'u', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'f', p.relation)]
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_drop(@extschema@.xid_move_parts, text) IS
'the statements that drop the triggers that keep a referencing column in step';

-- After a restore (pg_dump keeps the moves and their triggers, but not the
-- OIDs of xid_move_objects, which a restore changes) the move's triggers
-- are recorded again: each trigger of xid_move_trigger() on a relation of
-- the move under one of the names the move gives its triggers, with what
-- the move's state says that trigger does.  Until then a write to the
-- tables errors (39P01): nothing is written unrecorded.  The owner's call;
-- returns the triggers recorded.
CREATE FUNCTION @extschema@.xid_move_relink(tbl regclass)
RETURNS integer
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	stmts pg_catalog.text[] := '{}';
	r record;
BEGIN
	m := @extschema@.xid_move_get(tbl);
	-- records of triggers that are no longer theirs (a pg_upgrade keeps
	-- the state's rows but gives triggers new OIDs)
	stmts := stmts || (SELECT array_agg(format('SELECT %s.xid_move_state(%s::pg_catalog.oid::pg_catalog.regclass, %L, ARRAY[%L, %L])',
	                                           '@extschema@', $1::oid, 'forget_object', o.classid::oid, o.objid) ORDER BY o.objid)
	                   FROM @extschema@.xid_move_objects o
	                   WHERE o.tbl = $1 AND o.classid = 'pg_trigger'::regclass
	                     AND NOT EXISTS (SELECT FROM pg_trigger t WHERE t.oid = o.objid AND t.tgrelid = o.relation
	                                     AND t.tgfoid = '@extschema@.xid_move_trigger()'::regprocedure));
	FOR r IN
		SELECT x.relation, x.tgname, x.kind, x.mode, x.src, x.target FROM (
			SELECT tbl AS relation, 'xid_move_sync_update'::name AS tgname, 'key' AS kind, 'new' AS mode, m.key_column AS src, m.new_column AS target
			UNION ALL
			SELECT tbl, 'xid_move_sync_replace', 'key', 'new', m.key_column, m.new_column
			UNION ALL
			SELECT tbl, 'xid_move_back', 'back', 'old', m.key_column, m.old_column
			UNION ALL
			SELECT p.relation, ('xid_move' || p.tag || '_' || s.suffix || e.ev)::name,
			       CASE e.ev WHEN 'f' THEN 'fix' ELSE 'ref' END, s.mode,
			       p.column_name, CASE s.mode WHEN 'new' THEN p.new_column ELSE p.old_column END
			FROM @extschema@.xid_move_rels(tbl) p,
			     (VALUES ('c', 'new'), ('b', 'old')) s(suffix, mode), (VALUES ('i'), ('u'), ('f')) e(ev)
			WHERE p.role = 'child') x
		JOIN pg_trigger t ON t.tgrelid = x.relation AND t.tgname = x.tgname
		WHERE t.tgfoid = '@extschema@.xid_move_trigger()'::regprocedure AND t.tgparentid = 0
		  AND NOT EXISTS (SELECT FROM @extschema@.xid_move_objects o
		                  WHERE o.classid = 'pg_trigger'::regclass AND o.objid = t.oid AND o.relation = t.tgrelid)
		ORDER BY x.relation::text, x.tgname
	LOOP
		stmts := stmts || @extschema@.xid_move_trigger_record(tbl, r.relation, r.tgname, r.kind, r.mode, r.src, r.target);
	END LOOP;
	IF cardinality(stmts) > 0 THEN
		PERFORM @extschema@.xid_move_exec(tbl, stmts, '100ms', 100);
	END IF;
	RETURN (SELECT count(*) FROM unnest(stmts) s WHERE s NOT LIKE '%forget_object%');
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_relink(regclass) IS
'record again, after a restore, the triggers of a move under way';
