--
-- Estimates of the rows added since the last ANALYZE (docs/searching.md):
-- exact estimates on fixed data, a property test over shapes of growth
-- beside core's estimate on a timestamptz column, and generic plans.
--
-- The estimate of a query's scan, as EXPLAIN prints it
CREATE FUNCTION pg_temp.est(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN (j->0->'Plan'->>'Plan Rows')::bigint;
END $$;
-- the id of second n of a fixed clock, low bits zero: ids and pages are
-- the same on every run
CREATE FUNCTION pg_temp.sid(n bigint) RETURNS public.xid LANGUAGE sql IMMUTABLE
AS $$ SELECT ((1700000000000 + n * 1000) * 4194304)::public.xid $$;

-- 10,000 rows, one a second, analyzed whole (the sample is the table);
-- then 1,000 more after a gap of 10,000 seconds, not analyzed
CREATE TABLE g (id public.xid PRIMARY KEY, n int) WITH (autovacuum_enabled = off);
INSERT INTO g SELECT pg_temp.sid(n), n FROM generate_series(1, 10000) n;
ANALYZE g;
SELECT pg_temp.est('SELECT * FROM g WHERE id >= ' || quote_literal(pg_temp.sid(20001)) || '::public.xid') AS new_before_inserts;
INSERT INTO g SELECT pg_temp.sid(n), n FROM generate_series(20001, 21000) n;
SELECT label, pg_temp.est('SELECT * FROM g WHERE ' || cond) AS estimate,
       (SELECT count(*) FROM g WHERE n BETWEEN lo AND hi) AS actual
FROM (VALUES
  ('all new', 'id >= ' || quote_literal(pg_temp.sid(20001)) || '::public.xid', 20001, 99999),
  ('newer half', 'id > ' || quote_literal(pg_temp.sid(20500)) || '::public.xid', 20501, 99999),
  ('new, commuted', quote_literal(pg_temp.sid(20500)) || '::public.xid < id', 20501, 99999),
  ('old only', 'id < ' || quote_literal(pg_temp.sid(5001)) || '::public.xid', 0, 5000),
  ('old and new', 'id >= ' || quote_literal(pg_temp.sid(9001)) || '::public.xid', 9001, 99999),
  ('new window', 'id BETWEEN ' || quote_literal(pg_temp.sid(20101)) || '::public.xid AND ' || quote_literal(pg_temp.sid(20300)) || '::public.xid', 20101, 20300),
  ('time', 'id >= ' || quote_literal(public.xid_time(pg_temp.sid(20751))) || '::timestamptz', 20751, 99999),
  ('time window', 'id >= ' || quote_literal(public.xid_time(pg_temp.sid(20001))) || '::timestamptz AND id < ' || quote_literal(public.xid_time(pg_temp.sid(20101))) || '::timestamptz', 20001, 20100),
  ('range', 'id <@ public.xidrange(' || quote_literal(pg_temp.sid(20001)) || ', ' || quote_literal(pg_temp.sid(20250)) || ', ''[]'')', 20001, 20250),
  ('in the gap', 'id BETWEEN ' || quote_literal(pg_temp.sid(12001)) || '::public.xid AND ' || quote_literal(pg_temp.sid(18000)) || '::public.xid', 12001, 18000)
) v(label, cond, lo, hi);
-- a prefix of the newest ids: the index conditions are costed from the
-- same estimate, so the index scan's rows are the clause's
SELECT pg_temp.est('SELECT * FROM g WHERE id ^@ ' || quote_literal(left(pg_temp.sid(20600)::text, 7))) AS prefix_estimate,
       (SELECT count(*) FROM g WHERE id ^@ left(pg_temp.sid(20600)::text, 7)) AS prefix_actual;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT pg_temp.est('SELECT * FROM g WHERE id ^@ ' || quote_literal(left(pg_temp.sid(20600)::text, 7))) AS prefix_index_scan_estimate;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- retention: the oldest half deleted; until a VACUUM their pages still
-- count in the table's size, after it the rows that came since do
DELETE FROM g WHERE n <= 5000;
SELECT pg_temp.est('SELECT * FROM g WHERE id >= ' || quote_literal(pg_temp.sid(20001)) || '::public.xid') AS new_after_delete,
       pg_temp.est('SELECT * FROM g WHERE id < ' || quote_literal(pg_temp.sid(7001)) || '::public.xid') AS old_after_delete;
VACUUM g;
SELECT pg_temp.est('SELECT * FROM g WHERE id >= ' || quote_literal(pg_temp.sid(20001)) || '::public.xid') AS new_after_vacuum,
       pg_temp.est('SELECT * FROM g WHERE id < ' || quote_literal(pg_temp.sid(7001)) || '::public.xid') AS old_after_vacuum;

-- nothing to crash on: NULL, no statistics, no index, an expression, an
-- empty table
SELECT pg_temp.est('SELECT * FROM g WHERE id >= NULL::public.xid') AS null_bound;
CREATE TABLE g_noidx (id public.xid, n int) WITH (autovacuum_enabled = off);
INSERT INTO g_noidx SELECT pg_temp.sid(n), n FROM generate_series(1, 1000) n;
SELECT pg_temp.est('SELECT * FROM g_noidx WHERE id >= ' || quote_literal(pg_temp.sid(901)) || '::public.xid') AS no_stats_no_index;
CREATE INDEX ON g_noidx (id);
-- the index's range places the rows; their number is the planner's: 15 and
-- 17 count the table at CREATE INDEX (1,000), 18 and later do not and guess
-- 2,040 rows for a table never vacuumed (expected/growth_1.out)
SELECT pg_temp.est('SELECT * FROM g_noidx WHERE id >= ' || quote_literal(pg_temp.sid(901)) || '::public.xid') AS no_stats_index;
SELECT pg_temp.est('SELECT * FROM g_noidx WHERE public.xid_smaller(id, id) >= ' || quote_literal(pg_temp.sid(901)) || '::public.xid') > 0 AS expression;
CREATE TABLE g_empty (id public.xid PRIMARY KEY);
ANALYZE g_empty;
SELECT pg_temp.est('SELECT * FROM g_empty WHERE id >= ' || quote_literal(pg_temp.sid(1)) || '::public.xid') AS empty;
DROP TABLE g_noidx, g_empty;

-- generic plans: a prefix lookup costs what its custom plans cost, so
-- after five custom plans the sixth execution keeps a generic one ($1)
PREPARE by_prefix(text) AS SELECT * FROM g WHERE id ^@ $1;
SELECT count(*) FROM (SELECT 1 FROM g WHERE id ^@ left(pg_temp.sid(20100)::text, 7)) s;
EXECUTE by_prefix(left(pg_temp.sid(20100)::text, 7));
EXECUTE by_prefix(left(pg_temp.sid(20200)::text, 7));
EXECUTE by_prefix(left(pg_temp.sid(20300)::text, 7));
EXECUTE by_prefix(left(pg_temp.sid(20400)::text, 7));
EXECUTE by_prefix(left(pg_temp.sid(20500)::text, 7));
EXECUTE by_prefix(left(pg_temp.sid(20600)::text, 7));
EXPLAIN (COSTS OFF) EXECUTE by_prefix(left(pg_temp.sid(20700)::text, 7));
DEALLOCATE by_prefix;
DROP TABLE g;

-- Property test: shapes of growth since ANALYZE, each estimate against the
-- truth, beside core's estimate of the same rows on a timestamptz column
-- and on a UUIDv7 key (its 48-bit millisecond first, as uuidv7() makes it).
-- Ids, uuids and times are made from the same instants (xid_new(t)); the
-- shapes are small enough for ANALYZE to read every row.
-- one table per shape, so that each has its own statistics and size
CREATE FUNCTION pg_temp.make(s text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (id public.xid PRIMARY KEY, t timestamptz NOT NULL, u uuid NOT NULL) WITH (autovacuum_enabled = off)', s);
  EXECUTE format('CREATE INDEX ON %I (t)', s);
  EXECUTE format('CREATE INDEX ON %I (u)', s);
END $$;
-- a UUIDv7 of the instant t, its other bits from n (the lowest of the
-- instant's: n = 0)
CREATE FUNCTION pg_temp.u7(t timestamptz, n bigint) RETURNS uuid LANGUAGE sql AS $$
  SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || lpad(to_hex(n % 4096), 3, '0')
          || '-8000-' || lpad(to_hex(n), 12, '0'))::uuid
  FROM (SELECT lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') AS h) x $$;
CREATE FUNCTION pg_temp.load(s text, first timestamptz, step interval, k int)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO %I SELECT public.xid_new(x), x, pg_temp.u7(x, i + 1) FROM (SELECT $1 + i * $2 AS x, i FROM generate_series(0, $3 - 1) i) s', s)
  USING first, step, k;
END $$;
SELECT pg_temp.make(s) FROM unnest(ARRAY['steady', 'burst', 'gap', 'growing', 'retention', 'retention_vacuumed']) s;
SELECT pg_temp.load('steady', '2026-01-01'::timestamptz - interval '20000 s', '1 s', 20000);
SELECT pg_temp.load('burst', '2026-01-01'::timestamptz - interval '20000 s', '1 s', 20000);
SELECT pg_temp.load('gap', '2026-01-01'::timestamptz - interval '3 days' - interval '20000 s', '1 s', 20000);
SELECT pg_temp.load('growing', '2026-01-01'::timestamptz - interval '10000 s', '1 s', 10000);
SELECT pg_temp.load('retention', '2026-01-01'::timestamptz - interval '20000 s', '1 s', 20000);
SELECT pg_temp.load('retention_vacuumed', '2026-01-01'::timestamptz - interval '20000 s', '1 s', 20000);
ANALYZE steady, burst, gap, growing, retention, retention_vacuumed;
-- since ANALYZE (under autovacuum's 10% but for the table that grows)
SELECT pg_temp.load('steady', '2026-01-01', '1 s', 1800);
SELECT pg_temp.load('burst', '2026-01-01 00:30', '1 ms', 1800);
SELECT pg_temp.load('gap', '2026-01-01', '1 s', 1800);
SELECT pg_temp.load('growing', '2026-01-01', '1 s', 10000);
DELETE FROM retention WHERE t < '2026-01-01'::timestamptz - interval '18000 s';
SELECT pg_temp.load('retention', '2026-01-01', '1 s', 1800);
-- a VACUUM between the deletes and the inserts frees the space the new
-- rows then fill, so the table does not grow: the rows inserted since the
-- VACUUM, which the cumulative statistics count, place them (the counts
-- flushed now, as a session does at most a second after it inserts)
SELECT pg_stat_force_next_flush();
DELETE FROM retention_vacuumed WHERE t < '2026-01-01'::timestamptz - interval '18000 s';
VACUUM retention_vacuumed;
SELECT pg_temp.load('retention_vacuumed', '2026-01-01', '1 s', 1800);
SELECT pg_stat_force_next_flush();
-- a partitioned table whose newest partition was never analyzed
CREATE TABLE parted (id public.xid PRIMARY KEY, t timestamptz NOT NULL, u uuid NOT NULL) PARTITION BY RANGE (id);
CREATE INDEX ON parted (t);
CREATE INDEX ON parted (u);
DO $$
DECLARE b text := public.xid_prefix_range(left(public.xid_new('2026-01-01'::timestamptz)::text, 5));
BEGIN
  -- the first id of a prefix before the new rows' start
  b := lower(b::public.xidrange)::text;
  EXECUTE format('CREATE TABLE parted_old PARTITION OF parted FOR VALUES FROM (MINVALUE) TO (%L) WITH (autovacuum_enabled = off)', b);
  EXECUTE format('CREATE TABLE parted_new PARTITION OF parted FOR VALUES FROM (%L) TO (MAXVALUE) WITH (autovacuum_enabled = off)', b);
END $$;
SELECT pg_temp.load('parted', '2026-01-01'::timestamptz - interval '20000 s', '1 s', 20000);
ANALYZE parted_old;
SELECT pg_temp.load('parted', '2026-01-01', '1 s', 1800);
CREATE FUNCTION pg_temp.within(est bigint, truth bigint) RETURNS text LANGUAGE sql AS $$
  SELECT CASE WHEN truth = 0 THEN CASE WHEN est <= 2 THEN 'yes' ELSE 'no' END
              WHEN est::float8 / truth BETWEEN 0.5 AND 2 THEN 'yes' ELSE 'no' END $$;
CREATE FUNCTION pg_temp.val(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE q INTO r;
  RETURN r;
END $$;
-- each window reaches back from the shape's newest row
SELECT s AS shape, w AS win,
       pg_temp.within(x, truth) AS xid_within_2x,
       pg_temp.within(c, truth) AS core_within_2x,
       pg_temp.within(v, truth) AS uuidv7_within_2x,
       abs(ln(greatest(x, 1)::float8 / greatest(truth, 1))) <=
       least(abs(ln(greatest(c, 1)::float8 / greatest(truth, 1))),
             abs(ln(greatest(v, 1)::float8 / greatest(truth, 1)))) AS xid_no_worse
FROM (
  SELECT s, w,
         pg_temp.est(format('SELECT * FROM %I WHERE id >= %L::timestamptz', s, m - w::interval)) AS x,
         pg_temp.est(format('SELECT * FROM %I WHERE t >= %L::timestamptz', s, m - w::interval)) AS c,
         pg_temp.est(format('SELECT * FROM %I WHERE u >= %L::uuid', s, pg_temp.u7(m - w::interval, 0))) AS v,
         pg_temp.val(format('SELECT count(*) FROM %I WHERE t >= %L::timestamptz', s, m - w::interval))::bigint AS truth
  FROM unnest(ARRAY['steady', 'burst', 'gap', 'growing', 'retention', 'retention_vacuumed', 'parted']) s,
       unnest(ARRAY['1 second', '10 minutes', '30 minutes', '1 hour']) w,
       LATERAL (SELECT pg_temp.val(format('SELECT max(t) FROM %I', s))::timestamptz AS m) mx
) r
ORDER BY s, w::interval;
-- the uuids' windows hold the same rows as the times'
SELECT bool_and(pg_temp.val(format('SELECT count(*) FROM %I WHERE u >= %L::uuid', s, pg_temp.u7(m - w::interval, 0))) =
                pg_temp.val(format('SELECT count(*) FROM %I WHERE t >= %L::timestamptz', s, m - w::interval))) AS uuid_windows_match
FROM unnest(ARRAY['steady', 'burst', 'gap', 'growing', 'retention', 'retention_vacuumed', 'parted']) s,
     unnest(ARRAY['1 second', '10 minutes', '30 minutes', '1 hour']) w,
     LATERAL (SELECT pg_temp.val(format('SELECT max(t) FROM %I', s))::timestamptz AS m) mx;
DROP TABLE steady, burst, gap, growing, retention, retention_vacuumed, parted;
