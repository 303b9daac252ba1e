# pg_dump a database that installed xid in a non-public schema and uses xid
# columns, indexes, ranges and partitions; restore it into a new database;
# the data (checksums of ordered text output) and the plans of prefix
# queries must be identical.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('dump_restore');
$node->safe_psql('postgres', 'CREATE DATABASE src');
$node->safe_psql('src', q{
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
});

my $dump = PostgreSQL::Test::Utils::tempdir() . '/src.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', 'src' ], 'pg_dump of the database');
$node->safe_psql('postgres', 'CREATE DATABASE dst');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'dst', $dump ],
	'pg_restore --exit-on-error into a new database');
$node->safe_psql('dst', 'ANALYZE');

my $checksums = q{
	SELECT 'events', count(*), md5(string_agg(format('%s|%s|%s|%s|%s', id, parent, span, spans, note), ',' ORDER BY id)) FROM events;
	SELECT 'log', count(*), md5(string_agg(format('%s|%s|%s', tableoid::regclass, id, v), ',' ORDER BY id)) FROM log;
	SELECT 'recent', count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM recent;
};
# vacuumed first, so autovacuum cannot leave one database's plans different
my $plans = q{
	VACUUM ANALYZE;
	SET enable_seqscan = off;
	SET search_path = ids, public;
	EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id ^@ '5LyZ';
	EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id <@ ids.xid_prefix_range('5LyZ');
	EXPLAIN (COSTS OFF) SELECT * FROM events WHERE parent = '5cnEkaefSdu';
	EXPLAIN (COSTS OFF) SELECT * FROM log WHERE id <@ ids.xid_time_range('[2026-01-05+00, 2026-01-06+00)');
	SELECT count(*) FROM events WHERE id ^@ '5LyZ';
};
my $src_sums = $node->safe_psql('src', $checksums);
is($node->safe_psql('dst', $checksums), $src_sums,
	'the restored tables and view hold the same rows (ordered checksums)');
my $src_plans = $node->safe_psql('src', $plans);
is($node->safe_psql('dst', $plans), $src_plans, 'the restored database plans the prefix queries alike');
like($src_plans, qr/Index Cond: \(\(id >= /, 'a prefix query is an index range scan');
like($src_plans, qr/log_2026_01/, 'the time range query scans its partition');
unlike($src_plans, qr/log_rest/, 'and the default partition is pruned');
note(scalar(() = $src_sums =~ /^./mg) . ' tables identical, '
	  . scalar(() = $src_plans =~ /^./mg) . ' plan lines identical');

done_testing();
