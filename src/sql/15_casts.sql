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

-- The id as a UUIDv7 with its time: the 22 bits below the time in rand_a
-- and the first 10 bits of rand_b, the rest zero, so ids and their uuids
-- sort alike and the round trip is exact.  The cast from uuid takes only
-- such uuids (an error for any other: a silent truncation would make two
-- uuids one id).

CREATE FUNCTION @extschema@.xid_to_uuid(@extschema@.xid)
RETURNS uuid
AS 'MODULE_PATHNAME', 'xid_to_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_uuid(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE CAST (@extschema@.xid AS uuid)
	WITH FUNCTION @extschema@.xid_to_uuid(@extschema@.xid);
CREATE CAST (uuid AS @extschema@.xid)
	WITH FUNCTION @extschema@.xid_from_uuid(uuid);

COMMENT ON FUNCTION @extschema@.xid_to_uuid(@extschema@.xid) IS
'the id as a version 7 uuid with its time, sorting alike (the cast to uuid)';
COMMENT ON FUNCTION @extschema@.xid_from_uuid(uuid) IS
'the id a uuid made by xid_to_uuid() stands for; an error for any other uuid (the cast from uuid)';

