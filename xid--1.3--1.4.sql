/* xid--1.3--1.4.sql: update the xid extension from 1.3 to 1.4 */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION xid UPDATE TO '1.4'" to load this file. \quit

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
