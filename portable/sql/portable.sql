--
-- The portable implementation on its own: both ways to install it, the
-- codec, errors and their SQLSTATEs, generation, and bounds that a bigint
-- btree index uses
--
SET timezone = 'UTC';
\getenv abs_srcdir PG_ABS_SRCDIR
\set script :abs_srcdir '/xid_portable.sql'

-- installed as a plain script into a schema of one's choice
CREATE SCHEMA xp_script;
SET search_path = xp_script;
\set ECHO none
\i :script
\set ECHO all
RESET search_path;
-- installed as the extension
CREATE SCHEMA xp;
CREATE EXTENSION xid_portable SCHEMA xp;
-- the same objects, with the same definitions, either way
SELECT n.nspname, count(*) AS functions
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('xp', 'xp_script') GROUP BY 1 ORDER BY 1;
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('xp', 'xp_script')
GROUP BY 1, 2, replace(pg_get_functiondef(p.oid), n.nspname || '.', ''),
         p.provolatile, p.proparallel, p.proisstrict
HAVING count(*) <> 2;
-- labels: codec and bounds immutable and parallel safe; generators
-- volatile and parallel unsafe (nextval is)
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args, (SELECT lanname FROM pg_language WHERE oid = p.prolang) AS lang,
       p.provolatile AS vol, p.proparallel AS par, p.proisstrict AS strict
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'xp' ORDER BY 1, 2;
SET client_min_messages = warning;
DROP SCHEMA xp_script CASCADE;
RESET client_min_messages;

-- the functions do not depend on the caller's search_path
SET search_path = pg_catalog;
SELECT xp.xid_encode(xp.xid_new()) ~ '^[1-9A-HJ-NP-Za-km-z]{11}$' AS made_and_encoded;
SELECT xp.xid_prefix_lower('5cnE') < xp.xid_prefix_upper('5cnE') AS bounds;
RESET search_path;

-- text: 11 Base58 symbols, padded with '1', in the order of the payloads
SELECT v, xp.xid_encode(v) AS text, xp.xid_decode(xp.xid_encode(v)) = v AS round_trip
FROM (VALUES (0::bigint), (1), (57), (58), (3363), (3364), (1988978084996448256),
             (430804206899405823), (430804206899405824), (9223372036854775806),
             (9223372036854775807)) AS t(v);
SELECT xp.xid_decode('5cnEkaefSdu') AS payload,
       xp.xid_time(xp.xid_decode('5cnEkaefSdu')) AS made,
       xp.xid_random(xp.xid_decode('5cnEkaefSdu')) AS low_bits;
SELECT xp.xid_time(0) AS epoch, xp.xid_time(9223372036854775807) AS last_instant;
SELECT xp.xid_encode(NULL) IS NULL AND xp.xid_decode(NULL) IS NULL AS strict;

-- errors: the message, its details and the SQLSTATE
CREATE FUNCTION pg_temp.err(q text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	d text;
	h text;
BEGIN
	EXECUTE q;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
	RETURN SQLSTATE || ': ' || SQLERRM
		|| CASE WHEN d <> '' THEN E'\n  DETAIL: ' || d ELSE '' END
		|| CASE WHEN h <> '' THEN E'\n  HINT: ' || h ELSE '' END;
END
$$;
SELECT q, pg_temp.err(q) AS error
FROM (VALUES
	('SELECT xp.xid_decode(''5cnEkaefSd'')'),
	('SELECT xp.xid_decode(''5cnEkaefSduu'')'),
	('SELECT xp.xid_decode('''')'),
	('SELECT xp.xid_decode(''5cnEkaefSd0'')'),
	('SELECT xp.xid_decode(''5cnEkaOfSdu'')'),
	('SELECT xp.xid_decode('' 5cnEkaefSd'')'),
	('SELECT xp.xid_decode(''5cnEkaefSdué'')'),
	('SELECT xp.xid_decode(''NQm6nKp8qFD'')'),
	('SELECT xp.xid_decode(''jpXCZedGfVQ'')'),
	('SELECT xp.xid_decode(''zzzzzzzzzzz'')'),
	('SELECT xp.xid_encode(-1)'),
	('SELECT xp.xid_time(-9223372036854775808)'),
	('SELECT xp.xid_random(-1)'),
	('SELECT xp.xid_new(''2011-11-11 11:11:11.110999+00'')'),
	('SELECT xp.xid_new(''2081-07-18 02:58:46.663+00'')'),
	('SELECT xp.xid_new(''infinity'')'),
	('SELECT xp.xid_prefix_lower('''')'),
	('SELECT xp.xid_prefix_upper(''5cnEkaefSdu1'')'),
	('SELECT xp.xid_prefix_lower(''5cn0'')'),
	('SELECT xp.xid_prefix_lower(''5cnE-'')')) AS t(q);

-- generation: unique, strictly increasing within the session, stamped
-- with the time of the call, low bits from the shared counter
CREATE TEMP TABLE made AS
SELECT g, clock_timestamp() AS before, xp.xid_new() AS id, clock_timestamp() AS after
FROM generate_series(1, 100000) AS g;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id > prev) FILTER (WHERE prev IS NOT NULL) AS strictly_increasing,
       bool_and(xp.xid_time(id) BETWEEN date_trunc('milliseconds', before) AND after) AS stamped_now
