# A TimescaleDB hypertable that takes its time from the xid primary key
# (partition_func => xid_time): creation, inserts with DEFAULT xid_new(),
# chunk exclusion for "id >= now() - interval '1 day'", constants and a
# prepared statement's parameters, the primary key index in use inside the
# chunks, the same rows as xid_time(id) OP t, and retention with
# drop_chunks.  Skipped where Debian packages no TimescaleDB for this
# PostgreSQL version (ci/chroot.sh installs it for 17 and 18).
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = PostgreSQL::Test::Cluster->new('tsdb');
plan skip_all => 'TimescaleDB is not installed for PostgreSQL '
  . $node->pg_version->major . ' (ci/chroot.sh installs it for 17 and 18)'
  unless -f $node->config_data('--pkglibdir') . '/timescaledb.so';
$node->init;
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'timescaledb'
timescaledb.telemetry_level = off
max_parallel_workers_per_gather = 0});
$node->start;

# the recipe of docs/partitioning.md: one chunk a day, by the time in the id
$node->safe_psql('postgres', q{
CREATE EXTENSION timescaledb;
CREATE EXTENSION xid;
CREATE TABLE events (
    id      public.xid NOT NULL DEFAULT public.xid_new() PRIMARY KEY,
    payload text
);
SELECT create_hypertable('events', by_range('id', interval '1 day', partition_func => 'public.xid_time'));
-- ten days of ids made in the past, one every 30 seconds, and 100 new ones
INSERT INTO events (id, payload)
SELECT public.xid_new(now() - g * interval '30 seconds'), 'old' FROM generate_series(1, 28800) AS g;
INSERT INTO events (payload) SELECT 'new' FROM generate_series(1, 100);
ANALYZE events;
-- pruning(query): chunks excluded at start-up, the chunks scanned, and the
-- chunks read whole (not through the primary key: the only index)
CREATE FUNCTION pruning(query text, OUT at_startup int, OUT scanned int, OUT not_by_id int)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	SELECT coalesce(max((p ->> 'Chunks excluded during startup')::int), 0),
	       count(*) FILTER (WHERE p ? 'Relation Name' AND p ->> 'Relation Name' LIKE '\_hyper%'),
	       count(*) FILTER (WHERE p ->> 'Node Type' = 'Seq Scan' AND p ->> 'Relation Name' LIKE '\_hyper%')
	INTO at_startup, scanned, not_by_id
	FROM jsonb_path_query(plan, 'strict $.**') AS p
	WHERE jsonb_typeof(p) = 'object';
END
$$;
});
sub sql { return $node->safe_psql('postgres', $_[0]); }
# pruning(SETUP, QUERY): (excluded at start-up, scanned, read whole) for
# QUERY, after the statements SETUP in the same session
sub pruning
{
	my ($setup, $query) = @_;
	my @lines = split /\n/, sql("$setup\nSELECT at_startup, scanned, not_by_id FROM pruning($query)");
	return split /\|/, $lines[-1];
}

my $chunks = sql("SELECT count(*) FROM show_chunks('events')");
ok($chunks >= 10 && $chunks <= 12, "create_hypertable on the id: $chunks daily chunks for ten days of ids");
is(sql("SELECT count(*) FROM events WHERE payload = 'new' AND public.xid_time(id) > now() - interval '1 minute'"),
	'100', "inserts with DEFAULT xid_new() land in today's chunk");

# the natural query: id >= now() - interval '1 day'
my ($startup, $scanned, $notpk) =
  pruning('', q{$$SELECT count(*) FROM events WHERE id >= now() - interval '1 day'$$});
ok($scanned <= 2 && $startup + $scanned == $chunks,
	"id >= now() - interval '1 day': $startup of $chunks chunks excluded at start-up, $scanned scanned");
# Whether the chunk left is read through the primary key is the planner's
# choice by its size: just after midnight UTC today's chunk holds little
# more than the 100 new rows, all of them selected, and a sequential scan is
# right.  What is checked is that the index can be used for the clause in a
# chunk: with sequential scans disabled, a chunk without an index path would
# still be read whole.
($startup, $scanned, $notpk) = pruning('SET enable_seqscan = off;',
	q{$$SELECT count(*) FROM events WHERE id >= now() - interval '10 minutes'$$});
