--
-- Hostile input: each must be a clean 22P02 / 22003 error or a correct value
--
CREATE FUNCTION pg_temp.try_xid(v text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	x public.xid;
BEGIN
	x := v::public.xid;
	-- an accepted input is canonical: it re-encodes to itself
	RETURN CASE WHEN x::text = v THEN 'ok' ELSE 'WRONG VALUE' END;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;

-- every character from U+0001 to U+00FF in every position of an 11-symbol
-- input (bytes above 0x7F are not text on their own in UTF-8; the codec's
-- unit tests and fuzzer cover them)
SELECT pg_temp.try_xid(overlay('5cnEkaefSdu' PLACING chr(c) FROM pos FOR 1)) AS result,
       count(*), count(DISTINCT c) AS characters
FROM generate_series(1, 255) AS c, generate_series(1, 11) AS pos
GROUP BY 1 ORDER BY 1;
-- the accepted characters are exactly the alphabet
SELECT string_agg(chr(c), '' ORDER BY c) AS accepted
FROM generate_series(1, 255) AS c
WHERE pg_temp.try_xid(repeat(chr(c), 11)) = 'ok'
   OR pg_temp.try_xid('1' || repeat(chr(c), 10)) = 'ok';

-- lengths 0 to 64, of symbols and of other characters
SELECT pg_temp.try_xid(repeat(s, n)) AS result, count(*)
FROM generate_series(0, 64) AS n, (VALUES ('1'), ('z'), ('Q'), ('0'), (' '), ('é'), ('€'), ('😀')) AS t(s)
GROUP BY 1 ORDER BY 1;
SELECT n, pg_temp.try_xid(repeat('1', n)) AS ones, pg_temp.try_xid(repeat('z', n)) AS zs
FROM generate_series(9, 13) AS n;

-- multi-byte UTF-8 and embedded whitespace
-- (shown by number: terminals disagree on the width of some of them)
SELECT n, length(v) AS chars, octet_length(v) AS bytes, pg_temp.try_xid(v) AS result
FROM (VALUES (1, '５cnEkaefSdu'), (2, '5cnEkaefSdü'), (3, '5cnEkaef😀'), (4, '😀😀😀😀😀😀😀😀😀😀😀'),
             (5, E'5cnEk\taefSd'), (6, E'5cnEkaefSd\n'), (7, ' 5cnEkaefSd'), (8, '5cnEk aefSd'),
             (9, E'5cnEkaefSdu\r'), (10, '5cnEkaefSdu'), (11, U&'5cnEkaefSd\00A0'),
             (12, U&'5cnEkaef\200BSd')) AS t(n, v);

-- prefixes get the same treatment
CREATE FUNCTION pg_temp.try_prefix(v text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM public.xid_prefix_range(v);
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;
SELECT pg_temp.try_prefix(repeat(chr(c), n)) AS result, count(*)
FROM generate_series(1, 255) AS c, generate_series(0, 13) AS n
GROUP BY 1 ORDER BY 1;

-- binary input: exactly 8 bytes, anything else is a clean error (08P01
-- for too few, 22P03 for too many); files on the client side, in
-- pg_regress's own results directory
CREATE TABLE tt (id public.xid);
\getenv abs_builddir PG_ABS_BUILDDIR
\cd :abs_builddir/results
\copy (SELECT ''::bytea) TO 'xid_recv_0.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_0.bin' (FORMAT binary)
\copy (SELECT '\xa5'::bytea) TO 'xid_recv_1.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_1.bin' (FORMAT binary)
\copy (SELECT '\xa5a5a5a5a5a5a5'::bytea) TO 'xid_recv_7.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_7.bin' (FORMAT binary)
\copy (SELECT '\xa5a5a5a5a5a5a5a5a5'::bytea) TO 'xid_recv_9.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_9.bin' (FORMAT binary)
\copy (SELECT '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea) TO 'xid_recv_16.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_16.bin' (FORMAT binary)
SELECT count(*) AS loaded_from_bad_lengths FROM tt;
-- exactly 8 bytes load, as the big-endian payload
\copy (SELECT '\xa5a5a5a5a5a5a5a5'::bytea) TO 'xid_recv_8.bin' (FORMAT binary)
\copy tt FROM 'xid_recv_8.bin' (FORMAT binary)
SELECT id, id::bytea FROM tt;
DROP TABLE tt;
