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
-- nor for other changes to a column of core's type
ALTER TABLE wn_core ALTER COLUMN id SET NOT NULL;
ALTER TABLE wn_core ALTER COLUMN other SET DEFAULT '1';
-- the inherited columns of partitions and children: where they are defined
CREATE TABLE wn_parted (id xid, v int) PARTITION BY RANGE (v);
CREATE TABLE wn_part1 PARTITION OF wn_parted FOR VALUES FROM (0) TO (10);
ALTER TABLE wn_parted ADD COLUMN other xid;
CREATE TABLE wn_inh (a int);
CREATE TABLE wn_inh_child (b int) INHERITS (wn_inh);
ALTER TABLE wn_inh ALTER COLUMN a TYPE xid USING a::text::xid;
DROP TABLE wn_parted, wn_inh CASCADE;
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

-- DDL that succeeds without the extension succeeds with it: a role with
-- CREATE but not USAGE on a schema; a temporary table named like the table
-- made, which is not the one checked (the check finds the command's table
-- by OID, never by its name)
CREATE SCHEMA wn_nousage;
CREATE SCHEMA wn_usage;
CREATE ROLE regress_xid_ddl;
GRANT CREATE ON SCHEMA wn_nousage TO regress_xid_ddl;
GRANT CREATE, USAGE ON SCHEMA wn_usage TO regress_xid_ddl;
SET ROLE regress_xid_ddl;
CREATE TABLE wn_nousage.t1 (a int);
CREATE TABLE wn_nousage.t2 AS SELECT 1 AS a;
CREATE TABLE wn_nousage.t3 (id xid);
SET search_path = wn_usage;
CREATE TEMP TABLE wn_tmp (id xid);
CREATE TABLE wn_tmp (id int);
CREATE TEMP TABLE wn_tmp2 (id int);
CREATE TABLE wn_tmp2 (id xid);
RESET search_path;
RESET ROLE;
SELECT CASE WHEN n.oid = pg_my_temp_schema() THEN 'temporary' ELSE n.nspname END AS schema,
       c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
WHERE c.relowner = 'regress_xid_ddl'::regrole AND c.relkind = 'r' ORDER BY 2, 1, 3;
DROP TABLE pg_temp.wn_tmp, pg_temp.wn_tmp2;
SET client_min_messages = warning;
DROP SCHEMA wn_nousage, wn_usage CASCADE;
RESET client_min_messages;
DROP ROLE regress_xid_ddl;

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
