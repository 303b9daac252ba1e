# xid_new() on a server without shared_preload_libraries, as README's quick
# start leaves it.  The state is shared on every version (the DSM registry
# on 17+, the server's spare shared memory on 15 and 16), so:
#
# - xid_generator_status() shows the database scope, durable;
# - 8 concurrent pgbench clients inserting with DEFAULT xid_new() under a
#   primary key: no failed transaction (no duplicate), each client's ids
#   strictly increasing, and every id above every id its statement could
#   see committed (strictly increasing across sessions); the same with a
#   new connection per transaction (the library loaded anew each time);
# - a query whose parallel workers make ids (through a parallel-safe
#   wrapper of the C function: xid_new() itself is PARALLEL RESTRICTED),
#   run beside them: no duplicate, all above what was committed before it;
# - a clean restart, an immediate stop (a crash) and the kill -9 of a
#   backend (the postmaster's crash restart): new ids above every id before
#   and above the durable mark read before;
# - 15 and 16: with the spare shared memory used up (test/eat_shmem.c takes
#   it all), xid_new() fails with SQLSTATE 53200 and a hint to preload the
#   library, and DROP DATABASE in a session that loaded it still works.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('no_preload', preload => 0,
	conf => "max_worker_processes = 16\nmax_parallel_workers = 8\nrestart_after_crash = on");
my $q = sub { $node->safe_psql('postgres', $_[0]) };
is($q->('SHOW shared_preload_libraries'), '', 'shared_preload_libraries is empty');

$q->(q{
	CREATE EXTENSION xid;
	CREATE TABLE ids (
	    id public.xid PRIMARY KEY DEFAULT public.xid_new(),
	    run int NOT NULL,           -- one pgbench run
	    client int NOT NULL,
	    counter bigint NOT NULL,
	    seen public.xid  -- the largest id committed before the statement
	);
	-- the C function, parallel safe, so that parallel workers make ids
	CREATE FUNCTION par_new() RETURNS public.xid AS '$libdir/xid', 'xid_new'
	    LANGUAGE C VOLATILE PARALLEL SAFE;
	CREATE FUNCTION par_pid() RETURNS int AS 'pg_backend_pid'
	    LANGUAGE internal VOLATILE PARALLEL SAFE;
	CREATE TABLE src AS SELECT g FROM generate_series(1, 200000) AS g;
	ANALYZE src;
});
my $status = sub { $q->(q{SELECT scope || ' ' || durable FROM public.xid_generator_status()}) };
$q->('SELECT public.xid_new()');
is($status->(), 'database true', 'xid_generator_status() without preloading: scope database, durable');

# pgbench_run(NAME, ARGS): 8 clients, run number $runs; no failed transaction
my $runs = 0;
sub pgbench_run
{
	my ($name, @args) = @_;
	$runs++;
	$node->pgbench("-n -c 8 -j 2 -D counter=0 -D run=$runs", 0,
		[qr/number of failed transactions: 0 /], [], "pgbench $name: 8 clients, no failed transaction",
		{ "insert_$runs.sql" => q{
\set counter :counter + 1
INSERT INTO ids (run, client, counter, seen) SELECT :run, :client_id, :counter, (SELECT max(id) FROM ids);
} }, @args, 'postgres');
}

# the parallel query, beside the first pgbench run: workers only
my $before = $q->('INSERT INTO ids (run, client, counter) VALUES (0, 0, 0) RETURNING id');
my $par_out;
my $parallel = IPC::Run::start(
	[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres') ],
	'<', \q{
	SET max_parallel_workers_per_gather = 4;
	SET parallel_leader_participation = off;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	CREATE TABLE par AS SELECT par_new() AS id, par_pid() AS pid FROM src;
}, '>&', \$par_out);
pgbench_run('one connection each', '-t', 2000);
ok($parallel->finish, 'the parallel query ran') or diag($par_out);
pgbench_run('a connection per transaction', '-t', 100, '-C');

my ($rows, $dups, $unordered, $unseen, $par_rows, $par_pids, $par_dups, $par_below) =
  split /\|/, $q->(qq{
	SELECT (SELECT count(*) FROM ids),
	       (SELECT count(*) - count(DISTINCT id) FROM ids),
	       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY run, client ORDER BY counter) AS prev
	                              FROM ids) s WHERE id <= prev),
	       (SELECT count(*) FROM ids WHERE id <= seen),
	       (SELECT count(*) FROM par),
	       (SELECT count(DISTINCT pid) FROM par),
	       (SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM par UNION ALL SELECT id FROM ids) u),
	       (SELECT count(*) FROM par WHERE id <= '$before'::public.xid)});
is($rows, 16801, '8 sessions: every row is there');
is($dups, 0, '8 sessions: no duplicate');
is($unordered, 0, '8 sessions: ids strictly increasing within a client');
is($unseen, 0, '8 sessions: every id above every id committed before its statement');
is($par_rows, 200000, 'parallel workers: every row is there');
cmp_ok($par_pids, '>=', 2, "parallel workers: ids from $par_pids workers");
is($par_dups, 0, "parallel workers: no duplicate with each other or the sessions' ids");
is($par_below, 0, 'parallel workers: all above the ids committed before');