# two chunks are left in the first ten minutes of a day (UTC)
my $left = sql("SELECT CASE WHEN date_trunc('day', now() - interval '10 minutes', 'UTC') = date_trunc('day', now(), 'UTC') THEN 1 ELSE 2 END");
ok($scanned == $left && $startup + $scanned == $chunks && $notpk == 0,
	"id >= now() - interval '10 minutes': $startup chunks excluded at start-up, the $left left can be read through the primary key");
# (both counts in one statement: one now() for both)
is(sql("SELECT (SELECT count(*) FROM events WHERE id >= now() - interval '1 day') = (SELECT count(*) FROM events WHERE public.xid_time(id) >= now() - interval '1 day')"),
	't', "id >= now() - interval '1 day': the rows of xid_time(id) >= now() - interval '1 day'");

# a constant: excluded when planning
($startup, $scanned, $notpk) = pruning('',
	q{format('SELECT count(*) FROM events WHERE id >= %L::timestamptz AND id < %L::timestamptz', now() - interval '3 days', now() - interval '2 days')});
ok($scanned <= 2 && $startup == 0, "a constant window of one day: excluded when planning, $scanned chunks in the plan");

# a prepared statement's generic plan, as ORMs send it
($startup, $scanned, $notpk) = pruning(
	'SET plan_cache_mode = force_generic_plan; PREPARE since(timestamptz) AS SELECT count(*) FROM events WHERE id >= $1;',
	q{format('EXECUTE since(%L)', now() - interval '1 day')});
ok($scanned <= 2 && $startup + $scanned == $chunks,
	"prepared id >= \$1 (generic plan): $startup chunks excluded at start-up, $scanned scanned");

# the same rows as xid_time(id) OP t for every operator, at and around
# chunk boundaries, with a parameter-like stable time
is(sql(q{
SELECT count(*) FROM
	(SELECT date_trunc('day', now(), 'UTC') - k * interval '1 day' + o AS t
	 FROM generate_series(0, 10) AS k,
	      unnest('{0 s, 1 ms, -1 ms, 0.5 ms, 6 hours}'::interval[]) AS o) AS times,
	LATERAL (SELECT
		(SELECT count(*) FROM events WHERE id >= t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) >= t) AS ge,
		(SELECT count(*) FROM events WHERE id > t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) > t) AS gt,
		(SELECT count(*) FROM events WHERE id < t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) < t) AS lt,
		(SELECT count(*) FROM events WHERE id <= t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) <= t) AS le,
		(SELECT count(*) FROM events WHERE NOT (id >= t::text::timestamptz)) - (SELECT count(*) FROM events WHERE NOT (public.xid_time(id) >= t)) AS nge) AS d
WHERE ge <> 0 OR gt <> 0 OR lt <> 0 OR le <> 0 OR nge <> 0}),
	'0', 'every operator at 55 times around chunk boundaries: the rows of xid_time(id) OP t');

# retention: drop_chunks by the time in the id
my $before = sql('SELECT count(*) FROM events');
my $dropped = sql("SELECT count(*) FROM drop_chunks('events', older_than => interval '5 days')");
$left = sql("SELECT count(*) FROM show_chunks('events')");
my $oldest = sql("SELECT min(public.xid_time(id)) >= date_trunc('day', now() - interval '5 days', 'UTC') - interval '1 day' FROM events");
ok($dropped >= 4 && $dropped + $left == $chunks && $oldest eq 't',
	"drop_chunks(older_than => 5 days): $dropped of $chunks chunks dropped, $left left, no row older than their range");
ok(sql('SELECT count(*) FROM events') < $before
	  && sql("SELECT (SELECT count(*) FROM events WHERE public.xid_time(id) >= now() - interval '4 days') = (SELECT count(*) FROM events WHERE id >= now() - interval '4 days')") eq 't',
	'drop_chunks removed only the rows of the dropped chunks');

done_testing();
