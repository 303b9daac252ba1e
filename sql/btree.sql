--
-- Ordering, btree indexes, merge joins and every opclass's validity
--
-- values across the whole unsigned range, including 2^63 - 1, 2^63, 2^64 - 1
CREATE TABLE bt_edge (id public.xid);
INSERT INTO bt_edge VALUES
	('jpXCZedGfVQ'), ('NQm6nKp8qFD'), ('11111111111'), ('NQm6nKp8qFC'),
	('11111111112'), ('jpXCZedGfVP'), ('5cnEkaefSdu');
SELECT id, id::bytea FROM bt_edge ORDER BY id;
SELECT id FROM bt_edge ORDER BY id DESC LIMIT 2;
SELECT min(id), max(id) FROM bt_edge;

-- every operator on the pairs around 2^63
SELECT a, b, a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le,
       a > b AS gt, a >= b AS ge, public.xid_cmp(a, b) AS cmp
FROM (VALUES ('NQm6nKp8qFC'::public.xid, 'NQm6nKp8qFD'::public.xid),
             ('NQm6nKp8qFD', 'NQm6nKp8qFC'),
             ('NQm6nKp8qFD', 'NQm6nKp8qFD'),
             ('11111111111', 'jpXCZedGfVQ')) AS t(a, b);

-- 20,000 payloads over the whole unsigned range: order by value equals
-- byte order of the text and of the big-endian bytes
CREATE TABLE bt_rand (n int, id public.xid);
INSERT INTO bt_rand
SELECT i, decode(substr(md5(i::text), 1, 16), 'hex')::public.xid
FROM generate_series(1, 20000) AS i;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE by_id = by_text AND by_id = by_bytes) AS agree
FROM (SELECT row_number() OVER (ORDER BY id) AS by_id,
             row_number() OVER (ORDER BY id::text COLLATE "C") AS by_text,
             row_number() OVER (ORDER BY id::bytea) AS by_bytes
      FROM bt_rand) AS s;
SELECT min(id) = (SELECT id FROM bt_rand ORDER BY id::bytea LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM bt_rand ORDER BY id::bytea DESC LIMIT 1) AS max_ok
FROM bt_rand;

-- btree index: equality, ranges and order come from the index
CREATE UNIQUE INDEX bt_rand_id ON bt_rand (id);
ANALYZE bt_rand;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM bt_rand WHERE id = '5cnEkaefSdu';
EXPLAIN (COSTS OFF) SELECT id FROM bt_rand WHERE id > 'NQm6nKp8qFC' AND id <= 'a1111111111';
EXPLAIN (COSTS OFF) SELECT id FROM bt_rand ORDER BY id DESC LIMIT 3;
SELECT count(*) FROM bt_rand WHERE id >= 'NQm6nKp8qFD';
SELECT count(*) FROM bt_rand WHERE id::bytea >= '\x8000000000000000';
RESET enable_seqscan;
RESET enable_bitmapscan;

-- a primary key rejects duplicates
CREATE TABLE bt_pk (id public.xid PRIMARY KEY);
INSERT INTO bt_pk VALUES ('5cnEkaefSdu');
INSERT INTO bt_pk VALUES ('5cnEkaefSdu');

-- merge join
CREATE TABLE bt_other AS SELECT id FROM bt_rand WHERE n % 3 = 0;
SET enable_hashjoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bt_rand r JOIN bt_other o ON r.id = o.id;
SELECT count(*) FROM bt_rand r JOIN bt_other o ON r.id = o.id;
RESET enable_hashjoin;
RESET enable_nestloop;

-- the btree index is sound (amcheck)
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;
SELECT bt_index_parent_check('bt_rand_id', heapallindexed => true);

-- sort support: a sort of every row agrees with the index order
SELECT count(*) AS mismatches
FROM (SELECT id, row_number() OVER (ORDER BY id) AS a FROM bt_rand) x
JOIN (SELECT id, row_number() OVER (ORDER BY id::bytea) AS b FROM bt_rand) y USING (id)
WHERE a <> b;

-- every operator class is valid, and has the expected members
SELECT opc.opcname, am.amname, opc.opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype = 'public.xid'::regtype
ORDER BY am.amname, opc.opcname;

-- labels: pure functions immutable, comparisons and hashes leakproof,
-- generators volatile, everything parallel safe
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
       p.provolatile, p.proleakproof, p.proparallel, p.proisstrict
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'xid' AND d.deptype = 'e'
ORDER BY 1, 2;

DROP TABLE bt_edge, bt_rand, bt_pk, bt_other;
