--
-- Conversions: xid <-> uuid (a UUIDv7 with the id's time), ULID, ulid-flake,
-- and ids for existing rows from their time and old key
--

-- an id as a uuid: version 7, variant 10, the id's time as unix ms
SELECT 'jpXCZedGfVQ'::public.xid::uuid AS max_id,
       '11111111111'::public.xid::uuid AS zero_id,
       '5cnE1111112'::public.xid::uuid AS one;
SELECT substr(x::uuid::text, 15, 1) AS version,
       substr(x::uuid::text, 20, 1) IN ('8', '9', 'a', 'b') AS variant_10,
       ('x' || replace(left(x::uuid::text, 13), '-', ''))::bit(48)::bigint
         = (extract(epoch FROM public.xid_time(x)) * 1000)::bigint AS unix_ms
FROM (VALUES ('5cnEzzzzzzz'::public.xid), (public.xid_new('2026-11-25 12:00:00.123+00'))) v(x);

-- round trip, order and uniqueness on many ids, including the extremes
CREATE TEMP TABLE cv AS
SELECT public.xid_from_key('2026-11-25+00'::timestamptz + (g / 7) * interval '1 ms', g::bigint * 599479) AS x
FROM generate_series(0, 19999) g
UNION ALL SELECT '11111111111'::public.xid UNION ALL SELECT 'jpXCZedGfVQ'::public.xid;
SELECT count(*) AS ids,
       count(*) FILTER (WHERE x::uuid::public.xid = x) AS uuid_round_trip,
       count(*) FILTER (WHERE public.xid_from_uuidv7(x::uuid) = x) AS v7_round_trip,
       count(*) FILTER (WHERE public.xid_from_ulid(public.xid_to_ulid(x)) = x) AS ulid_round_trip,
       count(*) FILTER (WHERE public.xid_from_ulid(lower(public.xid_to_ulid(x))) = x) AS ulid_lower,
       count(DISTINCT x::uuid) AS distinct_uuids,
       count(DISTINCT public.xid_to_ulid(x)) AS distinct_ulids
FROM cv;
-- uuids and ULIDs sort as the ids do
SELECT (SELECT array_agg(x ORDER BY x) FROM cv) = (SELECT array_agg(x ORDER BY x::uuid) FROM cv) AS uuid_order,
       (SELECT array_agg(x ORDER BY x) FROM cv) = (SELECT array_agg(x ORDER BY public.xid_to_ulid(x) COLLATE "C") FROM cv) AS ulid_order;

-- ULID text: Crockford's Base32, 26 symbols; time as ULID counts it
SELECT public.xid_to_ulid('11111111111'), public.xid_to_ulid('jpXCZedGfVQ');
SELECT public.xid_time(public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS ulid_spec_example;
-- the 22 bits after its time are kept, the rest dropped
SELECT public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') = public.xid_from_ulid('01ARZ3NDEKTSV4S00000000000') AS drops_after_22_bits,
       public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') <> public.xid_from_ulid('01ARZ3NDEKTSV4Q00000000000') AS keeps_bit_22,
       public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') <> public.xid_from_ulid('01ARZ3NDEKTSV5RRFFQ69G5FAV') AS keeps_bit_20;
-- ULID stored as a uuid (pgx_ulid's cast): the same bytes
SELECT public.xid_from_ulid('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid) = public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS ulid_as_uuid;
SELECT public.xid_from_ulid('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT public.xid_from_ulid('8ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FA');
SELECT public.xid_from_ulid('01ARZ3NDEKTSV4RRFFQ69G5FAU');
SELECT public.xid_from_ulid('00000000000000000000000000');

-- the cast from uuid takes only what the cast to uuid makes
SELECT '01890a5d-ac96-774b-bcce-b302099a8057'::uuid::public.xid;
SELECT '5cnEzzzzzzz'::public.xid::uuid::text::uuid::public.xid;
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid::public.xid;
SELECT '00000000-0000-7000-8000-000000000000'::uuid::public.xid;

-- any UUIDv7 keeps its time and the 22 bits after it
SELECT public.xid_time(public.xid_from_uuidv7('01890a5d-ac96-774b-bcce-b302099a8057')) AS v7_time,
       public.xid_random(public.xid_from_uuidv7('01890a5d-ac96-774b-bcce-b302099a8057')) = (x'74b'::int << 10) | x'3cc'::int AS v7_bits;
SELECT public.xid_from_uuidv7('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
SELECT public.xid_from_uuidv7('00000000-0000-7000-8000-000000000000');

-- ulid-flake: 43-bit ms since 2024-01-01, 20 bits; converted whole
SELECT public.xid_time(public.xid_from_ulid_flake(0)) AS flake_epoch,
       public.xid_time(public.xid_from_ulid_flake(14246757444195114)) AS flake_example,
       public.xid_random(public.xid_from_ulid_flake(14246757444195114)) = (14246757444195114 % 1048576) * 4 AS bits_kept;
SELECT count(DISTINCT public.xid_from_ulid_flake(f)) = count(*) AS unique,
       array_agg(f ORDER BY f) = array_agg(f ORDER BY public.xid_from_ulid_flake(f)) AS in_order
FROM (SELECT (g::bigint * 7919) % 4000000 + ((g % 3)::bigint << 20) AS f FROM generate_series(1, 5000) g) s;
SELECT public.xid_from_ulid_flake(-1);
SELECT public.xid_from_ulid_flake(9223372036854775807);

-- ids for existing rows: the row's millisecond and its key's low 22 bits
SELECT public.xid_from_key('2026-11-25 12:00:00.1239+00', 5) AS k5,
       public.xid_time(public.xid_from_key('2026-11-25 12:00:00.1239+00', 5)) AS t,
       public.xid_random(public.xid_from_key('2026-11-25 12:00:00.1239+00', 4194304 + 5)) AS wraps,
       public.xid_random(public.xid_from_key('2026-11-25 12:00:00+00', -1)) AS negative;
-- deterministic, unique and ordered by (time, key): 1,000 consecutive keys
-- per millisecond, 21 milliseconds; the keys of one millisecond (the 5th)
-- straddle 2^22: still unique, but ordered by the low bits there
CREATE TEMP TABLE rows1k AS
SELECT '2026-11-25+00'::timestamptz + (g / 1000) * interval '1 ms' AS t, g::bigint AS k
FROM generate_series(4190000, 4210999) g;
SELECT count(DISTINCT public.xid_from_key(t, k)) AS distinct_ids,
       bool_and(public.xid_from_key(t, k) = public.xid_from_key(t, k)) AS same_again
FROM rows1k;
SELECT k / 1000 AS ms_group,
       array_agg(k ORDER BY t, k) = array_agg(k ORDER BY public.xid_from_key(t, k)) AS time_then_key
FROM rows1k GROUP BY 1 HAVING (array_agg(k ORDER BY t, k) = array_agg(k ORDER BY public.xid_from_key(t, k))) IS NOT TRUE;
SELECT array_agg(k ORDER BY t, k) = array_agg(k ORDER BY public.xid_from_key(t, k)) AS time_then_key
FROM rows1k WHERE k / 1000 <> 4194;
-- keys 2^22 apart in one millisecond: the same id, which a unique index refuses
CREATE TEMP TABLE dup (old bigint PRIMARY KEY, t timestamptz, id public.xid UNIQUE);
INSERT INTO dup VALUES (7, '2026-11-25+00', public.xid_from_key('2026-11-25+00', 7));
INSERT INTO dup VALUES (7 + 4194304, '2026-11-25+00', public.xid_from_key('2026-11-25+00', 7 + 4194304));
-- uuid keys: the first 22 bits, after the row's millisecond
SELECT public.xid_random(public.xid_from_key('2026-11-25+00', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid)) = x'a0eebc'::int >> 2 AS first_22_bits;
SELECT public.xid_from_key('infinity', 1);
SELECT public.xid_from_key('2000-01-01+00', 1);
-- labels
SELECT p.oid::regprocedure, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p WHERE p.proname IN ('xid_from_key', 'xid_to_uuid', 'xid_from_uuid', 'xid_from_uuidv7',
                                   'xid_from_ulid', 'xid_to_ulid', 'xid_from_ulid_flake')
ORDER BY 1::text;
-- explicit casts only
SELECT castsource::regtype, casttarget::regtype, castcontext FROM pg_cast
WHERE castsource = 'public.xid'::regtype AND casttarget = 'uuid'::regtype
   OR castsource = 'uuid'::regtype AND casttarget = 'public.xid'::regtype ORDER BY 1::text;
