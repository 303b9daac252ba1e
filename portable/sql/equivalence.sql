--
-- The portable functions against the C extension, side by side in one
-- database: identical text, payloads, times, low bits, prefix and time
-- bounds over more than 1,000,000 payloads, and the same SQLSTATE for every
-- bad input of the torture set
--
SET timezone = 'UTC';
CREATE EXTENSION xid;
CREATE SCHEMA xp;
CREATE EXTENSION xid_portable SCHEMA xp;

-- the payload of a C xid as a signed bigint, as a bigint column stores it
-- (2^63 and above negative); the comparisons read each bound through it
-- once (an unsigned numeric in every place a bound appears took more than
-- half of this file's time)
CREATE FUNCTION pg_temp.s(x public.xid) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT
RETURN ('x' || encode(x::bytea, 'hex'))::bit(64)::bigint;
-- the C xid of any 64-bit pattern (negative bigints are payloads >= 2^63)
CREATE FUNCTION pg_temp.x(v bigint) RETURNS public.xid
LANGUAGE sql IMMUTABLE STRICT
RETURN int8send(v)::public.xid;
-- the SQLSTATE of a statement, or 'ok'
CREATE FUNCTION pg_temp.state(q text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;

-- payloads: the edges of every symbol position and of the bigint range,
-- then 1,000,000 random ones over the whole bigint range and the range of
-- real ids (2011 to 2081, every low-bit pattern)
CREATE TABLE pay (v bigint NOT NULL);
INSERT INTO pay
SELECT DISTINCT e FROM (
	SELECT (58::numeric ^ k + d)::bigint AS e
	FROM generate_series(0, 10) AS k, generate_series(-1, 1) AS d
	UNION ALL SELECT unnest(ARRAY[0, 1, 4194303, 4194304, 9223372036854775806, 9223372036854775807])
) s WHERE e >= 0;
INSERT INTO pay
SELECT (floor(random() * 2147483648)::bigint << 32) | floor(random() * 4294967296)::bigint
FROM generate_series(1, 500000);
INSERT INTO pay
SELECT (floor(random() * 2199023255552)::bigint << 22) | floor(random() * 4194304)::bigint
FROM generate_series(1, 500000);
SELECT count(*) >= 1000000 AS enough FROM pay;

-- text both ways, time and low bits
SELECT count(*) FILTER (WHERE xp.xid_encode(v) IS DISTINCT FROM v::public.xid::text) AS encode_differs,
       count(*) FILTER (WHERE xp.xid_decode(v::public.xid::text) IS DISTINCT FROM v) AS decode_differs,
       count(*) FILTER (WHERE xp.xid_time(v) IS DISTINCT FROM public.xid_time(v::public.xid)) AS time_differs,
       count(*) FILTER (WHERE xp.xid_random(v) IS DISTINCT FROM public.xid_random(v::public.xid)) AS random_differs
FROM pay;

-- prefix bounds: every length of prefix, over the text of every payload
-- and of payloads above 2^63 (which no bigint id has: NULL or clamped)
CREATE TABLE pfx AS
SELECT left(v::public.xid::text, 1 + (abs(v) % 11)::int) AS p FROM pay
UNION ALL
SELECT left(pg_temp.x(v)::text, len) FROM pay, generate_series(1, 11) AS len
WHERE v % 1000 = 0
UNION ALL
SELECT left(pg_temp.x(-v)::text, 1 + (abs(v) % 11)::int) FROM pay WHERE v % 10 = 0 AND v > 0;
-- (lo < 0: the first id is at 2^63 or above; hi NULL or < 0: the range
-- ends above the largest bigint)
SELECT count(*) >= 1000000 AS enough,
       count(*) FILTER (WHERE xp.xid_prefix_lower(p) IS DISTINCT FROM
			CASE WHEN e OR lo < 0 THEN NULL ELSE lo END) AS lower_differs,
       count(*) FILTER (WHERE xp.xid_prefix_upper(p) IS DISTINCT FROM
			CASE WHEN e OR lo < 0 THEN NULL
				 WHEN hi IS NULL OR hi < 0 THEN 9223372036854775807 ELSE hi END) AS upper_differs,
       count(DISTINCT length(p)) AS lengths
FROM (SELECT p, isempty(r) AS e, pg_temp.s(lower(r)) AS lo, pg_temp.s(upper(r)) AS hi
      FROM (SELECT p, public.xid_prefix_range(p) AS r FROM pfx OFFSET 0) s0
      OFFSET 0) s;

-- time bounds: around the time of each payload, with and without a
-- sub-millisecond part, and the ends of both ranges
CREATE TABLE tms AS
SELECT public.xid_time(v::public.xid) + (floor(random() * 3000) - 1500) * interval '1 microsecond' AS t
FROM pay WHERE v % 4 = 0
UNION ALL
SELECT public.xid_time(v::public.xid) FROM pay WHERE v % 4 = 1
UNION ALL
SELECT unnest(ARRAY['-infinity', 'infinity', '2000-01-01+00', '2011-11-11 11:11:11.110999+00',
	'2011-11-11 11:11:11.111+00', '2011-11-11 11:11:11.111001+00',
	'2081-07-18 02:58:46.662+00', '2081-07-18 02:58:46.662999+00', '2081-07-18 02:58:46.663+00',
	'2151-03-25 18:46:22.214+00', '2151-03-25 18:46:22.215+00', '2200-01-01+00']::timestamptz[]);
SELECT count(*) > 450000 AS enough,
       count(*) FILTER (WHERE xp.xid_time_lower(t) IS DISTINCT FROM
			CASE WHEN lo < 0 THEN NULL ELSE lo END) AS lower_differs,
       count(*) FILTER (WHERE xp.xid_time_upper(t) IS DISTINCT FROM
			CASE WHEN hi < 0 THEN 9223372036854775807 ELSE hi END) AS upper_differs
FROM (SELECT t, pg_temp.s(public.xid_time_lower_bound(t, true)) AS lo,
             pg_temp.s(public.xid_time_upper_bound(t, true)) AS hi FROM tms OFFSET 0) s;
-- and a backfilled id has the same time either way
SELECT count(*) FILTER (WHERE xp.xid_time(xp.xid_new(t)) <> public.xid_time(public.xid_new(t))) AS backfill_differs
FROM tms WHERE t BETWEEN '2011-11-11 11:11:11.111+00' AND '2081-07-18 02:58:46.662999+00';

-- the torture set: every character from U+0001 to U+00FF in every
-- position, lengths 0 to 64 of symbols and of other characters, multi-byte
-- characters and whitespace, and values around the ends of both types
CREATE TABLE bad (s text);
INSERT INTO bad
SELECT overlay('5cnEkaefSdu' PLACING chr(c) FROM pos FOR 1)
FROM generate_series(1, 255) AS c, generate_series(1, 11) AS pos;
INSERT INTO bad
SELECT repeat(s, n) FROM generate_series(0, 64) AS n,
	(VALUES ('1'), ('z'), ('Q'), ('0'), (' '), ('é'), ('€'), ('😀')) AS t(s);
INSERT INTO bad VALUES ('５cnEkaefSdu'), ('5cnEkaefSdü'), ('5cnEkaef😀'), (E'5cnEk\taefSd'),
	(E'5cnEkaefSd\n'), (' 5cnEkaefSd'), ('5cnEk aefSd'), (E'5cnEkaefSdu\r'),
	(U&'5cnEkaefSd\00A0'), (U&'5cnEkaef\200BSd'), ('NQm6nKp8qFC'), ('NQm6nKp8qFD'),
	('NQm6nKp8qFB'), ('jpXCZedGfVQ'), ('jpXCZedGfVR'), ('zzzzzzzzzzz'), ('11111111111');
-- decoding: the C type read as a bigint, as a bigint column would store it
SELECT count(*) AS inputs,
       count(*) FILTER (WHERE c <> p) AS sqlstate_differs,
       count(*) FILTER (WHERE c = 'ok') AS accepted
FROM (SELECT pg_temp.state(format('SELECT %L::public.xid::bigint', s)) AS c,
             pg_temp.state(format('SELECT xp.xid_decode(%L)', s)) AS p FROM bad) s;
SELECT c AS sqlstate, count(*) FROM (
	SELECT pg_temp.state(format('SELECT xp.xid_decode(%L)', s)) AS c FROM bad) s
GROUP BY 1 ORDER BY 1;
-- prefixes
SELECT count(*) AS inputs,
       count(*) FILTER (WHERE c <> p OR c <> q) AS sqlstate_differs
FROM (SELECT pg_temp.state(format('SELECT public.xid_prefix_range(%L)', s)) AS c,
             pg_temp.state(format('SELECT xp.xid_prefix_lower(%L)', s)) AS p,
             pg_temp.state(format('SELECT xp.xid_prefix_upper(%L)', s)) AS q FROM bad) s;
-- negative bigints are no payload either way
SELECT count(*) FILTER (WHERE pg_temp.state(format('SELECT (%s)::bigint::public.xid', -v - 1))
			<> pg_temp.state(format('SELECT xp.xid_encode(%s)', -v - 1))) AS sqlstate_differs
FROM pay WHERE v % 1000 = 0;
-- times no id can hold
SELECT t, pg_temp.state(format('SELECT public.xid_new(%L::timestamptz)', t)) AS c,
       pg_temp.state(format('SELECT xp.xid_new(%L::timestamptz)', t)) AS portable
FROM unnest(ARRAY['-infinity', 'infinity', '2011-11-11 11:11:11.110999+00',
	'2081-07-18 02:58:46.663+00', '2151-03-25 18:46:22.215+00']::timestamptz[]) AS t;

DROP TABLE pay, pfx, tms, bad;
DROP FUNCTION pg_temp.s(public.xid), pg_temp.x(bigint);
DROP EXTENSION xid_portable;
DROP SCHEMA xp;
DROP EXTENSION xid;
