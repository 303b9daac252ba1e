/* xid--1.3.sql: the xid type, version 1.3 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION xid" to load this file. \quit

-- What a fresh install of 1.3 makes, in one script: the same objects,
-- privileges and comments as xid--1.0.sql updated by xid--1.0--1.1.sql,
-- xid--1.1--1.2.sql and xid--1.2--1.3.sql (sql/upgrade.sql compares them).
-- Those scripts are the history and are never edited; new objects go into
-- the next version's update script and into a new full script of that
-- version.

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

------------------------------------------------------------------------------
-- Comparison functions
------------------------------------------------------------------------------

-- The support function of >= and <=.  On a partitioned table the planner
-- support keeps "id >= t" (t a parameter or an expression such as now() -
-- interval '1 day') and adds "id >= xid_time_lower_bound(t, true)", which
-- partition pruning understands.  In each partition the added clause only
-- repeats the kept one; this function drops it there.
CREATE FUNCTION @extschema@.xid_cmp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'xid_cmp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_cmp_support(internal) IS
'planner support: drops in each partition the pruning clauses the planner added';

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
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_cmp_support;

CREATE FUNCTION @extschema@.xid_gt(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_gt'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

CREATE FUNCTION @extschema@.xid_ge(@extschema@.xid, @extschema@.xid)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_ge'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE
SUPPORT @extschema@.xid_cmp_support;

CREATE FUNCTION @extschema@.xid_cmp(@extschema@.xid, @extschema@.xid)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_cmp'
LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

-- LEAKPROOF is for functions that see user data; this one takes internal.
CREATE FUNCTION @extschema@.xid_sortsupport(internal)
RETURNS void
AS 'MODULE_PATHNAME', 'xid_sortsupport'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The row estimator of the comparisons (here) and of the range, prefix,
-- time and LIKE tests (below): it counts the rows added since the last
-- ANALYZE, which core's scalarltsel() and the others cannot place (1.3).
CREATE FUNCTION @extschema@.xid_range_sel(internal, oid, internal, integer)
RETURNS float8
AS 'MODULE_PATHNAME', 'xid_range_sel'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

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
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarltjoinsel
);

CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_le,
	COMMUTATOR = OPERATOR(@extschema@.>=),
	NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalarlejoinsel
);

CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_gt,
	COMMUTATOR = OPERATOR(@extschema@.<),
	NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = scalargtjoinsel
);

CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.xid,
	RIGHTARG = @extschema@.xid,
	FUNCTION = @extschema@.xid_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=),
	NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = @extschema@.xid_range_sel,
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
--
-- PARALLEL RESTRICTED: without shared state (15/16 without
-- shared_preload_libraries) a parallel worker has its own last value, so
-- ids made in a parallel query would not increase within the session (core
-- marks random() restricted for the same reason).
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_new()
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_new'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION @extschema@.xid_new(timestamptz)
RETURNS @extschema@.xid
AS 'MODULE_PATHNAME', 'xid_new_at'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.xid_new() IS
'new xid for now, unique and strictly increasing across the sessions of this database (docs/generating.md)';
COMMENT ON FUNCTION @extschema@.xid_new(timestamptz) IS
'new xid for the given instant, truncated to the millisecond';

------------------------------------------------------------------------------
-- Node numbers
--
-- With xid.node_bits > 0, xid_new() puts xid.node_id into the top bits of
-- the 22 low bits, so that servers with different node ids never make the
-- same id.  xid_node() reads that field back under a given layout.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_node(@extschema@.xid, integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'xid_node'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_node(@extschema@.xid, integer) IS
'the node number of an xid made with the given xid.node_bits';

------------------------------------------------------------------------------
-- The durable mark
--
-- No id xid_new() issues in this database is beyond the millisecond this
-- sequence holds: xid_new() moves it ahead a second at a time, WAL-logged
-- and flushed, and after a restart, crash recovery, promotion or pg_upgrade
-- starts above it, whatever the clock says (xid_mark.c, docs/generating.md).
-- Only the library writes it, without nextval() or setval(), so making ids
-- needs no privilege on it.  The library takes the sequence that is a member
-- of the extension, never another relation of the name.  pg_dump carries its
-- value; the extension's owner (who may be a database owner without
-- superuser, the extension being trusted) may read it and set it, so that
-- pg_dump and pg_restore work as that role.  The library refuses a mark far
-- ahead of the clock, in its database only.
------------------------------------------------------------------------------

-- A relation of the name that is not the extension's (anyone who may
-- create in the schema can make one) is neither taken over nor a riddle.
DO $$
DECLARE
	nsp oid;
BEGIN
	SELECT e.extnamespace INTO nsp FROM pg_catalog.pg_extension e
	 WHERE e.extname OPERATOR(pg_catalog.=) 'xid';
	IF EXISTS (SELECT FROM pg_catalog.pg_class c
				WHERE c.relnamespace OPERATOR(pg_catalog.=) nsp
				  AND c.relname OPERATOR(pg_catalog.=) 'xid_durable_mark') THEN
		RAISE EXCEPTION 'relation "xid_durable_mark" already exists in schema "%"',
			(SELECT n.nspname FROM pg_catalog.pg_namespace n WHERE n.oid OPERATOR(pg_catalog.=) nsp)
			USING ERRCODE = '42P07',
			DETAIL = 'The xid extension keeps its durable mark in a sequence of that name; the relation there is not part of the extension and is left as it is.',
			HINT = 'Rename or drop that relation, then run CREATE EXTENSION or ALTER EXTENSION xid UPDATE again.';
	END IF;
END
$$;

CREATE SEQUENCE @extschema@.xid_durable_mark
	AS bigint MINVALUE 0 MAXVALUE 4398046511103 START 0 NO CYCLE;

COMMENT ON SEQUENCE @extschema@.xid_durable_mark IS
'durable mark of xid_new(): no id issued in this database is beyond this millisecond since the xid epoch';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.xid_durable_mark', '');

-- Who may read the mark (pg_dump does, as a config table's data) and set it
-- (pg_restore does, with setval()): the owner of the current database,
-- through the predefined role pg_database_owner, whoever installed the
-- extension (a superuser's CREATE EXTENSION, in a template too, or an
-- update by a superuser of a 1.0 extension), and whoever owns the database
-- later; and the extension's owner, whoever runs the script (a superuser
-- may update a database owner's extension).  (A superuser who installs it
-- owns the sequence already.)  Moving the mark ahead affects only this
-- database's ids, which its owner controls anyway.
GRANT SELECT, UPDATE ON SEQUENCE @extschema@.xid_durable_mark TO pg_database_owner;

DO $$
DECLARE
	owner oid;
BEGIN
	SELECT e.extowner INTO owner FROM pg_catalog.pg_extension e
	 WHERE e.extname OPERATOR(pg_catalog.=) 'xid';
	IF owner OPERATOR(pg_catalog.<>) (SELECT c.relowner FROM pg_catalog.pg_class c
		WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.xid_durable_mark'::pg_catalog.regclass) THEN
		EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO %s',
			'@extschema@.xid_durable_mark'::pg_catalog.regclass,
			owner::pg_catalog.regrole);
	END IF;
END
$$;

CREATE FUNCTION @extschema@.xid_generator_status(
	OUT last_id @extschema@.xid,
	OUT last_time timestamptz,
	OUT durable_mark timestamptz,
	OUT clock timestamptz,
	OUT last_ahead interval,
	OUT mark_ahead interval,
	OUT scope text,
	OUT durable boolean)
RETURNS record
AS 'MODULE_PATHNAME', 'xid_generator_status'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION @extschema@.xid_generator_status() IS
'the last id xid_new() issued, the durable mark of this database, and how far the clock is behind them';

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

------------------------------------------------------------------------------
-- LIKE and NOT LIKE
--
-- id LIKE p is exactly id::text LIKE p.  A pattern's fixed prefix becomes
-- an index range (exact for 'prefix%', with a recheck otherwise).  No
-- ILIKE: Base58 is case-sensitive.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_like(@extschema@.xid, text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_like'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
SUPPORT @extschema@.xid_range_support;

CREATE FUNCTION @extschema@.xid_not_like(@extschema@.xid, text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_not_like'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_like(@extschema@.xid, text) IS
'does the text of the xid match the LIKE pattern?';
COMMENT ON FUNCTION @extschema@.xid_not_like(@extschema@.xid, text) IS
'does the text of the xid not match the LIKE pattern?';

CREATE OPERATOR @extschema@.~~ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = text,
	FUNCTION = @extschema@.xid_like,
	NEGATOR = OPERATOR(@extschema@.!~~),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = likejoinsel
);

CREATE OPERATOR @extschema@.!~~ (
	LEFTARG = @extschema@.xid,
	RIGHTARG = text,
	FUNCTION = @extschema@.xid_not_like,
	NEGATOR = OPERATOR(@extschema@.~~),
	RESTRICT = @extschema@.xid_range_sel,
	JOIN = nlikejoinsel
);

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

------------------------------------------------------------------------------
-- A warning for columns of core's xid
--
-- An unqualified "xid" in DDL is always pg_catalog.xid (32-bit transaction
-- ids).  A WARNING, never an error, when DDL gives a user table such a
-- column; SET xid.warn_core_xid = off silences it.  The check is the
-- library's, on the objects the command creates or alters, by OID (an
-- object access hook); this event trigger, at the start of the commands
-- that can make such a column, loads the library into the session and
-- notes which columns an ALTER TABLE retypes.  At ddl_command_start, not
-- at ddl_command_end: a trigger at the end of commands makes PostgreSQL
-- collect every DDL command and dropped object for it, which is most of
-- what such a trigger costs (BENCHMARKS.md).
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_warn_core_xid()
RETURNS event_trigger
AS 'MODULE_PATHNAME', 'xid_warn_core_xid'
LANGUAGE C;

COMMENT ON FUNCTION @extschema@.xid_warn_core_xid() IS
'event trigger: warn when DDL makes a column of core''s pg_catalog.xid';

CREATE EVENT TRIGGER xid_warn_core_xid ON ddl_command_start
	WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE')
	EXECUTE FUNCTION @extschema@.xid_warn_core_xid();

COMMENT ON EVENT TRIGGER xid_warn_core_xid IS
'warns when DDL gives a table a column of core''s pg_catalog.xid';
