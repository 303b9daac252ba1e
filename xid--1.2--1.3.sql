/* xid--1.2--1.3.sql: update the xid extension from 1.2 to 1.3 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.3'" to load this file. \quit

------------------------------------------------------------------------------
-- Comments
--
-- psql's \df+ shows a function's comment: xid_new()'s sent readers to a
-- README that no longer holds what it points to.  It now names the page
-- that does (docs/generating.md).
------------------------------------------------------------------------------

COMMENT ON FUNCTION @extschema@.xid_new() IS
'new xid for now, unique and strictly increasing across the sessions of this database (docs/generating.md)';
