------------------------------------------------------------------------------
-- BRIN
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_brin_minmax_multi_distance(internal, internal)
RETURNS float8
AS 'MODULE_PATHNAME', 'xid_brin_minmax_multi_distance'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_brin_minmax_multi_distance(internal, internal) IS
'unsigned distance of two xids, for BRIN minmax-multi';

CREATE OPERATOR CLASS @extschema@.xid_minmax_ops
DEFAULT FOR TYPE @extschema@.xid USING brin AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

CREATE OPERATOR CLASS @extschema@.xid_minmax_multi_ops
FOR TYPE @extschema@.xid USING brin AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 brin_minmax_multi_opcinfo(internal),
	FUNCTION 2 brin_minmax_multi_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_multi_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_minmax_multi_union(internal, internal, internal),
	FUNCTION 5 brin_minmax_multi_options(internal),
	FUNCTION 11 @extschema@.xid_brin_minmax_multi_distance(internal, internal);

CREATE OPERATOR CLASS @extschema@.xid_bloom_ops
FOR TYPE @extschema@.xid USING brin AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 brin_bloom_opcinfo(internal),
	FUNCTION 2 brin_bloom_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_bloom_consistent(internal, internal, internal, integer),
	FUNCTION 4 brin_bloom_union(internal, internal, internal),
	FUNCTION 5 brin_bloom_options(internal),
	FUNCTION 11 @extschema@.xid_hash(@extschema@.xid);

