-- test/hostile/setup.sql: the places and argument shapes of the generated
-- hostile-argument suite (test/t/150_hostile.pl).  Run by the database owner,
-- a role without superuser, who installs the trusted extension itself.
--
-- Every place holds the same rows: ids spread over the whole time field and
-- the edges of the payload (0, 2^63 - 1, 2^63, 2^64 - 1, a pair that differs
-- only in case), texts that are prefixes, patterns, escapes and junk,
-- times on both sides of the epoch and of the last instant, infinities,
-- ranges of each kind, and NULLs.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

CREATE EXTENSION xid SCHEMA public;
CREATE SCHEMA hostile;
GRANT USAGE ON SCHEMA hostile TO hostile_user;
ALTER DEFAULT PRIVILEGES IN SCHEMA hostile GRANT SELECT ON TABLES TO hostile_user;

-- a nondeterministic collation where ICU is there (PostgreSQL 18 matches
-- LIKE under it, earlier versions raise an error: both must agree with the
-- row-by-row oracle)
DO $$
BEGIN
	CREATE COLLATION hostile.ci (provider = icu, locale = 'und-u-ks-level2',
								 deterministic = false);
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
	RAISE NOTICE 'no ICU: no nondeterministic collation';
END
$$;

CREATE DOMAIN hostile.dxid AS public.xid CHECK (VALUE IS DISTINCT FROM '11111111113');

CREATE TABLE hostile.rows (
	k int PRIMARY KEY,
	id public.xid,
	v public.xid,
	t text,
	ts timestamptz,
	r public.xidrange,
	n int
);

INSERT INTO hostile.rows (k, id)
SELECT k, ((((k::bigint * k * 7919 + k * 104729) * 1000003) % 2199023255552) << 22
		   | (k::bigint * 2654435761) % 4194304)::public.xid
FROM generate_series(1, 60) AS k;
INSERT INTO hostile.rows (k, id) VALUES
	(61, '11111111111'),
	(62, '\xffffffffffffffff'::bytea::public.xid),
	(63, '9223372036854775807'::bigint::public.xid),
	(64, '\x8000000000000000'::bytea::public.xid),
	(65, '5cnEkaefSdu'),
	(66, '5CNEkaefSdu'),
	(67, '5cn11111111'),
	(68, '5cnzzzzzzzz'),
	(69, '11111111112'),
	(70, NULL),
	(71, public.xid_new(now() - interval '1 minute')),
	(72, public.xid_new(now() - interval '2 days')),
	(73, public.xid_new('2011-11-11 11:11:11.111+00')),
	(74, public.xid_new('2151-03-25 00:00:00+00')),
	(75, 'E1111111111'),
	(76, 'Dzzzzzzzzzz');

UPDATE hostile.rows SET
	v = CASE WHEN k % 5 = 0 THEN NULL
		ELSE (SELECT o.id FROM hostile.rows o WHERE o.k = (rows.k * 7) % 76 + 1) END,
	t = CASE k % 12
		WHEN 0 THEN left(id::text, k % 11)
		WHEN 1 THEN left(id::text, 3) || '%'
		WHEN 2 THEN upper(left(id::text, 3)) || '%'
		WHEN 3 THEN '%'
		WHEN 4 THEN ''
		WHEN 5 THEN NULL
		WHEN 6 THEN left(id::text, 4) || '\'
		WHEN 7 THEN '_' || substr(id::text, 2, 3) || '%'
		WHEN 8 THEN id::text
		WHEN 9 THEN repeat('z', 20)
		WHEN 10 THEN 'ẞ%'
		ELSE left(id::text, 2) || '%' || right(id::text, 2) END,
	ts = CASE k % 9
		WHEN 0 THEN public.xid_time(id)
		WHEN 1 THEN public.xid_time(id) + interval '0.5 ms'
		WHEN 2 THEN '-infinity'
		WHEN 3 THEN 'infinity'
		WHEN 4 THEN NULL
		WHEN 5 THEN '2011-11-11 11:11:11.111+00'
		WHEN 6 THEN '2000-01-01+00'
		WHEN 7 THEN public.xid_time(id) - interval '1 day'
		ELSE '2200-01-01+00' END,
	n = k % 25 - 3;
