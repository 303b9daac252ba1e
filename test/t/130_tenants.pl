# A server shared by database owners who are not superusers, each of whom
# installed the trusted extension, tried as those roles themselves.
#
# - Two owners, alice and bob.  alice, in her databases: the 1.0 extension
#   beside a sequence of her own named xid_durable_mark set to 2106 (not
#   taken for the mark; the update to 1.1 refuses it clearly), and the 1.1
#   extension's own mark set to 2106 and to its maximum with setval(), which
#   she may (refused by xid_new() in her database only).  Then, and after a
#   restart, bob's ids keep the clock's time, xid_new() works for him, and
#   xid_generator_status() shows him his own last id.
# - pg_dump and pg_restore as alice; the restored database makes ids above
#   the restored ones.
# - DDL by carol, who has CREATE but not USAGE on a schema of alice's, and
#   a temporary table named like the table made: no error, the warning for
#   the right table.
# - 96 databases, more than the pool of slots 1.1 had before each database
#   had its own generator state (its max_connections is 8: 8 + backends of
#   its own + 64 spare slots; each database now has its own entry,
#   test/sh/databases.sh), written by three concurrent writers, while a
#   fourth session drops and creates the extension 100 times in another
#   database; with synchronous_commit off, so that only the mark's own
#   flush can keep an id durable.  In every database: ids increasing for
#   each writer, none twice, never ahead of the clock (no state read again
#   that moves ids ahead).  Then an immediate stop: after it, every
#   database's mark is at or above every id a client received (no id before
#   the record that covers it is flushed), and new ids are above all of
#   them.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep time);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

# Few backends, so that 96 databases are more than the old pool had slots
# for: MaxBackends (about 10 here) + 64.
my $node = PostgreSQL::Test::Cluster->new('tenants');
$node->init;
$node->append_conf('postgresql.conf', q{
max_connections = 8
superuser_reserved_connections = 0
max_worker_processes = 0
max_wal_senders = 0
wal_level = minimal
autovacuum_max_workers = 1
synchronous_commit = off
shared_preload_libraries = 'xid'});
$node->append_conf('postgresql.conf', 'autovacuum_worker_slots = 1') if $node->pg_version >= 18;
$node->start;
my $tmp = PostgreSQL::Test::Utils::tempdir();

# as(ROLE, DB, SQL): what a session of ROLE prints, errors stop it;
# sql(DB, SQL): the same as the superuser
sub as { return $node->safe_psql($_[1], $_[2], extra_params => [ '-U', $_[0] ]); }
sub sql { return $node->safe_psql(@_); }
# error_of(ROLE, DB, SQL): the error a statement gives (empty when it succeeds)
sub error_of
{
	my ($rc, $out, $err) = $node->psql($_[1], $_[2], extra_params => [ '-U', $_[0] ]);
	return $err =~ /ERROR:  (.*)/ ? $1 : '';
}
my $ahead_re = qr/^durable mark of xid_new\(\) in database "alice_b" is .* ms ahead of the clock$/;

sql('postgres', q{
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
CREATE ROLE carol LOGIN;
CREATE DATABASE alice_a OWNER alice;
CREATE DATABASE alice_b OWNER alice;
CREATE DATABASE alice_copy OWNER alice;
CREATE DATABASE bob_db OWNER bob});

# bob's ids: made now, at the clock
as('bob', 'bob_db', q{
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), at timestamptz DEFAULT clock_timestamp(), phase int);
INSERT INTO ids (phase) SELECT 1 FROM generate_series(1, 1000)});
# bob_phase(PHASE): bob makes 1,000 ids; (above all before, ms ahead, dups)
sub bob_phase
{
	return split /\|/, as('bob', 'bob_db', qq{
INSERT INTO ids (phase) SELECT $_[0] FROM generate_series(1, 1000);
SELECT min(id) FILTER (WHERE phase = $_[0]) > max(id) FILTER (WHERE phase < $_[0]),
       round(max(extract(epoch FROM public.xid_time(id) - at) * 1000) FILTER (WHERE phase = $_[0]))::int,
       count(*) - count(DISTINCT id)
FROM ids});
}

