------------------------------------------------------------------------------
-- Ids of the other time-sortable formats, keeping their time
--
-- Each takes the time and the 22 bits that follow it and drops the rest:
-- the id sorts where the original did (ties aside), and an id converted
-- to that format comes back exactly.  They cannot keep uniqueness, but for
-- ulid-flake, whose 20 bits fit whole.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_from_uuidv7(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_uuidv7'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid(uuid)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_uuid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid(text)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_to_ulid(@extschema@.xid)
RETURNS text
AS 'MODULE_PATHNAME', 'xid_to_ulid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_from_ulid_flake(bigint)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_from_ulid_flake'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_from_uuidv7(uuid) IS
'the id of a version 7 uuid: its time and the 22 bits after it';
COMMENT ON FUNCTION @extschema@.xid_from_ulid(uuid) IS
'the id of a ULID stored as a uuid: its time and the first 22 bits of its randomness';
COMMENT ON FUNCTION @extschema@.xid_from_ulid(text) IS
'the id of a ULID''s 26 symbols: its time and the first 22 bits of its randomness';
COMMENT ON FUNCTION @extschema@.xid_to_ulid(@extschema@.xid) IS
'the id as a ULID''s 26 symbols with its time, sorting alike';
COMMENT ON FUNCTION @extschema@.xid_from_ulid_flake(bigint) IS
'the id of a ulid-flake id: its time and its 20 bits, unique and in order as they were';

