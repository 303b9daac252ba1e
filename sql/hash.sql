--
-- Hashing: hash indexes, hash joins, hash aggregation, hash partitioning
--
CREATE TABLE h_rand (n int, id public.xid);
INSERT INTO h_rand
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 10000) AS i;

-- hash values are fixed forever: hash partitions store rows by them
SELECT x, public.xid_hash(x), public.xid_hash_extended(x, 0),
       public.xid_hash_extended(x, 42)
FROM (VALUES ('11111111111'::public.xid), ('11111111112'), ('5cnEkaefSdu'),
             ('NQm6nKp8qFD'), ('jpXCZedGfVQ')) AS t(x);
-- the extended hash with seed 0 agrees with the 32-bit hash in its low bits
SELECT count(*) FILTER (WHERE public.xid_hash(id) =
                              (public.xid_hash_extended(id, 0) & x'ffffffff'::bigint)::bit(32)::int)
       AS agree, count(*) AS rows
FROM h_rand;

-- hash index
CREATE INDEX h_rand_id ON h_rand USING hash (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM h_rand WHERE id = 'NQm6nKp8qFD';
SELECT n FROM h_rand WHERE id = (SELECT id FROM h_rand WHERE n = 4321);
RESET enable_seqscan;
RESET enable_bitmapscan;

-- hash join
CREATE TABLE h_other AS SELECT id FROM h_rand WHERE n % 4 = 0;
-- statistics of both, so that the smaller is hashed whether or not
-- autovacuum analyzed one of them first (it did, under
-- debug_discard_caches, and the plan turned round)
ANALYZE h_rand, h_other;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM h_rand r JOIN h_other o ON r.id = o.id;
SELECT count(*) FROM h_rand r JOIN h_other o ON r.id = o.id;
RESET enable_mergejoin;
RESET enable_nestloop;

-- hash aggregation
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id, count(*) FROM (SELECT id FROM h_rand UNION ALL SELECT id FROM h_other) s GROUP BY id;
SELECT count(*) AS groups, sum(c) AS rows, max(c) AS most
FROM (SELECT id, count(*) AS c
      FROM (SELECT id FROM h_rand UNION ALL SELECT id FROM h_other) s
      GROUP BY id) g;
RESET enable_sort;

-- hash partitioning: stable placement, pruning, and every row found
CREATE TABLE h_part (id public.xid, n int) PARTITION BY HASH (id);
CREATE TABLE h_part_0 PARTITION OF h_part FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE h_part_1 PARTITION OF h_part FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE h_part_2 PARTITION OF h_part FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE h_part_3 PARTITION OF h_part FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO h_part SELECT id, n FROM h_rand;
SELECT tableoid::regclass AS part, count(*) FROM h_part GROUP BY 1 ORDER BY 1;
EXPLAIN (COSTS OFF) SELECT n FROM h_part WHERE id = 'NQm6nKp8qFD';
SELECT count(*) FROM h_rand r WHERE EXISTS (SELECT 1 FROM h_part p WHERE p.id = r.id AND p.n = r.n);

DROP TABLE h_rand, h_other, h_part;
