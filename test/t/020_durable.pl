# Ids that never go back.  A primary, with the library preloaded and its
# clock moved by libfaketime, goes through a clean restart, an immediate
# stop (a crash), the kill -9 of a backend under load (crash recovery) and
# the promotion of a streaming standby after the primary dies, with the
# clock 0 s, 10 min and 1 h back; the promoted standby, its own clock a
# further 10 min behind, is the primary of the next round.  After each
# event a load by concurrent writers, and then: every new id (stored, or
# returned to a client and never stored) above every id stored or returned
# before, and no duplicate at all.  Also: one WAL record per lease, not per
# id; xid.max_ahead refuses ids too far ahead of the clock, with SQLSTATE
# 2200H; the run-ahead WARNING, at most once a minute per database;
# xid_generator_status(); a hot standby's xid_new(); pg_dump carrying the
# mark; and the same without shared_preload_libraries (the DSM registry on
# 17+, the spare shared memory on 15 and 16).
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

# The clock of a server: libfaketime (Debian's package) reads the offset
# (seconds, "-600") from the node's clock file at most a second old, so it
# can also step while the server runs.  Monotonic clocks (timeouts) stay
# real; NO_FAKE_STAT and FAKETIME_DISABLE_SHM (which 0.9.10, bookworm's,
# ignores): libfaketime otherwise takes a semaphore shared by every process
# of the server around each stat(), and a backend killed holding it (kill
# -9, or the SIGQUIT of the crash restart) left the postmaster waiting on it
# forever in its restart.
my ($libfaketime) = grep { -e } glob '/usr/lib/*/faketime/libfaketime.so.1';
plan skip_all => 'libfaketime is not installed (apt-get install libfaketime)' unless $libfaketime;
my $tmp = PostgreSQL::Test::Utils::tempdir();
sub set_clock { my ($node, $offset) = @_; unlink "$tmp/" . $node->name; append_to_file("$tmp/" . $node->name, "$offset\n") }
# with_clock(NODE, METHOD, ARGS): NODE->METHOD(ARGS) (start, restart), the
# server started under libfaketime
sub with_clock
{
	my ($node, $method, @args) = @_;
	local %ENV = (%ENV, LD_PRELOAD => $libfaketime, DONT_FAKE_MONOTONIC => 1, NO_FAKE_STAT => 1,
		FAKETIME_DISABLE_SHM => 1, FAKETIME_TIMESTAMP_FILE => "$tmp/" . $node->name, FAKETIME_CACHE_DURATION => 1);
	$node->$method(@args);
}
# the clients see no run-ahead WARNING; the server's log has them
$ENV{PGOPTIONS} = '-c client_min_messages=error';
my $returned = "$tmp/returned.txt";
my @nodes;

# load_start(NODE, PHASE): four writers at once (pgbench, a connection per
# transaction), 20 transactions of 250 rows each, and a client that takes
# 300 ids and stores none (kept in returned.txt).  load_finish(LOAD) returns
# only once every writer has stopped, also when one failed (a writer stops
# at its first failure, as in the crash of the kill -9 phase): a writer that
# outlived the crash must not go on writing this phase's rows into the next
# phase.  True if nothing failed; load(NODE, PHASE) dies then.  Further
# arguments go to pgbench (the kill -9 phase holds the writers to 40
# transactions a second, so that they are still writing when the backend is
# killed: pgbench would be done before).
append_to_file("$tmp/load.sql", "INSERT INTO ids (phase, w) SELECT :phase, :client_id + 1 FROM generate_series(1, 250);\n");
sub load_start
{
	my ($node, $phase, @opts) = @_;
	my %l = (out => '', err => '', ids => '');
	$l{writers} = IPC::Run::start([ 'pgbench', '-n', '-C', '-c', 4, '-j', 2, '-t', 20, '-D', "phase=$phase",
		'-f', "$tmp/load.sql", @opts, $node->connstr('postgres') ], '>', \$l{out}, '2>', \$l{out});
	$l{client} = IPC::Run::start([ 'psql', '-X', '-q', '-At', '-F', ' ', '-v', 'ON_ERROR_STOP=1',
		'-d', $node->connstr('postgres'), '-c', "SELECT public.xid_new(), $phase FROM generate_series(1, 300)" ],
		'>', \$l{ids}, '2>', \$l{err});
	return \%l;
}
sub load_finish
{
	my ($l) = @_;
	my $ok = $l->{client}->finish;
	append_to_file($returned, $l->{ids});
	$l->{writers}->finish or $ok = 0;
	return $ok;
}
sub load { my $l = load_start(@_); load_finish($l) or die "load of phase $_[1] failed: $l->{out}$l->{err}" }

