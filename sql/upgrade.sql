--
-- Versions and the upgrade path
--
-- The script of every release is kept and never edited; each later version
-- comes with an upgrade script.  This test installs the first release and
-- updates to the default version, so every upgrade script runs here.
DROP EXTENSION xid;
CREATE EXTENSION xid VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'xid';
-- a database not updated yet works with the new library: its queries need
-- none of the functions that later versions added
CREATE TABLE up_old (id public.xid PRIMARY KEY);
INSERT INTO up_old SELECT public.xid_new('2026-01-01+00'::timestamptz + g * interval '1 ms')
FROM generate_series(1, 1000) AS g;
SELECT left(min(id)::text, 8) AS up_p FROM up_old \gset
SET plan_cache_mode = force_generic_plan;
SET enable_bitmapscan = off;
PREPARE up_prefix(text) AS SELECT count(*) FROM up_old WHERE id ^@ $1;
PREPARE up_range(public.xidrange) AS SELECT count(*) FROM up_old WHERE id <@ $1;
SELECT (SELECT count(*) FROM up_old WHERE id::text LIKE :'up_p' || '%') AS by_text \gset
EXECUTE up_prefix(:'up_p') \gset
SELECT :count = :by_text AND :by_text > 0 AS prefix_right;
EXECUTE up_range(public.xid_time_range('[2026-01-01 00:00:00.1+00, 2026-01-01 00:00:00.2+00)'));
EXPLAIN (COSTS OFF) EXECUTE up_prefix('5cp');
RESET enable_bitmapscan;
DEALLOCATE up_prefix;
DEALLOCATE up_range;
RESET plan_cache_mode;
DROP TABLE up_old;
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

-- an updated install equals a fresh one: every member object of the
-- extension, with everything that defines it, described by name (OIDs
-- differ between installs); array types come with their element types
-- (17 and later also record them as members)
CREATE FUNCTION pg_temp.xid_members() RETURNS SETOF text
LANGUAGE sql AS $$
WITH m AS (
	SELECT d.classid, d.objid
	FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'xid'
	  AND NOT EXISTS (SELECT FROM pg_type t
	                  WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
	                    AND t.typcategory = 'A')
)
SELECT 'function ' || pg_get_functiondef(p.oid) ||
       ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
WHERE p.prokind <> 'a'
UNION ALL
SELECT format('aggregate %s sfunc %s combine %s sortop %s parallel %s comment %s',
              a.aggfnoid::regprocedure, a.aggtransfn::regprocedure,
              a.aggcombinefn::regprocedure, a.aggsortop::regoperator,
              p.proparallel, obj_description(p.oid, 'pg_proc'))
FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
JOIN pg_aggregate a ON a.aggfnoid = p.oid
UNION ALL
SELECT format('operator %s code %s commutator %s negator %s restrict %s join %s hashes %s merges %s comment %s',
              o.oid::regoperator, o.oprcode::regprocedure,
              nullif(o.oprcom, 0)::regoperator, nullif(o.oprnegate, 0)::regoperator,
              o.oprrest::regproc, o.oprjoin::regproc, o.oprcanhash, o.oprcanmerge,
              obj_description(o.oid, 'pg_operator'))
FROM m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
UNION ALL
SELECT format('type %s len %s byval %s align %s storage %s type %s in %s out %s recv %s send %s analyze %s comment %s',
              t.oid::regtype, t.typlen, t.typbyval, t.typalign, t.typstorage, t.typtype,
              t.typinput::regproc, t.typoutput::regproc, t.typreceive::regproc,
              t.typsend::regproc, t.typanalyze::regproc, obj_description(t.oid, 'pg_type'))
FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
UNION ALL
SELECT format('range %s subtype %s opclass %s diff %s canonical %s',
              r.rngtypid::regtype, r.rngsubtype::regtype, c.opcname,
              r.rngsubdiff::regproc, r.rngcanonical::regproc)
FROM m JOIN pg_range r ON m.classid = 'pg_type'::regclass AND r.rngtypid = m.objid
JOIN pg_opclass c ON c.oid = r.rngsubopc
UNION ALL
SELECT format('cast %s as %s with %s context %s method %s',
              c.castsource::regtype, c.casttarget::regtype,
              c.castfunc::regprocedure, c.castcontext, c.castmethod)
