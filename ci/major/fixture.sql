-- ci/major/fixture.sql: a database that uses xid everywhere it can be
-- used, for the major-version upgrade tests (pg_upgrade, dump and restore).
-- Made with the extension at 1.0 (the oldest release) when :xid_version is
-- '1.0'.  Deterministic: no xid_new() without a time.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION xid VERSION :'xid_version';
CREATE EXTENSION amcheck;
CREATE TABLE events (
	id public.xid PRIMARY KEY,
	parent public.xid,
	span public.xidrange,
	note text
);
INSERT INTO events
SELECT public.xid_new('2026-01-01+00'::timestamptz + i * interval '1 minute'),
       decode(substr(md5(i::text), 1, 16), 'hex')::public.xid,
       CASE WHEN i % 2 = 0 THEN public.xid_prefix_range(left(decode(substr(md5(i::text), 1, 16), 'hex')::public.xid::text, 1 + i % 11))
            ELSE public.xid_time_range(tstzrange('2026-01-01+00', '2026-01-01+00'::timestamptz + i * interval '1 second')) END,
       'row ' || i
FROM generate_series(1, 30000) AS i;
INSERT INTO events (id, note) VALUES ('jpXCZedGfVQ', 'max'), ('11111111111', 'zero');
CREATE INDEX events_parent_btree ON events (parent);
CREATE INDEX events_parent_hash ON events USING hash (parent);
CREATE INDEX events_minmax ON events USING brin (id public.xid_minmax_ops);
CREATE INDEX events_minmax_multi ON events USING brin (id public.xid_minmax_multi_ops);
CREATE INDEX events_bloom ON events USING brin (parent public.xid_bloom_ops);
CREATE INDEX events_span ON events USING gist (span);

CREATE TABLE log_range (id public.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE log_range_jan PARTITION OF log_range
	FOR VALUES FROM (lower(public.xid_time_range('[2026-01-01+00,)'))) TO (lower(public.xid_time_range('[2026-01-15+00,)')));
CREATE TABLE log_range_rest PARTITION OF log_range DEFAULT;
INSERT INTO log_range SELECT id, 1 FROM events;
CREATE INDEX ON log_range (id);
CREATE TABLE log_hash (id public.xid PRIMARY KEY, v int) PARTITION BY HASH (id);
CREATE TABLE log_hash_0 PARTITION OF log_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE log_hash_1 PARTITION OF log_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE log_hash_2 PARTITION OF log_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO log_hash SELECT id, 2 FROM events;

CREATE VIEW january_10 AS
	SELECT id, note FROM events WHERE id <@ public.xid_time_range('[2026-01-10+00, 2026-01-11+00)');
CREATE FUNCTION by_prefix(p text) RETURNS bigint LANGUAGE sql STABLE
	RETURN (SELECT count(*) FROM events WHERE id ^@ p);
VACUUM ANALYZE;
