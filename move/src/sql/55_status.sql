------------------------------------------------------------------------------
-- Status
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_move_status(tbl regclass)
RETURNS TABLE (role text, relation regclass, leaf regclass, step text, blocks bigint,
               blocks_done bigint, rows_done bigint, percent numeric, updated timestamptz,
               rows_estimated bigint, pass integer, rows_per_second numeric, time_left interval,
               verified_rows bigint, verified_refs bigint, mismatches bigint, checksum bigint, verified timestamptz)
LANGUAGE sql STABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
	SELECT p.role, p.relation, p.leaf, m.step, p.blocks, p.blocks_done, p.rows_done,
	       CASE WHEN p.blocks = 0 THEN 100 ELSE round(100.0 * p.blocks_done / p.blocks, 1) END,
	       p.updated,
	       CASE WHEN p.rows_estimated > 0 THEN p.rows_estimated
	            WHEN p.blocks_done > 0 THEN (p.rows_done * p.blocks / p.blocks_done)::bigint END,
	       p.pass,
	       -- over the backfill's own time: the batches of this relation,
	       -- not the time since the start nor the pauses between batches
	       round(p.rows_done / nullif(extract(epoch FROM p.busy), 0), 1),
	       CASE WHEN p.blocks_done >= p.blocks THEN '0'::interval
	            WHEN p.blocks_done > 0 THEN p.busy * ((p.blocks - p.blocks_done)::float8 / p.blocks_done) END,
	       p.verified_rows, p.verified_refs, p.mismatches, p.checksum, p.verified
	FROM @extschema@.xid_move_parts p JOIN @extschema@.xid_move_moves m ON m.tbl = p.tbl
	WHERE p.tbl = $1
	ORDER BY p.role DESC, p.relation::text, p.leaf::text, p.constraint_name
$$;

COMMENT ON FUNCTION @extschema@.xid_move_status(regclass) IS
'where the move of a table''s key to xid is: its step, each relation''s progress, rate, time left and last verification';
