# xid on three servers, each with the library preloaded and
# xid.node_bits = 4: a coordinator (node 1) and two shards (nodes 2 and 3).
# 1. Node numbers: each server's ids carry its node; a reload changes it
#    without breaking the order; a pair that does not fit is an error, and
#    a preloaded server with one does not start.
# 2. All three generate concurrently, 1,050,000 ids in all: no duplicates,
#    every id's node field is its server's.
# 3. One table sharded over postgres_fdw by HASH (id) and one by RANGE (id),
#    a month a shard: rows routed, conditions and aggregates sent to the
#    shards (Remote SQL), partitions pruned, ordered and async scans, and
#    the shards answer the Remote SQL with their indexes.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my %node_id = (coord => 1, shard_a => 2, shard_b => 3);
my @names = qw(coord shard_a shard_b);
my %n = map {
	$_ => xid_node($_, conf => "xid.node_bits = 4\nxid.node_id = $node_id{$_}\nmax_connections = 60")
} @names;
my ($coord, $sa, $sb) = @n{@names};
$_->safe_psql('postgres', 'CREATE EXTENSION xid') for values %n;
sub coord { return $coord->safe_psql('postgres', $_[0]); }
# set_node(ID): the coordinator's xid.node_id set and reloaded
sub set_node
{
	coord("ALTER SYSTEM SET xid.node_id = $_[0]; SELECT pg_reload_conf()");
	sleep 1;
}

# 1. node numbers
for my $name (@names)
{
	my $got = $n{$name}->safe_psql('postgres',
		'SELECT DISTINCT public.xid_node(public.xid_new(), 4) FROM generate_series(1, 1000)');
	is($got, $node_id{$name}, "$name makes ids of node $node_id{$name} only");
}
my $before = coord('SELECT public.xid_new()');
set_node(9);
my $after = coord('SELECT public.xid_new()');
is(coord("SELECT public.xid_node('$after', 4) = 9 AND '$after'::public.xid > '$before'::public.xid"),
	't', 'a reload moves the coordinator to node 9, above its last id');
set_node(16);
my ($rc, $out, $err) = $coord->psql('postgres', 'SELECT public.xid_new()');
note($err);
like($err, qr/xid\.node_id 16 does not fit in xid\.node_bits 4/, 'a node id that does not fit is an error');
set_node(-1);
($rc, $out, $err) = $coord->psql('postgres', "SELECT public.xid_new('2026-01-01+00')");
like($err, qr/xid\.node_bits is 4 but xid\.node_id is not set/, 'node bits without a node id is an error');
set_node($node_id{coord});
is(coord('SELECT public.xid_node(public.xid_new(), 4)'), '1', 'back to node 1');
my $bad = PostgreSQL::Test::Cluster->new('bad');
$bad->init;
$bad->append_conf('postgresql.conf', "shared_preload_libraries = 'xid'\nxid.node_bits = 2\nxid.node_id = 7");
ok(!$bad->start(fail_ok => 1), 'a preloaded server with node id 7 in 2 bits does not start');
like(slurp_file($bad->logfile), qr/xid\.node_id 7 does not fit in xid\.node_bits 2/,
	'the server says why it does not start');

# 2. three servers generating at once
my $per_server = 350000;
my @loaders;
for my $node (values %n)
{
	$node->safe_psql('postgres', 'CREATE TABLE gen (id public.xid)');
	push @loaders, IPC::Run::start([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('postgres'),
		'-c', "INSERT INTO gen SELECT public.xid_new() FROM generate_series(1, $per_server)" ]);
}
$_->finish for @loaders;
coord('CREATE TABLE gen_all (server int, id public.xid)');
for my $name (@names)
{
	IPC::Run::run([ 'psql', '-X', '-q', '-d', $n{$name}->connstr('postgres'),
		'-c', "COPY (SELECT $node_id{$name}, id FROM gen) TO STDOUT" ],
		'|', [ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $coord->connstr('postgres'),
		'-c', 'COPY gen_all FROM STDIN' ]) or die "copy of gen from $name failed";
}
my ($total, $distinct, $wrong_node) = split /\|/, coord(
	'SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE public.xid_node(id, 4) <> server) FROM gen_all');
note("three servers: $total ids, $distinct distinct, $wrong_node with another server's node");
ok($total == 3 * $per_server && $distinct == $total && $wrong_node == 0,
	"1,050,000 ids from three servers, no duplicate, each with its server's node");

# 3. sharding over postgres_fdw
$_->safe_psql('postgres', q{
	CREATE TABLE ev_h (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int NOT NULL);
	CREATE TABLE ev_r (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int NOT NULL)}) for $sa, $sb;
