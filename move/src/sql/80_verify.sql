------------------------------------------------------------------------------
-- Verification
------------------------------------------------------------------------------

-- Every row of every relation of the move checked: before the swap, each
-- row of the table has its new id, and each reference's new value is the
-- new id of the row its old value references; after it, the same read
-- from the old columns (the old value of each reference is the old key of
-- the row its new value references).  Records per relation the rows, the
-- references, the mismatches and a checksum of the (old, new) pairs in
-- the state (xid_move_status() shows them); returns the mismatches.
CREATE FUNCTION @extschema@.xid_move_verify(tbl regclass)
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	m @extschema@.xid_move_moves;
	r @extschema@.xid_move_parts;
	after pg_catalog.bool;
	key_old pg_catalog.name;
	key_new pg_catalog.name;
	ref_old pg_catalog.name;
	ref_new pg_catalog.name;
	v pg_catalog.jsonb;
	total pg_catalog.int8 := 0;
BEGIN
	m := @extschema@.xid_move_get(tbl);
	after := m.step IN ('swapped', 'aborting', 'finishing');
	key_old := CASE WHEN after THEN m.old_column ELSE m.key_column END;
	key_new := CASE WHEN after THEN m.key_column ELSE m.new_column END;
	FOR r IN SELECT * FROM @extschema@.xid_move_rels(tbl) LOOP
		IF r.role = 'parent' THEN
			v := @extschema@.xid_move_query(tbl, format('SELECT count(*) AS n, count(p.%2$I) AS refs, count(*) FILTER (WHERE p.%2$I IS NULL AND %3$s) AS bad,'
				' bit_xor(hashtextextended(p.%1$I::text || '' '' || p.%2$I::text, 0)) AS sum FROM %4$s AS p',
				key_old, key_new, CASE WHEN after THEN 'false' ELSE 'true' END, tbl));
		ELSE
			ref_old := CASE WHEN after THEN r.old_column ELSE r.column_name END;
			ref_new := CASE WHEN after THEN r.column_name ELSE r.new_column END;
			v := @extschema@.xid_move_query(tbl, format('SELECT count(*) AS n, count(c.%1$I) AS refs,'
				' count(*) FILTER (WHERE c.%1$I IS NOT NULL AND (p.%3$I IS NULL OR c.%2$I IS NULL OR c.%2$I::text <> p.%4$I::text)'
				'                    OR c.%1$I IS NULL AND c.%2$I IS NOT NULL AND %6$s) AS bad,'
				' bit_xor(hashtextextended(c.%1$I::text || '' '' || c.%2$I::text, 0)) AS sum'
				' FROM %5$s AS c LEFT JOIN %7$s AS p ON p.%3$I = c.%1$I',
				ref_old, ref_new, key_old, key_new, r.relation, CASE WHEN after THEN 'false' ELSE 'true' END, tbl));
		END IF;
		PERFORM @extschema@.xid_move_state(tbl, 'verified', ARRAY[r.relation::oid::text, r.constraint_name, r.role,
			v ->> 'n', v ->> 'refs', v ->> 'bad', v ->> 'sum']);
		RAISE NOTICE 'verified %: % rows, % with a % to check, % mismatches', r.relation, v ->> 'n', v ->> 'refs',
			CASE WHEN r.role = 'parent' THEN 'new id' ELSE 'reference' END, (v ->> 'bad')::bigint;
		IF (v ->> 'bad')::bigint > 0 THEN
			RAISE WARNING '% of % rows of table % do not match their old % (column %)', (v ->> 'bad')::bigint, v ->> 'n', r.relation,
				CASE WHEN r.role = 'parent' THEN 'key' ELSE 'reference' END, quote_ident(r.column_name);
		END IF;
		total := total + (v ->> 'bad')::bigint;
	END LOOP;
	RETURN total;
END
$$;

COMMENT ON FUNCTION @extschema@.xid_move_verify(regclass) IS
'check every row and reference of a move against the old key; records counts and checksums, returns the mismatches';

-- After the swap (finish, abort): every row verified against the old
-- columns, or an error naming how many do not match; note ends its detail
CREATE FUNCTION @extschema@.xid_move_verify_swapped(tbl regclass, note text)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET row_security = off
AS $$
DECLARE
	n pg_catalog.int8;
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
