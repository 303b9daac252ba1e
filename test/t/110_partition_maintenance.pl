# The partition maintenance procedure of docs/partitioning.md, taken from
# that page itself: it creates the current and the next partitions, keeps
# them when run again, drops only the partitions older than the retention,
# and the table it keeps prunes at run time.  Where Debian packages pg_cron
# for this version, pg_cron runs it; where it packages pg_partman,
# pg_partman must still refuse an xid column (docs/partitioning.md says so).
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

# the procedure exactly as docs/partitioning.md shows it
my ($recipe) = slurp_file("$FindBin::RealBin/../../docs/partitioning.md")
  =~ /^(-- xid_maintain_partitions: begin\n.*?^-- xid_maintain_partitions: end)$/ms;
ok(($recipe // '') =~ tr/\n// >= 20, 'docs/partitioning.md holds the maintenance procedure');

my $node = PostgreSQL::Test::Cluster->new('maint');
my $major = $node->pg_version->major;
my $cron = -f $node->config_data('--pkglibdir') . '/pg_cron.so';
my $partman = -f $node->config_data('--sharedir') . '/extension/pg_partman.control';
$node->init;
$node->append_conf('postgresql.conf', 'max_parallel_workers_per_gather = 0');
$node->append_conf('postgresql.conf', q{
shared_preload_libraries = 'pg_cron'
cron.database_name = 'postgres'
cron.use_background_workers = on
max_worker_processes = 20}) if $cron;
$node->start;
sub sql { return $node->safe_psql('postgres', $_[0]); }

sql("CREATE EXTENSION xid;\n$recipe");
sql(q{
CREATE TABLE events (id public.xid NOT NULL DEFAULT public.xid_new(), payload text,
                     PRIMARY KEY (id)) PARTITION BY RANGE (id);
-- a partition of long ago, with rows, for the retention to drop
CREATE TABLE events_old PARTITION OF events
    FOR VALUES FROM (public.xid_time_lower_bound(date_trunc('day', now(), 'UTC') - interval '100 days', true))
                 TO (public.xid_time_lower_bound(date_trunc('day', now(), 'UTC') - interval '99 days', true));
INSERT INTO events (id, payload)
SELECT public.xid_new(date_trunc('day', now(), 'UTC') - interval '100 days' + g * interval '1 minute'), 'old'
FROM generate_series(1, 100) AS g});

# exact(PARENT, UNIT, FIRST, N): how many of the N partitions of PARENT, one
# UNIT each from FIRST (an SQL expression of a timestamptz) on, exist with
# exactly those bounds
sub exact
{
	my ($parent, $unit, $first, $n) = @_;
	return sql(qq{
	SELECT count(*) FROM generate_series(0, $n - 1) AS k, (SELECT $first AS first) f
	WHERE EXISTS (SELECT FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid
	              WHERE i.inhparent = '$parent'::regclass
	                AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%L) TO (%L)',
	                    public.xid_time_lower_bound(f.first + k * interval '1 $unit', true),
	                    public.xid_time_lower_bound(f.first + (k + 1) * interval '1 $unit', true)))});
}
# parts(PARENT, [NAME_RE]): how many partitions PARENT has (named to match)
sub parts
{
	my ($parent, $re) = @_;
	return sql("SELECT count(*) FROM pg_inherits WHERE inhparent = '$parent'::regclass"
		  . ($re ? " AND inhrelid::regclass::text ~ '$re'" : ''));
}

sql("CALL xid_maintain_partitions('events', 'day', 4, interval '90 days')");
is(parts('events'), '5', "today's partition and four more were made, the one of 100 days ago dropped");
is(exact('events', 'day', "date_trunc('day', now(), 'UTC')", 5), '5',
	'each made partition holds exactly one UTC day of ids');
my $today = sql("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')");
ok(parts('events', '^events_[0-9]{8}$') == 5
	  && $node->psql('postgres', "SELECT count(*) FROM events_$today") == 0,
	"the partitions are named as docs/partitioning.md says (events_$today ...) and written without quotes");
sql("INSERT INTO events (payload) SELECT 'new' FROM generate_series(1, 1000)");
sql("CALL xid_maintain_partitions('events', 'day', 4, interval '90 days')");
ok(parts('events') == 5 && sql('SELECT count(*) FROM events') == 1000,
	'run again: the same partitions, the new rows kept');
sql(q{CREATE TABLE monthly (id public.xid NOT NULL) PARTITION BY RANGE (id);
	CALL xid_maintain_partitions('monthly', 'month', 2)});
is(parts('monthly', '^monthly_[0-9]{6}01$'), '3', 'a monthly table: this month and the next two, named monthly_YYYYMM01');
my ($removed) = sql("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM events WHERE id >= now() - interval '1 hour' AND id < now()")
  =~ /Subplans Removed: (\d+)/;
ok(($removed // 0) >= 3, 'the last hour on the kept table: ' . ($removed // 'no') . ' of 5 partitions removed at start-up');

# pg_cron runs the procedure
SKIP:
{
	skip "pg_cron is not installed for PostgreSQL $major (ci/chroot.sh installs it for 17 and 18)", 2 unless $cron;
	sql(q{CREATE EXTENSION pg_cron;
		CREATE TABLE cron_events (id public.xid NOT NULL) PARTITION BY RANGE (id);
		SELECT cron.schedule('xid-partitions', '2 seconds', $$CALL xid_maintain_partitions('cron_events', 'hour', 3)$$)});
	$node->poll_query_until('postgres', "SELECT count(*) > 0 FROM cron.job_run_details WHERE status = 'succeeded'");
	# stopped before counting (a run after an hour began adds its hour); the
	# hours from that of the last run on
	sql("SELECT cron.unschedule('xid-partitions')");
	is(exact('cron_events', 'hour',
		"(SELECT date_trunc('hour', max(start_time), 'UTC') FROM cron.job_run_details WHERE status = 'succeeded')", 4),
		'4', "pg_cron ran the procedure: the current hour's partition and three more");
	is(sql("SELECT count(*) FROM pg_inherits WHERE inhparent = 'cron_events'::regclass AND inhrelid::regclass::text !~ '^cron_events_[0-9]{8}_[0-9]{2}\$'"),
		'0', 'hourly partitions are named cron_events_YYYYMMDD_HH');
}

# pg_partman still refuses xid, as docs/partitioning.md ("pg_partman") says
SKIP:
{
	skip "pg_partman is not installed for PostgreSQL $major (ci/chroot.sh installs it for 17 and 18)", 1 unless $partman;
	sql('CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman');
	my ($rc, $out, $err) = $node->psql('postgres', q{
		CREATE TABLE pm (id public.xid NOT NULL) PARTITION BY RANGE (id);
		SELECT partman.create_parent('public.pm', 'id', '1 day')});
	like($err, qr/Supplied column is of type xid/,
		'pg_partman ' . sql("SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'")
		  . " refuses an xid column: docs/partitioning.md's pg_partman section still holds");
}

done_testing();
