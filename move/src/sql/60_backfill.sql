------------------------------------------------------------------------------
-- Backfill
------------------------------------------------------------------------------

-- Each batch updates the rows of a range of blocks and commits: a writer
-- that updates or deletes one of those rows waits for the commit.  With
-- batch_time, the ranges are sized so that a batch takes about that long
-- (at most batch_blocks blocks), whatever the load.  Once every range
-- recorded at the start is done, a sweep counts the rows still without
-- their new value (rows that VACUUM FULL, CLUSTER or pg_repack moved to
-- blocks already done) and, if there are any, goes over each such
-- relation again, as it is now.  Application triggers: kept from firing
-- (session_replication_role = replica) where the caller may, else fired
-- only when the move was started with fire_triggers => true.
CREATE PROCEDURE @extschema@.xid_move_backfill(
	tbl regclass,
	batch_blocks integer DEFAULT 64,
	pause interval DEFAULT '0',
	max_batches integer DEFAULT NULL,
	batch_time interval DEFAULT '200ms')
LANGUAGE plpgsql
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r @extschema@.xid_move_parts;
	upto pg_catalog.int8;
	n pg_catalog.int8;
	missing pg_catalog.int8;
	batches pg_catalog.int4 := 0;
	sweeps pg_catalog.int4 := 0;
	size pg_catalog.int4;
	t0 pg_catalog.timestamptz;
	took pg_catalog.float8;
	target pg_catalog.float8;
	replica pg_catalog.bool;
	det pg_catalog.text;
	failures pg_catalog.int4 := 0;
