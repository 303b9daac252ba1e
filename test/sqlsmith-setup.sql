-- test/sqlsmith-setup.sql: the database sqlsmith plays with
-- (test/t/160_sqlsmith.pl), made by its owner, a role without superuser: xid
-- tables with btree, hash and BRIN indexes, range and hash partitions, a
-- domain over xid, arrays and ranges of it, and views.
CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), n int, label text, at timestamptz);
INSERT INTO ids (id, n, label, at)
SELECT public.xid_new(t), g, md5(g::text), t
FROM generate_series(1, 3000) AS g, LATERAL (SELECT timestamptz '2024-06-01' + g * interval '7 hours' AS t) AS x;
INSERT INTO ids (n, label, at) SELECT g, NULL, now() FROM generate_series(1, 100) AS g;
CREATE INDEX ids_hash ON ids USING hash (id);
CREATE INDEX ids_brin ON ids USING brin (id);
CREATE INDEX ids_brin_multi ON ids USING brin (id public.xid_minmax_multi_ops);
CREATE INDEX ids_bloom ON ids USING brin (id public.xid_bloom_ops);
CREATE INDEX ids_label ON ids (label, id);

CREATE TABLE events (id public.xid NOT NULL, payload text, PRIMARY KEY (id)) PARTITION BY RANGE (id);
CREATE TABLE events_2024 PARTITION OF events
    FOR VALUES FROM (public.xid_time_lower_bound('2024-01-01+00', true))
                 TO (public.xid_time_lower_bound('2025-01-01+00', true));
CREATE TABLE events_2025 PARTITION OF events
    FOR VALUES FROM (public.xid_time_lower_bound('2025-01-01+00', true))
                 TO (public.xid_time_lower_bound('2026-01-01+00', true));
CREATE TABLE events_rest PARTITION OF events DEFAULT;
INSERT INTO events SELECT id, label FROM ids;
CREATE TABLE hashed (id public.xid NOT NULL, v int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO hashed SELECT id, n FROM ids;

CREATE DOMAIN xid_set AS public.xid CHECK (VALUE IS NOT NULL);
CREATE TABLE typed (d xid_set, r public.xidrange, a public.xid[], b bytea, big bigint, t text);
INSERT INTO typed
SELECT id, public.xid_time_range(tstzrange(at, at + interval '1 day')), ARRAY[id, NULL], id::bytea, id::bigint, id::text
FROM ids WHERE n % 5 = 0;

CREATE VIEW recent AS
SELECT id, public.xid_time(id) AS at, public.xid_random(id) AS r FROM ids WHERE id >= now() - interval '30 days';
CREATE VIEW joined AS
SELECT i.id, e.payload, t.r, h.v FROM ids i JOIN events e USING (id) LEFT JOIN typed t ON t.d = i.id LEFT JOIN hashed h ON h.id = i.id;
ANALYZE;