# verify(NODE, PHASE, WHAT): the ids of PHASE above all earlier ones, none twice
sub verify
{
	my ($node, $phase, $what) = @_;
	$node->safe_psql('postgres', "TRUNCATE returned;\n\\copy returned FROM '$returned' (DELIMITER ' ')");
	my ($n, $above, $dups, $ahead) = split /\|/, $node->safe_psql('postgres', qq{
		WITH everything AS (SELECT id, phase FROM ids UNION ALL SELECT id, phase FROM returned),
		before AS (SELECT max(id) AS top FROM everything WHERE phase < $phase),
		now AS (SELECT min(id) AS low, count(*) AS n FROM everything WHERE phase = $phase)
		SELECT n, coalesce(low > top, true),
		       (SELECT count(*) - count(DISTINCT id) FROM everything),
		       round(extract(epoch FROM public.xid_time(low) - clock_timestamp()))
		FROM now, before});
	note("$what: $n new ids, time field $ahead s from the clock");
	cmp_ok($n, '>=', 20300, "$what: every new id is there");
	is($above, 't', "$what: all above every earlier id");
	is($dups, '0', "$what: no id twice");
	return if $above eq 't' && $dups eq '0';
	# what went wrong: the ids of earlier phases at or above this phase's
	# lowest, and where they came from (the clock is the server's, as "made")
	diag($node->safe_psql('postgres', qq{
		WITH everything AS (SELECT id, phase, 'stored' AS src, at FROM ids
		                    UNION ALL SELECT id, phase, 'returned', NULL FROM returned),
		low AS (SELECT min(id) AS low FROM everything WHERE phase = $phase)
		SELECT 'earlier ids at or above this phase''s lowest:', phase, src, count(*), min(id), max(id),
		       public.xid_time(max(id)), 'made', min(at), max(at)
		FROM everything, low WHERE phase < $phase AND id >= low GROUP BY phase, src
		UNION ALL
		SELECT 'this phase''s lowest:', $phase, min(src), 0, low, low, public.xid_time(low), 'made', min(at), max(at)
		FROM everything, low WHERE id = low GROUP BY low}));
	diag(join '', grep { /all server processes terminated|database system is ready to accept connections/ }
		split /^/, slurp_file($node->logfile));
}

# setup(NODE): the extension, the table of stored ids and that of the ids
# returned to a client (filled from returned.txt by verify), no ids yet
sub setup
{
	my ($node) = @_;
	$node->safe_psql('postgres', q{
		CREATE EXTENSION xid;
		CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), phase int NOT NULL, w int NOT NULL,
			at timestamptz NOT NULL DEFAULT clock_timestamp());
		CREATE TABLE returned (id public.xid NOT NULL, phase int NOT NULL);
	});
	unlink $returned;
	append_to_file($returned, '');
}

# a primary, restarted under libfaketime
my $p = xid_node('n1', allows_streaming => 1, conf => "max_connections = 40\nshared_buffers = 256MB\n"
	. "max_wal_senders = 4\nwal_keep_size = '256MB'\nrestart_after_crash = on");
push @nodes, $p;
set_clock($p, '-0');
$p->stop;
with_clock($p, 'start');
setup($p);
my $phase = 1;
load($p, $phase);