UPDATE hostile.rows SET r = CASE k % 7
		WHEN 0 THEN public.xidrange(id, id, '[]')
		WHEN 1 THEN 'empty'
		WHEN 2 THEN NULL
		WHEN 3 THEN public.xid_prefix_range(left(id::text, 2))
		WHEN 4 THEN '(,)'
		WHEN 5 THEN public.xidrange(NULL, id)
		ELSE public.xidrange(v, NULL) END;

-- the outer side of joins, and the sub-selects
CREATE TABLE hostile.aux AS SELECT * FROM hostile.rows WHERE k IN (1, 8, 65, 70);

-- a plain table: the primary key, and indexes on every column the
-- operators take (so that a column on the "wrong" side has an index too)
CREATE TABLE hostile.p_plain (LIKE hostile.rows);
ALTER TABLE hostile.p_plain ADD PRIMARY KEY (id);
CREATE INDEX ON hostile.p_plain (v);
CREATE INDEX ON hostile.p_plain USING hash (v);
CREATE INDEX ON hostile.p_plain (t);
CREATE INDEX ON hostile.p_plain (t text_pattern_ops);
CREATE INDEX ON hostile.p_plain (ts);
CREATE INDEX ON hostile.p_plain USING gist (r);
INSERT INTO hostile.p_plain SELECT * FROM hostile.rows WHERE id IS NOT NULL;

-- range- and hash-partitioned
CREATE TABLE hostile.p_range (LIKE hostile.rows, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE hostile.p_range_1 PARTITION OF hostile.p_range FOR VALUES FROM (MINVALUE) TO ('51111111111');
CREATE TABLE hostile.p_range_2 PARTITION OF hostile.p_range FOR VALUES FROM ('51111111111') TO ('E1111111111');
CREATE TABLE hostile.p_range_3 PARTITION OF hostile.p_range FOR VALUES FROM ('E1111111111') TO (MAXVALUE);
CREATE INDEX ON hostile.p_range (t);
INSERT INTO hostile.p_range SELECT * FROM hostile.rows WHERE id IS NOT NULL;

CREATE TABLE hostile.p_hash (LIKE hostile.rows) PARTITION BY HASH (id);
CREATE TABLE hostile.p_hash_0 PARTITION OF hostile.p_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hostile.p_hash_1 PARTITION OF hostile.p_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hostile.p_hash_2 PARTITION OF hostile.p_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE INDEX ON hostile.p_hash (id);
INSERT INTO hostile.p_hash SELECT * FROM hostile.rows;

-- an inheritance parent whose children have CHECK constraints on the id
CREATE TABLE hostile.p_inh (LIKE hostile.rows);
CREATE TABLE hostile.p_inh_lo (CHECK (id < 'E1111111111')) INHERITS (hostile.p_inh);
CREATE TABLE hostile.p_inh_hi (CHECK (id >= 'E1111111111')) INHERITS (hostile.p_inh);
CREATE INDEX ON hostile.p_inh_lo (id);
CREATE INDEX ON hostile.p_inh_hi (id);
INSERT INTO hostile.p_inh_lo SELECT * FROM hostile.rows WHERE id IS NULL OR id < 'E1111111111';
INSERT INTO hostile.p_inh_hi SELECT * FROM hostile.rows WHERE id >= 'E1111111111';

-- a view, and one with a security barrier
CREATE VIEW hostile.p_view AS SELECT * FROM hostile.p_plain WHERE n IS DISTINCT FROM 42;
CREATE VIEW hostile.p_view_sb WITH (security_barrier) AS
	SELECT * FROM hostile.p_plain WHERE n IS DISTINCT FROM 42;

-- columns of a domain over xid
CREATE TABLE hostile.p_dom (k int, id hostile.dxid UNIQUE, v hostile.dxid, t text,
							ts timestamptz, r public.xidrange, n int);
CREATE INDEX ON hostile.p_dom (v);
INSERT INTO hostile.p_dom SELECT * FROM hostile.rows;

-- CHECK constraints in the extension's operators (constraint_exclusion = on
-- in the runner refutes clauses with them)
CREATE TABLE hostile.p_check (LIKE hostile.rows,
	CHECK (id ^@ ''),
	CHECK (id >= '-infinity'::timestamptz),
	CHECK (v IS NULL OR NOT (v LIKE 'zzz%')),
	CHECK (id <@ '(,)'::public.xidrange));
CREATE INDEX ON hostile.p_check (id);
INSERT INTO hostile.p_check SELECT * FROM hostile.rows;