# 1. alice's own sequence named xid_durable_mark, beside the 1.0 extension
is(as('alice', 'alice_a', q{
CREATE SCHEMA s;
CREATE EXTENSION xid VERSION '1.0' SCHEMA s;
CREATE SEQUENCE s.xid_durable_mark;
SELECT setval('s.xid_durable_mark', 3000000000000) IS NOT NULL;
SELECT extract(year FROM s.xid_time(s.xid_new())) = extract(year FROM now())}),
	"t\nt", "alice: a sequence of hers named xid_durable_mark is not the mark (her ids keep the clock's year)");
is(error_of('alice', 'alice_a', 'ALTER EXTENSION xid UPDATE'), 'relation "xid_durable_mark" already exists in schema "s"',
	'alice: the update to 1.1 refuses it');
is(as('alice', 'alice_a', q{SELECT extversion FROM pg_extension WHERE extname = 'xid';
	SELECT count(*) FROM pg_depend WHERE classid = 'pg_class'::regclass AND objid = 's.xid_durable_mark'::regclass AND deptype = 'e'}),
	"1.0\n0", 'alice: the extension stays at 1.0 and her sequence is not made a member');

# 2. the 1.1 extension's own mark, set far ahead by its owner
as('alice', 'alice_b', 'CREATE EXTENSION xid; SELECT public.xid_new()');
# (the library reads a mark set by someone else at its next lease: a second)
as('alice', 'alice_b', "SELECT setval('public.xid_durable_mark', 3000000000000)");
sleep 1.2;
like(error_of('alice', 'alice_b', 'SELECT public.xid_new()'), $ahead_re, 'alice: her mark set to 2106 is refused in her database');
my ($above, $ahead, $dups) = bob_phase(2);
ok($above eq 't' && $ahead <= 0 && $ahead > -1000 && $dups == 0,
	"bob: ids above his earlier ones, $ahead ms from the clock, none twice");
as('alice', 'alice_b', "SELECT setval('public.xid_durable_mark', 4398046511103)");
sleep 1.2;
like(error_of('alice', 'alice_b', 'SELECT public.xid_new()'), $ahead_re, 'alice: her mark at its maximum is refused in her database too');
($above, $ahead, $dups) = bob_phase(3);
ok($above eq 't' && $ahead <= 0 && $ahead > -1000 && $dups == 0, "bob: xid_new() works, $ahead ms from the clock");
is(as('bob', 'bob_db', q{SELECT public.xid_new() AS made \gset
SELECT last_id = :'made'::public.xid, abs(extract(epoch FROM last_ahead)) < 1, scope FROM public.xid_generator_status()}),
	't|t|database', "bob: xid_generator_status() shows his own last id");
$node->restart;
($above, $ahead, $dups) = bob_phase(4);
ok($above eq 't' && $ahead <= 1000 && $dups == 0, "bob, after a restart: ids above his earlier ones, $ahead ms from the clock");
is(as('bob', 'bob_db', 'SELECT extract(epoch FROM mark_ahead) < 2 FROM public.xid_generator_status()'),
	't', "bob: his mark was never moved by alice's (at most a lease ahead)");
like(error_of('alice', 'alice_b', 'SELECT public.xid_new()'), $ahead_re, 'alice: still refused after the restart, in her database only');
# she can set it back, as its owner
is(as('alice', 'alice_b', q{SELECT setval('public.xid_durable_mark', 0) >= 0;
	SELECT public.xid_time(public.xid_new()) <= clock_timestamp() + interval '2 s'}),
	"t\nt", 'alice: her mark set back by her, her database makes ids again');

