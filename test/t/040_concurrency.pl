# xid_new() as a primary key default under 8 concurrent pgbench clients,
# 200,000 rows in all.
#
# The state is shared on every version, with the library preloaded or not
# (the DSM registry on 17+, the spare shared memory on 15 and 16): there
# must be no unique violation and no failed transaction, and each client's
# ids must be strictly increasing in the order it made them.  The run also
# counts duplicates (none, under the primary key) beside the birthday bound
# that ids made per session would have had for the same run.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my ($clients, $tx_per_client, $rows_per_tx) = (8, 2500, 10);
my $tx = $clients * $tx_per_client;
my $total = $tx * $rows_per_tx;

for my $case ([ 'preload', 1 ], [ 'no_preload', 0 ])
{
	my ($name, $preload) = @$case;
	my $node = xid_node($name, preload => $preload);
	$node->safe_psql('postgres', q{
		CREATE EXTENSION xid;
		CREATE TABLE ids (id public.xid PRIMARY KEY, client int NOT NULL, counter bigint NOT NULL);
	});
	$node->pgbench(
		"-n -c $clients -j 2 -t $tx_per_client -D counter=0",
		0, [ qr/number of failed transactions: 0 /, qr/processed: $tx\/$tx/ ], [],
		"$name: pgbench, $clients clients, no failed transaction (no unique violation)",
		{ "insert_$name.sql" => qq{
\\set counter :counter + 1
INSERT INTO ids (client, counter, id)
SELECT :client_id, :counter * $rows_per_tx + g, public.xid_new()
FROM generate_series(1, $rows_per_tx) AS g;
} }, 'postgres');

	my ($rows, $dups, $unordered, $expected, $millis) = split /\|/, $node->safe_psql('postgres', q{
		SELECT count(*),
		       count(*) - count(DISTINCT id),
		       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY counter) AS prev
		                              FROM ids) s WHERE id <= prev),
		       -- birthday bound: pairs from different sessions in the same millisecond,
		       -- each equal with probability 1 / 2^22
		       round((SELECT sum(n * n - sq) / 2.0 / 4194304
		              FROM (SELECT sum(k) AS n, sum(k * k) AS sq
		                    FROM (SELECT public.xid_time(id) AS t, client, count(*) AS k
		                          FROM ids GROUP BY 1, 2) c
		                    GROUP BY t) m), 2),
		       (SELECT count(DISTINCT public.xid_time(id)) FROM ids)
		FROM ids});
	note("$name: $rows rows in $millis ms, $dups duplicates (birthday bound $expected), $unordered out of order");
	is($rows, $total, "$name: all $total rows are there");
	is($unordered, '0', "$name: each client's ids are strictly increasing");
	is($dups, '0', "$name: no duplicate");
	$node->stop;
}

done_testing();
