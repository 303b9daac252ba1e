/* xid--1.1--1.2.sql: update the xid extension from 1.1 to 1.2 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.2'" to load this file. \quit

------------------------------------------------------------------------------
-- The durable mark: the database owner may read and set it (pg_dump and
-- pg_restore do), whoever installed the extension.  1.1 grants this since
-- the owner's dump was found to fail; granted here again for a 1.1
-- installed before that, and a no-op where the grant is there.
------------------------------------------------------------------------------

GRANT SELECT, UPDATE ON SEQUENCE @extschema@.xid_durable_mark TO pg_database_owner;

------------------------------------------------------------------------------
-- Casts to and from uuid
--
-- An id as a UUIDv7 with its time: the 22 bits below the time in rand_a
-- and the first 10 bits of rand_b, the rest zero, so ids and their uuids
-- sort alike and the round trip is exact.  The cast from uuid takes only
-- such uuids (an error for any other: a silent truncation would make two
-- uuids one id).  Explicit only, as every cast of the type.
------------------------------------------------------------------------------

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