# 3. pg_dump and pg_restore as alice, owner of the database
as('alice', 'alice_b', q{
CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT public.xid_new(), n int);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 5000) AS g});
ok($node->run_log([ 'pg_dump', '-U', 'alice', '-Fc', '-f', "$tmp/alice_b.dump", 'alice_b' ]) && -s "$tmp/alice_b.dump",
	'alice: pg_dump of her database as herself');
ok($node->run_log([ 'pg_restore', '-U', 'alice', '--exit-on-error', '-d', 'alice_copy', "$tmp/alice_b.dump" ])
	  && as('alice', 'alice_copy', 'SELECT count(*), public.xid_new() > max(id) FROM orders') eq '5000|t',
	'alice: pg_restore as herself; new ids above the 5000 restored ones');
is(as('alice', 'alice_copy', q{SELECT '2011-11-11 11:11:11.111+00'::timestamptz + (SELECT last_value FROM public.xid_durable_mark) * interval '1 ms'
	>= (SELECT max(public.xid_time(id)) FROM orders)}),
	't', 'alice: the restored mark covers the restored ids');
$node->run_log([ 'pg_dump', '-U', 'alice', '-Fp', '-f', "$tmp/alice_b.sql", 'alice_b' ]) or die 'pg_dump -Fp failed';
my $dump = slurp_file("$tmp/alice_b.sql");
ok($dump =~ /setval\('public\.xid_durable_mark'/ && $dump !~ /GRANT.*xid_durable_mark/,
	'alice: the dump holds the mark\'s value and no GRANT to repeat');

# 4. DDL by carol: CREATE on alice's schema without USAGE; a temporary
# table named like the table she makes
as('alice', 'alice_b', q{CREATE SCHEMA shop; GRANT CREATE ON SCHEMA shop TO carol;
	CREATE SCHEMA shared; GRANT USAGE, CREATE ON SCHEMA shared TO carol});
# warnings(STDERR): its WARNING lines, without psql's "psql:<stdin>:N: "
sub warnings { return map { s/^psql:[^ ]* //r } grep { !/^(DETAIL|HINT)/ } split /\n/, $_[0]; }
my ($rc, $out, $err) = $node->psql('alice_b', q{CREATE TABLE shop.t1 (a int);
	CREATE TABLE shop.t2 AS SELECT 1 AS a;
	CREATE TABLE shop.t3 (id xid);
	SELECT 'ok'}, extra_params => [ '-U', 'carol' ]);
is(join("\n", warnings($err), $out), qq{WARNING:  column "id" of table "t3" has type pg_catalog.xid\nok},
	"carol: CREATE TABLE (AS) in a schema she may create in but not use, warned for core's xid");
sub nwarnings
{
	my ($rc, $out, $err) = $node->psql('alice_b', "SET search_path = shared; $_[0]; $_[1]", extra_params => [ '-U', 'carol' ]);
	return scalar grep { /^WARNING/ } warnings($err);
}
my $n3 = nwarnings('CREATE TEMP TABLE t4 (id xid)', 'CREATE TABLE t4 (id int)');
my $n4 = nwarnings('CREATE TEMP TABLE t5 (id int)', 'CREATE TABLE t5 (id xid)');
ok($n3 == 1 && $n4 == 1,
	"carol: the table made is checked, not a temporary table of its name ($n3 and $n4 warnings, one for each core-xid table)");

# 5. 96 databases, three writers, 100 CREATE/DROP EXTENSION cycles
my $ndb = 96;
sql('postgres', 'CREATE DATABASE many_tpl');
sql('many_tpl', q{CREATE EXTENSION xid;
	CREATE TABLE ids (id public.xid NOT NULL, at timestamptz NOT NULL, w int NOT NULL, seq int NOT NULL)});
sql('postgres', join('', map { "CREATE DATABASE many_$_ TEMPLATE many_tpl;\n" } 1 .. $ndb)
	  . 'CREATE DATABASE cycle');
sql('cycle', 'CREATE TABLE log (n serial PRIMARY KEY, v bigint NOT NULL); CREATE EXTENSION xid');
# writer W, a process: two passes over the databases, from its own starting
# point; in each, 20 ids stored and 20 returned to it (kept in
# returned-W.txt); exits 1 on an error
sub writer
{
	my ($w) = @_;
	my $seq = 0;
	for my $pass (1, 2)
	{
		for my $i (0 .. $ndb - 1)
		{
			my $db = 'many_' . (($i + $w * 32) % $ndb + 1);
			$seq++;
			my $out;
			IPC::Run::run([ 'psql', '-X', '-q', '-At', '-F', ' ', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db),
				'-c', "INSERT INTO ids SELECT public.xid_new(), clock_timestamp(), $w, $seq * 100 + g FROM generate_series(1, 20) AS g",
				'-c', "SELECT '$db', public.xid_new(), $w, $seq * 100 + 50 + g FROM generate_series(1, 20) AS g" ],
				'>', \$out) or POSIX::_exit(1);
			append_to_file("$tmp/returned-$w.txt", $out);
		}
	}
	POSIX::_exit(0);
}
my $start = time;
my @writers = map { my $pid = fork // die "fork: $!"; writer($_) if $pid == 0; $pid } 1 .. 3;
sql('cycle', q{DROP EXTENSION xid CASCADE; CREATE EXTENSION xid;
	INSERT INTO log (v) SELECT public.xid_new()::bigint FROM generate_series(1, 5)}) for 1 .. 100;
my $writers_ok = 1;
for (@writers) { waitpid($_, 0); $writers_ok &&= $? == 0; }
my $took = int(time - $start);
is(sql('cycle', q{SELECT count(*), count(*) FILTER (WHERE v <= prev), count(*) - count(DISTINCT v)
	FROM (SELECT v, lag(v) OVER (ORDER BY n) AS prev FROM log) s}),
	'500|0|0', '100 DROP/CREATE EXTENSION cycles: 500 ids in the cycled database, increasing across them, none twice');
# every database: each writer's ids increasing, none twice, none ahead of
# the clock read after them; the largest id of each database
my @returned = map { split /\n/, slurp_file("$tmp/returned-$_.txt") } 1 .. 3;
my (@bad, %top);
for my $db (map { "many_$_" } 1 .. $ndb)
{
	my $r = sql($db, "CREATE TEMP TABLE r (db text, id public.xid, w int, seq int);
COPY r FROM STDIN (DELIMITER ' ');
" . join("\n", grep { /^$db / } @returned) . q{
\.
WITH a AS (SELECT id, w, seq FROM ids UNION ALL SELECT id, w, seq FROM r)
SELECT count(*), count(*) - count(DISTINCT id),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY w ORDER BY seq) AS prev FROM a) s WHERE id <= prev),
       (SELECT count(*) FROM ids WHERE public.xid_time(id) > at),
       max(id)
FROM a});
	my ($n, $dups, $back, $ahead, $max) = split /\|/, $r;
	push @bad, "$db($r)" unless $n == 240 && $dups == 0 && $back == 0 && $ahead == 0;
	$top{$db} = $max;
}
ok($writers_ok && !@bad, "$ndb databases, 3 writers, $took s with the cycles: in each, 240 ids increasing for each writer, "
	  . 'none twice, none ahead of the clock' . join(' ', '', @bad));

# an immediate stop, with synchronous_commit off: every id a client
# received is at or below its database's mark after recovery, and new ids
# are above every id before
$node->stop('immediate');
$node->start;
@bad = ();
for my $db (sort keys %top)
{
	my $r = sql($db, qq{SELECT public.xid_time('$top{$db}') <= '2011-11-11 11:11:11.111+00'::timestamptz + last_value * interval '1 ms',
		public.xid_new() > '$top{$db}' FROM public.xid_durable_mark});
	push @bad, "$db($r)" unless $r eq 't|t';
}
ok(!@bad, "after an immediate stop: each database's mark covers every id received, and new ids are above them"
	  . join(' ', '', @bad));

done_testing();
