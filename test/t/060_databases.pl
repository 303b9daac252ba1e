# No database's owner can move another database's ids ahead of the clock or
# stall xid_new() there, however many databases they make (each database
# has its own generator state), tried as the roles themselves.
#
# - mallory has CREATEDB and nothing else.  She makes more databases than
#   the pool of slots 1.1 had before this test (MaxBackends + 64 on a
#   server with max_connections = 10), installs the trusted extension in
#   each as their owner, sets each one's durable mark an hour ahead of the
#   clock (her right as the extension's owner) and keeps connecting to
#   every one of them from three clients, making an id in each.
# - bob owns the database victim.  While she connects he opens sessions
#   and makes ids: in every one they are at the clock (never later than
#   clock_timestamp() read after them), above all his earlier ones, and
#   his first xid_new() of the session takes no wait (its median time over
#   the rounds is far below the second the old slot search slept).
# - bob's second database, on 1.0's objects (no durable mark) and updated
#   to 1.1 halfway, gets ids above each other throughout: its state is
#   never taken, so it never restarts (it could not be read again).
# - mallory's ids are an hour ahead in her own databases: the attack was
#   real, and stayed there.
# - Some of her databases dropped, one of them WITH (FORCE) while a session
#   of hers is connected to it, the generator state of each goes with it
#   when the drop commits (the dropping session has the library, preloaded,
#   and says so at DEBUG1), and bob's ids are still at the clock.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

# Few backends: the old pool had MaxBackends (12 here) + 64 slots (76,
# fewer than her databases); 10 connections, not fewer: three clients of
# hers each hold two during a \c, with bob's and those still exiting
# (wal_level = minimal and max_wal_senders = 0 are the node's defaults)
my $node = xid_node('databases', conf => join "\n", 'max_connections = 10',
	'superuser_reserved_connections = 0', 'max_worker_processes = 0',
	'autovacuum_max_workers = 1');
if (major($node) >= 18)
{
	$node->append_conf('postgresql.conf', 'autovacuum_worker_slots = 1');
	$node->restart;
}

# as(ROLE, DB, SQL): SQL in a session of ROLE, errors stop the test
sub as
{
	my ($role, $db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}
# psql_as(ROLE, DB): the command line of a psql session of ROLE, for IPC::Run
sub psql_as
{
	my ($role, $db) = @_;
	return [ 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-U', $role,
		'-d', $node->connstr($db) ];
}

my ($ndb, $rounds, $ndrop) = (80, 8, 5);
my $slots = $node->safe_psql('postgres', q{
	SELECT current_setting('max_connections')::int + current_setting('autovacuum_max_workers')::int + 1
	       + current_setting('max_worker_processes')::int + current_setting('max_wal_senders')::int + 64});
ok($ndb > $slots, "mallory's $ndb databases are more than the $slots slots of the old pool");

$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN CREATEDB;
	CREATE ROLE bob LOGIN;
	CREATE DATABASE victim OWNER bob;
	CREATE DATABASE legacy OWNER bob;
});
as('bob', 'victim', q{
	CREATE EXTENSION xid;
	CREATE TABLE ids (id public.xid PRIMARY KEY, at timestamptz NOT NULL, round int NOT NULL);
});
# bob's second database, on 1.0's objects (no mark) until its update
as('bob', 'legacy', q{
	CREATE EXTENSION xid VERSION '1.0';
	CREATE TABLE ids (n serial PRIMARY KEY, id public.xid NOT NULL, round int NOT NULL);
});

# mallory's databases, each with the extension and its mark an hour ahead
# (copies of one she made, so the mark is set once)
as('mallory', 'postgres', 'CREATE DATABASE m_tpl');
as('mallory', 'm_tpl', q{
	CREATE EXTENSION xid;
	SELECT setval('public.xid_durable_mark',
		(extract(epoch FROM now() + interval '1 hour' - '2011-11-11 11:11:11.111+00'::timestamptz) * 1000)::bigint);
});
as('mallory', 'postgres', join '', map { "CREATE DATABASE m_$_ TEMPLATE m_tpl;\n" } 1 .. $ndb);

# her loop L: new sessions in each of her databases in turn, from her own
# starting point, an id in each, ten databases a client, until bob is done
my $done = PostgreSQL::Test::Utils::tempdir() . '/done';
my @loops;
for my $l (0 .. 2)
{
	my $pid = fork // die "fork: $!";
	if ($pid == 0)
	{
		while (!-e $done)
		{
			for (my $c = 0; $c < $ndb && !-e $done; $c += 10)
			{
				my $script = join '', map { sprintf("\\c m_%d\nSELECT public.xid_new();\n",
						($_ + $l * 30) % $ndb + 1) } $c .. $c + 9;
				IPC::Run::run(psql_as('mallory', 'postgres'), '<', \$script,
					'>', '/dev/null', '2>', '/dev/null');
			}
		}
		POSIX::_exit(0);
	}
	push @loops, $pid;
}
sleep 2;

