-- demo.sql: what xid looks like to a user (run by demo.sh)
CREATE EXTENSION xid;

-- the type is written public.xid: a bare "xid" is core's transaction id type
CREATE TABLE orders (
    id   public.xid PRIMARY KEY DEFAULT xid_new(),
    item text NOT NULL
);
INSERT INTO orders (item) VALUES ('apple'), ('pear'), ('plum');
SELECT id, xid_time(id), item FROM orders ORDER BY id;

-- backfill a year of history, one order an hour
INSERT INTO orders (id, item)
SELECT xid_new(t), 'order ' || n
FROM generate_series(1, 8760) AS n,
     LATERAL (SELECT now() - n * interval '1 hour' AS t) AS s;
ANALYZE orders;

-- look an order up by the first characters someone pasted
SELECT left(id::text, 6) AS pasted FROM orders WHERE item = 'order 4000' \gset
SELECT id, xid_time(id), item FROM orders WHERE id ^@ :'pasted';
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id ^@ :'pasted';

-- the orders of one day, straight from the primary key
SELECT count(*) FROM orders
WHERE id <@ xid_time_range(tstzrange(date_trunc('day', now()) - interval '7 days',
                                     date_trunc('day', now()) - interval '6 days'));
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
WHERE id <@ xid_time_range('[2026-01-01, 2026-01-02)');

-- the last day, compared with a time, and the same prefix with LIKE
SELECT count(*) FROM orders WHERE id >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE id >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id LIKE :'pasted' || '%';

-- a bare "xid" in DDL is core's type: the extension warns
CREATE TABLE mistake (id xid);
DROP TABLE mistake;

-- 8 bytes, like bigint; a uuid takes 16
SELECT pg_column_size(id) AS xid_bytes, pg_column_size(gen_random_uuid()) AS uuid_bytes
FROM orders LIMIT 1;
