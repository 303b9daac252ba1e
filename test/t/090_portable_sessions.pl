# The portable xid_new() across sessions.
#
# 1. 4 concurrent pgbench clients, 100,000 ids in all, into a bigint primary
#    key: no unique violation, no failed transaction, and each client's ids
#    strictly increasing in the order it made them.
# 2. 200 sessions one after the other, one id each: every id above the
#    one before (ids from different sessions keep the order they were made).
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('portable_sessions');
$node->safe_psql('postgres', q{
	CREATE SCHEMA xp;
	CREATE EXTENSION xid_portable SCHEMA xp;
	CREATE TABLE ids (client int NOT NULL, counter int NOT NULL, id bigint PRIMARY KEY DEFAULT xp.xid_new());
	CREATE TABLE serial_ids (n int, id bigint);
});

$node->pgbench('-n -c 4 -j 2 -t 2500 -D counter=0', 0,
	[ qr{processed: 10000/10000}, qr{number of failed transactions: 0 } ], [],
	'4 pgbench clients insert 100,000 ids: every transaction done, none failed',
	{ 'insert.sql' => q{
\set counter :counter + 1
INSERT INTO ids (client, counter)
SELECT :client_id, :counter * 10 + g FROM generate_series(1, 10) AS g;
} }, 'postgres');
my ($rows, $distinct, $not_increasing) = split /\|/, $node->safe_psql('postgres', q{
	SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE id <= prev)
	FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY counter) AS prev FROM ids) s});
is($rows, 100000, 'concurrent: 100,000 ids stored');
is($distinct, 100000, 'concurrent: all of them distinct');
is($not_increasing, 0, "concurrent: each client's ids strictly increasing");

# one session per statement
$node->safe_psql('postgres', "INSERT INTO serial_ids VALUES ($_, xp.xid_new())") for 1 .. 200;
my ($made, $back) = split /\|/, $node->safe_psql('postgres', q{
	SELECT count(*), count(*) FILTER (WHERE id <= prev)
	FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM serial_ids) s});
is($made, 200, 'one after another: 200 sessions made an id each');
is($back, 0, 'one after another: every id above the one before');

done_testing();
