# Function DDL in one session while others plan queries with xid clauses,
# as a role without privileges.  Every CREATE OR REPLACE FUNCTION
# invalidates every backend's pg_proc caches, which the extension's catalog
# caches (src/xid_catcache.c) listen to; a backend takes those
# invalidations at any catalog access, also between two uses of a cache
# entry inside the planner support.  So the planning sessions open a new
# connection for each query (cold caches: their catalog lookups take locks,
# where invalidations are processed) and use a clause whose collation is
# looked up after the clause function (LIKE ... COLLATE "POSIX").  Each
# query must return the right count (a wrong one is a division by zero,
# which aborts pgbench); no backend may crash.  Under ci/assert.sh
# (AddressSanitizer) a stale pointer is a report; with XID_DISCARD_CACHES
# the regression tests hit the same window every time.
#
# XID_CLAUSE_DDL_SECONDS: how long both run (default 8).
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $seconds = $ENV{XID_CLAUSE_DDL_SECONDS} // 8;
my $node = xid_node('clause_ddl');
$node->safe_psql('postgres', q{
	CREATE ROLE xcd_owner LOGIN;
	CREATE ROLE xcd_user LOGIN;
	CREATE DATABASE xid_clause_ddl OWNER xcd_owner;
});
$node->safe_psql('xid_clause_ddl', q{
	CREATE EXTENSION xid;
	CREATE TABLE t (id public.xid PRIMARY KEY);
	INSERT INTO t SELECT public.xid_new('2025-06-01+00'::timestamptz + g * interval '17 minutes')
	FROM generate_series(1, 20000) AS g;
	ANALYZE t;
	GRANT SELECT ON t TO xcd_user;
}, extra_params => [ '-U', 'xcd_owner' ]);
my ($n_like, $n_prefix, $n_time, $n_range) = split /\|/, $node->safe_psql('xid_clause_ddl', q{
	SELECT (SELECT count(*) FROM t WHERE id::text LIKE '5C%'),
	       (SELECT count(*) FROM t WHERE left(id::text, 3) = '5D1'),
	       (SELECT count(*) FROM t WHERE public.xid_time(id) >= '2025-09-01+00'),
	       (SELECT count(*) FROM t WHERE left(id::text, 2) = '5E')});
ok($n_like > 0 && $n_prefix > 0 && $n_time > 0 && $n_time < 20000,
	"the expected counts are not trivial ($n_like $n_prefix $n_time $n_range)");

my $dir = PostgreSQL::Test::Utils::tempdir();
append_to_file("$dir/ddl.sql",
	q{CREATE OR REPLACE FUNCTION pg_temp.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1';});
append_to_file("$dir/plan.sql", join '', map { "SELECT CASE WHEN count(*) = $_->[0] THEN 1 "
	  . "ELSE 1 / (0 * count(*))::int END FROM t WHERE $_->[1];\n" } (
	[ $n_like, q{id LIKE '5C%' COLLATE "POSIX"} ],
	[ $n_prefix, q{id ^@ '5D1'} ],
	[ $n_time, q{id >= '2025-09-01+00'::timestamptz} ],
	[ $n_range, q{id <@ public.xid_prefix_range('5E')} ]));
my @pgbench = ('pgbench', '-n', '-h', $node->host, '-p', $node->port, '-U', 'xcd_user', '-T', $seconds);
my ($ddl_out, $plan_out);
my $ddl = IPC::Run::start([ @pgbench, '-c', 1, '-f', "$dir/ddl.sql", 'xid_clause_ddl' ],
	'>', \$ddl_out, '2>&1');
my $plan_ok = IPC::Run::run([ @pgbench, '-C', '-c', 3, '-j', 3, '-f', "$dir/plan.sql", 'xid_clause_ddl' ],
	'>', \$plan_out, '2>&1');
ok($ddl->finish, 'the DDL session ran to its end') or diag($ddl_out);
my ($ddl_tx) = $ddl_out =~ /^number of transactions actually processed: (\d+)/m;
my ($plan_tx) = $plan_out =~ /^number of transactions actually processed: (\d+)/m;
ok($plan_ok && ($plan_tx // 0) > 0 && ($ddl_tx // 0) > 0,
	'xcd_user: ' . ($plan_tx // 0) . ' new sessions planned 4 xid clauses each, every count right, during '
	  . ($ddl_tx // 0) . ' CREATE OR REPLACE FUNCTION') or diag($plan_out);
is($node->safe_psql('postgres', 'SELECT 1'), '1', 'the server is up');

done_testing();