-- partial indexes whose predicates are the extension's clauses
CREATE TABLE hostile.p_partial (LIKE hostile.rows);
CREATE INDEX ON hostile.p_partial (id) WHERE id ^@ '5';
CREATE INDEX ON hostile.p_partial (id) WHERE id LIKE 'E%';
CREATE INDEX ON hostile.p_partial (v) WHERE v >= '2030-01-01+00'::timestamptz;
CREATE INDEX ON hostile.p_partial (id) WHERE id <@ '[5cn11111111,5cnzzzzzzzz]'::public.xidrange;
INSERT INTO hostile.p_partial SELECT * FROM hostile.rows;

-- row security: the querying role sees what a policy in the extension's
-- operators lets it
CREATE TABLE hostile.p_rls (LIKE hostile.rows);
CREATE INDEX ON hostile.p_rls (id);
INSERT INTO hostile.p_rls SELECT * FROM hostile.rows;
ALTER TABLE hostile.p_rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY p_rls_read ON hostile.p_rls FOR SELECT TO hostile_user
	USING (id ^@ '5' OR id >= '2030-01-01+00'::timestamptz OR t LIKE '%\%' OR id IS NULL);

-- BRIN only: minmax, minmax-multi and bloom
CREATE TABLE hostile.p_brin (LIKE hostile.rows);
CREATE INDEX ON hostile.p_brin USING brin (id);
CREATE INDEX ON hostile.p_brin USING brin (id public.xid_minmax_multi_ops);
CREATE INDEX ON hostile.p_brin USING brin (v public.xid_bloom_ops);
INSERT INTO hostile.p_brin SELECT * FROM hostile.rows;

DO $$
DECLARE
	rel regclass;
BEGIN
	FOR rel IN SELECT c.oid FROM pg_class c
			   WHERE c.relnamespace = 'hostile'::regnamespace AND c.relkind IN ('r', 'p')
	LOOP
		EXECUTE format('ANALYZE %s', rel);
	END LOOP;
END
$$;

-- The places: what a query's FROM names, and which of them the functions
-- (as opposed to the clauses) are also called in.
CREATE TABLE hostile.places (name text PRIMARY KEY, for_functions boolean);
INSERT INTO hostile.places VALUES
	('p_plain', true), ('p_range', false), ('p_hash', false), ('p_inh', false),
	('p_view', false), ('p_view_sb', false), ('p_dom', true), ('p_check', false),
	('p_partial', false), ('p_rls', false), ('p_brin', false);

