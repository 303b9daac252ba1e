# A database owner who is not a superuser dumps and restores their database
# when a superuser installed the extension there (a provider's usual setup),
# as those roles themselves.
#
# - dora owns three databases; the superuser installed xid in them: 1.1
#   directly, 1.0 then ALTER EXTENSION xid UPDATE, and 1.1 in a template
#   that dora's restore target is copied from (the extension is there
#   before the restore, as with template1).
# - dora makes ids, runs pg_dump, creates a database, runs pg_restore
#   --exit-on-error into it: the data is the same, the durable mark is
#   restored, and new ids are above the restored ones.  Into the copy of
#   the template with --no-comments: COMMENT ON EXTENSION needs the
#   extension's owner, which she is not there (core's rule, for any
#   extension installed before a restore).
# - eve, another role without privileges, still may not read or move the
#   mark.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('owner_dump');
my $dir = PostgreSQL::Test::Utils::tempdir();

# as(ROLE, DB, SQL): SQL in a session of ROLE, errors stop the test
sub as
{
	my ($role, $db, $sql) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role ]);
}

$node->safe_psql('postgres', q{
	CREATE ROLE dora LOGIN CREATEDB;
	CREATE ROLE eve LOGIN;
	CREATE DATABASE xod_new OWNER dora;
	CREATE DATABASE xod_upd OWNER dora;
	CREATE DATABASE xod_tpl OWNER dora;
	CREATE DATABASE xod_tpl_src OWNER dora;
});
# the superuser installs the extension
$node->safe_psql('xod_new', 'CREATE EXTENSION xid');
$node->safe_psql('xod_upd', "CREATE EXTENSION xid VERSION '1.0'; ALTER EXTENSION xid UPDATE");
$node->safe_psql('xod_tpl', 'CREATE EXTENSION xid');
$node->safe_psql('xod_tpl_src', 'CREATE EXTENSION xid');
$node->safe_psql('postgres', 'ALTER DATABASE xod_tpl IS_TEMPLATE true');

# dora_round(SRC, DST, [TEMPLATE]): dora's data, dump, new database, restore
sub dora_round
{
	my ($src, $dst, $tpl) = @_;
	as('dora', $src, q{
		CREATE TABLE t (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int);
		INSERT INTO t (v) SELECT g FROM generate_series(1, 1000) AS g;
	});
	my $mark = 'SELECT last_value FROM public.xid_durable_mark';
	my $mark_src = $node->safe_psql($src, $mark);
	$node->command_ok([ 'pg_dump', '-U', 'dora', '-Fc', '-f', "$dir/$src.dump", '-d', $src ],
		"dora: pg_dump of $src");
	# COMMENT ON EXTENSION needs the extension's owner, the superuser
	# there: core's rule for any extension installed before a restore
	my @opts = $tpl ? ('--no-comments') : ();
	as('dora', 'postgres', "CREATE DATABASE $dst" . ($tpl ? " TEMPLATE $tpl" : ''));
	$node->command_ok(
		[ 'pg_restore', '-U', 'dora', '--exit-on-error', @opts, '-d', $dst, "$dir/$src.dump" ],
		"dora: pg_restore " . join(' ', '--exit-on-error', @opts) . " into $dst"
		  . ($tpl ? " (copied from $tpl, which has the extension)" : ''));
	my $sums = "SELECT count(*), md5(string_agg(id::text || v, ',' ORDER BY id)) FROM t";
	my $sums_dst = as('dora', $dst, $sums);
	is($sums_dst, as('dora', $src, $sums), "dora: $dst holds ${src}'s rows ($sums_dst)");
	is($node->safe_psql($dst, $mark), $mark_src, "dora: ${dst}'s durable mark is ${src}'s ($mark_src)");
	is(as('dora', $dst, 'SELECT public.xid_new() > max(id) FROM t'), 't',
		"dora: new ids in $dst are above the restored ones");
	for ([ 'read', $mark ], [ 'move', "SELECT setval('public.xid_durable_mark', 4398046511103)" ])
	{
		my ($rc, $out, $err) = $node->psql($dst, $_->[1], extra_params => [ '-U', 'eve' ]);
		like($err, qr/ERROR:  permission denied for sequence xid_durable_mark$/m,
			"eve may not $_->[0] ${dst}'s mark");
	}
}

dora_round('xod_new', 'xod_new_r');
dora_round('xod_upd', 'xod_upd_r');
dora_round('xod_tpl_src', 'xod_tpl_r', 'xod_tpl');
note('owner dump and restore: 3 databases a superuser installed xid in');

done_testing();
