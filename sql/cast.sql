--
-- Casts of public.xid: bigint and bytea keep the value, text goes through I/O
--
SELECT 0::bigint::public.xid AS zero,
       1::bigint::public.xid AS one,
       9223372036854775807::bigint::public.xid AS max_bigint;
SELECT '11111111111'::public.xid::bigint AS zero,
       '1111111NVpb'::public.xid::bigint AS one_ms,
       'NQm6nKp8qFC'::public.xid::bigint AS max_bigint;
-- round trips
SELECT b, b::public.xid::bigint = b AS same
FROM (VALUES (0::bigint), (1), (57), (58), (4194304), (9223372036854775807)) AS t(b);
\getenv abs_srcdir PG_ABS_SRCDIR
\set sqlstate_helper :abs_srcdir '/sql/include/sqlstate.sql'
\i :sqlstate_helper
-- out of range both ways (22003)
SELECT (-1)::bigint::public.xid;
SELECT (-9223372036854775808)::bigint::public.xid;
SELECT 'NQm6nKp8qFD'::public.xid::bigint;
SELECT 'jpXCZedGfVQ'::public.xid::bigint;
SELECT q, pg_temp.sqlstate(q) AS sqlstate
FROM (VALUES ('SELECT (-1)::bigint::public.xid'),
             ('SELECT ''NQm6nKp8qFD''::public.xid::bigint'),
             ('SELECT ''NQm6nKp8qFC''::public.xid::bigint')) AS t(q);

-- bytea: 8 bytes, big-endian
SELECT '\x0000000000000000'::bytea::public.xid AS zero,
       '\x0000000000400000'::bytea::public.xid AS one_ms,
       '\x8000000000000000'::bytea::public.xid AS two_63,
       '\xffffffffffffffff'::bytea::public.xid AS max;
SELECT 'jpXCZedGfVQ'::public.xid::bytea AS max,
       '113q8KFkAEs'::public.xid::bytea AS one_day;
SELECT x::bytea::public.xid = x AS round_trip
FROM (VALUES ('11111111111'::public.xid), ('5cnEkaefSdu'), ('jpXCZedGfVQ')) AS t(x);
-- wrong lengths (22026)
SELECT ''::bytea::public.xid;
SELECT '\x00000000000000'::bytea::public.xid;
SELECT '\x000000000000000000'::bytea::public.xid;
SELECT pg_temp.sqlstate('SELECT ''\x01''::bytea::public.xid') AS sqlstate;

-- text: explicit casts both ways
SELECT '5cnEkaefSdu'::text::public.xid AS from_text,
       '5cnEkaefSdu'::public.xid::text AS to_text,
       '5cnEkaefSdu'::public.xid::varchar AS to_varchar;

-- every cast is explicit: no implicit or assignment casts
SELECT castsource::regtype, casttarget::regtype, castcontext
FROM pg_cast
WHERE castsource = 'public.xid'::regtype OR casttarget = 'public.xid'::regtype
ORDER BY 1::text, 2::text;
-- so these fail
-- (terse: the wording of this error changed in 19)
\set VERBOSITY terse
SELECT 1::bigint + '11111111112'::public.xid;
\set VERBOSITY default
CREATE TABLE cast_t (id public.xid);
INSERT INTO cast_t VALUES (1::bigint);
DROP TABLE cast_t;

-- a bare "xid" is core's 32-bit transaction id type, not ours
SELECT '5cnEkaefSdu'::xid;
SELECT pg_typeof('123'::xid), pg_typeof('5cnEkaefSdu'::public.xid);