# bob's round: a new session; the time of its first xid_new() (ms), then
# 100 more ids stored with the clock read after each, 0.6 s later: past
# the first half of the lease his first id took, so the next lease is
# written ahead of time (xid_mark.c), as in any session that makes ids for
# more than half a second
my $start = time;
my @first;
for my $r (1 .. $rounds)
{
	my $out = as('bob', 'victim', qq{
\\timing on
SELECT public.xid_new() AS first \\gset
\\timing off
INSERT INTO ids VALUES (:'first', clock_timestamp(), $r);
SELECT pg_sleep(0.6) \\g /dev/null
INSERT INTO ids SELECT public.xid_new(), clock_timestamp(), $r FROM generate_series(1, 100);
});
	push @first, $1 if $out =~ /^Time: ([0-9.]+) ms/m;
	# and a session in legacy, updated to 1.1 halfway
	as('bob', 'legacy', "ALTER EXTENSION xid UPDATE TO '1.1'") if $r == $rounds / 2;
	as('bob', 'legacy', "INSERT INTO ids (id, round) SELECT public.xid_new(), $r FROM generate_series(1, 100)");
	sleep 0.2;
}
append_to_file($done, '');
waitpid($_, 0) for @loops;
my $took = sprintf('%.0f', time - $start);

my ($n, $late, $most, $back) = split /\|/, as('bob', 'victim', q{
	SELECT count(*),
	       count(*) FILTER (WHERE public.xid_time(id) > at),
	       coalesce(round(max(extract(epoch FROM public.xid_time(id) - at) * 1000)), 0)::int,
	       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY round, at, id) AS prev FROM ids) s WHERE id <= prev)
	FROM ids});
note("bob, $rounds sessions while mallory connects ($took s): $n ids, at most $most ms from the clock");
is($n, $rounds * 101, "bob's $rounds sessions while mallory connects stored all their ids");
is($late, 0, "none of bob's ids is later than the clock read after it");
is($back, 0, "each of bob's ids is above the ones before");

($n, $back, my $version) = split /\|/, as('bob', 'legacy', q{
	SELECT count(*), count(*) FILTER (WHERE id <= prev), (SELECT extversion FROM pg_extension WHERE extname = 'xid')
	FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM ids) s});
is($version, '1.1', "bob's database on 1.0's objects was updated to 1.1 halfway");
is($n, $rounds * 100, "bob's database on 1.0's objects stored all its ids");
is($back, 0, "in bob's database on 1.0's objects every id is above the one before");

my @sorted = sort { $a <=> $b } @first;
my $median = @sorted ? $sorted[ int((@sorted + 1) / 2) - 1 ] : 'none';
note("bob's first xid_new() of a session: median $median ms, slowest "
	  . (@sorted ? $sorted[-1] : 'none') . ' ms (the old slot search slept up to 1 s)');
is(scalar(@first), $rounds, "each of bob's sessions timed its first xid_new()");
ok(@sorted && $median < 200, "bob's first xid_new() of a session takes no wait (median $median ms)");

my $ahead = as('mallory', "m_$ndb",
	'SELECT round(extract(epoch FROM public.xid_time(public.xid_new()) - clock_timestamp()) / 60)');
ok($ahead >= 55 && $ahead <= 60, "mallory's own ids are $ahead minutes ahead, in her database only");

# some of her databases dropped (each drop takes a checkpoint on 15): the
# generator state of each goes with it (the session that drops them has
# the library, preloaded, and says so at DEBUG1), m_1 WITH (FORCE) while a
# session of hers that made an id there is still connected
my $sleeper = IPC::Run::start(
	[ @{ psql_as('mallory', 'm_1') }, '-c', 'SELECT public.xid_new()', '-c', 'SELECT pg_sleep(60)' ],
	'>', '/dev/null', '2>', '/dev/null');
ok($node->poll_query_until('postgres',
	"SELECT count(*) = 1 FROM pg_stat_activity WHERE datname = 'm_1' AND query LIKE '%pg_sleep%'"),
	'a session of mallory is connected to m_1');
my (undef, undef, $err) = $node->psql('postgres',
	"SET client_min_messages = debug1;\nDROP DATABASE m_1 WITH (FORCE);\n"
	  . join('', map { "DROP DATABASE m_$_;\n" } 2 .. $ndrop),
	extra_params => [ '-U', 'mallory' ]);
$sleeper->finish;
my $removed = () = $err =~ /xid: removed the generator state of database/g;
is($removed, $ndrop, "mallory dropped $ndrop of her databases, one of them with a session of hers in it "
	  . '(WITH (FORCE)): the generator state of each went with it');
is(as('bob', 'victim',
	'SELECT public.xid_time(public.xid_new()) <= clock_timestamp() AND public.xid_new() > (SELECT max(id) FROM ids)'),
	't', "bob's ids after that: at the clock, above all before");

done_testing();
