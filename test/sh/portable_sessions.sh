#!/usr/bin/env bash
# test/sh/portable_sessions.sh: the portable xid_new() across sessions.
#
# 1. 4 concurrent pgbench clients, 100,000 ids in all, into a bigint primary
#    key: no unique violation, no failed transaction, and each client's ids
#    strictly increasing in the order it made them.
# 2. 200 sessions one after the other, one id each: every id above the
#    one before (ids from different sessions keep the order they were made).
#
# Called by ci/suite.sh with XID_BINDIR, XID_WORK and the PG* variables
# of a running cluster on which portable/ is installed.
set -euo pipefail
bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
db=xid_portable_sessions
psql="$bindir/psql -X -q -v ON_ERROR_STOP=1"

$psql -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap '$psql -d postgres -c "DROP DATABASE IF EXISTS $db"' EXIT
$psql -d $db <<'SQL'
CREATE SCHEMA xp;
CREATE EXTENSION xid_portable SCHEMA xp;
CREATE TABLE ids (client int NOT NULL, counter int NOT NULL, id bigint PRIMARY KEY DEFAULT xp.xid_new());
CREATE TABLE serial_ids (n int, id bigint);
SQL

cat >"$work/insert.sql" <<'SQL'
\set counter :counter + 1
INSERT INTO ids (client, counter)
SELECT :client_id, :counter * 10 + g FROM generate_series(1, 10) AS g;
SQL
"$bindir/pgbench" -n -c 4 -j 2 -t 2500 -D counter=0 -f "$work/insert.sql" $db >"$work/pgbench.log" 2>&1 || {
	cat "$work/pgbench.log"
	exit 1
}
grep -E "failed|processed" "$work/pgbench.log"
$psql -d $db -At <<'SQL' >"$work/concurrent.out"
SELECT count(*), count(DISTINCT id),
       count(*) FILTER (WHERE id <= prev)
FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY counter) AS prev FROM ids) s;
SQL
read -r rows distinct not_increasing < <(tr '|' ' ' <"$work/concurrent.out")
echo "concurrent: $rows ids, $distinct distinct, $not_increasing out of order within a client"
[ "$rows" -eq 100000 ] && [ "$distinct" -eq 100000 ] && [ "$not_increasing" -eq 0 ]

for n in $(seq 1 200); do
	echo "INSERT INTO serial_ids VALUES ($n, xp.xid_new());"
done >"$work/serial.sql"
# one session per statement
while read -r stmt; do
	$psql -d $db -c "$stmt"
done <"$work/serial.sql"
read -r made not_increasing < <($psql -d $db -At -F ' ' -c \
	"SELECT count(*), count(*) FILTER (WHERE id <= prev)
	 FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM serial_ids) s")
echo "one after another: $made sessions, $not_increasing ids not above the one before"
[ "$made" -eq 200 ] && [ "$not_increasing" -eq 0 ]