FROM (SELECT *, lag(id) OVER (ORDER BY g) AS prev FROM made) s;
-- consecutive calls take consecutive counter values
SELECT count(*) FILTER (WHERE (xp.xid_random(id) - xp.xid_random(prev) + 4194304) % 4194304 <> 1)
       AS not_consecutive
FROM (SELECT id, lag(id) OVER (ORDER BY g) AS prev FROM made) s WHERE prev IS NOT NULL;
-- a clock that went back, or a counter that wrapped within a millisecond:
-- the next id still comes after the session's last one
SELECT xp.xid_new() AS last \gset
SELECT xp.xid_portable_make(clock_timestamp() - interval '1 hour', 5, true) > :last AS after_clock_went_back;
SELECT xp.xid_new() AS last \gset
SELECT xp.xid_portable_make(xp.xid_time(:last), xp.xid_random(:last) - 1, true) AS next \gset
SELECT :next > :last AS after_counter_wrapped,
       xp.xid_time(:next) - xp.xid_time(:last) AS borrowed,
       xp.xid_random(:next) = xp.xid_random(:last) - 1 AS same_low_bits;
SELECT xp.xid_new() > :next AS still_increasing;
-- backfills: the time truncated to the millisecond
SELECT xp.xid_time(xp.xid_new('2024-05-06 07:08:09.123987+00')) AS backfilled,
       xp.xid_time(xp.xid_new('2081-07-18 02:58:46.662999+00')) AS last_millisecond;

-- a non-superuser can make ids (the counter is granted to PUBLIC)
CREATE ROLE regress_xp_user;
GRANT USAGE ON SCHEMA xp TO regress_xp_user;
SET ROLE regress_xp_user;
SELECT xp.xid_new() > 0 AS made_by_user;
RESET ROLE;

-- bounds that a bigint primary key index uses
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT xp.xid_new(), n int);
INSERT INTO orders (id, n)
SELECT xp.xid_new('2026-01-01+00'::timestamptz + g * interval '1 second'), g
FROM generate_series(1, 20000) AS g;
VACUUM ANALYZE orders;
SELECT xp.xid_encode(id) AS sample FROM orders WHERE n = 10000 \gset
SELECT left(:'sample', 6) AS p6 \gset
EXPLAIN (COSTS OFF)
SELECT * FROM orders WHERE id BETWEEN xp.xid_prefix_lower(:'p6') AND xp.xid_prefix_upper(:'p6');
EXPLAIN (COSTS OFF)
SELECT * FROM orders
WHERE id >= xp.xid_time_lower('2026-01-01 02:00:00+00') AND id <= xp.xid_time_upper('2026-01-01 02:59:59.999+00');
-- they find exactly the ids that the text and the time say (the text's
-- side: every id encoded once and each of its prefixes counted, not a scan
-- that encodes every id again for each prefix)
WITH wanted AS (
	SELECT DISTINCT left(xp.xid_encode(id), len) AS p
	FROM orders, generate_series(1, 11) AS len WHERE n % 997 = 0
), by_text AS (
	SELECT left(t, len) AS p, count(*) AS n
	FROM (SELECT xp.xid_encode(id) AS t FROM orders) AS e, generate_series(1, 11) AS len
	GROUP BY 1
)
SELECT (SELECT count(*) FROM orders WHERE id BETWEEN xp.xid_prefix_lower(p) AND xp.xid_prefix_upper(p))
     = coalesce(b.n, 0) AS prefix_exact,
       count(*) AS prefixes
FROM wanted LEFT JOIN by_text AS b USING (p)
GROUP BY 1;
SELECT count(*) AS hour_of_ids,
       count(*) = (SELECT count(*) FROM orders
                   WHERE xp.xid_time(id) >= '2026-01-01 02:00:00+00' AND xp.xid_time(id) < '2026-01-01 03:00:00+00') AS exact
FROM orders
WHERE id >= xp.xid_time_lower('2026-01-01 02:00:00+00') AND id < xp.xid_time_lower('2026-01-01 03:00:00+00');
-- bounds at the ends
SELECT xp.xid_prefix_lower('1') AS lo_1, xp.xid_prefix_upper('N') AS hi_n,
       xp.xid_prefix_lower('NQm6nKp8qFC') AS last_id, xp.xid_prefix_upper('NR') AS clamped,
       xp.xid_prefix_lower('NR') AS none_above, xp.xid_prefix_lower('z') AS none_z;
SELECT xp.xid_time_lower('-infinity') AS lo_ninf, xp.xid_time_lower('infinity') AS lo_inf,
       xp.xid_time_upper('-infinity') AS hi_ninf, xp.xid_time_upper('infinity') AS hi_inf,
       xp.xid_time_lower('2000-01-01+00') AS lo_2000, xp.xid_time_upper('2000-01-01+00') AS hi_2000,
       xp.xid_time_lower('2100-01-01+00') AS lo_2100, xp.xid_time_upper('2100-01-01+00') AS hi_2100;
SELECT xp.xid_time_lower('2026-01-01 00:00:00.0005+00') - xp.xid_time_lower('2026-01-01+00') AS next_ms,
       xp.xid_time_upper('2026-01-01 00:00:00.0005+00') - xp.xid_time_lower('2026-01-01+00') AS same_ms;

DROP TABLE orders;
DROP EXTENSION xid_portable;
DROP SCHEMA xp;
DROP ROLE regress_xp_user;