my $user = coord('SELECT current_user');
my $servers = join '', map {
	my ($host, $port) = ($n{$_}->host, $n{$_}->port);
	qq{CREATE SERVER $_ FOREIGN DATA WRAPPER postgres_fdw
		OPTIONS (host '$host', port '$port', dbname 'postgres', extensions 'xid', async_capable 'true');
	CREATE USER MAPPING FOR CURRENT_USER SERVER $_ OPTIONS (user '$user');
}
} qw(shard_a shard_b);
coord("CREATE EXTENSION postgres_fdw; $servers" . q{
-- hash: half the ids on each shard
CREATE TABLE ev_h (id public.xid NOT NULL DEFAULT public.xid_new(), v int NOT NULL) PARTITION BY HASH (id);
CREATE FOREIGN TABLE ev_h_a PARTITION OF ev_h FOR VALUES WITH (MODULUS 2, REMAINDER 0)
	SERVER shard_a OPTIONS (table_name 'ev_h');
CREATE FOREIGN TABLE ev_h_b PARTITION OF ev_h FOR VALUES WITH (MODULUS 2, REMAINDER 1)
	SERVER shard_b OPTIONS (table_name 'ev_h');

-- range: January 2026 on one shard, February on the other
CREATE TABLE ev_r (id public.xid NOT NULL DEFAULT public.xid_new(), v int NOT NULL) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE ev_r_jan PARTITION OF ev_r
	FOR VALUES FROM (lower(public.xid_time_range('[2026-01-01+00, 2026-02-01+00)')))
	TO (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')))
	SERVER shard_a OPTIONS (table_name 'ev_r');
CREATE FOREIGN TABLE ev_r_feb PARTITION OF ev_r
	FOR VALUES FROM (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')))
	TO (lower(public.xid_time_range('[2026-03-01+00, 2026-04-01+00)')))
	SERVER shard_b OPTIONS (table_name 'ev_r');

INSERT INTO ev_h (v) SELECT g FROM generate_series(1, 20000) AS g;
INSERT INTO ev_r (id, v)
SELECT public.xid_new('2026-01-01+00'::timestamptz + g * interval '4 minutes'), g
FROM generate_series(1, 20000) AS g});
$_->safe_psql('postgres', 'VACUUM ANALYZE ev_h; VACUUM ANALYZE ev_r') for $sa, $sb;
coord('ANALYZE ev_h_a; ANALYZE ev_h_b; ANALYZE ev_r_jan; ANALYZE ev_r_feb');

# routing: every row on the shard its hash or its month says, none lost
my $ha = $sa->safe_psql('postgres', 'SELECT count(*) FROM ev_h');
my $hb = $sb->safe_psql('postgres', 'SELECT count(*) FROM ev_h');
# (OFFSET 0 keeps the check on the coordinator, whose OID of ev_h it needs)
my $hwrong = coord(q{SELECT (SELECT count(*) FROM (SELECT id FROM ev_h_a OFFSET 0) s
		WHERE NOT satisfies_hash_partition('ev_h'::regclass, 2, 0, id))
	+ (SELECT count(*) FROM (SELECT id FROM ev_h_b OFFSET 0) s
		WHERE NOT satisfies_hash_partition('ev_h'::regclass, 2, 1, id))});
note("hash: $ha rows on shard_a, $hb on shard_b, $hwrong on the wrong shard");
ok($ha + $hb == 20000 && $ha > 0 && $hb > 0 && $hwrong == 0, 'hash routing: 20,000 rows, both shards used, none misplaced');
my $ra = $sa->safe_psql('postgres', "SELECT count(*) FROM ev_r WHERE public.xid_time(id) >= '2026-01-01+00' AND public.xid_time(id) < '2026-02-01+00'");
my $rb = $sb->safe_psql('postgres', "SELECT count(*) FROM ev_r WHERE public.xid_time(id) >= '2026-02-01+00' AND public.xid_time(id) < '2026-03-01+00'");
my $rall = coord('SELECT count(*) FROM ev_r');
note("range: $ra January rows on shard_a, $rb February rows on shard_b, $rall in all");
ok($rall == 20000 && $ra + $rb == 20000, 'range routing: each month on its shard, 20,000 rows in all');

# plan_of(QUERY): EXPLAIN (VERBOSE, COSTS OFF) on the coordinator
sub plan_of { return coord("SET enable_partitionwise_aggregate = on; EXPLAIN (VERBOSE, COSTS OFF) $_[0]"); }
# scans(PLAN): the relations of its foreign scans, sorted
sub scans { return join ' ', sort($_[0] =~ /Foreign Scan on (public\.ev_[a-z_]+)/g); }
# remote(PLAN): its Remote SQL lines
sub remote { return join "\n", map { s/^ *//r } grep { /Remote SQL/ } split /\n/, $_[0]; }
# lines(PLAN, RE): how many of its lines match RE
sub lines { return scalar grep { $_ =~ $_[1] } split /\n/, $_[0]; }

my $sample = $sb->safe_psql('postgres', 'SELECT id FROM ev_h ORDER BY v LIMIT 1');
my $p = plan_of("SELECT v FROM ev_h WHERE id = '$sample'");
ok(scans($p) eq 'public.ev_h_b' && index(remote($p), "WHERE ((id OPERATOR(public.=) '$sample'") >= 0,
	'id = const: one shard (shard_b), condition sent') or diag($p);
is(coord("SELECT count(*) FROM ev_h WHERE id = '$sample'"), '1', 'id = const finds its row');

# range conditions: pruned to one shard and sent in the Remote SQL
my $prefix = substr($sa->safe_psql('postgres', 'SELECT id FROM ev_r ORDER BY id OFFSET 5000 LIMIT 1'), 0, 6);
my $day = "public.xid_time(id) >= '2026-01-10+00' AND public.xid_time(id) < '2026-01-11+00'";
my @conds = (
	[ contained => "id <@ public.xid_time_range('[2026-01-10+00, 2026-01-11+00)')", $day ],
	[ starts_with => "id ^@ '$prefix'", "id::text LIKE '$prefix%'" ],
	[ time_ge_lt => "id >= '2026-01-10+00'::timestamptz AND id < '2026-01-11+00'::timestamptz", $day ],
	[ like => "id LIKE '$prefix%'", "id::text LIKE '$prefix%'" ]);
for (@conds)
{
	my ($k, $cond, $truth) = @$_;
	$p = plan_of("SELECT id, v FROM ev_r WHERE $cond");
	my $r = remote($p);
	is(scans($p), 'public.ev_r_jan', "$k: pruned to January's shard");
	ok($r =~ /WHERE/ && $p !~ /^ *Filter:/m, "$k: the condition is in the Remote SQL, nothing filtered locally")
	  or diag($p);
	my $got = coord("SELECT count(*) FROM ev_r WHERE $cond");
	my $want = $sa->safe_psql('postgres', "SELECT count(*) FROM ev_r WHERE $truth");
	ok($got eq $want && $got > 0, "$k: $got rows through the coordinator, $want on the shard");
	# the shard runs that Remote SQL with its primary key index
	like($sa->safe_psql('postgres', 'EXPLAIN (COSTS OFF) ' . ($r =~ s/^Remote SQL: //r)),
		qr/Index (Only )?Scan using ev_r_pkey|Bitmap Index Scan on ev_r_pkey/, "$k: the shard uses its index");
}

# aggregates: a shard's count, min and max are computed on the shard; over
# the partitioned table min and max become ordered remote scans merged on
# the coordinator (core's postgres_fdw cannot send partial aggregates, so a
# count over all shards is summed from rows: docs/many-servers.md says so)
like(plan_of('SELECT count(*), min(id), max(id) FROM ev_h_a'),
	qr/\QRemote SQL: SELECT count(*), public.min(id), public.max(id) FROM public.ev_h\E/,
	'count, min and max of a shard computed on the shard');
$p = plan_of('SELECT min(id), max(id) FROM ev_h');
ok(lines($p, qr/Merge Append/) == 2 && lines($p, qr/ORDER BY id ASC NULLS LAST/) == 2 && $p !~ /Sort Method|  Sort$/m,
	'min and max over the shards: ordered remote scans merged') or diag($p);
my $got = coord('SELECT count(*), min(id), max(id) FROM ev_h');
is($got, coord('SELECT count(*), min(id), max(id) FROM (SELECT id FROM ev_h_a UNION ALL SELECT id FROM ev_h_b) s'),
	"aggregates agree ($got)");

# ORDER BY id LIMIT: ordered remote scans merged, the first rows in order
$p = plan_of('SELECT id FROM ev_h ORDER BY id LIMIT 10');
ok($p =~ /Merge Append/ && lines($p, qr/ORDER BY id ASC NULLS LAST/) == 2,
	'ORDER BY id LIMIT merges ordered remote scans') or diag($p);
is(coord("SELECT string_agg(id::text, ',') FROM (SELECT id FROM ev_h ORDER BY id LIMIT 10) s"),
	coord("SELECT string_agg(id::text, ',') FROM (SELECT id FROM (SELECT id FROM ev_h_a UNION ALL SELECT id FROM ev_h_b) u ORDER BY id LIMIT 10) s"),
	'ORDER BY id LIMIT 10 gives the ten smallest ids');

# async: both shards scanned at once
$p = coord('EXPLAIN (VERBOSE, COSTS OFF) SELECT v FROM ev_h WHERE v % 7 = 0');
is(lines($p, qr/Async Foreign Scan/), 2, 'async_capable: both shards scanned concurrently') or diag($p);

done_testing();