# one WAL record per lease (a second), however many ids: ids for 3 s
my ($made, $records, $seconds) = split /\|/, $p->safe_psql('postgres', q{
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
SELECT pg_current_wal_flush_lsn() AS a, clock_timestamp() AS t0 \gset
CREATE TEMP TABLE made (n bigint);
DO $$
DECLARE
	n bigint := 0;
	t0 timestamptz := clock_timestamp();
BEGIN
	WHILE clock_timestamp() < t0 + interval '3 s' LOOP
		PERFORM count(public.xid_new()) FROM generate_series(1, 100000);
		n := n + 100000;
	END LOOP;
	INSERT INTO made VALUES (n);
END
$$;
SELECT (SELECT n FROM made), count(*), ceil(extract(epoch FROM clock_timestamp() - :'t0'))
FROM pg_get_wal_records_info(:'a', pg_current_wal_flush_lsn())
WHERE resource_manager = 'Generic';
});
note("$made ids in $seconds s wrote $records WAL records of the mark");
ok($records >= 2 && $records <= $seconds + 1, "one WAL record of the mark per lease: $records in $seconds s");

my $promoted;
for my $offset (0, 600, 3600)
{
	# the clock steps back: a clean restart
	set_clock($p, "-$offset");
	$p->stop('fast');
	with_clock($p, 'start');
	load($p, ++$phase);
	verify($p, $phase, "clock -${offset}s, clean restart");

	# a crash: immediate stop
	$p->stop('immediate');
	with_clock($p, 'start');
	load($p, ++$phase);
	verify($p, $phase, "clock -${offset}s, immediate stop");

	# kill -9 of a backend under load: the server goes through crash recovery
	my $log_offset = -s $p->logfile;
	my $l = load_start($p, ++$phase, '-R', 40);
	my $big = IPC::Run::start([ 'psql', '-X', '-d', $p->connstr('postgres'), '-c',
		"INSERT INTO ids (phase, w) SELECT $phase, 9 FROM generate_series(1, 5000000)" ],
		'>&', \my $big_out);
	my $victim = q{FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 5000000)' AND pid <> pg_backend_pid()};
	$p->poll_query_until('postgres', "SELECT count(*) > 0 $victim") or die 'the big insert did not start';
	$victim = $p->safe_psql('postgres', "SELECT pid $victim");
	sleep 0.3;
	kill 'KILL', $victim;
	load_finish($l);
	$big->finish;
	ok($p->wait_for_log(qr/terminated by signal 9/, $log_offset),
		"clock -${offset}s: a backend was killed");
	$p->poll_query_until('postgres', 'SELECT true') or die 'the server did not come back';
	my $killed = $p->safe_psql('postgres', "SELECT count(*) FROM ids WHERE phase = $phase");
	load($p, ++$phase);
	# the phases did not overlap: no writer of the kill phase wrote on
	is($p->safe_psql('postgres', 'SELECT count(*) FROM ids WHERE phase = ' . ($phase - 1)), $killed,
		"clock -${offset}s, kill -9: $killed rows of that phase, none added after its writers were waited for");
	verify($p, $phase, "clock -${offset}s, kill -9 of a backend under load");

	# a streaming standby whose clock is 10 minutes behind the primary's
	my $s = PostgreSQL::Test::Cluster->new('n' . (@nodes + 1));
	push @nodes, $s;
	set_clock($s, '-' . ($offset + 600));
	$p->backup('b');
	$s->init_from_backup($p, 'b', has_streaming => 1);
	with_clock($s, 'start');
	load($p, ++$phase);
	# a hot standby issues ids, but no mark: it writes no WAL
	my $sid = $s->safe_psql('postgres', 'SELECT public.xid_new()');
	isnt($sid, '', "hot standby: xid_new() works ($sid)");
	is($s->safe_psql('postgres', 'SELECT durable FROM public.xid_generator_status()'), 'f',
		'hot standby: not durable');
	$p->wait_for_catchup($s);
	# the primary dies: kill -9 of every process
	kill9_all($p);
	$s->promote;
	$promoted = time;
	load($s, ++$phase);
	verify($s, $phase, "clock -${offset}s, standby " . ($offset + 600) . "s behind promoted after the primary died");
	$p = $s;
}

