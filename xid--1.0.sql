/* xid--1.0.sql: the xid type, version 1.0 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION xid" to load this file. \quit

-- Core owns pg_catalog.xid (32-bit transaction ids), and pg_catalog is
-- searched before every other schema, so an unqualified "xid" here would be
-- core's type: every object of ours is written @extschema@.name.

------------------------------------------------------------------------------
-- Type
------------------------------------------------------------------------------

CREATE TYPE @extschema@.xid;

CREATE FUNCTION @extschema@.xid_in(cstring)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_in'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_out(@extschema@.xid)
RETURNS cstring
AS 'MODULE_PATHNAME', 'xid_out'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_recv(internal)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_recv'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_send(@extschema@.xid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'xid_send'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- 8 bytes by value: the unsigned 64-bit payload.
CREATE TYPE @extschema@.xid (
	INPUT = @extschema@.xid_in,
	OUTPUT = @extschema@.xid_out,
	RECEIVE = @extschema@.xid_recv,
	SEND = @extschema@.xid_send,
	INTERNALLENGTH = 8,
	PASSEDBYVALUE,
	ALIGNMENT = double,
	STORAGE = plain
);

COMMENT ON TYPE @extschema@.xid IS
'compact, time-sortable identifier: 64 bits written as 11 Base58 symbols';

------------------------------------------------------------------------------
-- Casts
--
-- All explicit: an implicit or assignment cast between an id type and a
-- number or a string makes operators ambiguous and hides mistakes.  Text
-- casts go through the I/O functions and need no declaration.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_from_int8(bigint)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_to_int8(@extschema@.xid)
RETURNS bigint
AS 'MODULE_PATHNAME', 'xid_to_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_bytea(bytea)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_to_bytea(@extschema@.xid)
RETURNS bytea
AS 'MODULE_PATHNAME', 'xid_to_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The same number: 0 .. 2^63-1 both ways.
CREATE CAST (bigint AS @extschema@.xid)
	WITH FUNCTION @extschema@.xid_from_int8(bigint);
CREATE CAST (@extschema@.xid AS bigint)
	WITH FUNCTION @extschema@.xid_to_int8(@extschema@.xid);

-- The payload as 8 bytes, big-endian (as in the binary protocol).
CREATE CAST (bytea AS @extschema@.xid)
	WITH FUNCTION @extschema@.xid_from_bytea(bytea);
CREATE CAST (@extschema@.xid AS bytea)
	WITH FUNCTION @extschema@.xid_to_bytea(@extschema@.xid);

COMMENT ON FUNCTION @extschema@.xid_from_int8(bigint) IS
'cast bigint to xid, keeping the number';
COMMENT ON FUNCTION @extschema@.xid_to_int8(@extschema@.xid) IS
'cast xid to bigint, keeping the number';
COMMENT ON FUNCTION @extschema@.xid_from_bytea(bytea) IS
'cast 8 big-endian bytes to xid';
COMMENT ON FUNCTION @extschema@.xid_to_bytea(@extschema@.xid) IS
'cast xid to its 8 big-endian bytes';

------------------------------------------------------------------------------
-- Comparison functions
------------------------------------------------------------------------------

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
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_gt(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_ge(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_cmp'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'xid_sortsupport'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

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

------------------------------------------------------------------------------
-- Operators
------------------------------------------------------------------------------

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_eq,
	COMMUTATOR = OPERATOR(@extschema@.=),
	NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel,
	JOIN = eqjoinsel,
	HASHES,
	MERGES
);

CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>),
	NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel,
	JOIN = neqjoinsel
);

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_lt,
	COMMUTATOR = OPERATOR(@extschema@.>),
	NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel,
	JOIN = scalarltjoinsel
);

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_le,
	COMMUTATOR = OPERATOR(@extschema@.>=),
	NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel,
	JOIN = scalarlejoinsel
);

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_gt,
	COMMUTATOR = OPERATOR(@extschema@.<),
	NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel,
	JOIN = scalargtjoinsel
);

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=),
	NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel,
	JOIN = scalargejoinsel
);

------------------------------------------------------------------------------
-- btree
------------------------------------------------------------------------------

CREATE OPERATOR CLASS @extschema@.xid_btree_ops
DEFAULT FOR TYPE @extschema@.xid USING btree AS
	OPERATOR 1 @extschema@.<,
	OPERATOR 2 @extschema@.<=,
	OPERATOR 3 @extschema@.=,
	OPERATOR 4 @extschema@.>=,
	OPERATOR 5 @extschema@.>,
	FUNCTION 1 @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid),
	FUNCTION 2 @extschema@.xid_sortsupport(internal),
	-- equal values are the same bytes: deduplication is safe
	FUNCTION 4 btequalimage(oid);

CREATE AGGREGATE @extschema@.min(@extschema@.xid) (
	SFUNC = @extschema@.xid_smaller,
	STYPE = @extschema@.xid,
	COMBINEFUNC = @extschema@.xid_smaller,
	SORTOP = OPERATOR(@extschema@.<),
	PARALLEL = SAFE
);

CREATE AGGREGATE @extschema@.max(@extschema@.xid) (
	SFUNC = @extschema@.xid_larger,
	STYPE = @extschema@.xid,
	COMBINEFUNC = @extschema@.xid_larger,
	SORTOP = OPERATOR(@extschema@.>),
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE @extschema@.min(@extschema@.xid) IS 'smallest xid';
COMMENT ON AGGREGATE @extschema@.max(@extschema@.xid) IS 'largest xid';

------------------------------------------------------------------------------
-- hash
------------------------------------------------------------------------------

CREATE OPERATOR CLASS @extschema@.xid_hash_ops
DEFAULT FOR TYPE @extschema@.xid USING hash AS
	OPERATOR 1 @extschema@.=,
	FUNCTION 1 @extschema@.xid_hash(@extschema@.xid),
	FUNCTION 2 @extschema@.xid_hash_extended(@extschema@.xid, bigint);

------------------------------------------------------------------------------
-- Fields of the xid profile
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_time(@extschema@.xid)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'xid_time'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_random(@extschema@.xid)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_random'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_time(@extschema@.xid) IS
'creation time of an xid, to the millisecond';
COMMENT ON FUNCTION @extschema@.xid_random(@extschema@.xid) IS
'22-bit random field of an xid';

------------------------------------------------------------------------------
-- Generators
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_new()
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_new'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_new(timestamptz)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_new_at'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_new() IS
'new xid for now, unique and increasing (see README for the scope)';
COMMENT ON FUNCTION @extschema@.xid_new(timestamptz) IS
'new xid for the given instant, truncated to the millisecond';

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

CREATE FUNCTION @extschema@.xid_range_sel(internal, oid, internal, integer)
RETURNS float8
AS 'MODULE_PATHNAME', 'xid_range_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

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

------------------------------------------------------------------------------
-- Bounds of ranges and prefixes (index conditions for parameters)
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_range_lower_bound(@extschema@.xidrange)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_range_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_range_upper_bound(@extschema@.xidrange)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_range_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_prefix_lower_bound(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_prefix_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_prefix_upper_bound(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_prefix_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_range_lower_bound(@extschema@.xidrange) IS
'smallest xid in the range, or NULL when it holds none';
COMMENT ON FUNCTION @extschema@.xid_range_upper_bound(@extschema@.xidrange) IS
'largest xid in the range, or NULL when it holds none';
COMMENT ON FUNCTION @extschema@.xid_prefix_lower_bound(text) IS
'smallest xid that starts with the text (as ^@), or NULL when none does';
COMMENT ON FUNCTION @extschema@.xid_prefix_upper_bound(text) IS
'largest xid that starts with the text (as ^@), or NULL when none does';
