--
-- xidrange, xid_prefix_range(), xid_time_range() and the <@, @>, ^@ operators
--
-- prefix bounds for every length 1..11, the clamp and the empty cases
SELECT p, length(p) AS n, r, lower(r), upper(r), lower_inc(r), upper_inc(r)
FROM (VALUES ('1'), ('2'), ('5'), ('z'), ('j'), ('k'),
             ('5c'), ('5cn'), ('5cnE'), ('5cnEk'), ('5cnEka'), ('5cnEkae'),
             ('5cnEkaef'), ('5cnEkaefS'), ('5cnEkaefSd'), ('5cnEkaefSdu'),
             ('jpXC'), ('jpXCZedGfVQ'), ('jpXD'), ('jpXCZedGfVR'),
             ('11111111111'), ('1111111111')) AS t(p),
     LATERAL (SELECT public.xid_prefix_range(p) AS r) AS x;

-- the bounds are exactly docs/format.md's (section 6): value * 58^(11-N) and + 58^(11-N) - 1
SELECT lower(public.xid_prefix_range('2'))::bigint = 430804206899405824 AS lo_2,
       upper(public.xid_prefix_range('2'))::bigint = 2 * 430804206899405824 - 1 AS hi_2,
       upper(public.xid_prefix_range('jpXC')) = 'jpXCZedGfVQ' AS clamped;

-- bad prefixes
SELECT public.xid_prefix_range('');
SELECT public.xid_prefix_range('5cnEkaefSdu1');
SELECT public.xid_prefix_range('5c0');
SELECT public.xid_prefix_range('5c l');
\getenv abs_srcdir PG_ABS_SRCDIR
\set sqlstate_helper :abs_srcdir '/sql/include/sqlstate.sql'
\i :sqlstate_helper
SELECT p, pg_temp.sqlstate(format('SELECT public.xid_prefix_range(%L)', p)) AS sqlstate
FROM (VALUES (''), ('5cnEkaefSdu1'), ('5c0'), ('I'), ('5cnEkaefSdu')) AS t(p);

-- agreement with text prefix matching over payloads spanning the whole
-- unsigned range: <@ xid_prefix_range(p), ^@ p and id::text LIKE p || '%'
CREATE TABLE rg_rand (n int, id public.xid);
INSERT INTO rg_rand
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 5000) AS i;
INSERT INTO rg_rand VALUES (0, '11111111111'), (5001, 'jpXCZedGfVQ');
CREATE TEMP TABLE rg_prefixes AS
SELECT DISTINCT left(id::text, 1 + n % 11) AS p FROM rg_rand WHERE n <= 400
UNION SELECT 'jpXC' UNION SELECT 'z' UNION SELECT '1111';
SELECT count(*) AS prefixes,
       count(*) FILTER (WHERE by_range = by_like AND by_starts = by_like) AS agree,
       sum(by_like) AS matches
FROM (SELECT p,
             (SELECT count(*) FROM rg_rand WHERE id <@ public.xid_prefix_range(p)) AS by_range,
             (SELECT count(*) FROM rg_rand WHERE id ^@ p) AS by_starts,
             (SELECT count(*) FROM rg_rand WHERE id::text LIKE p || '%') AS by_like
      FROM rg_prefixes) AS s;

-- <@, @> and ^@ on edge cases: empty ranges, open and exclusive bounds, NULL
SELECT x, r, x <@ r AS contained, r @> x AS contains
FROM (VALUES ('5cnEkaefSdu'::public.xid, public.xid_prefix_range('5cnE')),
             ('5cnEkaefSdu', public.xid_prefix_range('5cnF')),
             ('5cnEkaefSdu', public.xid_prefix_range('z')),
             ('5cnEkaefSdu', public.xidrange('5cnEkaefSdu', '5cnEkaefSdv', '()')),
             ('5cnEkaefSdu', public.xidrange('5cnEkaefSdt', '5cnEkaefSdu', '(]')),
             ('5cnEkaefSdu', public.xidrange('5cnEkaefSdt', '5cnEkaefSdu', '[)')),
             ('5cnEkaefSdu', public.xidrange(NULL, '5cnEkaefSdu')),
             ('5cnEkaefSdu', public.xidrange('5cnEkaefSdu', NULL)),
             ('jpXCZedGfVQ', public.xidrange('jpXCZedGfVP', NULL, '()')),
             ('jpXCZedGfVQ', public.xidrange(NULL, NULL)),
             (NULL, public.xid_prefix_range('5')),
             ('5cnEkaefSdu', NULL)) AS t(x, r);
SELECT x, p, x ^@ p AS starts_with
FROM (VALUES ('5cnEkaefSdu'::public.xid, '5'), ('5cnEkaefSdu', '5cnEkaefSdu'),
             ('5cnEkaefSdu', '5cnF'), ('5cnEkaefSdu', ''),
             ('5cnEkaefSdu', '5cnEkaefSdu1'), ('5cnEkaefSdu', '5c0'),
             ('jpXCZedGfVQ', 'jpXC'), ('jpXCZedGfVQ', 'z'),
             (NULL, '5'), ('5cnEkaefSdu', NULL)) AS t(x, p);