# the run-ahead warning: once per database and minute (one database here)
my $warning = qr/WARNING:  new xids are [0-9]* ms ahead of the clock/;
my $warnings = () = slurp_file($p->logfile) =~ /$warning/g;
my $minutes = int((time - $promoted) / 60) + 1;
ok($warnings >= 1 && $warnings <= $minutes,
	"run-ahead WARNING in the promoted standby's log: $warnings in less than $minutes min");
# and in every server's log: never two within a minute of one run of the
# server (sessions read the clock a few milliseconds apart, in any order:
# the one that warns second must still see the first's warning)
my ($all, $twice, $last) = (0, 0);
for my $line (map { split /^/, slurp_file($_->logfile) } @nodes)
{
	undef $last if $line =~ /database system is ready to accept/;
	next unless $line =~ /$warning/;
	$all++;
	my ($h, $m, $sec) = (split / /, $line)[1] =~ /^(\d+):(\d+):([\d.]+)/;
	my $t = $h * 3600 + $m * 60 + $sec;
	if (defined $last && abs($t - $last) < 60)
	{
		$twice++;
		diag($line);
	}
	$last = $t;
}
is($twice, 0, "run-ahead WARNINGs in every server's log: $all, none within a minute of another in one run");
cmp_ok($all, '>=', 3, "run-ahead WARNINGs in every server's log: $all, at least 3");

# the state, visible
my ($last_ahead, $mark_ahead, $durable) = split /\|/, $p->safe_psql('postgres', q{
	SELECT round(extract(epoch FROM last_ahead)), round(extract(epoch FROM mark_ahead)), durable
	FROM public.xid_generator_status()});
cmp_ok($last_ahead, '>=', 4000, "xid_generator_status(): last id $last_ahead s ahead of the clock");
cmp_ok($mark_ahead, '>=', $last_ahead, "xid_generator_status(): mark $mark_ahead s ahead, not behind the last id");
is($durable, 't', 'xid_generator_status(): durable');

# a bound on running ahead: refused with a clear error, never an id that goes back
$p->safe_psql('postgres', "ALTER SYSTEM SET xid.max_ahead = '1h';\nSELECT pg_reload_conf()");
sleep 0.3;
$p->psql('postgres', "\\set VERBOSITY verbose\nSELECT public.xid_new()", stderr => \my $err);
like($err, qr/ERROR:  2200H: new xid would be [0-9]* ms ahead of the clock, beyond xid.max_ahead \(3600000 ms\)/,
	'xid.max_ahead = 1h refuses, with SQLSTATE 2200H');
$p->safe_psql('postgres', "ALTER SYSTEM SET xid.max_ahead = '3h';\nSELECT pg_reload_conf()");
sleep 0.3;
load($p, ++$phase);
verify($p, $phase, 'xid.max_ahead = 3h admits them again');

# pg_dump carries the mark (the extension marks its sequence for dumping)
$p->safe_psql('postgres', 'CREATE DATABASE restored');
IPC::Run::run([ 'pg_dump', '-d', $p->connstr('postgres') ], '|',
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $p->connstr('restored') ], '>', '/dev/null')
  or die 'pg_dump and restore failed';
my ($mark_src, $mark_dst) = map { $p->safe_psql($_, 'SELECT last_value FROM public.xid_durable_mark') }
  ('postgres', 'restored');
cmp_ok($mark_src, '>', 0, "the mark is set ($mark_src)");
is($mark_dst, $mark_src, 'pg_dump and restore carry the mark');

# No preloading needed: the DSM registry (17+) or the server's spare shared
# memory (15 and 16) holds the shared state
my $np = xid_node('nopreload', preload => 0, conf => 'wal_level = replica');
push @nodes, $np;
set_clock($np, '-0');
$np->stop;
with_clock($np, 'start');
setup($np);
load($np, 1);
set_clock($np, '-600');
$np->stop('immediate');
with_clock($np, 'start');
load($np, 2);
verify($np, 2, 'without shared_preload_libraries, clock -600s, immediate stop');

done_testing();
