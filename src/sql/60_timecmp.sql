------------------------------------------------------------------------------
-- Comparisons with timestamptz
--
-- id OP t is exactly xid_time(id) OP t.  Not members of the btree family:
-- many ids share one millisecond, so an "equality" with a time would not
-- be transitive, and there is no = with timestamptz.  The planner support
-- turns them into exact index conditions on the id.  They cannot fail
-- (LEAKPROOF), and timestamptz comparison is immutable.  Row estimates
-- come from xid_range_sel, as for <@ and ^@: it interpolates within the
-- column's histogram, and combines the comparisons that bound the same
-- column ("id >= a AND id < b") into one window.  Join estimates are
-- core's defaults for inequalities.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_lt_time(@extschema@.xid, timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_lt_time'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_le_time(@extschema@.xid, timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_le_time'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_gt_time(@extschema@.xid, timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_gt_time'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_ge_time(@extschema@.xid, timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_ge_time'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_time_lt(timestamptz, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_time_lt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_time_le(timestamptz, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_time_le'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_time_gt(timestamptz, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_time_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_time_ge(timestamptz, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_time_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

COMMENT ON FUNCTION @extschema@.xid_lt_time(@extschema@.xid, timestamptz) IS
'was the xid made before the time?';
COMMENT ON FUNCTION @extschema@.xid_le_time(@extschema@.xid, timestamptz) IS
'was the xid made at or before the time?';
COMMENT ON FUNCTION @extschema@.xid_gt_time(@extschema@.xid, timestamptz) IS
'was the xid made after the time?';
COMMENT ON FUNCTION @extschema@.xid_ge_time(@extschema@.xid, timestamptz) IS
'was the xid made at or after the time?';
COMMENT ON FUNCTION @extschema@.xid_time_lt(timestamptz, @extschema@.xid) IS
'is the time before the xid was made?';
COMMENT ON FUNCTION @extschema@.xid_time_le(timestamptz, @extschema@.xid) IS
'is the time at or before the xid was made?';
COMMENT ON FUNCTION @extschema@.xid_time_gt(timestamptz, @extschema@.xid) IS
'is the time after the xid was made?';
COMMENT ON FUNCTION @extschema@.xid_time_ge(timestamptz, @extschema@.xid) IS
'is the time at or after the xid was made?';

CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.xid,
	RIGHTARG = timestamptz,
	FUNCTION = @extschema@.xid_lt_time,
	COMMUTATOR = OPERATOR(@extschema@.>),
	NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarltjoinsel
);

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = timestamptz,
	FUNCTION = @extschema@.xid_le_time,
	COMMUTATOR = OPERATOR(@extschema@.>=),
	NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarlejoinsel
);

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = timestamptz,
	FUNCTION = @extschema@.xid_gt_time,
	COMMUTATOR = OPERATOR(@extschema@.<),
	NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargtjoinsel
);

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = timestamptz,
	FUNCTION = @extschema@.xid_ge_time,
	COMMUTATOR = OPERATOR(@extschema@.<=),
	NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargejoinsel
);

CREATE OPERATOR @extschema@.< (
	LEFTARG = timestamptz,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_time_lt,
	COMMUTATOR = OPERATOR(@extschema@.>),
	NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarltjoinsel
);

CREATE OPERATOR @extschema@.<= (
	LEFTARG = timestamptz,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_time_le,
	COMMUTATOR = OPERATOR(@extschema@.>=),
	NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarlejoinsel
);

CREATE OPERATOR @extschema@.> (
	LEFTARG = timestamptz,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_time_gt,
	COMMUTATOR = OPERATOR(@extschema@.<),
	NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargtjoinsel
);

CREATE OPERATOR @extschema@.>= (
	LEFTARG = timestamptz,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_time_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=),
	NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargejoinsel
);

