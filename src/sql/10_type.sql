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

-- ANALYZE keeps, beside core's statistics, a histogram of an xid column
-- ten times finer than the statistics target asks of other types, which
-- xid's estimators read, so that estimates of an hour or a day of ids
-- follow the busy and the quiet hours.
CREATE FUNCTION @extschema@.xid_typanalyze(internal)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_typanalyze'
LANGUAGE C STRICT;

COMMENT ON FUNCTION @extschema@.xid_typanalyze(internal) IS
'ANALYZE of xid columns: core''s statistics with a finer histogram';

-- 8 bytes by value: the unsigned 64-bit payload.
CREATE TYPE @extschema@.xid (
	INPUT = @extschema@.xid_in,
	OUTPUT = @extschema@.xid_out,
	RECEIVE = @extschema@.xid_recv,
	SEND = @extschema@.xid_send,
	ANALYZE = @extschema@.xid_typanalyze,
	INTERNALLENGTH = 8,
	PASSEDBYVALUE,
	ALIGNMENT = double,
	STORAGE = plain
);

COMMENT ON TYPE @extschema@.xid IS
'compact, time-sortable identifier: 64 bits written as 11 Base58 symbols';

