--
-- id LIKE pattern and id NOT LIKE pattern: exactly id::text LIKE pattern,
-- with a fixed prefix as an index range
--
SET max_parallel_workers_per_gather = 0;
-- 100,000 ids over the whole unsigned range, and some that share prefixes
CREATE TABLE lk (n int, id public.xid PRIMARY KEY);
INSERT INTO lk
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 100000) AS i;
INSERT INTO lk VALUES (0, '11111111111'), (-1, 'jpXCZedGfVQ'), (-2, '5cnEkaefSdu'),
	(-3, '5cnEkaefSdv'), (-4, '5cnEk1111Su');
VACUUM ANALYZE lk;

-- patterns: prefixes of every length, _ and % anywhere, escapes, the empty
-- pattern, longer than 11, symbols outside Base58, and wildcards only
CREATE TEMP TABLE lk_patterns (p text);
INSERT INTO lk_patterns
SELECT DISTINCT left(id::text, 1 + n % 11) || '%' FROM lk WHERE n BETWEEN 1 AND 60;
INSERT INTO lk_patterns
SELECT DISTINCT left(id::text, 1 + n % 10) FROM lk WHERE n BETWEEN 61 AND 70;
INSERT INTO lk_patterns
SELECT DISTINCT overlay(id::text placing '_' from 1 + n % 11) FROM lk WHERE n BETWEEN 71 AND 90;
INSERT INTO lk_patterns
SELECT DISTINCT left(id::text, 2 + n % 4) || '%' || substr(id::text, 9) FROM lk WHERE n BETWEEN 91 AND 110;
INSERT INTO lk_patterns
SELECT DISTINCT '%' || substr(id::text, 8, 3) || '%' FROM lk WHERE n BETWEEN 111 AND 120;
INSERT INTO lk_patterns VALUES
	(''), ('%'), ('%%'), ('_'), ('___________'), ('__________'), ('____________'),
	('%___________'), ('___________%'), ('____________%'), ('5cnEkaefSdu'), ('5cnEkaefSdu%'),
	('5cnEkaefSd_'), ('5cnEk%Su'), ('5cnEk_%'), ('5cnEkaefSdu_'), ('5cnEkaefSdu1'),
	('5cnEkaefSdu1%'), ('jpXC%'), ('jpXD%'), ('z%'), ('k%'), ('11111111111'),
	('5c\nE%'), ('\5cnE%'), ('5cn\_%'), ('5cn\%%'), ('5c0%'), ('5cl%'), ('5cnE%0'),
	('5cnE%é'), ('é%'), ('5%5%5%'), ('%Su'), ('_cnE%'), (' 5cnE%'), ('5cnE% ');
SELECT count(*) AS patterns FROM lk_patterns;