# mark_before(): the last id and the mark before an event, the mark's WAL
# flushed (a mark written but not flushed yet covers no id, and need not
# survive a crash); after_event(NAME): new ids above both
my ($mark, $last);
sub mark_before
{
	$q->('SELECT public.xid_new()');
	$mark = $q->('SELECT durable_mark FROM public.xid_generator_status()');
	$q->('CHECKPOINT');
	$last = $q->('SELECT greatest((SELECT max(id) FROM ids), (SELECT max(id) FROM par))');
}
sub after_event
{
	my ($name) = @_;
	# (a restart within the lease puts ids ahead of the clock: warned)
	is($q->(qq{
		SET client_min_messages = error;
		SELECT public.xid_new() > '$last'::public.xid
		   AND public.xid_time(public.xid_new()) > '$mark'::timestamptz}),
		't', "$name: new ids above the last id before ($last) and the mark ($mark)");
	pgbench_run("after $name", '-t', 200);
	my ($dups, $unseen, $unordered) = split /\|/, $q->(qq{
		SELECT count(*) - count(DISTINCT id), count(*) FILTER (WHERE id <= seen),
		       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY run, client ORDER BY counter) AS prev
		                              FROM ids WHERE run = $runs) s WHERE id <= prev)
		FROM ids});
	is($dups, 0, "$name: no duplicate");
	is($unseen, 0, "$name: every id above every id committed before its statement");
	is($unordered, 0, "$name: ids strictly increasing within a client");
	is($status->(), 'database true', "$name: scope database, durable");
}

mark_before();
$node->restart;
after_event('clean restart');

mark_before();
$node->stop('immediate');
$node->start;
after_event('immediate stop');

mark_before();
my $log_offset = -s $node->logfile;
my $sleeper = IPC::Run::start([ 'psql', '-X', '-d', $node->connstr('postgres'), '-c', 'SELECT pg_sleep(60)' ],
	'>', \my $sleep_out, '2>', \my $sleep_err);
$node->poll_query_until('postgres', q{SELECT count(*) > 0 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'})
  or die 'the sleeping backend did not start';
kill 'KILL', $q->(q{SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'});
$sleeper->finish;
ok($node->wait_for_log(qr/terminating any other active server processes|all server processes terminated/,
	$log_offset), 'kill -9 of a backend: the server went through a crash restart');
$node->poll_query_until('postgres', 'SELECT true') or die 'the server did not come back';
after_event('kill -9 of a backend');

# 15 and 16: no spare shared memory left
if (major($node) < 17)
{
	my $so = PostgreSQL::Test::Utils::tempdir() . '/eat_shmem.so';
	system($ENV{CC} // 'cc', '-shared', '-fPIC', '-O2', '-I' . $node->config_data('--includedir-server'),
		'-o', $so, "$FindBin::RealBin/../eat_shmem.c") == 0 or die 'cannot build test/eat_shmem.c';
	$q->("CREATE FUNCTION eat_spare_shmem() RETURNS bigint AS '$so' LANGUAGE C");
	$q->('CREATE DATABASE doomed');
	$node->restart;
	note('spare shared memory used up: ' . $q->('SELECT eat_spare_shmem()') . ' bytes taken');
	my $err;
	$node->psql('postgres', "\\set VERBOSITY verbose\nSELECT public.xid_new()", stderr => \$err);
	like($err, qr/ERROR:  53200: not enough shared memory for the state of xid_new\(\)/,
		'no spare shared memory: xid_new() fails with SQLSTATE 53200');
	like($err, qr/^HINT:  Add xid to shared_preload_libraries and restart the server\./m,
		'and the hint says to preload the library');
	$node->psql('postgres', 'SELECT * FROM public.xid_generator_status()', stderr => \$err);
	like($err, qr/ERROR:  not enough shared memory for the state of xid_new\(\)/,
		'and so does xid_generator_status()');
	# the library caught ShmemInitStruct()'s error there: the session can
	# still be interrupted after it (without that, the DROP waited for ever
	# for its own backend to accept a ProcSignalBarrier)
	$node->psql('postgres', "LOAD 'xid';\nDROP DATABASE doomed;\nSET statement_timeout = '200ms';\nSELECT pg_sleep(5);",
		stderr => \$err, timeout => 60, timed_out => \my $timed_out);
	ok(!$timed_out, 'DROP DATABASE in a session that loaded the library returns');
	like($err, qr/\A(psql:<stdin>:\d+: )?ERROR:  canceling statement due to statement timeout\z/,
		'and a statement timeout after it interrupts the session, with no other error');
	is($q->(q{SELECT count(*) FROM pg_database WHERE datname = 'doomed'}), '0', 'the database is dropped');
	$node->restart;
	isnt($q->('SET client_min_messages = error; SELECT public.xid_new()'), '', 'after a restart, ids again');
}

done_testing();
