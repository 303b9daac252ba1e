--
-- Generators: xid_new() and xid_new(timestamptz)
--
-- Generated values are checked by their properties, never as literals.

-- 1,000,000 calls in one statement are distinct and strictly increasing
-- in call order
SELECT count(*) AS calls,
       count(*) FILTER (WHERE prev IS NOT NULL AND id <= prev) AS not_increasing,
       count(DISTINCT id) AS distinct_ids
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
      FROM (SELECT n, public.xid_new() AS id
            FROM generate_series(1, 1000000) AS n) AS g) AS s;

-- the time field is the clock's, to within a second
SELECT abs(extract(epoch FROM public.xid_time(public.xid_new()) - clock_timestamp())) < 1
       AS near_clock;

-- the time field is the clock's millisecond, never earlier and never later,
-- for each of 1,000,000 ids (clock_timestamp() read before and after each)
SELECT count(*) AS calls,
       count(*) FILTER (WHERE public.xid_time(id) < date_trunc('milliseconds', before)) AS behind,
       count(*) FILTER (WHERE public.xid_time(id) > after) AS ahead
FROM (SELECT clock_timestamp() AS before, public.xid_new() AS id, clock_timestamp() AS after
      FROM generate_series(1, 1000000)) s;

-- the clock is read for every id: there is no fast-clock setting, and the
-- xid prefix of settings is reserved
SHOW xid.fast_clock;
SET xid.fast_clock = off;

-- consecutive calls in separate statements also increase
CREATE TEMP TABLE g_seq (n serial, id public.xid);
INSERT INTO g_seq (id) SELECT public.xid_new();
INSERT INTO g_seq (id) SELECT public.xid_new();
INSERT INTO g_seq (id) SELECT public.xid_new();
SELECT bool_and(id > prev) AS increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM g_seq) s
WHERE prev IS NOT NULL;

-- the random field varies: 1000 values made at one instant
SELECT count(DISTINCT public.xid_random(x)) > 990 AS random_varies,
       count(DISTINCT public.xid_time(x)) AS instants
FROM (SELECT public.xid_new('2026-01-02 03:04:05.678+00') AS x
      FROM generate_series(1, 1000)) AS g;

-- xid_new(timestamptz) truncates to the millisecond, never rounds
SET timezone = 'UTC';
SELECT t, public.xid_time(public.xid_new(t)) AS xid_time
FROM (VALUES ('2011-11-11 11:11:11.111+00'::timestamptz),
             ('2011-11-11 11:11:11.111999+00'),
             ('2026-11-21 12:00:00.0009+00'),
             ('2151-03-25 18:46:22.214999+00')) AS v(t);

-- the first and last instants an xid can hold
SELECT public.xid_new('2011-11-11 11:11:11.111+00') <= '\x00000000003fffff'::bytea::public.xid AS first_ms,
       public.xid_new('2151-03-25 18:46:22.214+00') >= '\xffffffffffc00000'::bytea::public.xid AS last_ms;

-- out of range (22008): before the epoch, after the rollover, infinities
SELECT public.xid_new('2011-11-11 11:11:11.110999+00');
SELECT public.xid_new('2151-03-25 18:46:22.215+00');
SELECT public.xid_new('infinity');
SELECT public.xid_new('-infinity');
\getenv abs_srcdir PG_ABS_SRCDIR
\set sqlstate_helper :abs_srcdir '/sql/include/sqlstate.sql'
\i :sqlstate_helper
SELECT pg_temp.sqlstate('SELECT public.xid_new(''2000-01-01+00'')') AS before_epoch,
       pg_temp.sqlstate('SELECT public.xid_new(''infinity'')') AS infinity;
RESET timezone;

-- a DEFAULT for a primary key
CREATE TEMP TABLE g_pk (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int);
INSERT INTO g_pk (v) SELECT generate_series(1, 10000);
SELECT count(*), count(DISTINCT id) FROM g_pk;
SELECT bool_and(id > prev) AS increasing_in_insert_order
FROM (SELECT id, lag(id) OVER (ORDER BY v) AS prev FROM g_pk) s
WHERE prev IS NOT NULL;

-- xid_new() is volatile: evaluated per row, never folded or cached
SELECT count(DISTINCT public.xid_new()) FROM generate_series(1, 5);
