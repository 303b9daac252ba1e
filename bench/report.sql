-- bench/report.sql: medians, ratios and goals of one benchmark run
\pset footer off
\pset null '-'
CREATE TEMP TABLE med AS
	SELECT name, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, count(*) AS runs
	FROM bench.results GROUP BY name;
CREATE TEMP TABLE sizes AS
	SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE n.nspname = 'bench' AND c.relkind IN ('r', 'i');

\echo 'Median time of each case (ms; per query for the single-prefix index case, us per value for the portable cases)'
SELECT c.grp AS "group", m.name AS "case", round(m.ms::numeric, 3) AS median_ms, m.runs
FROM med m JOIN bench.cases c USING (name) ORDER BY c.grp, m.ms;

\echo 'Sizes after loading the same rows (MB)'
SELECT name AS relation, round(bytes / 1048576.0, 1) AS mb FROM sizes
WHERE name LIKE 'ins\_%' OR name LIKE 'ev\_%' ORDER BY name;

-- each comparison: xid's measure divided by the rival's, and the goal
CREATE TEMP TABLE ratios (label text, ratio float8, goal text, met bool);
CREATE FUNCTION pg_temp.t(n text) RETURNS float8 LANGUAGE sql AS $$ SELECT ms FROM med WHERE name = n $$;
CREATE FUNCTION pg_temp.s(n text) RETURNS float8 LANGUAGE sql AS $$ SELECT bytes::float8 FROM sizes WHERE name = n $$;
INSERT INTO ratios SELECT label, r,
	CASE WHEN lim IS NULL THEN '-' WHEN lim < 1 AND lim > 0 AND op = '<=' AND lim <= 0.2 THEN format('at least %sx faster', round((1 / lim)::numeric)) ELSE format('%s %s', op, lim) END,
	CASE op WHEN '<=' THEN r <= lim WHEN '<' THEN r < lim ELSE NULL END
