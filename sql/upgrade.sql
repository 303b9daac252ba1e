--
-- Versions and the upgrade path
--
-- The script of every release is kept and never edited; each later version
-- comes with an upgrade script.  This test installs the first release and
-- updates to the default version, so every upgrade script runs here.
DROP EXTENSION xid;
CREATE EXTENSION xid VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'xid';
ALTER EXTENSION xid UPDATE;
SELECT extversion = default_version AS at_default
FROM pg_extension e JOIN pg_available_extensions a ON a.name = e.extname
WHERE e.extname = 'xid';
-- every upgrade path from 1.0 reaches the default version
SELECT a.default_version = '1.0' OR EXISTS (
	SELECT FROM pg_extension_update_paths('xid') p
	WHERE p.source = '1.0' AND p.target = a.default_version AND p.path IS NOT NULL)
	AS has_path
FROM pg_available_extensions a WHERE a.name = 'xid';

-- the extension lives in the schema it is given, and cannot move
CREATE SCHEMA ids;
DROP EXTENSION xid;
CREATE EXTENSION xid SCHEMA ids;
SELECT 'jpXCZedGfVQ'::ids.xid, ids.xid_prefix_range('jpXC');
SELECT count(*) FROM generate_series(1, 3) WHERE ids.xid_new() <@ ids.xid_time_range(tstzrange(now() - interval '1 hour', NULL));
ALTER EXTENSION xid SET SCHEMA public;
-- the planner support finds its operators in any schema
CREATE TABLE ids.t (id ids.xid PRIMARY KEY);
INSERT INTO ids.t SELECT ids.xid_new() FROM generate_series(1, 100);
SET enable_seqscan = off;
SET search_path = ids, public;
EXPLAIN (COSTS OFF) SELECT * FROM ids.t WHERE id OPERATOR(ids.<@) ids.xid_prefix_range('5cnE');
RESET search_path;
RESET enable_seqscan;
DROP TABLE ids.t;
DROP EXTENSION xid;
DROP SCHEMA ids;
-- leave the extension as the other tests expect it
CREATE EXTENSION xid;
