------------------------------------------------------------------------------
-- Ids for existing rows
--
-- xid_from_key(t, key): the row's millisecond and 22 bits of its old key
-- (the key modulo 2^22, or the first 22 bits of a uuid).  Immutable: the
-- same row always gets the same id.  Two rows with distinct bigint keys
-- get the same id only when they share a millisecond and their keys differ
-- by a multiple of 2^22; the move checks it and the unique index turns it
-- into an error (src/xid_key.c has the whole argument).
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_from_key(timestamptz, bigint)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_key_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_key(timestamptz, uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_key_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_from_key(timestamptz, bigint) IS
'the id of an existing row: its millisecond and its bigint key modulo 2^22';
COMMENT ON FUNCTION @extschema@.xid_from_key(timestamptz, uuid) IS
'the id of an existing row: its millisecond and the first 22 bits of its uuid key';

