------------------------------------------------------------------------------
-- Ranges and prefix operators
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_subdiff(@extschema@.xid, @extschema@.xid)
RETURNS float8
AS 'MODULE_PATHNAME', 'xid_subdiff'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Closed bounds as given: no canonical function, since the upper bound of a
-- prefix may be the largest xid, which has no successor.
CREATE TYPE @extschema@.xidrange AS RANGE (
	SUBTYPE = @extschema@.xid,
	SUBTYPE_OPCLASS = @extschema@.xid_btree_ops,
	SUBTYPE_DIFF = @extschema@.xid_subdiff,
	MULTIRANGE_TYPE_NAME = @extschema@.xidmultirange
);

COMMENT ON TYPE @extschema@.xidrange IS 'range of xids';
COMMENT ON TYPE @extschema@.xidmultirange IS 'set of ranges of xids';
COMMENT ON FUNCTION @extschema@.xid_subdiff(@extschema@.xid, @extschema@.xid) IS
'difference of two xids as float8, for xidrange';

CREATE FUNCTION @extschema@.xid_prefix_range(text)
RETURNS @extschema@.xidrange
AS 'MODULE_PATHNAME', 'xid_prefix_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_time_range(tstzrange)
RETURNS @extschema@.xidrange
AS 'MODULE_PATHNAME', 'xid_time_range'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_prefix_range(text) IS
'range of the xids whose text starts with a prefix of 1 to 11 symbols';
COMMENT ON FUNCTION @extschema@.xid_time_range(tstzrange) IS
'range of the xids whose time lies in a time range';

-- Planner support: constant ranges and prefixes become btree/BRIN range
-- conditions, prune partitions, and are estimated from the histogram.
CREATE FUNCTION @extschema@.xid_range_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'xid_range_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_contained_by(@extschema@.xid, @extschema@.xidrange)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_contained_by'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_range_contains(@extschema@.xidrange, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_range_contains'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_starts_with(@extschema@.xid, text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_starts_with'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

COMMENT ON FUNCTION @extschema@.xid_range_support(internal) IS
'planner support for xid range and prefix tests';
COMMENT ON FUNCTION @extschema@.xid_range_sel(internal, oid, internal, integer) IS
'row estimate of xid range and prefix tests';
COMMENT ON FUNCTION @extschema@.xid_contained_by(@extschema@.xid, @extschema@.xidrange) IS
'is the xid in the range?';
COMMENT ON FUNCTION @extschema@.xid_range_contains(@extschema@.xidrange, @extschema@.xid) IS
'does the range hold the xid?';
COMMENT ON FUNCTION @extschema@.xid_starts_with(@extschema@.xid, text) IS
'does the text of the xid start with the given text?';

CREATE OPERATOR @extschema@.<@ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xidrange,
	FUNCTION = @extschema@.xid_contained_by,
	COMMUTATOR = OPERATOR(@extschema@.@>),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = contjoinsel
);

CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.xidrange,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_range_contains,
	COMMUTATOR = OPERATOR(@extschema@.<@),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = contjoinsel
);

CREATE OPERATOR @extschema@.^@ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = text,
	FUNCTION = @extschema@.xid_starts_with,
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = contjoinsel
);

