# Crash recovery: SIGKILL to the server and all its processes while a bulk
# insert runs.  After the restart every acknowledged commit must be there,
# nothing half-done may be, the indexes must check clean, and new ids must
# be above every id issued before the crash.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('crash', conf => "fsync = on\nsynchronous_commit = on");
$node->safe_psql('postgres', q{
	CREATE EXTENSION xid;
	CREATE EXTENSION amcheck;
	CREATE TABLE bulk (id public.xid PRIMARY KEY DEFAULT public.xid_new(),
		batch int NOT NULL, k int NOT NULL);
	CREATE INDEX bulk_hash ON bulk USING hash (id);
	CREATE INDEX bulk_brin ON bulk USING brin (id);
	CREATE TABLE batches (batch int PRIMARY KEY);
});

# The loader: one transaction per batch of 2,000 rows; a batch goes to
# acked.txt only after its COMMIT returned.
my $acked = PostgreSQL::Test::Utils::tempdir() . '/acked.txt';
append_to_file($acked, '');
my $loader = fork // die "fork: $!";
if ($loader == 0)
{
	for my $b (1 .. 100000)
	{
		my ($out, $err);
		my $ok = IPC::Run::run(
			[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'), '-c',
			  "BEGIN; INSERT INTO bulk (batch, k) SELECT $b, g FROM generate_series(1, 2000) AS g; "
			  . "INSERT INTO batches VALUES ($b); COMMIT;" ],
			'>', \$out, '2>', \$err);
		POSIX::_exit(0) unless $ok;
		append_to_file($acked, "$b\n");
	}
	POSIX::_exit(0);
}

# let it run, then stop the whole server at once
my $n = 0;
while ($n < 30)
{
	select(undef, undef, undef, 0.2);
	$n = () = slurp_file($acked) =~ /\n/g;
}
kill9_all($node);
waitpid($loader, 0);
my @acked = split /\n/, slurp_file($acked);

# the restart goes through crash recovery
my $log_offset = -s $node->logfile;
$node->start;
ok($node->log_contains(qr/database system was interrupted|not properly shut down/, $log_offset),
	'the server went through crash recovery');

my $max_acked = $acked[-1];
my ($rows, $batches, $missing, $partial) = split /\|/, $node->safe_psql('postgres', qq{
	SELECT (SELECT count(*) FROM bulk),
	       (SELECT count(*) FROM batches),
	       (SELECT count(*) FROM generate_series(1, $max_acked) AS b
	        WHERE NOT EXISTS (SELECT FROM batches WHERE batch = b)),
	       (SELECT count(*) FROM (SELECT batch FROM bulk GROUP BY batch HAVING count(*) <> 2000) p)
	       + (SELECT count(*) FROM (SELECT DISTINCT batch FROM bulk) d
	          WHERE NOT EXISTS (SELECT FROM batches b WHERE b.batch = d.batch))});
note(scalar(@acked) . " batches acknowledged before the kill, $batches committed after recovery ($rows rows)");
is($missing, '0', 'no acknowledged batch is lost');
is($partial, '0', 'no partial or orphan batch');
is($rows, $batches * 2000, 'the row count matches the batches');

# the indexes check clean, and each answers
$node->safe_psql('postgres', "SELECT bt_index_parent_check('bulk_pkey', heapallindexed => true)");
pass('the primary key checks clean after recovery');
is($node->safe_psql('postgres',
	"SELECT count(*) > 0 FROM bulk WHERE id ^@ left((SELECT min(id) FROM bulk)::text, 6)"),
	't', 'a prefix search finds rows after recovery');
is($node->safe_psql('postgres', q{
	SET enable_seqscan = off;
	SELECT count(*) FROM bulk WHERE id = (SELECT max(id) FROM bulk)}),
	'1', 'the newest row is found by the index');

# the clock has passed the last issued time
is($node->safe_psql('postgres', 'SELECT public.xid_new() > max(id) FROM bulk'),
	't', 'an id made after the restart is above every id made before');

done_testing();