FROM m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('opclass %s for %s using %s default %s family %s',
              c.opcname, c.opcintype::regtype, am.amname, c.opcdefault, f.opfname)
FROM m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
UNION ALL
SELECT format('family %s using %s operator %s %s', f.opfname, am.amname,
              o.amopstrategy, o.amopopr::regoperator)
FROM m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amop o ON o.amopfamily = f.oid
UNION ALL
SELECT format('family %s using %s function %s %s', f.opfname, am.amname,
              p.amprocnum, p.amproc::regprocedure)
FROM m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
JOIN pg_am am ON am.oid = f.opfmethod JOIN pg_amproc p ON p.amprocfamily = f.oid
UNION ALL
SELECT format('event trigger %s on %s tags %s function %s enabled %s comment %s',
              t.evtname, t.evtevent, t.evttags, t.evtfoid::regprocedure, t.evtenabled,
              obj_description(t.oid, 'pg_event_trigger'))
FROM m JOIN pg_event_trigger t ON m.classid = 'pg_event_trigger'::regclass AND t.oid = m.objid
UNION ALL
SELECT format('privileges of %s: %s', pg_describe_object(m.classid, m.objid, 0),
              coalesce(c.relacl::text, 'default'))
FROM m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('privileges of %s: %s', p.oid::regprocedure, p.proacl)
FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
WHERE p.proacl IS NOT NULL
UNION ALL
SELECT format('privileges of type %s: %s', t.oid::regtype, t.typacl)
FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
WHERE t.typacl IS NOT NULL
UNION ALL
SELECT 'other ' || pg_describe_object(m.classid, m.objid, 0)
FROM m
WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass,
                        'pg_cast'::regclass, 'pg_opclass'::regclass, 'pg_opfamily'::regclass,
                        'pg_event_trigger'::regclass)
-- and, for every member whatever its kind: its comment, and the privileges
-- the extension's scripts gave it (pg_init_privs), which pg_dump leaves to
-- CREATE EXTENSION
UNION ALL
SELECT format('object %s comment %s', pg_describe_object(m.classid, m.objid, 0),
              coalesce(d.description, '-'))
FROM m LEFT JOIN pg_description d
  ON d.classoid = m.classid AND d.objoid = m.objid AND d.objsubid = 0
UNION ALL
SELECT format('initial privileges of %s: %s',
              pg_describe_object(i.classoid, i.objoid, i.objsubid), i.initprivs)
FROM m JOIN pg_init_privs i ON i.classoid = m.classid AND i.objoid = m.objid
UNION ALL
SELECT format('configuration dump of %s where %s', c.cfg::regclass, quote_literal(c.cond))
FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS c(cfg, cond)
WHERE e.extname = 'xid'
$$;
-- each released version (1.0, 1.1, 1.2), installed as it was and updated
-- to the default version, equals a fresh install of the default version,
-- which runs its own full script (xid--1.3.sql)
DROP EXTENSION xid;
CREATE EXTENSION xid VERSION '1.0';
CREATE TEMP TABLE v1_0 AS SELECT pg_temp.xid_members() AS d;
ALTER EXTENSION xid UPDATE TO '1.1';
ALTER EXTENSION xid UPDATE TO '1.2';
ALTER EXTENSION xid UPDATE TO '1.3';
SELECT extversion FROM pg_extension WHERE extname = 'xid';
CREATE TEMP TABLE upgraded AS SELECT pg_temp.xid_members() AS d;
DROP EXTENSION xid;
CREATE EXTENSION xid VERSION '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'xid';
CREATE TEMP TABLE v1_1 AS SELECT pg_temp.xid_members() AS d;
ALTER EXTENSION xid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'xid';
CREATE TEMP TABLE upgraded_1_1 AS SELECT pg_temp.xid_members() AS d;
DROP EXTENSION xid;
CREATE EXTENSION xid VERSION '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'xid';
CREATE TEMP TABLE v1_2 AS SELECT pg_temp.xid_members() AS d;
ALTER EXTENSION xid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'xid';
CREATE TEMP TABLE upgraded_1_2 AS SELECT pg_temp.xid_members() AS d;
DROP EXTENSION xid;
CREATE EXTENSION xid;
SELECT extversion FROM pg_extension WHERE extname = 'xid';
-- made by the full script, not by 1.0 and its updates: there the type's
-- analyze function (1.1) comes before the ranges (1.0), as the type needs it
SELECT 'public.xid_typanalyze(internal)'::regprocedure::oid <
       'public.xid_subdiff(public.xid, public.xid)'::regprocedure::oid AS from_full_script;
