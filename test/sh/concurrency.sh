#!/usr/bin/env bash
# test/sh/concurrency.sh: xid_new() as a primary key default under 8
# concurrent pgbench clients, 200,000 rows in all.
#
# The state is shared on every version, with the library preloaded or not
# (the DSM registry on 17+, the spare shared memory on 15 and 16): there
# must be no unique violation and no failed transaction, and each client's
# ids must be strictly increasing in the order it made them.  The run also
# counts duplicates (none, under the primary key) beside the birthday bound
# that ids made per session would have had for the same run.
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR, XID_WORK and the PG*
# variables of a running cluster that has the library preloaded.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh

bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
clients=8
tx_per_client=2500
rows_per_tx=10
total=$((clients * tx_per_client * rows_per_tx))

nopre="$work/no-preload"
trap 'cluster_stop "$bindir" "$nopre"' EXIT

cat >"$work/insert.sql" <<SQL
\set counter :counter + 1
INSERT INTO ids (client, counter, id)
SELECT :client_id, :counter * $rows_per_tx + g, public.xid_new()
FROM generate_series(1, $rows_per_tx) AS g;
SQL

# run_case NAME WITH_PK: load the table through pgbench on the cluster in PG*
run_case()
{
	local name=$1 with_pk=$2 pk="" out
	[ "$with_pk" = yes ] && pk="PRIMARY KEY"
	"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -d postgres <<SQL
DROP DATABASE IF EXISTS xid_concurrency;
CREATE DATABASE xid_concurrency;
\c xid_concurrency
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid $pk, client int NOT NULL, counter bigint NOT NULL);
SQL
	out="$work/pgbench-$name.log"
	if ! "$bindir/pgbench" -n -c $clients -j 2 -t $tx_per_client -D counter=0 \
		-f "$work/insert.sql" xid_concurrency >"$out" 2>&1; then
		cat "$out"
		echo "FAIL $name: pgbench failed"
		return 1
	fi
	"$bindir/psql" -X -A -t -v ON_ERROR_STOP=1 -d xid_concurrency <<SQL >"$work/check-$name.txt"
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
FROM ids;
SQL
	IFS='|' read -r rows dups unordered expected millis <"$work/check-$name.txt"
	failed_tx=$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' "$out")
	echo "$name: $rows rows in $millis ms, $dups duplicates (birthday bound $expected), $unordered out of order, ${failed_tx:-0} failed transactions"
	[ "$rows" -eq "$total" ] || { echo "FAIL $name: expected $total rows"; return 1; }
	[ "$unordered" -eq 0 ] || { echo "FAIL $name: ids not increasing within a client"; return 1; }
	if [ "$with_pk" = yes ]; then
		[ "$dups" -eq 0 ] && [ "${failed_tx:-0}" -eq 0 ] ||
			{ echo "FAIL $name: duplicates or failed transactions"; return 1; }
	fi
}

# 1. the preloaded cluster of the suite: shared memory on every version
run_case preload yes

# 2. a cluster without preload: the DSM registry on 17+, the spare shared
# memory on 15 and 16
cluster_start "$bindir" "$nopre" "$(free_port)"
export PGHOST="$nopre/sock" PGPORT=$(sed -nE "s/^port = ([0-9]+)/\1/p" "$nopre/data/postgresql.conf")
run_case no-preload yes
echo "concurrency: $total rows per case, all checks passed"
