# sqlsmith's random queries against a database of xid tables, indexes,
# partitions, views and a domain (test/sqlsmith-setup.sql) owned by a role
# without superuser, on a server of its own with the library preloaded.
# sqlsmith's own errors (most of its queries) are fine; an assertion
# failure, a sanitizer report or a crash in the server's log fails the
# test, and the whole query of each process that died is printed and kept
# in tmp_check/log/sqlsmith-crashes.sql.
#
# Run by test/suite.sh, and by test/assert.sh with XID_SANITIZER_DIR (where
# the sanitizers write their reports) and more queries.
#   XID_SQLSMITH_QUERIES  how many queries (default 5000)
#   XID_SQLSMITH_SEED     sqlsmith's seed (default: a random one, noted)
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

plan skip_all => 'test/assert.sh runs sqlsmith on its own, with more queries'
  if $ENV{XID_SANITIZE} && !$ENV{XID_SQLSMITH_STANDALONE};
plan skip_all => 'sqlsmith is not installed (test/chroot.sh and test/matrix.sh install it)'
  unless grep { -x "$_/sqlsmith" } split /:/, $ENV{PATH};

my $n = $ENV{XID_SQLSMITH_QUERIES} // 5000;
my $seed = $ENV{XID_SQLSMITH_SEED} // int(rand(2**30));

# sqlsmith's own errors and statements left out of the log; the postmaster
# restarts after a crash, so that sqlsmith goes on
my $node = xid_node('sqlsmith', conf => "log_min_messages = log\nlog_min_error_statement = panic\n"
	  . "log_statement = none\nrestart_after_crash = on");
# sqlsmith writes type names unqualified: with public ahead of pg_catalog,
# its "xid" is ours
$node->safe_psql('postgres', q{
	CREATE ROLE smith LOGIN;
	CREATE DATABASE smith OWNER smith;
	ALTER ROLE smith SET search_path = public, pg_catalog;
});
$node->safe_psql('smith', 'CREATE EXTENSION xid');
$node->safe_psql('smith', slurp_file("$FindBin::RealBin/../sqlsmith-setup.sql"),
	extra_params => [ '-U', 'smith' ]);

# every query to queries.sql, each ending in ";" (sqlsmith chooses what to
# generate by what failed before, so a seed alone does not give the queries
# back)
my $log = $PostgreSQL::Test::Utils::log_path;
my ($queries_sql, $out) = ("$log/sqlsmith-queries.sql", '');
IPC::Run::run(
	[ 'sqlsmith', '--target=' . $node->connstr('smith') . ' user=smith',
	  '--exclude-catalog', "--max-queries=$n", "--seed=$seed", '--verbose', '--dump-all-queries' ],
	'>', $queries_sql, '2>', \$out);
my $status = $?;
$node->stop;
my ($queries) = ($out =~ /.*^queries: (\d+)/ms);
note('sqlsmith: ' . ($queries // '?') . " queries (seed $seed)");

# What the server must never log (test/cluster.sh's server_report_re): an
# assertion failure, a sanitizer report, a server process killed by any
# signal but 9, a write past the end of a palloc'd chunk, each with what
# follows it (the backtrace, the query of the process); and the reports
# the sanitizers wrote to XID_SANITIZER_DIR
my $server_log = slurp_file($node->logfile);
my $report_re = qr/TRAP:|AddressSanitizer|runtime error:|terminated by signal ([0-8]|[1-9][0-9]+):|detected write past chunk end|problem in alloc set/;
my @log = split /\n/, $server_log;
my @reports = map { @log[ $_ .. ($_ + 12 < $#log ? $_ + 12 : $#log) ] }
  grep { $log[$_] =~ $report_re } 0 .. $#log;
for my $f (glob(($ENV{XID_SANITIZER_DIR} // '/nonexistent') . '/{asan,ubsan}.*'))
{
	my $text = slurp_file($f);
	push @reports, "---- $f", grep { defined } (split /\n/, $text)[ 0 .. 59 ]
	  if $text =~ /ERROR: AddressSanitizer|runtime error:|SUMMARY:/;
}
is($status, 0, 'sqlsmith exits with 0')
  or diag("exit status $status, its last lines:\n", join "\n", grep { defined } (split /\n/, $out)[ -5 .. -1 ]);
is(scalar(@reports), 0, 'no assertion failure, sanitizer report or crash in the server log')
  or diag(join "\n", grep { defined } @reports[ 0 .. 59 ]);

# The log has the first 1,023 bytes of the query of a process that died
# (continued lines after a tab): the whole query is the one in queries.sql
# that starts with them.
my @prefixes = map { s/\n\t/\n/gr } $server_log =~ /Failed process was running: (.*(?:\n\t.*)*)/g;
my @crashes = grep { my $q = $_; grep { index($q, $_) == 0 } @prefixes }
  split /(?<=;)\n/, slurp_file($queries_sql);
if (@crashes)
{
	my $crashes = join "\n\n", @crashes;
	append_to_file("$log/sqlsmith-crashes.sql", "$crashes\n");
	diag(join "\n", "the queries of the processes that died (in $log/sqlsmith-crashes.sql):",
		grep { defined } (split /\n/, $crashes)[ 0 .. 99 ]);
}
unlink $queries_sql if Test::More->builder->is_passing;
done_testing();
