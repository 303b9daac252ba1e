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

