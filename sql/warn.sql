--
-- The warning for columns of core's pg_catalog.xid
--
-- an unqualified xid in DDL is core's 32-bit transaction id type: each form
-- of DDL that makes such a column warns, and succeeds
CREATE TABLE wn_core (id xid, v int);
ALTER TABLE wn_core ADD COLUMN other xid;
ALTER TABLE wn_core ALTER COLUMN v TYPE xid USING v::text::xid;
CREATE TABLE wn_as AS SELECT '5'::xid AS id;
SELECT '7'::xid AS id INTO wn_into;
CREATE TEMP TABLE wn_temp (id xid);
-- domains and arrays of it too
CREATE DOMAIN wn_dom AS xid;
CREATE TABLE wn_dom_t (a wn_dom, b xid[]);
CREATE DOMAIN wn_dom_arr AS wn_dom[];
CREATE DOMAIN wn_dom_arr2 AS wn_dom_arr;
ALTER TABLE wn_dom_t ADD COLUMN c wn_dom_arr2[];
-- a table that is not there any more by the end of the command
ALTER TABLE IF EXISTS wn_missing ADD COLUMN id xid;
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relname IN ('wn_core', 'wn_as', 'wn_into', 'wn_temp', 'wn_dom_t') AND a.attnum > 0
ORDER BY 1, 2;
-- no warning for the extension's type, for other columns, or for DDL that
-- makes no new column
CREATE TABLE wn_ok (id public.xid, t text);
ALTER TABLE wn_ok ADD COLUMN n int;
ALTER TABLE wn_core ADD COLUMN w int;
ALTER TABLE wn_core RENAME COLUMN w TO w2;
CREATE INDEX ON wn_core (w2);
-- nor for a table in a system schema
BEGIN;
CREATE TABLE information_schema.wn_sys (id xid);
ROLLBACK;
-- the setting turns it off
SET xid.warn_core_xid = off;
CREATE TABLE wn_quiet (id xid);
RESET xid.warn_core_xid;
SHOW xid.warn_core_xid;
DROP TABLE wn_core, wn_as, wn_into, wn_temp, wn_dom_t, wn_ok, wn_quiet;
DROP DOMAIN wn_dom_arr2, wn_dom_arr, wn_dom;

-- the trigger belongs to the extension and goes with it
SELECT e.evtname, e.evtevent, e.evttags, e.evtfoid::regproc
FROM pg_event_trigger e
JOIN pg_depend d ON d.classid = 'pg_event_trigger'::regclass AND d.objid = e.oid AND d.deptype = 'e'
JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'xid';
DROP EXTENSION xid;
SELECT count(*) AS triggers_left FROM pg_event_trigger WHERE evtname = 'xid_warn_core_xid';
CREATE TABLE wn_gone (id xid);
DROP TABLE wn_gone;

-- a trusted extension: a user with CREATE on the database installs it,
-- event trigger and all, and is warned
CREATE ROLE regress_xid_user;
SELECT current_database() AS db \gset
GRANT CREATE ON DATABASE :"db" TO regress_xid_user;
GRANT CREATE ON SCHEMA public TO regress_xid_user;
SET ROLE regress_xid_user;
CREATE EXTENSION xid;
CREATE TABLE wn_user (id xid);
CREATE TABLE wn_user_ok (id public.xid PRIMARY KEY DEFAULT public.xid_new());
INSERT INTO wn_user_ok DEFAULT VALUES;
SELECT count(*) FROM wn_user_ok;
DROP TABLE wn_user, wn_user_ok;
DROP EXTENSION xid;
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_xid_user;
REVOKE CREATE ON DATABASE :"db" FROM regress_xid_user;
DROP ROLE regress_xid_user;

-- the trigger function is for event triggers only
CREATE EXTENSION xid;
SELECT public.xid_warn_core_xid();
