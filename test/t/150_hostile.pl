# The generated hostile-argument suite.  Every operator and SQL-callable
# function of the extension, found in the catalog, with arguments of every
# shape (the indexed column, another column, constants at the edges, invalid
# and over-long text, LIKE wildcards and escapes, NULL, an expression, a
# parameter of a generic plan on either side, an init-plan sub-select, the
# outer column of a join, arrays with ANY/ALL, name/varchar/char text,
# COLLATE "C" and a nondeterministic collation), in every place (a plain
# table, range and hash partitions, an inheritance parent, views, a domain
# over xid, CHECK constraints, partial indexes, row security, BRIN) and
# context (alone, NOT, OR, CASE, a join clause).  Each query must return the
# rows of its row-by-row oracle, or raise the error the oracle raises; no
# query may crash the server (test/hostile/).
#
# It runs as the roles of a shared server: a database owner without
# superuser installs the trusted extension and makes the tables, and an
# ordinary role runs the queries.
#
# XID_HOSTILE_QUERIES is how many of the generated queries run (default
# 50000, a share of each operator's and function's queries, at least one,
# chosen by a hash of their text and a salt; "all" runs every one, about
# 500,000, two minutes on PostgreSQL 18 here).  The salt is new each run and
# noted (XID_HOSTILE_SALT=N repeats a run's sample): each version's suite and
# each run test other queries, so that the runs together cover the whole set
# at a tenth of its time each.  XID_HOSTILE_DISCARD_CACHES=1 (test/suite.sh's
# XID_DISCARD_CACHES, on a server built with assertions): each query is
# planned and run with debug_discard_caches = 1, its oracle without; the
# superuser grants the unprivileged role SET on that parameter, so that the
# queries still run as that role.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $sample = $ENV{XID_HOSTILE_QUERIES} // 50000;
my $salt = $ENV{XID_HOSTILE_SALT} // int(rand(65536));
my $batch = $ENV{XID_HOSTILE_BATCH} // 2000;
my $discard = $ENV{XID_HOSTILE_DISCARD_CACHES} ? 'true' : 'false';
die "XID_HOSTILE_SALT must be a number, not '$salt'" unless $salt =~ /^\d+$/;

# the postmaster restarts after a crash, so that the queries after it run
my $node = xid_node('hostile', conf => 'restart_after_crash = on');
my $db = 'xid_hostile';
my @owner = (extra_params => [ '-U', 'hostile_owner' ]);
$node->safe_psql('postgres', qq{
	CREATE ROLE hostile_owner LOGIN;
	CREATE ROLE hostile_user LOGIN;
	CREATE DATABASE $db OWNER hostile_owner;
});
$node->safe_psql('postgres', 'GRANT SET ON PARAMETER debug_discard_caches TO hostile_user')
  if $discard eq 'true';
$node->safe_psql($db, slurp_file("$FindBin::RealBin/../hostile/$_.sql"), @owner)
  for qw(setup generate);

# the operator or function a query tests (its ANY/ALL and volatile forms
# counted as one): the unit the sample shares out and the count reports
my $member = q{regexp_replace(what, ' (ANY|ALL|volatile)$', '')};
# a sample that keeps every operator and function (each its share of the
# sample, one at least), the queries of each chosen by a hash of their text
# and the salt
$node->safe_psql($db, qq{
	DELETE FROM hostile.queries AS h USING (
		SELECT qno,
			   row_number() OVER (PARTITION BY op ORDER BY hashtext(q || ' $salt'), qno) AS k,
			   count(*) OVER (PARTITION BY op) AS n
		FROM (SELECT qno, q, $member AS op FROM hostile.queries) AS o) AS s
	WHERE h.qno = s.qno
	  AND s.k > greatest(1, round(s.n * $sample / (SELECT count(*) FROM hostile.queries)))}, @owner)
  if $sample ne 'all';
my ($total, $members, $places, $maxq) = split /\|/, $node->safe_psql($db, qq{
	SELECT count(*), count(DISTINCT $member), count(DISTINCT place), max(qno)
	FROM hostile.queries}, @owner);

# Index paths wherever there is one (before 18 a disabled sequential scan
# costs 1e10, which would make every query worth compiling: no JIT), generic
# plans for parameters and in the oracles, and constraint exclusion on
# plain tables too (the CHECK constraints of p_check).
my $settings = 'SET enable_seqscan = off; SET jit = off; SET plan_cache_mode = force_generic_plan;
SET constraint_exclusion = on; SET search_path = public;';

# run_range(LO, HI): queries LO..HI, each a line "qno|outcome|detail";
# where the server dies, the two halves again, down to the queries that
# kill it
my (@results, @crashes);
sub run_range
{
	my ($lo, $hi) = @_;
	my ($rc, $out, $err) = $node->psql($db, "$settings SELECT * FROM hostile.run($lo, $hi, $discard)",
		extra_params => [ '-U', 'hostile_user' ]);
	if ($rc == 0)
	{
		push @results, split /\n/, $out;
		return;
	}
	my @err = grep { /\S/ } split /\n/, $err;
	note(join "\n", splice(@err, 0, 3));
	$node->poll_query_until('postgres', 'SELECT true')
	  or BAIL_OUT('the server did not come back after a crash');
	if ($lo == $hi)
	{
		push @crashes, $lo;
		return;
	}
	my $mid = int(($lo + $hi) / 2);
	run_range($lo, $mid);
	run_range($mid + 1, $hi);
}
for (my $lo = 1; $lo <= $maxq; $lo += $batch) { run_range($lo, $lo + $batch - 1); }

my %count = map { $_ => 0 } qw(same both oracle wrong unexpected);
/^\d+\|(\w+)\|/ and $count{$1}++ for @results;
note("sample $salt (XID_HOSTILE_SALT=$salt runs the same queries)") if $sample ne 'all';
note("$total queries over $members operators and functions in $places places: "
	  . "$count{same} same rows, $count{both} the oracle's error, $count{oracle} error only in the oracle; "
	  . scalar(@crashes) . " crashes, $count{wrong} wrong results, $count{unexpected} unexpected errors");

# show(qno => what, ...): the first of those queries, each with its
# operator, place, context, parameter, text and oracle
sub show
{
	my %what = @_;
	my @lines;
	for my $qno (sort { $a <=> $b } keys %what)
	{
		push @lines, "#$qno $what{$qno}", split /\n/, $node->safe_psql($db, qq{
			SELECT format('  %s in %s (%s)%s', what, place, ctx, coalesce(' with \$1 = ' || pval, ''))
				   || E'\\n  query:  ' || q || E'\\n  oracle: ' || o
			FROM hostile.queries WHERE qno = $qno}, @owner);
		last if @lines >= 60;
	}
	$#lines = 59 if @lines > 60;
	return join "\n", @lines;
}
my %bad = map { my ($q, $o, $d) = split /\|/, $_, 3; ($q => "$o: $d") }
  grep { /^\d+\|(wrong|unexpected)\|/ } @results;
cmp_ok($total, '>', 0, 'the generator made queries');
is(scalar(@crashes), 0, 'no query crashes the server')
  or diag("crashing queries:\n" . show(map { $_ => 'crash' } @crashes));
is($count{wrong}, 0, 'every query returns the rows of its oracle')
  or diag("wrong results and unexpected errors:\n" . show(%bad));
is($count{unexpected}, 0, 'every query that raises an error raises the one of its oracle')
  or diag("wrong results and unexpected errors:\n" . show(%bad));
is(scalar(@results) + scalar(@crashes), $total, 'every query ran (or crashed the server)');

done_testing();