-- The shapes an argument of each type takes.  kind: col (an indexed
-- column), col2 (a column without a btree), const, null, expr (an
-- expression over columns), param (a parameter of a generic plan, whose
-- value is pval), subq (an init-plan sub-select), outer (a column of the
-- other side of a join clause), coll (a collation), any/all (an array on
-- the right of OP ANY/ALL).
CREATE TABLE hostile.shapes (typ regtype, kind text, expr text, pval text);
INSERT INTO hostile.shapes VALUES
	('public.xid', 'col', 'a.id', NULL),
	('public.xid', 'col2', 'a.v', NULL),
	('public.xid', 'const', '''11111111111''::public.xid', NULL),
	('public.xid', 'const', '''jpXCZedGfVQ''::public.xid', NULL),
	('public.xid', 'const', '''5cnEkaefSdu''::public.xid', NULL),
	('public.xid', 'const', '''9223372036854775807''::bigint::public.xid', NULL),
	('public.xid', 'const', '''\x8000000000000000''::bytea::public.xid', NULL),
	('public.xid', 'const', '''not an id''::public.xid', NULL),
	('public.xid', 'null', 'NULL::public.xid', NULL),
	('public.xid', 'expr', 'CASE WHEN a.n % 2 = 0 THEN a.id ELSE a.v END', NULL),
	('public.xid', 'expr', '(a.v::text)::public.xid', NULL),
	('public.xid', 'param', '$1', '''5cnEkaefSdu'''),
	('public.xid', 'param', '$1', 'NULL'),
	('public.xid', 'subq', '(SELECT min(b.id) FROM hostile.aux b)', NULL),
	('public.xid', 'outer', 'b.id', NULL),
	('public.xid', 'any', 'ARRAY[a.v, ''5cnEkaefSdu'', NULL]::public.xid[]', NULL),
	('public.xid', 'any', 'ARRAY[''11111111111'', ''jpXCZedGfVQ'']::public.xid[]', NULL),

	('text', 'col', 'a.t', NULL),
	('text', 'const', '''''', NULL),
	('text', 'const', '''5''', NULL),
	('text', 'const', '''5cn''', NULL),
	('text', 'const', '''5cn%''', NULL),
	('text', 'const', '''5CN%''', NULL),
	('text', 'const', '''%''', NULL),
	('text', 'const', '''_''', NULL),
	('text', 'const', '''5cnEkaefSdu''', NULL),
	('text', 'const', '''jpXCZedGfVQ''', NULL),
	('text', 'const', '''jpXCZedGfVR''', NULL),
	('text', 'const', '''5cn\%''', NULL),
	('text', 'const', '''5cn\''', NULL),
	('text', 'const', '''5c_E%Sdu''', NULL),
	('text', 'const', '''%Sdu''', NULL),
	('text', 'const', '''0OIl%''', NULL),
	('text', 'const', 'repeat(''1'', 12)', NULL),
	('text', 'const', 'repeat(''x'', 300) || ''%''', NULL),
	('text', 'const', '''ẞ%''', NULL),
	('text', 'null', 'NULL::text', NULL),
	('text', 'expr', 'a.t || ''%''', NULL),
	('text', 'expr', 'left(a.id::text, a.n)', NULL),
	('text', 'expr', 'a.t::name', NULL),
	('text', 'const', '''5cn%''::name', NULL),
	('text', 'const', '''5cn''::varchar', NULL),
	('text', 'const', '''5cn%''::varchar(10)', NULL),
	('text', 'const', '''5cn''::char(3)', NULL),
	('text', 'const', '''5cn  ''::char(5)', NULL),
	('text', 'coll', '(''5cn%'' COLLATE "C")', NULL),
	('text', 'coll', '(a.t COLLATE "C")', NULL),
	('text', 'coll', '(''5cn%'' COLLATE hostile.ci)', NULL),
	('text', 'coll', '(''5cnEkaefSdu'' COLLATE hostile.ci)', NULL),
	('text', 'coll', '(a.t COLLATE hostile.ci)', NULL),
	('text', 'param', '$1', '''5cn%'''),
	('text', 'param', '$1', 'NULL'),
	('text', 'subq', '(SELECT max(b.t) FROM hostile.aux b)', NULL),
	('text', 'outer', 'b.t', NULL),
	('text', 'any', 'ARRAY[''5cn%'', ''%'', a.t]', NULL),

	('timestamptz', 'col', 'a.ts', NULL),
	('timestamptz', 'const', '''-infinity''::timestamptz', NULL),
	('timestamptz', 'const', '''infinity''::timestamptz', NULL),
	('timestamptz', 'const', '''2011-11-11 11:11:11.111+00''::timestamptz', NULL),
	('timestamptz', 'const', '''2011-11-11 11:11:11.110999+00''::timestamptz', NULL),
	('timestamptz', 'const', '''2026-01-01 00:00:00.000500+00''::timestamptz', NULL),
	('timestamptz', 'const', '''2151-03-26+00''::timestamptz', NULL),
	('timestamptz', 'const', '''4713-01-01 00:00:00+00 BC''::timestamptz', NULL),
	('timestamptz', 'const', '''294276-12-31 23:59:59+00''::timestamptz', NULL),
	('timestamptz', 'expr', 'now() - interval ''1 day''', NULL),
	('timestamptz', 'null', 'NULL::timestamptz', NULL),
	('timestamptz', 'expr', 'a.ts + interval ''1 ms''', NULL),
	('timestamptz', 'expr', 'public.xid_time(a.v)', NULL),
	('timestamptz', 'param', '$1', '''2026-01-01+00'''),
	('timestamptz', 'param', '$1', '''-infinity'''),
	('timestamptz', 'param', '$1', 'NULL'),
	('timestamptz', 'subq', '(SELECT max(b.ts) FROM hostile.aux b)', NULL),
	('timestamptz', 'outer', 'b.ts', NULL),
	('timestamptz', 'any', 'ARRAY[a.ts, now(), NULL]', NULL),

	('public.xidrange', 'col', 'a.r', NULL),
	('public.xidrange', 'const', '''empty''::public.xidrange', NULL),
	('public.xidrange', 'const', '''(,)''::public.xidrange', NULL),
	('public.xidrange', 'const', '''[5cn11111111,5cnzzzzzzzz]''::public.xidrange', NULL),
	('public.xidrange', 'const', '''(11111111111,jpXCZedGfVQ)''::public.xidrange', NULL),
	('public.xidrange', 'const', '''[jpXCZedGfVQ,]''::public.xidrange', NULL),
	('public.xidrange', 'expr', 'public.xid_prefix_range(''5c'')', NULL),
	('public.xidrange', 'null', 'NULL::public.xidrange', NULL),
	('public.xidrange', 'expr', 'public.xidrange(a.v, NULL)', NULL),
	('public.xidrange', 'expr', 'public.xid_prefix_range(a.t)', NULL),
	('public.xidrange', 'param', '$1', '''[5cn11111111,5cnzzzzzzzz]'''),
	('public.xidrange', 'param', '$1', 'NULL'),
	('public.xidrange', 'subq', '(SELECT b.r FROM hostile.aux b ORDER BY b.k LIMIT 1)', NULL),
	('public.xidrange', 'outer', 'b.r', NULL),

	('bigint', 'const', '0', NULL),
	('bigint', 'const', '-1', NULL),
	('bigint', 'const', '9223372036854775807', NULL),
	('bigint', 'null', 'NULL::bigint', NULL),
	('bigint', 'expr', 'a.n::bigint * 1000000007', NULL),
	('bigint', 'param', '$1', '42'),

	('integer', 'const', '0', NULL),
	('integer', 'const', '1', NULL),
	('integer', 'const', '12', NULL),
	('integer', 'const', '13', NULL),
	('integer', 'const', '-1', NULL),
	('integer', 'const', '2147483647', NULL),
	('integer', 'null', 'NULL::integer', NULL),
	('integer', 'col', 'a.n', NULL),
	('integer', 'param', '$1', '3'),

	('bytea', 'const', '''\x0000000000000000''::bytea', NULL),
	('bytea', 'const', '''\xffffffffffffffff''::bytea', NULL),
	('bytea', 'const', '''\x00''::bytea', NULL),
	('bytea', 'const', '''''::bytea', NULL),
	('bytea', 'null', 'NULL::bytea', NULL),
	('bytea', 'expr', 'a.id::bytea', NULL),
	('bytea', 'param', '$1', '''\x0000000000000001'''),

	('boolean', 'const', 'true', NULL),
	('boolean', 'const', 'false', NULL),
	('boolean', 'null', 'NULL::boolean', NULL),
	('boolean', 'expr', 'a.n > 0', NULL),
	('boolean', 'param', '$1', 'true'),

	('tstzrange', 'const', '''empty''::tstzrange', NULL),
	('tstzrange', 'const', '''(,)''::tstzrange', NULL),
	('tstzrange', 'const', '''[-infinity,infinity]''::tstzrange', NULL),
	('tstzrange', 'const', 'tstzrange(''2011-11-11+00'', ''2151-04-01+00'')', NULL),
	('tstzrange', 'null', 'NULL::tstzrange', NULL),
	('tstzrange', 'expr', 'tstzrange(a.ts, NULL)', NULL),
	('tstzrange', 'param', '$1', '''[2020-01-01+00,)'''),

	('public.xidrange[]', 'const', '''{}''::public.xidrange[]', NULL),
	('public.xidrange[]', 'const', 'ARRAY[public.xid_prefix_range(''5c''), ''empty'']', NULL),
	('public.xidrange[]', 'null', 'NULL::public.xidrange[]', NULL),
	('public.xidrange[]', 'expr', 'ARRAY[a.r]', NULL),
	('public.xidrange[]', 'param', '$1', '''{empty}'''),

	('cstring', 'const', '''5cnEkaefSdu''::cstring', NULL),
	('cstring', 'const', '''''::cstring', NULL),
	('cstring', 'const', '''jpXCZedGfVR''::cstring', NULL),
	('cstring', 'expr', 'a.t::cstring', NULL),
	('cstring', 'null', 'NULL::cstring', NULL);

-- without ICU there is no hostile.ci: drop its shapes
DELETE FROM hostile.shapes
WHERE expr LIKE '%hostile.ci%'
  AND NOT EXISTS (SELECT FROM pg_collation c JOIN pg_namespace s ON s.oid = c.collnamespace
				  WHERE s.nspname = 'hostile' AND c.collname = 'ci');