BEGIN
	PERFORM @extschema@.xid_move_settings();
	m := @extschema@.xid_move_get(tbl);
	-- after validate too (a partition attached since): validate again after it
	IF m.step NOT IN ('started', 'backfilled', 'validated') THEN
		RAISE EXCEPTION 'the move of table % is past its backfill (step %)', tbl, m.step
			USING ERRCODE = 'object_not_in_prerequisite_state';
	END IF;
	IF batch_blocks IS NULL OR batch_blocks < 1 THEN
		RAISE EXCEPTION 'batch_blocks must be at least 1' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF batch_time < '0'::interval THEN
		RAISE EXCEPTION 'batch_time must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF pause < '0'::interval THEN
		RAISE EXCEPTION 'pause must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	target := coalesce(extract(epoch FROM batch_time), 0);
	-- the start decided whether the application's triggers fire, and
	-- which; every backfill acts on that, whoever calls it
	replica := m.replica;
	IF replica AND NOT @extschema@.xid_move_can_replica() THEN
		RAISE EXCEPTION 'the backfill of table % must run with session_replication_role = replica', tbl
			USING ERRCODE = 'insufficient_privilege',
			      DETAIL = 'The move was started by a role that keeps the application''s triggers from firing during the backfill, and its plan was decided so.',
			      HINT = 'Call the backfill as a superuser or as a role granted SET on session_replication_role.';
	END IF;
	PERFORM @extschema@.xid_move_check_plan(tbl);
	-- partitions made or attached since the start (they have the move's
	-- triggers, and an attached table may bring rows without a value):
	-- each backfilled on its own too
	PERFORM @extschema@.xid_move_state(tbl, 'add_parts', '{}');
	COMMIT;
	PERFORM @extschema@.xid_move_settings();
	det := @extschema@.xid_move_id_expr('p', m.key_column, m.key_type, m.time_column);
	-- timed batches start small and grow (at most doubling) while they
	-- take less than batch_time
	size := CASE WHEN target > 0 THEN least(batch_blocks, 8) ELSE batch_blocks END;
	LOOP
		PERFORM @extschema@.xid_move_settings();
		IF replica THEN
			PERFORM set_config('session_replication_role', 'replica', true);
		END IF;
		SELECT * INTO r FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.blocks_done < x.blocks
		 ORDER BY x.role DESC, x.leaf::text, x.constraint_name LIMIT 1;
		IF NOT FOUND THEN
			-- the sweep
			missing := 0;
			FOR r IN SELECT * FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 ORDER BY x.role DESC, x.leaf::text LOOP
				n := (@extschema@.xid_move_query(tbl, format('SELECT count(*) AS n FROM ONLY %s AS c WHERE c.%I IS NULL%s', r.leaf, r.new_column,
					CASE WHEN r.role = 'child' THEN format(' AND c.%I IS NOT NULL', r.column_name) ELSE '' END)) ->> 'n')::bigint;
				IF n > 0 THEN
					missing := missing + n;
					RAISE NOTICE 'backfill of %: % rows of % lack their new value (moved since their blocks were done); going over % again',
						tbl, n, r.leaf, r.leaf;
					PERFORM @extschema@.xid_move_state(tbl, 'sweep_part', ARRAY[r.leaf::oid::text, r.role, r.constraint_name]);
				END IF;
			END LOOP;
			EXIT WHEN missing = 0;
			sweeps := sweeps + 1;
			IF sweeps > 3 THEN
				RAISE EXCEPTION 'the backfill of % left % rows without their new value after % passes', tbl, missing, sweeps
					USING ERRCODE = 'object_not_in_prerequisite_state',
					      HINT = 'A referencing row whose key has no row in the referenced table cannot get one; check the foreign keys, or abort.';
			END IF;
			COMMIT;
			CONTINUE;
		END IF;
		EXIT WHEN max_batches IS NOT NULL AND batches >= max_batches;
		upto := least(r.blocks, r.blocks_done + size);
		t0 := clock_timestamp();
		-- as the owner of the tables, in a security-restricted operation:
		-- the CHECK constraints, triggers and index expressions an update
		-- runs have the owner's privileges, whoever calls the backfill
		-- a row a writer moves to another partition while the batch reads
		-- it (40001), or a deadlock with a writer: the batch is undone and
		-- done again, as a lock not granted is
		BEGIN
			IF r.role = 'parent' THEN
				n := @extschema@.xid_move_run(tbl, format('UPDATE ONLY %1$s AS p SET %2$I = %3$s WHERE p.ctid OPERATOR(pg_catalog.>=) %4$L::pg_catalog.tid AND p.ctid OPERATOR(pg_catalog.<) %5$L::pg_catalog.tid AND p.%2$I IS NULL',
					r.leaf, r.new_column, det, format('(%s,0)', r.blocks_done), format('(%s,0)', upto)));
			ELSE
				-- each child row looks its parent up through the parent's
				-- primary key: a subquery in SET is never made a join, so no
				-- plan reads the whole parent for a batch
				n := @extschema@.xid_move_run(tbl, format('UPDATE ONLY %1$s AS c SET %2$I = (SELECT coalesce(p.%3$I, %4$s) FROM %5$s AS p WHERE p.%6$I = c.%7$I)'
					' WHERE c.ctid OPERATOR(pg_catalog.>=) %8$L::pg_catalog.tid AND c.ctid OPERATOR(pg_catalog.<) %9$L::pg_catalog.tid AND c.%2$I IS NULL AND c.%7$I IS NOT NULL',
					r.leaf, r.new_column, m.new_column, det, tbl, m.key_column, r.column_name,
					format('(%s,0)', r.blocks_done), format('(%s,0)', upto)));
			END IF;
		EXCEPTION WHEN serialization_failure OR deadlock_detected THEN
			failures := failures + 1;
			IF failures > 100 THEN
				RAISE;
			END IF;
			RAISE NOTICE 'backfill of %: a batch of % met a concurrent update (%), done again', tbl, r.leaf, SQLERRM;
			PERFORM pg_sleep(least(0.01 * failures, 1));
			CONTINUE;
		END;
		failures := 0;
		PERFORM @extschema@.xid_move_state(tbl, 'progress', ARRAY[r.leaf::oid::text, r.role, r.constraint_name, upto::text, n::text,
			(clock_timestamp() - t0)::text]);
		batches := batches + 1;
		IF batches % 10 = 1 OR upto = r.blocks THEN
			RAISE NOTICE 'backfill of %: % of % blocks of % (pass %), % rows in all', tbl, upto, r.blocks, r.leaf, r.pass,
				(SELECT sum(x.rows_done) FROM @extschema@.xid_move_parts x WHERE x.tbl = $1);
		END IF;
		COMMIT;
		PERFORM @extschema@.xid_move_settings();
		IF target > 0 THEN
			took := greatest(extract(epoch FROM clock_timestamp() - t0), 0.0001);
			size := greatest(1, least(batch_blocks::float8, 2.0 * size, floor(size * target / took)))::integer;
		END IF;
		IF pause > '0'::interval THEN
			PERFORM pg_sleep(extract(epoch FROM pause)::float8);
		END IF;
	END LOOP;
	PERFORM @extschema@.xid_move_settings();
	IF NOT EXISTS (SELECT FROM @extschema@.xid_move_parts x WHERE x.tbl = $1 AND x.blocks_done < x.blocks) THEN
		PERFORM @extschema@.xid_move_set_step(tbl, 'backfilled');
		RAISE NOTICE 'backfill of % complete; next: SELECT * FROM %.xid_move_index_commands(%) \gexec', tbl, '@extschema@', quote_literal(tbl::text);
	END IF;
END
$$;

COMMENT ON PROCEDURE @extschema@.xid_move_backfill(regclass, integer, interval, integer, interval) IS
'fill the new xid columns of a move, in batches of blocks that each commit (sized to take batch_time), then sweep for rows missed; resumes where it stopped';