FROM (VALUES
	('generate: xid_new() / clock_timestamp()', pg_temp.t('gen xid_new()') / pg_temp.t('gen clock_timestamp()'), '<=', 1.1),
	('generate: xid_new() / random()', pg_temp.t('gen xid_new()') / pg_temp.t('gen random()'), NULL, NULL),
	('generate: xid_new() / gen_random_uuid()', pg_temp.t('gen xid_new()') / pg_temp.t('gen gen_random_uuid()'), '<=', 0.2),
	('generate: xid_new() / nextval()', pg_temp.t('gen xid_new()') / pg_temp.t('gen nextval()'), NULL, NULL),
	('generate: xid_new() / uuidv7()', pg_temp.t('gen xid_new()') / pg_temp.t('gen uuidv7()'), NULL, NULL),
	('parse: xid / bigint', pg_temp.t('parse xid') / pg_temp.t('parse bigint'), '<=', 1.0),
	('parse: xid / uuid', pg_temp.t('parse xid') / pg_temp.t('parse uuid'), '<', 1.0),
	('format: xid / bigint', pg_temp.t('format xid') / pg_temp.t('format bigint'), '<=', 1.0),
	('format: xid / uuid', pg_temp.t('format xid') / pg_temp.t('format uuid'), '<', 1.0),
	('sort: xid / bigint', pg_temp.t('sort xid') / pg_temp.t('sort bigint'), '<=', 1.05),
	('sort: xid / uuid', pg_temp.t('sort xid') / pg_temp.t('sort uuid'), NULL, NULL),
	('insert: xid / bigserial', pg_temp.t('insert xid') / pg_temp.t('insert bigserial'), '<=', 1.1),
	('insert: xid / uuid v4', pg_temp.t('insert xid') / pg_temp.t('insert uuid v4'), NULL, NULL),
	('insert: xid / uuidv7', pg_temp.t('insert xid') / pg_temp.t('insert uuidv7'), NULL, NULL),
	('pk index size: xid / bigserial', pg_temp.s('ins_xid_pkey') / pg_temp.s('ins_bigserial_pkey'), '<=', 1.0),
	('pk index size: xid / uuid v4', pg_temp.s('ins_xid_pkey') / pg_temp.s('ins_uuid4_pkey'), '<=', 0.62),
	('pk index size: xid / uuidv7', pg_temp.s('ins_xid_pkey') / pg_temp.s('ins_uuid7_pkey'), NULL, NULL),
	('table size: xid / bigserial', pg_temp.s('ins_xid') / pg_temp.s('ins_bigserial'), NULL, NULL),
	('table size: xid / uuid v4', pg_temp.s('ins_xid') / pg_temp.s('ins_uuid4'), NULL, NULL),
	('point lookups: xid / bigint', pg_temp.t('point xid') / pg_temp.t('point bigint'), NULL, NULL),
	('prefix lookups: xid <@ prefix / bigint BETWEEN', pg_temp.t('prefix xid <@ xid_prefix_range') / pg_temp.t('prefix bigint BETWEEN'), '<=', 1.1),
	('one prefix: xid <@ prefix / text LIKE scan', pg_temp.t('one prefix xid <@ xid_prefix_range') / pg_temp.t('one prefix id::text LIKE'), '<=', 0.001),
	('time window: xid_time_range / created_at index', pg_temp.t('window xid_time_range') / pg_temp.t('window created_at'), NULL, NULL),
	('time window: id >= t AND id < t / created_at index', pg_temp.t('window xid >= timestamptz') / pg_temp.t('window created_at'), '<=', 1.0),
	('time window, rows read: id >= t AND id < t / created_at index', pg_temp.t('window rows xid >= timestamptz') / pg_temp.t('window rows created_at'), NULL, NULL),
	('one prefix: id LIKE p% / id ^@ p', pg_temp.t('one prefix xid LIKE') / pg_temp.t('one prefix xid ^@'), '<=', 1.05),
	('partitions: id >= now() - 1 day / created_at', pg_temp.t('partitions xid >= now() - 1 day') / pg_temp.t('partitions created_at >= now() - 1 day'), '<=', 1.1),
	('partitions: prepared window id / created_at', pg_temp.t('partitions prepared xid window') / pg_temp.t('partitions prepared created_at window'), '<=', 1.1),
	('DDL: with the core-xid warning trigger / without', pg_temp.t('ddl with the warning trigger') / pg_temp.t('ddl without the trigger'), '<=', 1.05)
) AS v(label, r, op, lim)
WHERE r IS NOT NULL;

\echo 'Ratios (xid / rival; below 1 means xid is faster or smaller)'
SELECT label AS comparison, round(ratio::numeric, 4) AS ratio, goal,
       CASE met WHEN true THEN 'met' WHEN false THEN 'MISSED' ELSE '-' END AS result
FROM ratios;
-- the portable implementation: microseconds per value, and the ratio to
-- the C functions (whose cases run over :rows values)
\echo 'Portable implementation (portable/): microseconds per value, and the ratio to the C function'
SELECT f AS function, round(pg_temp.t('portable ' || f)::numeric, 2) AS us_per_value, format('<= %s', lim) AS goal,
       CASE WHEN pg_temp.t('portable ' || f) <= lim THEN 'met' ELSE 'MISSED' END AS result,
       round((pg_temp.t('portable ' || f) / (pg_temp.t(c) * 1000 / :rows))::numeric, 1) AS times_the_c_function
FROM (VALUES ('xid_encode()', 20, 'format xid'), ('xid_decode()', 20, 'parse xid'), ('xid_new()', 10, 'gen xid_new()')) AS v(f, lim, c);

\echo 'Extra index a created_at column needs for time windows (MB)'
SELECT round((pg_temp.s('ev_bigint_created_at') / 1048576.0)::numeric, 1) AS created_at_index_mb,
       round((pg_temp.s('ev_bigint_created_at') / pg_temp.s('ev_xid_pkey'))::numeric, 2) AS relative_to_the_primary_key;

\o :tsv
COPY ratios (label, ratio) TO STDOUT;
\o