CREATE TEMP TABLE fresh AS SELECT pg_temp.xid_members() AS d;
SELECT (SELECT count(*) FROM fresh) AS members,
       (SELECT count(*) FROM fresh WHERE d LIKE 'function %') AS functions,
       (SELECT count(*) FROM fresh WHERE d LIKE 'operator %') AS operators,
       (SELECT count(*) FROM fresh WHERE d LIKE 'object % comment %' AND d NOT LIKE '% comment -') AS comments,
       (SELECT count(*) FROM fresh WHERE d LIKE '%privileges of %') AS privileges;
-- differences either way: none
(SELECT 'only after the update from 1.0' AS side, d FROM upgraded EXCEPT ALL SELECT 'only after the update from 1.0', d FROM fresh)
UNION ALL
(SELECT 'only in a fresh install', d FROM fresh EXCEPT ALL SELECT 'only in a fresh install', d FROM upgraded)
UNION ALL
(SELECT 'only after the update from 1.1', d FROM upgraded_1_1 EXCEPT ALL SELECT 'only after the update from 1.1', d FROM fresh)
UNION ALL
(SELECT 'only in a fresh install, not 1.1', d FROM fresh EXCEPT ALL SELECT 'only in a fresh install, not 1.1', d FROM upgraded_1_1)
UNION ALL
(SELECT 'only after the update from 1.2', d FROM upgraded_1_2 EXCEPT ALL SELECT 'only after the update from 1.2', d FROM fresh)
UNION ALL
(SELECT 'only in a fresh install, not 1.2', d FROM fresh EXCEPT ALL SELECT 'only in a fresh install, not 1.2', d FROM upgraded_1_2);
-- the comparison sees labels: what 1.1 changed in the 1.0 objects (each
-- function's comment is in its line; the comments of the other objects,
-- in their "object" lines, are left out here)
SELECT CASE WHEN d LIKE 'function %' THEN 'function ' || substring(d FROM 'FUNCTION ([^\n]*)')
            ELSE left(d, 60) END AS changed_in_1_1
FROM (SELECT d FROM v1_1 EXCEPT SELECT d FROM v1_0) s
WHERE d NOT LIKE 'object %' ORDER BY 1;
-- and what 1.2 added or changed
SELECT CASE WHEN d LIKE 'function %' THEN 'function ' || substring(d FROM 'CREATE OR REPLACE (?:FUNCTION|PROCEDURE) ([^\n]*)')
            ELSE left(d, 60) END AS changed_in_1_2
FROM (SELECT d FROM v1_2 EXCEPT SELECT d FROM v1_1) s
WHERE d NOT LIKE 'object %' ORDER BY 1;
-- nothing of 1.1 is lost in 1.2
SELECT count(*) AS dropped_in_1_2 FROM (SELECT d FROM v1_1 EXCEPT SELECT d FROM v1_2) s;
-- 1.3 changed a comment that \df+ shows, and nothing else: xid_new()'s
-- pointed to a README section that moved to a docs/ page
SELECT CASE WHEN d LIKE 'function %' THEN 'function ' || substring(d FROM 'CREATE OR REPLACE (?:FUNCTION|PROCEDURE) ([^\n]*)')
            ELSE left(d, 60) END AS changed_in_1_3
FROM (SELECT d FROM fresh EXCEPT SELECT d FROM v1_2) s
WHERE d NOT LIKE 'object %' ORDER BY 1;
SELECT count(*) AS replaced_in_1_3 FROM (SELECT d FROM v1_2 EXCEPT SELECT d FROM fresh) s
WHERE d NOT LIKE 'object %';
SELECT obj_description('public.xid_new()'::regprocedure, 'pg_proc') AS xid_new_comment;

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
-- analyzed here, so autovacuum cannot change the plan under a slow pass
ANALYZE ids.t;
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
