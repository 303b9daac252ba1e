/* xid--1.0--1.1.sql: update the xid extension from 1.0 to 1.1 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.1'" to load this file. \quit

------------------------------------------------------------------------------
-- Labels
------------------------------------------------------------------------------

-- Generators are PARALLEL RESTRICTED: without shared state (15/16 without
-- shared_preload_libraries) a parallel worker has its own last value, so
-- ids made in a parallel query would not increase within the session (core
-- marks random() restricted for the same reason).  STRICT means nothing for
-- a function without arguments.
ALTER FUNCTION @extschema@.xid_new() CALLED ON NULL INPUT PARALLEL RESTRICTED;
ALTER FUNCTION @extschema@.xid_new(timestamptz) PARALLEL RESTRICTED;

-- LEAKPROOF is for functions that see user data; this one takes internal.
ALTER FUNCTION @extschema@.xid_sortsupport(internal) NOT LEAKPROOF;

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

-- Index conditions when the time is a parameter or an expression such as
-- now() - interval '1 day' (NULL: no xid qualifies).
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

-- Index conditions when the pattern is a parameter (NULL: no xid matches).
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
-- Statistics
--
-- ANALYZE keeps, beside core's statistics, a histogram of an xid column
-- ten times finer than the statistics target asks of other types, which
-- xid's estimators read, so that estimates of an hour or a day of ids
-- follow the busy and the quiet hours.  Run ANALYZE after updating for
-- existing columns to get it.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_typanalyze(internal)
RETURNS boolean
AS 'MODULE_PATHNAME', 'xid_typanalyze'
LANGUAGE C STRICT;

COMMENT ON FUNCTION @extschema@.xid_typanalyze(internal) IS
'ANALYZE of xid columns: core''s statistics with a finer histogram';

ALTER TYPE @extschema@.xid SET (ANALYZE = @extschema@.xid_typanalyze);

------------------------------------------------------------------------------
-- Partition pruning on parameters
--
-- On a partitioned table the planner support keeps "id >= t" (t a parameter
-- or an expression such as now() - interval '1 day') and adds
-- "id >= xid_time_lower_bound(t, true)", which partition pruning
-- understands.  In each partition the added clause only repeats the kept
-- one; this support function of >= and <= drops it there.
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.xid_cmp_support(internal)
RETURNS internal
AS 'MODULE_PATHNAME', 'xid_cmp_support'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.xid_cmp_support(internal) IS
'planner support: drops in each partition the pruning clauses the planner added';

ALTER FUNCTION @extschema@.xid_ge(@extschema@.xid, @extschema@.xid) SUPPORT @extschema@.xid_cmp_support;
ALTER FUNCTION @extschema@.xid_le(@extschema@.xid, @extschema@.xid) SUPPORT @extschema@.xid_cmp_support;

------------------------------------------------------------------------------
-- The durable mark
--
-- No id xid_new() issues in this database is beyond the millisecond this
-- sequence holds: xid_new() moves it ahead a second at a time, WAL-logged
-- and flushed, and after a restart, crash recovery, promotion or pg_upgrade
-- starts above it, whatever the clock says (xid_mark.c, README).  Only the
-- library writes it, without nextval() or setval(), so making ids needs no
-- privilege on it.  The library takes the sequence that is a member of the
-- extension, never another relation of the name.  pg_dump carries its
-- value; the extension's owner (who may be a database owner without
-- superuser, the extension being trusted) may read it and set it, so that
-- pg_dump and pg_restore work as that role.  The library refuses a mark
-- far ahead of the clock, in its database only.
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
