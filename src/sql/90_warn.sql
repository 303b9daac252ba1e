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
