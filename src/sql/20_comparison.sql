------------------------------------------------------------------------------
-- Comparison functions
------------------------------------------------------------------------------

-- The support function of >= and <=.  On a partitioned table the planner
-- support keeps "id >= t" (t a parameter or an expression such as now() -
-- interval '1 day') and adds "id >= xid_time_lower_bound(t, true)", which
-- partition pruning understands.  In each partition the added clause only
-- repeats the kept one; this function drops it there.
CREATE FUNCTION @extschema@.xid_cmp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'xid_cmp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_cmp_support(internal) IS
'planner support: drops in each partition the pruning clauses the planner added';

CREATE FUNCTION @extschema@.xid_eq(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_eq'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_ne(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_ne'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_lt(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_lt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_le(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_le'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_cmp_support;

CREATE FUNCTION @extschema@.xid_gt(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_ge(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_cmp_support;

CREATE FUNCTION @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_cmp'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

-- LEAKPROOF is for functions that see user data; this one takes internal.
CREATE FUNCTION @extschema@.xid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'xid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The row estimator of the comparisons (here) and of the range, prefix,
-- time and LIKE tests (below): it counts the rows added since the last
-- ANALYZE, which core's scalarltsel() and the others cannot place (1.3).
CREATE FUNCTION @extschema@.xid_range_sel(internal, oid, internal, integer)
RETURNS float8
AS 'MODULE_PATHNAME', 'xid_range_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_hash(@extschema@.xid)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_hash'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_hash_extended(@extschema@.xid, bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'xid_hash_extended'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_larger(@extschema@.xid, @extschema@.xid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_larger'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_smaller(@extschema@.xid, @extschema@.xid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_smaller'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid) IS
'-1, 0 or 1 as the first xid sorts before, with or after the second';
COMMENT ON FUNCTION @extschema@.xid_hash(@extschema@.xid) IS 'hash of an xid';
COMMENT ON FUNCTION @extschema@.xid_hash_extended(@extschema@.xid, bigint) IS
'seeded 64-bit hash of an xid';
COMMENT ON FUNCTION @extschema@.xid_larger(@extschema@.xid, @extschema@.xid) IS
'larger of two xids';
COMMENT ON FUNCTION @extschema@.xid_smaller(@extschema@.xid, @extschema@.xid) IS
'smaller of two xids';

