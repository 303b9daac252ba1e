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

------------------------------------------------------------------------------
-- Estimates of the comparisons
--
-- The comparisons of two xids were estimated by core's scalarltsel() and
-- the others, which cannot interpolate within a bucket of a type they do
-- not know (they take the middle of it) and pair "id >= a AND id <= b" as
-- hi + lo - 1, one row for a window inside a bucket.  They are also the
-- index conditions of the range, prefix, time and LIKE tests, so index
-- scans were costed from those estimates.  xid's estimator reads its own
-- histogram and counts the rows added since the last ANALYZE.
------------------------------------------------------------------------------

ALTER OPERATOR @extschema@.< (@extschema@.xid, @extschema@.xid)
	SET (RESTRICT = @extschema@.xid_range_sel);
ALTER OPERATOR @extschema@.<= (@extschema@.xid, @extschema@.xid)
	SET (RESTRICT = @extschema@.xid_range_sel);
ALTER OPERATOR @extschema@.> (@extschema@.xid, @extschema@.xid)
	SET (RESTRICT = @extschema@.xid_range_sel);
ALTER OPERATOR @extschema@.>= (@extschema@.xid, @extschema@.xid)
	SET (RESTRICT = @extschema@.xid_range_sel);
