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

