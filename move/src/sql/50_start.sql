------------------------------------------------------------------------------
-- Start
------------------------------------------------------------------------------

CREATE PROCEDURE @extschema@.xid_move_start(
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
	m @extschema@.xid_move_moves;
	stmts pg_catalog.text[] := '{}';
	s pg_catalog.text;
	xs pg_catalog.text;
	refused record;
	plan pg_catalog.jsonb;
	key_type pg_catalog.regtype;
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
	-- the plan, decided once: checked here, recorded with the move
	plan := (SELECT jsonb_agg(to_jsonb(x)) FROM @extschema@.xid_move_plan(tbl, time_column, fire_triggers) x);
	SELECT * INTO refused FROM jsonb_populate_recordset(NULL::@extschema@.xid_move_decision, plan) x WHERE x.action = 'refuse' LIMIT 1;
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
	-- the state, through its only writer; the choice of keeping the
	-- application's triggers from firing is made here, once, and every
	-- backfill acts on it whoever calls it
	PERFORM @extschema@.xid_move_state(tbl, 'insert_move', ARRAY[par.constraint_name, par.column_name, par.new_column, par.old_column,
		key_type::text, time_column, fire_triggers::text, (NOT fire_triggers AND @extschema@.xid_move_can_replica())::text]);
	PERFORM @extschema@.xid_move_state(tbl, 'insert_parts', '{}');
	-- the plan as decided now
	PERFORM @extschema@.xid_move_state(tbl, 'decision', ARRAY[x.ord::text, x.d ->> 'object_type', x.d ->> 'object', x.d ->> 'action',
	                                                          x.d ->> 'detail', NULL, NULL])
	  FROM jsonb_array_elements(plan) WITH ORDINALITY x(d, ord);

	-- the columns first (the triggers name them), then the triggers
	FOR p IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
		stmts := stmts || format('ALTER TABLE %s ADD COLUMN %I %s.xid', p.relation, p.new_column, xs);
	END LOOP;
	-- a row written during the move gets a new id from the column's
	-- default, as it will after the swap: no trigger on the writers'
	-- inserts (a default costs a function call, a trigger a PL/pgSQL one)
	stmts := stmts || format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s.xid_new()', tbl, par.new_column, xs);
	-- an update fires the key trigger only when the id may change (its
	-- condition is checked without calling it): not for the backfill's own
	-- updates, nor for updates of other columns of a row that has its id.
	-- A row still without an id gets that of its old version, the one a
	-- reference written since may hold (xid_move_trigger(), 'key').  Each
	-- trigger is recorded by OID right after it is made: the trigger acts
	-- on that record, not on arguments.
	stmts := stmts || format('CREATE TRIGGER %I BEFORE UPDATE ON %s FOR EACH ROW WHEN (NEW.%I IS NULL OR NEW.%I IS DISTINCT FROM OLD.%I) EXECUTE FUNCTION %s.xid_move_trigger()',
		'xid_move_sync_update', tbl, par.new_column, par.column_name, par.column_name, '@extschema@')
		|| @extschema@.xid_move_trigger_always(tbl, 'xid_move_sync_update')
		|| @extschema@.xid_move_trigger_record(tbl, tbl, 'xid_move_sync_update', 'key', 'new', par.column_name, par.new_column);
	-- a row deleted and inserted again with the same key in one
	-- transaction (WITH d AS (DELETE ... RETURNING ...) INSERT ..., which a
	-- NO ACTION foreign key accepts) keeps the id its referencing rows
	-- hold: the same key trigger remembers the id BEFORE DELETE and gives
	-- it back BEFORE INSERT (a C call and, only after such a delete in the
	-- transaction, a hash lookup per insert)
	stmts := stmts || format('CREATE TRIGGER %I BEFORE INSERT OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION %s.xid_move_trigger()',
		'xid_move_sync_replace', tbl, '@extschema@')
		|| @extschema@.xid_move_trigger_always(tbl, 'xid_move_sync_replace')
		|| @extschema@.xid_move_trigger_record(tbl, tbl, 'xid_move_sync_replace', 'key', 'new', par.column_name, par.new_column);
	SELECT * INTO m FROM @extschema@.xid_move_moves x WHERE x.tbl = $1;
	FOR p IN SELECT * FROM @extschema@.xid_move_rels(tbl) x WHERE x.role = 'child' LOOP
		stmts := stmts || @extschema@.xid_move_ref_ddl(p, m, 'new', p.column_name, p.new_column, 'OPERATOR(pg_catalog.=)', 'c');
	END LOOP;
	PERFORM @extschema@.xid_move_exec(tbl, @extschema@.xid_move_lock(tbl, 'ACCESS EXCLUSIVE') || stmts, lock_timeout, retries);
	-- the blocks to backfill: rows written from here on pass the triggers,
	-- which the locks above waited for; older rows lie below
	PERFORM @extschema@.xid_move_state(tbl, 'start_blocks', '{}');
	RAISE NOTICE 'move of table % started: the new columns are kept in step; next: CALL %.xid_move_backfill(%)', tbl, '@extschema@', quote_literal(tbl::text);
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_start(regclass, name, boolean, interval, integer, boolean) IS
'start moving a table''s key and its foreign keys to xid: new columns and the triggers that keep them in step (dry_run: print the plan)';
