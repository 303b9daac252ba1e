--
-- Moving between the portable implementation and the C type: a table
-- keyed by portable bigint ids becomes a table of public.xid with one
-- ALTER TABLE, and back; every id keeps its text, order and time
--
SET timezone = 'UTC';
CREATE SCHEMA xp;
CREATE EXTENSION xid_portable SCHEMA xp;

-- on the managed service: bigint ids made by the portable xid_new()
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT xp.xid_new(), n int NOT NULL);
CREATE INDEX orders_id_brin ON orders USING brin (id);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 5000) AS g;
INSERT INTO orders (id, n)
SELECT xp.xid_new('2020-01-01+00'::timestamptz + g * interval '1 hour'), -g
FROM generate_series(1, 5000) AS g;
CREATE TABLE before AS
SELECT n, xp.xid_encode(id) AS text, xp.xid_time(id) AS made, rank() OVER (ORDER BY id) AS position
FROM orders;

-- onto a server with the C extension
CREATE EXTENSION xid;
ALTER TABLE orders
	ALTER COLUMN id DROP DEFAULT,
	ALTER COLUMN id TYPE public.xid USING id::public.xid,
	ALTER COLUMN id SET DEFAULT public.xid_new();
SELECT format_type(atttypid, atttypmod) AS id_type, pg_get_expr(d.adbin, d.adrelid) AS id_default
FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = 'orders'::regclass AND a.attname = 'id';
SELECT count(*) AS ids,
       count(*) FILTER (WHERE o.id::text <> b.text) AS text_changed,
       count(*) FILTER (WHERE public.xid_time(o.id) <> b.made) AS time_changed,
       count(*) FILTER (WHERE o.position <> b.position) AS order_changed
FROM (SELECT n, id, rank() OVER (ORDER BY id) AS position FROM orders) o JOIN before b USING (n);
-- the indexes were rebuilt for the new type and answer prefix and time
-- searches; new ids come after every old one
SET enable_seqscan = off;
SELECT b.text AS sample FROM before b WHERE n = 2500 \gset
EXPLAIN (COSTS OFF) SELECT n FROM orders WHERE id = '5cnEkaefSdu';
SELECT n FROM orders WHERE id = :'sample'::public.xid;
SELECT count(*) = (SELECT count(*) FROM before WHERE text LIKE left(:'sample', 5) || '%') AS prefix_search
FROM orders WHERE id ^@ left(:'sample', 5);
RESET enable_seqscan;
INSERT INTO orders (n) VALUES (10001);
SELECT n FROM orders ORDER BY id DESC LIMIT 1;

-- and back, onto a managed service: public.xid to bigint
ALTER TABLE orders
	ALTER COLUMN id DROP DEFAULT,
	ALTER COLUMN id TYPE bigint USING id::bigint,
	ALTER COLUMN id SET DEFAULT xp.xid_new();
SELECT count(*) AS ids,
       count(*) FILTER (WHERE xp.xid_encode(o.id) <> b.text) AS text_changed,
       count(*) FILTER (WHERE xp.xid_time(o.id) <> b.made) AS time_changed,
       count(*) FILTER (WHERE o.position <> b.position) AS order_changed
FROM (SELECT n, id, rank() OVER (ORDER BY id) AS position FROM orders) o JOIN before b USING (n);
INSERT INTO orders (n) VALUES (10002);
SELECT n FROM orders ORDER BY id DESC LIMIT 2;
-- the C extension can go now: nothing depends on it
DROP EXTENSION xid;

-- an id that a bigint cannot hold (made after 2081) stops the way back
-- with 22003, and the table is left as it was
CREATE EXTENSION xid;
CREATE TABLE late (id public.xid PRIMARY KEY);
INSERT INTO late VALUES ('5cnEkaefSdu'), ('NQm6nKp8qFC'), ('NQm6nKp8qFD');
\set VERBOSITY sqlstate
ALTER TABLE late ALTER COLUMN id TYPE bigint USING id::bigint;
\set VERBOSITY default
SELECT format_type(atttypid, atttypmod) AS id_type, (SELECT count(*) FROM late) AS ids
FROM pg_attribute WHERE attrelid = 'late'::regclass AND attname = 'id';

DROP TABLE orders, before, late;
DROP EXTENSION xid;
DROP EXTENSION xid_portable;
DROP SCHEMA xp;
