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