-- multiranges come with the range type
SELECT '5cnEkaefSdu'::public.xid <@ public.xidmultirange(public.xid_prefix_range('2'),
                                                         public.xid_prefix_range('5c')) AS in_multi;

-- xid_time_range: bounds at millisecond granularity, clamped to the epoch
-- and the rollover
SET timezone = 'UTC';
SELECT r, public.xid_time_range(r) AS xr
FROM (VALUES ('[2011-11-11 11:11:11.111+00, 2011-11-11 11:11:11.112+00)'::tstzrange),
             ('[2011-11-11 11:11:11.111+00, 2011-11-11 11:11:11.112+00]'),
             ('(2011-11-11 11:11:11.111+00, 2011-11-11 11:11:11.112+00]'),
             ('[2011-11-11 11:11:11.1115+00, 2011-11-11 11:11:11.1125+00]'),
             ('(2011-11-11 11:11:11.1115+00, 2011-11-11 11:11:11.1125+00)'),
             ('[2000-01-01+00, 2011-11-11 11:11:11.111+00]'),
             ('[2000-01-01+00, 2011-11-11 11:11:11.111+00)'),
             ('(,)'), ('[2100-01-01+00,)'), ('[2200-01-01+00,)'), ('(,2000-01-01+00)'),
             ('[-infinity, infinity]'), ('empty')) AS t(r);

-- one id per minute for three days: a day is exactly 1440 ids
CREATE TABLE rg_minutes AS
SELECT t, public.xid_new(t) AS id
FROM generate_series('2026-01-01 00:00+00'::timestamptz, '2026-01-03 23:59+00', '1 minute') AS t;
SELECT r, count(*) FILTER (WHERE id <@ public.xid_time_range(r)) AS by_xid,
       count(*) FILTER (WHERE t <@ r) AS by_time
FROM rg_minutes,
     (VALUES ('[2026-01-02 00:00+00, 2026-01-03 00:00+00)'::tstzrange),
             ('(2026-01-02 00:00+00, 2026-01-03 00:00+00]'),
             ('[2026-01-02 00:00+00, 2026-01-03 00:00+00]'),
             ('(2026-01-02 00:00+00, 2026-01-03 00:00+00)'),
             ('[2026-01-02 00:00:00.0005+00, 2026-01-03 00:00+00)'),
             ('(,2026-01-02 00:00+00)'), ('[2026-01-03 12:00+00,)'),
             ('empty')) AS w(r)
GROUP BY r ORDER BY r;
-- xid_time_range and xid_time agree row by row over many windows
SELECT count(*) AS checks
FROM rg_minutes m,
     (SELECT tstzrange(a, a + d, b) AS r
      FROM generate_series('2026-01-01 00:00+00'::timestamptz, '2026-01-03 00:00+00', '7 hours 13 minutes 17.5 seconds') AS a,
           (VALUES (interval '1 minute'), (interval '1 hour 0.0005 seconds'), (interval '1 day')) AS dd(d),
           (VALUES ('[)'), ('(]'), ('[]'), ('()')) AS bb(b)) AS w
WHERE (m.id <@ public.xid_time_range(w.r)) IS DISTINCT FROM (public.xid_time(m.id) <@ w.r);
RESET timezone;

-- the subtype difference lets GiST index xidrange columns
SELECT public.xid_subdiff('11111111112', '11111111111') AS one,
       public.xid_subdiff('11111111111', '11111111112') AS minus_one,
       public.xid_subdiff('jpXCZedGfVQ', '11111111111') AS max;
CREATE TABLE rg_spans (r public.xidrange);
INSERT INTO rg_spans SELECT public.xid_prefix_range(left(id::text, 4)) FROM rg_rand;
CREATE INDEX ON rg_spans USING gist (r);
-- vacuumed here, so autovacuum cannot set the visibility map between two plans
VACUUM ANALYZE rg_spans;
SELECT id AS probe FROM rg_rand WHERE n = 77 \gset
SELECT count(*) AS by_seqscan FROM rg_spans WHERE r @> :'probe'::public.xid;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rg_spans WHERE r @> :'probe'::public.xid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rg_spans WHERE :'probe'::public.xid <@ r;
SELECT count(*) AS by_gist FROM rg_spans WHERE r @> :'probe'::public.xid;
SELECT count(*) AS by_gist FROM rg_spans WHERE :'probe'::public.xid <@ r;
RESET enable_seqscan;
-- and SP-GiST (core's range_ops), the GiST index out of the way
DROP INDEX rg_spans_r_idx;
CREATE INDEX rg_spans_r_spgist ON rg_spans USING spgist (r);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rg_spans WHERE r @> :'probe'::public.xid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM rg_spans WHERE :'probe'::public.xid <@ r;
SELECT count(*) AS by_spgist FROM rg_spans WHERE r @> :'probe'::public.xid;
SELECT count(*) AS by_spgist FROM rg_spans WHERE :'probe'::public.xid <@ r;
RESET enable_seqscan;

DROP TABLE rg_rand, rg_minutes, rg_spans;
