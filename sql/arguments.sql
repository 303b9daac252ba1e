--
-- Clauses written the way nobody expects, as a role without privileges:
-- the xid a constant and the column an expression on the other side, text
-- arguments of type name, varchar and char, and LIKE under a collation
-- whose matches the bounds of a pattern cannot describe.  Each of these
-- once crashed the server in an estimator or returned other rows through
-- an index than row by row.  Every query here must run and return what
-- the same clause gives without the planner's help (on the text of the
-- ids, or through a sequential scan).
--
SET max_parallel_workers_per_gather = 0;
CREATE ROLE regress_xid_args;
-- no autovacuum: its visibility map, sooner or later in a slow run,
-- would turn the bitmap scans below into index-only scans
CREATE TABLE args (id public.xid PRIMARY KEY, t text, ts timestamptz)
	WITH (autovacuum_enabled = off);
INSERT INTO args
SELECT decode(substr(md5(i::text), 1, 16), 'hex')::public.xid,
	   CASE i % 4 WHEN 0 THEN '5c' WHEN 1 THEN left(md5(i::text), 2) WHEN 2 THEN '' END,
	   '2011-11-11 11:11:11.111+00'::timestamptz + i * interval '17 days'
FROM generate_series(1, 3000) AS i;
INSERT INTO args VALUES ('5cnEkaefSdu', '5cn%', '2030-01-01+00'),
	('5CNEkaefSdu', '5CN', 'infinity'), ('11111111111', '1', '-infinity'),
	('jpXCZedGfVQ', NULL, NULL);
ANALYZE args;
GRANT SELECT ON args TO regress_xid_args;
SET ROLE regress_xid_args;

-- the xid a constant, the column an expression of type text or name: the
-- estimators took the column's side as the xid and read the constant as
-- text
SELECT count(*) = (SELECT count(*) FROM pg_class WHERE starts_with('11111111111', relname::text)) AS same
FROM pg_class WHERE '11111111111'::public.xid ^@ relname::text;
SELECT count(*) = (SELECT count(*) FROM pg_class WHERE starts_with('1111', relname::text)) AS same
FROM pg_class WHERE '11111111111'::public.xid ^@ relname;
SELECT count(*) = (SELECT count(*) FROM pg_class WHERE '11111111111' LIKE relname::text) AS same
FROM pg_class WHERE '11111111111'::public.xid LIKE relname::text;
SELECT count(*) = (SELECT count(*) FROM pg_class WHERE 'jpXCZedGfVQ' NOT LIKE relname::text) AS same
FROM pg_class WHERE 'jpXCZedGfVQ'::public.xid NOT LIKE relname;
SELECT count(*) = (SELECT count(*) FROM args WHERE starts_with('5cnEkaefSdu', t)) AS same
FROM args WHERE '5cnEkaefSdu'::public.xid ^@ t;
SELECT count(*) = (SELECT count(*) FROM args WHERE '5cnEkaefSdu' LIKE t) AS same
FROM args WHERE '5cnEkaefSdu'::public.xid LIKE t;
SELECT count(*) = (SELECT count(*) FROM args WHERE '5cnEkaefSdu' NOT LIKE t) AS same
FROM args WHERE '5cnEkaefSdu'::public.xid NOT LIKE t;
SELECT count(*) = (SELECT count(*) FROM args WHERE id::text LIKE t) AS same
FROM args WHERE id LIKE t;

-- the same with the time comparisons, on payloads on both sides of 2^63
SELECT count(*) = (SELECT count(*) FROM args WHERE public.xid_time('jpXCZedGfVQ') >= ts) AS same
FROM args WHERE 'jpXCZedGfVQ'::public.xid >= ts;
SELECT count(*) = (SELECT count(*) FROM args WHERE ts < public.xid_time('\x8000000000000000'::bytea::public.xid)) AS same
FROM args WHERE ts < '\x8000000000000000'::bytea::public.xid;
SELECT count(*) = (SELECT count(*) FROM args WHERE public.xid_time('11111111111') > ts) AS same
FROM args WHERE '11111111111'::public.xid > ts;

-- text arguments of other string types
SELECT count(*) FROM args WHERE id ^@ '5cn'::name;
SELECT count(*) FROM args WHERE id ^@ '5cn'::varchar;
SELECT count(*) FROM args WHERE id ^@ '5cn  '::char(5);
SELECT count(*) FROM args WHERE id LIKE '5cn%'::name;
SELECT count(*) FROM args WHERE id LIKE ('5cn%' COLLATE "C");

-- LIKE under a nondeterministic collation: PostgreSQL 18 matches it
-- (case-insensitively here), earlier versions raise an error; either way
-- the index answers as a sequential scan does
RESET ROLE;
CREATE COLLATION args_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SET ROLE regress_xid_args;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM args WHERE id LIKE ('5cn%' COLLATE args_ci);
SELECT count(*) FROM args WHERE id LIKE ('5cn%' COLLATE args_ci);
SELECT count(*) FROM args WHERE id::text LIKE ('5cn%' COLLATE args_ci);
SELECT count(*) FROM args WHERE id NOT LIKE ('5cn%' COLLATE args_ci);
SELECT count(*) FROM args WHERE (SELECT min(id) FROM args) NOT LIKE ('5cn%' COLLATE args_ci);
SELECT count(*) FROM args WHERE (SELECT max(id) FROM args WHERE id < '5cz11111111') LIKE ('5cn%' COLLATE args_ci);
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM args WHERE id LIKE ('5cn%' COLLATE args_ci);
RESET enable_indexscan;
RESET enable_bitmapscan;
-- ^@ ignores collations, as starts_with() on text does not
SELECT count(*) FROM args WHERE id ^@ ('5cn' COLLATE args_ci);

-- planning checks no privilege of the querying role: a view over the
-- extension's operators, read in a new session (nothing cached) by a role
-- without USAGE on the extension's schema; a stable expression on the
-- right needs the bound functions as index conditions
RESET ROLE;
CREATE SCHEMA args_s;
GRANT USAGE ON SCHEMA args_s TO regress_xid_args;
CREATE VIEW args_s.args_view AS
SELECT id FROM args
WHERE id OPERATOR(public.>=) (now() - interval '1 day')
   OR id OPERATOR(public.^@) (SELECT '5cn'::text)
   OR id OPERATOR(public.~~) '5cn%';
CREATE TABLE args_s.args_expected AS SELECT count(*) AS n FROM args_s.args_view;
GRANT SELECT ON args_s.args_view, args_s.args_expected TO regress_xid_args;
REVOKE USAGE ON SCHEMA public FROM PUBLIC;
\c
SET ROLE regress_xid_args;
SELECT count(*) = (SELECT n FROM args_s.args_expected) AS same FROM args_s.args_view;
RESET ROLE;
GRANT USAGE ON SCHEMA public TO PUBLIC;

DROP SCHEMA args_s CASCADE;
DROP TABLE args;
DROP COLLATION args_ci;
DROP ROLE regress_xid_args;
