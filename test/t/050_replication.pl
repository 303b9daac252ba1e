# Logical replication of xid columns between two servers of this version.
# A table with an xid primary key, an xid column and an xidrange column,
# and one with REPLICA IDENTITY FULL and no key, replicate in text mode
# and with binary = true (one subscriber database each): initial copy,
# then INSERT, UPDATE and DELETE by id.  Afterwards the subscriber holds
# exactly the publisher's rows (EXCEPT both ways, every column).
#
# The same checks, between two running servers of any versions, are
# ci/replication.sh, which ci/matrix.sh runs (ci/rep_subscriber.sh)
# from 15 to 17, 18 and 19: a change to one belongs in the other.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

$ENV{PGOPTIONS} = '-c client_min_messages=warning';
my $pub = xid_node('publisher', preload => 0, conf => "wal_level = logical\nmax_wal_senders = 10");
my $sub = xid_node('subscriber', preload => 0);
my $schema = q{
	CREATE EXTENSION IF NOT EXISTS xid;
	CREATE TABLE rep_key (id public.xid PRIMARY KEY, ref public.xid, span public.xidrange, v int);
	CREATE TABLE rep_full (id public.xid NOT NULL, ref public.xid, span public.xidrange, v int);
	ALTER TABLE rep_full REPLICA IDENTITY FULL;
};
$pub->safe_psql('postgres', 'CREATE DATABASE xid_rep');
$pub->safe_psql('xid_rep', $schema . q{
	INSERT INTO rep_key
	SELECT public.xid_new(), public.xid_new('2025-01-01+00'::timestamptz + g * interval '1 hour'),
	       CASE WHEN g % 3 = 0 THEN public.xid_time_range(tstzrange('2025-01-01+00'::timestamptz + g * interval '1 day', NULL))
	            WHEN g % 3 = 1 THEN public.xid_prefix_range(left(public.xid_new()::text, 1 + g % 11))
	            ELSE NULL END,
	       g
	FROM generate_series(1, 2000) AS g;
	INSERT INTO rep_full SELECT * FROM rep_key;
	CREATE PUBLICATION xid_pub FOR TABLE rep_key, rep_full;
});
for my $mode (qw(text binary))
{
	$sub->safe_psql('postgres', "CREATE DATABASE xid_rep_$mode");
	(my $conninfo = $pub->connstr('xid_rep')) =~ s/'/''/g;
	$sub->safe_psql("xid_rep_$mode", $schema . "CREATE SUBSCRIPTION xid_sub_$mode CONNECTION '$conninfo'"
		. " PUBLICATION xid_pub WITH (binary = "
		. ($mode eq 'binary' ? 'true' : 'false') . ", slot_name = 'xid_slot_$mode')");
}

# wait_same(DB): until the subscriber's rows hash like the publisher's
my $digest = q{SELECT md5(string_agg(t, E'\n' ORDER BY t)) FROM (
	SELECT 'k ' || r::text AS t FROM rep_key r UNION ALL SELECT 'f ' || r::text FROM rep_full r) s};
sub wait_same
{
	my ($db) = @_;
	my $want = $pub->safe_psql('xid_rep', $digest);
	return $sub->poll_query_until($db, "SELECT ($digest) = '$want'");
}
# compare(DB, WHAT): every row and column equal, EXCEPT both ways
sub compare
{
	my ($db, $what) = @_;
	for my $t (qw(rep_key rep_full))
	{
		my $rows = $pub->safe_psql('xid_rep', "COPY $t TO STDOUT");
		my ($only_pub, $only_sub, $n) = split /\|/, $sub->safe_psql($db, qq{
			DROP TABLE IF EXISTS pub_$t;
			CREATE TABLE pub_$t (LIKE $t);
			COPY pub_$t FROM STDIN;
$rows
\\.
			SELECT (SELECT count(*) FROM (SELECT * FROM pub_$t EXCEPT ALL SELECT * FROM $t) s),
			       (SELECT count(*) FROM (SELECT * FROM $t EXCEPT ALL SELECT * FROM pub_$t) s),
			       (SELECT count(*) FROM $t)});
		cmp_ok($n, '>', 0, "$db $what: $t has $n rows");
		is($only_pub, '0', "$db $what: $t has every row of the publisher's");
		is($only_sub, '0', "$db $what: $t has no row the publisher has not");
	}
}

for my $mode (qw(text binary))
{
	ok(wait_same("xid_rep_$mode"), "initial copy reaches xid_rep_$mode");
	compare("xid_rep_$mode", 'after the initial copy');
}

$pub->safe_psql('xid_rep', q{
	INSERT INTO rep_key
	SELECT public.xid_new(), NULL, public.xid_prefix_range('5cnE'), 10000 + g FROM generate_series(1, 500) AS g;
	INSERT INTO rep_full SELECT * FROM rep_key WHERE v > 10000;
	UPDATE rep_key SET v = -v, ref = public.xid_new(), span = public.xid_time_range('[2026-01-01+00, 2026-02-01+00)')
	WHERE id IN (SELECT id FROM rep_key WHERE v % 7 = 0);
	UPDATE rep_full SET v = -v, span = NULL WHERE id IN (SELECT id FROM rep_full WHERE v % 5 = 0);
	DELETE FROM rep_key WHERE id IN (SELECT id FROM rep_key WHERE v % 11 = 0);
	DELETE FROM rep_full WHERE id IN (SELECT id FROM rep_full WHERE v % 13 = 0);
});
for my $mode (qw(text binary))
{
	ok(wait_same("xid_rep_$mode"), "INSERT, UPDATE and DELETE reach xid_rep_$mode");
	compare("xid_rep_$mode", 'after INSERT, UPDATE and DELETE');
	$sub->safe_psql("xid_rep_$mode", "DROP SUBSCRIPTION xid_sub_$mode");
}

done_testing();
