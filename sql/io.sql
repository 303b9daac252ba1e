--
-- Text and binary I/O of public.xid
--
-- the test vectors of docs/format.md (section 7) and the extremes
SELECT v::public.xid AS x, v::public.xid::text = v AS round_trip
FROM (VALUES ('11111111111'), ('1111111NVpb'), ('113q8KFkAEs'),
             ('11111111112'), ('1111111111z'), ('11111111121'),
             ('5cnEkaefSdu'), ('jpXCZedGfVP'), ('jpXCZedGfVQ')) AS t(v);

-- payloads as numbers (docs/format.md, section 7): +1 ms is 2^22, +1 day is 86400000 * 2^22
SELECT '1111111NVpb'::public.xid::bigint = (1::bigint << 22) AS one_ms,
       '113q8KFkAEs'::public.xid::bigint = (86400000::bigint << 22) AS one_day;

-- output is always 11 symbols
SELECT length('11111111111'::public.xid::text), length('jpXCZedGfVQ'::public.xid::text);

-- bad length (22P02)
SELECT ''::public.xid;
SELECT '5cnEkaefSd'::public.xid;
SELECT '5cnEkaefSdu1'::public.xid;
SELECT ' 5cnEkaefSdu'::public.xid;
SELECT '5cnEkaefSdu '::public.xid;
-- bad symbol (22P02): each excluded letter, punctuation, multi-byte
SELECT '0cnEkaefSdu'::public.xid;
SELECT '5OnEkaefSdu'::public.xid;
SELECT '5cIEkaefSdu'::public.xid;
SELECT '5cnlkaefSdu'::public.xid;
SELECT '5cnEk-efSdu'::public.xid;
SELECT '5cnEkaefSd€'::public.xid;
SELECT '5cnEkaé€Sdu'::public.xid;
-- above 2^64-1 (22003)
SELECT 'jpXCZedGfVR'::public.xid;
SELECT 'zzzzzzzzzzz'::public.xid;
-- a bad symbol wins over a value out of range
SELECT 'zzzzzzzzzz0'::public.xid;
-- text that reads in part as a time zone name (before 16, the check for a
-- time failed on it with 22023 "time zone ... not recognized")
SELECT 'j2P5rG9cpN+'::public.xid;
SELECT 'Mars/Olympus'::public.xid;

-- the SQLSTATE of every class of bad input
\getenv abs_srcdir PG_ABS_SRCDIR
\set sqlstate_helper :abs_srcdir '/sql/include/sqlstate.sql'
\i :sqlstate_helper
SELECT v, pg_temp.sqlstate(format('SELECT %L::public.xid', v)) AS sqlstate
FROM (VALUES (''), ('5cnEkaefSd'), ('5cnEkaefSdu1'), (' 5cnEkaefSdu'),
             (E'5cnEkaefSdu\n'), ('0cnEkaefSdu'), ('5cnEk-efSdu'),
             ('5cnEkaefSd€'), ('jpXCZedGfVQ'), ('jpXCZedGfVR'),
             ('zzzzzzzzzzz'), ('zzzzzzzzzz0'), ('j2P5rG9cpN+'),
             ('Mars/Olympus')) AS t(v);

-- NULL in, NULL out
SELECT NULL::public.xid IS NULL AS is_null;

-- xid_time and xid_random: the fields of the profile
SELECT x, public.xid_time(x), public.xid_random(x)
FROM (VALUES ('11111111111'::public.xid), ('1111111NVpb'), ('113q8KFkAEs'),
             ('11111111112'), ('jpXCZedGfVQ')) AS t(x);
SELECT public.xid_time(public.xid_new('2026-01-02 03:04:05.678+00')) AS t;

-- binary send/receive: 8 bytes, big-endian
SELECT public.xid_send('11111111112'::public.xid) AS one,
       public.xid_send('jpXCZedGfVQ'::public.xid) AS max,
       public.xid_send('1111111NVpb'::public.xid) AS one_ms;

-- COPY in binary format round trip, across the whole unsigned range
-- (md5 gives payloads at and above 2^63 too)
CREATE TABLE io_src (n int, id public.xid);
INSERT INTO io_src
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 1000) AS i;
INSERT INTO io_src VALUES (0, '11111111111'), (1001, 'jpXCZedGfVQ');
-- client-side files, in pg_regress's own results directory
\getenv abs_builddir PG_ABS_BUILDDIR
\cd :abs_builddir/results
\copy io_src TO 'xid_io.bin' (FORMAT binary)
CREATE TABLE io_dst (n int, id public.xid);
\copy io_dst FROM 'xid_io.bin' (FORMAT binary)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE s.id = d.id) AS equal,
       count(*) FILTER (WHERE s.id::bytea >= '\x8000000000000000') AS above_2_63
FROM io_src s JOIN io_dst d USING (n);
-- and in text format
\copy io_src TO 'xid_io.txt'
TRUNCATE io_dst;
\copy io_dst FROM 'xid_io.txt'
SELECT count(*) AS rows, count(*) FILTER (WHERE s.id = d.id) AS equal
FROM io_src s JOIN io_dst d USING (n);
DROP TABLE io_src, io_dst;
