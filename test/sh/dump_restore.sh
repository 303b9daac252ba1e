#!/usr/bin/env bash
# test/sh/dump_restore.sh: pg_dump a database that installed xid in a
# non-public schema and uses xid columns, indexes, ranges and partitions;
# restore it into a new database; the data (checksums of ordered text
# output) and the plans of prefix queries must be identical.
#
# Called by ci/suite.sh with XID_BINDIR, XID_WORK and PG* of a running
# cluster.
set -euo pipefail
bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql -d postgres -c "DROP DATABASE IF EXISTS xid_dump_src" -c "DROP DATABASE IF EXISTS xid_dump_dst" 2>/dev/null
psql -d postgres -c "CREATE DATABASE xid_dump_src"
psql -d xid_dump_src <<'SQL'
CREATE SCHEMA ids;
CREATE EXTENSION xid SCHEMA ids;
CREATE TABLE events (
	id ids.xid PRIMARY KEY DEFAULT ids.xid_new(),
	parent ids.xid,
	span ids.xidrange,
	spans ids.xidmultirange,
	note text
);
CREATE INDEX events_brin ON events USING brin (id ids.xid_minmax_multi_ops);
CREATE INDEX events_parent ON events USING hash (parent);
CREATE INDEX events_span ON events USING gist (span);
INSERT INTO events (id, parent, span, spans, note)
SELECT ids.xid_new('2026-01-01+00'::timestamptz + i * interval '1 minute'),
       decode(substr(md5(i::text), 1, 16), 'hex')::ids.xid,
       ids.xid_prefix_range(left(decode(substr(md5(i::text), 1, 16), 'hex')::ids.xid::text, 1 + i % 11)),
       ids.xidmultirange(ids.xid_prefix_range('5c'), ids.xid_time_range(tstzrange('2026-01-01+00', '2026-01-01+00'::timestamptz + i * interval '1 second'))),
       'row ' || i
FROM generate_series(1, 20000) AS i;
INSERT INTO events (id, note) VALUES ('jpXCZedGfVQ', 'max'), ('11111111111', 'zero');

CREATE TABLE log (id ids.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE log_2026_01 PARTITION OF log
	FOR VALUES FROM (lower(ids.xid_time_range('[2026-01-01+00,)'))) TO (lower(ids.xid_time_range('[2026-02-01+00,)')));
CREATE TABLE log_rest PARTITION OF log DEFAULT;
INSERT INTO log SELECT id, 1 FROM events;
CREATE INDEX ON log (id);
CREATE VIEW recent AS SELECT * FROM events WHERE id <@ ids.xid_time_range('[2026-01-10+00,)');
ANALYZE;
SQL

"$bindir/pg_dump" -Fc -f "$work/src.dump" xid_dump_src
psql -d postgres -c "CREATE DATABASE xid_dump_dst"
"$bindir/pg_restore" --exit-on-error -d xid_dump_dst "$work/src.dump"
psql -d xid_dump_dst -c "ANALYZE"

checksums()
{
	psql -d "$1" -A -t <<'SQL'
SELECT 'events', count(*), md5(string_agg(format('%s|%s|%s|%s|%s', id, parent, span, spans, note), ',' ORDER BY id)) FROM events;
SELECT 'log', count(*), md5(string_agg(format('%s|%s|%s', tableoid::regclass, id, v), ',' ORDER BY id)) FROM log;
SELECT 'recent', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM recent;
SQL
}
# vacuumed first, so autovacuum cannot leave one database's plans different
plans()
{
	psql -d "$1" -A -t <<'SQL'
VACUUM ANALYZE;
SET enable_seqscan = off;
SET search_path = ids, public;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ '5LyZ';
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id <@ ids.xid_prefix_range('5LyZ');
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE parent = '5cnEkaefSdu';
EXPLAIN (COSTS OFF) SELECT * FROM log WHERE id <@ ids.xid_time_range('[2026-01-05+00, 2026-01-06+00)');
SELECT count(*) FROM events WHERE id ^@ '5LyZ';
SQL
}
checksums xid_dump_src >"$work/src.sums"
checksums xid_dump_dst >"$work/dst.sums"
plans xid_dump_src >"$work/src.plans"
plans xid_dump_dst >"$work/dst.plans"
diff "$work/src.sums" "$work/dst.sums"
diff "$work/src.plans" "$work/dst.plans"
grep -q "Index Cond: ((id >= " "$work/src.plans" || { echo "no index range scan in the plans"; cat "$work/src.plans"; exit 1; }
grep -q "log_2026_01" "$work/src.plans" && ! grep -q "log_rest" "$work/src.plans" ||
	{ echo "partitions not pruned"; cat "$work/src.plans"; exit 1; }
psql -d postgres -c "DROP DATABASE xid_dump_src" -c "DROP DATABASE xid_dump_dst"
echo "dump and restore: $(wc -l <"$work/src.sums") tables identical, $(grep -c . "$work/src.plans") plan lines identical"
