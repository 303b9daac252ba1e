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

