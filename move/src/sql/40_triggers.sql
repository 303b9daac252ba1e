------------------------------------------------------------------------------
-- The triggers that keep the new columns in step
------------------------------------------------------------------------------

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
		format('CREATE TRIGGER %I BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger(%L, %s)',
			'xid_move' || p.tag || '_' || suffix || 'i', p.relation, '@extschema@', 'ref', a.args),
		-- IS DISTINCT FROM, written with the qualified operator of the
		-- column's type (an xid's after the swap)
		format('CREATE TRIGGER %1$I BEFORE UPDATE ON %2$s FOR EACH ROW WHEN ((NEW.%3$I IS NULL) <> (OLD.%3$I IS NULL) OR NOT (NEW.%3$I %6$s OLD.%3$I) OR (NEW.%4$I IS NULL AND NEW.%3$I IS NOT NULL)) EXECUTE FUNCTION %5$s.xid_move_trigger(%7$L, %8$s)',
			'xid_move' || p.tag || '_' || suffix || 'u', p.relation, col, target, '@extschema@', eq, 'ref', a.args),
		format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE ON %s DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.%I IS NULL AND NEW.%I IS NOT NULL) EXECUTE FUNCTION %s.xid_move_trigger(%L, %s)',
			'xid_move' || p.tag || '_' || suffix || 'f', p.relation, target, col, '@extschema@', 'fix', a.args)]
	FROM (SELECT format('%L, %L, %L, %L, %L, %L, %L, %L, %L', @extschema@.xid_move_schema_of('xid'), @extschema@.xid_move_schema_of('xid_move'),
	                    m.key_column, mode, CASE mode WHEN 'new' THEN m.new_column ELSE m.old_column END,
	                    coalesce(m.time_column, ''), CASE WHEN m.key_type = 'uuid'::regtype THEN 'uuid' ELSE 'int' END,
	                    col, target) AS args) a
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
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'i', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'u', p.relation),
		format('DROP TRIGGER IF EXISTS %I ON %s', 'xid_move' || p.tag || '_' || suffix || 'f', p.relation),
		-- the trigger functions of a move started before 1.2
		@extschema@.xid_move_drop_fn(p.relation, p.tag, suffix),
		@extschema@.xid_move_drop_fn(p.relation, p.tag, suffix || 'f')]
$$;

COMMENT ON FUNCTION @extschema@.xid_move_ref_drop(@extschema@.xid_move_parts, text) IS
'the statements that drop the triggers that keep a referencing column in step';
