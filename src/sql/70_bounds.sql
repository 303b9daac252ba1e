------------------------------------------------------------------------------
-- Bounds of ranges, prefixes, times and patterns
--
-- Index conditions, and partition pruning, when the range, prefix, time or
-- pattern is a parameter or an expression such as now() - interval '1 day'
-- (NULL: no xid qualifies).
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

CREATE FUNCTION @extschema@.xid_time_lower_bound(timestamptz, boolean)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_time_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_time_upper_bound(timestamptz, boolean)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_time_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_time_lower_bound(timestamptz, boolean) IS
'smallest xid made at or after (true) or after (false) the time, or NULL when none is';
COMMENT ON FUNCTION @extschema@.xid_time_upper_bound(timestamptz, boolean) IS
'largest xid made at or before (true) or before (false) the time, or NULL when none is';

CREATE FUNCTION @extschema@.xid_like_lower_bound(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_like_lower_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_like_upper_bound(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_like_upper_bound'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_like_lower_bound(text) IS
'smallest xid the LIKE pattern can match, or NULL when it matches none';
COMMENT ON FUNCTION @extschema@.xid_like_upper_bound(text) IS
'largest xid the LIKE pattern can match, or NULL when it matches none';

