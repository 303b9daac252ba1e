-- bench/scale-report.sql: the report of bench/scale-local.sh from
-- scale.results.  :tsv gets the medians (the plots' input), :raw every
-- figure.  Each figure: the median of the rounds and, where there were
-- several, their range; each ratio: xid's median over the rival's.
\pset footer off
\pset format aligned
\pset border 1
CREATE TEMP TABLE metric (metric text PRIMARY KEY, ord int, label text);
INSERT INTO metric VALUES
	('insert_rows_s_1', 1, 'inserts, rows/s, 1 session (10 a commit)'),
	('insert_rows_s_2', 2, 'inserts, rows/s, 2 sessions'),
	('wal_bytes_row', 3, 'WAL bytes per row inserted'),
	('fpi_row', 4, 'full-page images per row inserted'),
	('pk_pages_row', 5, 'primary key pages touched per row'),
	('heap_mb', 6, 'heap, MB (after the fill)'),
	('pk_mb', 7, 'primary key, MB (after the fill, pages in use)'),
	('pk_density', 8, 'primary key, leaf density, %'),
	('time_index_mb', 9, 'index on created_at (rivals), MB'),
	('point_cold_ms', 10, 'point lookup, cold, ms'),
	('point_warm_s', 11, 'point lookups/s, warm'),
	('prefix_cold_ms', 12, 'prefix lookup (~40 bits), cold, ms'),
	('prefix_warm_s', 13, 'prefix lookups/s, warm'),
	('window_cold_ms', 14, 'one hour of history (36,000 rows), cold, ms'),
	('window_warm_ms', 15, 'one hour of history, warm, ms'),
	('window_planning_ms', 16, 'one hour of history, planning, ms'),
	('window_estimate', 17, 'one hour of history, estimate / true count'),
	('recent_rows', 18, 'rows inserted since the last ANALYZE'),
	('recent_estimate', 19, 'those rows, estimate / true count'),
	('xid_new_ns_id', 20, 'xid_new(), ns per id (1M ids in a query)'),
	('clock_ns_id', 21, 'clock_timestamp(), ns per call, the same way'),
	('mark_writes_s', 22, 'durable mark writes per second of inserts');

CREATE TEMP TABLE med AS
SELECT step, kind, metric, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS m,
	min(value) AS lo, max(value) AS hi, count(*) AS n
FROM scale.results GROUP BY 1, 2, 3;

CREATE FUNCTION pg_temp.num(v float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN abs(v) >= 100 THEN to_char(round(v), 'FM999,999,999,999')
		WHEN abs(v) >= 1 THEN to_char(v, 'FM990.0')
		ELSE to_char(v, 'FM0.000') END
$$;


-- fig(median, low, high): the median, with the range of the rounds
CREATE FUNCTION pg_temp.fig(m float8, lo float8, hi float8, n bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN m IS NULL THEN '' ELSE
		pg_temp.num(m) || CASE WHEN n > 1 AND lo <> hi THEN ' (' || pg_temp.num(lo) || '-' || pg_temp.num(hi) || ')' ELSE '' END END
$$;
SELECT format('%s rows', to_char(s.step, 'FM999,999,999')) AS step, l.label AS figure,
	pg_temp.fig(x.m, x.lo, x.hi, x.n) AS "xid",
	pg_temp.fig(b.m, b.lo, b.hi, b.n) AS "bigserial",
	pg_temp.fig(u4.m, u4.lo, u4.hi, u4.n) AS "uuid v4",
	pg_temp.fig(u7.m, u7.lo, u7.hi, u7.n) AS "uuidv7()",
	to_char(x.m / nullif(b.m, 0), 'FM990.00') AS "xid/bigserial",
	to_char(x.m / nullif(u4.m, 0), 'FM990.00') AS "xid/uuid v4",
	to_char(x.m / nullif(u7.m, 0), 'FM990.00') AS "xid/uuidv7()"
FROM (SELECT DISTINCT step FROM med) s
CROSS JOIN metric l
LEFT JOIN med x ON x.step = s.step AND x.metric = l.metric AND x.kind = 'xid'
LEFT JOIN med b ON b.step = s.step AND b.metric = l.metric AND b.kind = 'bigserial'
LEFT JOIN med u4 ON u4.step = s.step AND u4.metric = l.metric AND u4.kind = 'uuid4'
LEFT JOIN med u7 ON u7.step = s.step AND u7.metric = l.metric AND u7.kind = 'uuid7'
WHERE coalesce(x.m, b.m, u4.m, u7.m) IS NOT NULL
ORDER BY s.step, l.ord;

-- the medians, for the plots: step, metric, then a column per key type in
-- scale.kinds' order (xid, bigserial, uuid4, uuid7), "NaN" where none
CREATE TEMP TABLE plot AS
SELECT s.step, l.metric,
	coalesce((max(m.m) FILTER (WHERE m.kind = 'xid'))::text, 'NaN') AS xid,
	coalesce((max(m.m) FILTER (WHERE m.kind = 'bigserial'))::text, 'NaN') AS bigserial,
	coalesce((max(m.m) FILTER (WHERE m.kind = 'uuid4'))::text, 'NaN') AS uuid4,
	coalesce((max(m.m) FILTER (WHERE m.kind = 'uuid7'))::text, 'NaN') AS uuid7
FROM (SELECT DISTINCT step FROM med) s CROSS JOIN metric l
LEFT JOIN med m ON m.step = s.step AND m.metric = l.metric
GROUP BY s.step, l.metric, l.ord
ORDER BY l.ord, s.step;
\pset format unaligned
\pset fieldsep '\t'
\pset tuples_only off
\o :tsv
SELECT * FROM plot;
\o :raw
SELECT * FROM scale.results ORDER BY step, kind, metric, round;
\o
\pset tuples_only on

-- every figure of every table at every step is there: what the
-- tables of the run should have and do not
SELECT CASE WHEN count(*) = 0 THEN 'ok   bench/scale: every figure of every table at every step measured'
	ELSE 'FAIL bench/scale: missing ' || string_agg(format('%s at %s rows on %s', w.metric, w.step, w.kind), ', ') END AS "check"
FROM (SELECT s.step, k.kind, l.metric
	FROM (SELECT DISTINCT step FROM med) s CROSS JOIN scale.kinds k CROSS JOIN metric l
	WHERE NOT (l.metric IN ('xid_new_ns_id', 'clock_ns_id', 'mark_writes_s') AND k.kind <> 'xid')
		AND NOT (l.metric = 'time_index_mb' AND k.kind = 'xid')
		AND NOT (l.metric LIKE 'prefix%' AND k.kind = 'bigserial')) w
LEFT JOIN med m USING (step, kind, metric)
WHERE m.m IS NULL OR m.m = 'NaN'::float8 OR (m.m < 0);