-- count(*) of a query through the primary key (-1 unless the plan uses
-- it), or through a sequential scan
CREATE FUNCTION pg_temp.count_by(how text, query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
	plan text := '';
	line text;
BEGIN
	PERFORM set_config(g, CASE WHEN (how = 'seqscan') = (g = 'enable_seqscan') THEN 'on' ELSE 'off' END, true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']) AS g;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		plan := plan || line || ' ';
	END LOOP;
	EXECUTE query INTO r;
	PERFORM set_config(g, 'on', true)
	FROM unnest(ARRAY['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan', 'enable_bitmapscan']) AS g;
	IF how = 'seqscan' THEN
		RETURN CASE WHEN plan LIKE '%Seq Scan%' THEN r ELSE -1 END;
	END IF;
	RETURN CASE WHEN plan LIKE '%Index Cond%' AND plan LIKE '%lk_pkey%' THEN r ELSE -1 END;
END
$$;
CREATE TEMP TABLE lk_counts AS
SELECT p,
       pg_temp.count_by('seqscan', format('SELECT count(*) FROM lk WHERE id::text LIKE %L', p)) AS truth,
       pg_temp.count_by('seqscan', format('SELECT count(*) FROM lk WHERE id LIKE %L', p)) AS by_filter,
       pg_temp.count_by('index', format('SELECT count(*) FROM lk WHERE id LIKE %L', p)) AS by_index,
       pg_temp.count_by('seqscan', format('SELECT count(*) FROM lk WHERE id NOT LIKE %L', p)) AS not_like,
       pg_temp.count_by('seqscan', format('SELECT count(*) FROM lk WHERE id::text NOT LIKE %L', p)) AS not_truth
FROM lk_patterns;
-- a pattern with a fixed prefix (or none that an id can match) is an index
-- range; one that starts with a wildcard is a filter
SELECT p ~ '^[%_]' AS leading_wildcard, count(*) AS patterns,
       count(*) FILTER (WHERE by_filter = truth) AS filter_agrees,
       count(*) FILTER (WHERE by_index = truth) AS index_agrees,
       count(*) FILTER (WHERE not_like = not_truth) AS not_like_agrees,
       count(*) FILTER (WHERE truth > 0) AS patterns_matching,
       sum(truth) AS matches
FROM lk_counts GROUP BY 1 ORDER BY 1;
SELECT * FROM lk_counts
WHERE by_filter <> truth OR not_like <> not_truth
   OR (by_index <> truth AND p !~ '^[%_]');

-- a parameter (generic plan): bounds at run time, with a recheck
SET plan_cache_mode = force_generic_plan;
PREPARE lk_like(text) AS SELECT count(*) FROM lk WHERE id LIKE $1;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) EXECUTE lk_like('5cnE%');
RESET enable_bitmapscan;
RESET enable_indexonlyscan;
CREATE TEMP TABLE lk_param (p text, n bigint);
CREATE FUNCTION pg_temp.run_param(p text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	r bigint;
BEGIN
	EXECUTE 'EXECUTE lk_like(' || quote_literal(p) || ')' INTO r;
	RETURN r;
END
$$;
SELECT count(*) AS patterns, count(*) FILTER (WHERE pg_temp.run_param(p) = truth) AS param_agrees
FROM lk_counts;
DEALLOCATE lk_like;
RESET plan_cache_mode;

-- plans: a fixed prefix then % is an exact index range; other patterns
-- with a prefix are the range and a recheck; a leading wildcard is a filter
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5cnE%';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5cnEkaefSdu';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5cnE_______';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5cnE%Su';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5c\nE%';
-- a pattern no id can match: an index condition that matches nothing
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5c0%';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '5cnE';
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id LIKE '%Su';
EXPLAIN (COSTS OFF) SELECT n FROM lk WHERE id NOT LIKE '5cnE%';
RESET enable_bitmapscan;

-- LIKE with ESCAPE, as for text
SELECT count(*) AS escape_x FROM lk WHERE id LIKE '5cnEx_%' ESCAPE 'x';
SELECT count(*) AS escape_x_text FROM lk WHERE id::text LIKE '5cnEx_%' ESCAPE 'x';
-- a pattern that ends in the escape character is the same error as for text
SELECT count(*) FROM lk WHERE id LIKE '5cnE\';
SELECT count(*) FROM lk WHERE id::text LIKE '5cnE\';
-- the matcher raises it where it reaches the escape: never after a
-- character no id has, or a prefix longer than an id, as for text
SELECT (SELECT count(*) FROM lk WHERE id LIKE 'é8Cdc9Wxaws%\') AS matches,
       (SELECT count(*) FROM lk WHERE id::text LIKE 'é8Cdc9Wxaws%\') AS text_matches;
SELECT (SELECT count(*) FROM lk WHERE id LIKE 'jpXCZedGfVQQQ\') AS matches,
       (SELECT count(*) FROM lk WHERE id::text LIKE 'jpXCZedGfVQQQ\') AS text_matches;
-- the bound functions raise it too (core's message and SQLSTATE), for
-- every pattern that ends in a lone escape and for no other
CREATE FUNCTION pg_temp.bound_error(p text, upper boolean) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	IF upper THEN
		PERFORM public.xid_like_upper_bound(p);
	ELSE
		PERFORM public.xid_like_lower_bound(p);
	END IF;
	RETURN 'none';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ' ' || SQLERRM;
END
$$;
SELECT p, pg_temp.bound_error(p, false) AS lower_bound,
       pg_temp.bound_error(p, true) = pg_temp.bound_error(p, false) AS upper_same
FROM (VALUES ('é8Cdc9Wxaws%\'), ('8Cdc9Wxaws%\'), ('\'), ('5cnE\'), ('x\'),
             ('jpXCZedGfVQQQ\'), ('5c\\\'), ('5c\\'), ('%\%'), ('5c\n%'), ('%\%\')) AS v(p);
-- and so does a pattern given as a parameter in a plan whose index
-- conditions are the bound functions: they are computed once, for the
-- scan, before any row is matched
SET plan_cache_mode = force_generic_plan;
PREPARE lk_esc(text) AS SELECT count(*) FROM lk WHERE id LIKE $1;
EXECUTE lk_esc('é8Cdc9Wxaws%\');
DEALLOCATE lk_esc;
RESET plan_cache_mode;
-- no ILIKE: Base58 is case-sensitive
-- (terse: the wording of this error changed in 19)
\set VERBOSITY terse
SELECT count(*) FROM lk WHERE id ILIKE '5CNE%';
\set VERBOSITY default

-- row estimates: like ^@ for a prefix, within a factor of 3
\getenv abs_srcdir PG_ABS_SRCDIR
\set estimate_helper :abs_srcdir '/sql/include/estimate.sql'
\i :estimate_helper
SELECT p, e.estimated BETWEEN e.actual / 3 AND e.actual * 3 AS within_3x
FROM (VALUES ('2%'), ('5c%'), ('Hx%'), ('ab%')) AS t(p),
     LATERAL pg_temp.estimate(format('SELECT * FROM lk WHERE id LIKE %L', p)) AS e;
SELECT e.estimated BETWEEN e.actual / 1.5 AND e.actual * 1.5 AS not_like_within
FROM pg_temp.estimate('SELECT * FROM lk WHERE id NOT LIKE ''5c%''') AS e;

-- LIKE on a range-partitioned table prunes by the prefix
CREATE TABLE lk_parts (id public.xid NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE lk_parts_low PARTITION OF lk_parts FOR VALUES FROM ('11111111111') TO ('Ak111111111');
CREATE TABLE lk_parts_high PARTITION OF lk_parts FOR VALUES FROM ('Ak111111111') TO (MAXVALUE);
INSERT INTO lk_parts SELECT id FROM lk;
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk_parts WHERE id LIKE '5cnE%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM lk_parts WHERE id LIKE '5cnE%Su';
SELECT (SELECT count(*) FROM lk_parts WHERE id LIKE '5cnE%Su') AS by_parts,
       (SELECT count(*) FROM lk WHERE id::text LIKE '5cnE%Su') AS truth;

DROP TABLE lk, lk_parts;
