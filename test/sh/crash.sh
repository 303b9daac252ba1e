#!/usr/bin/env bash
# test/sh/crash.sh: kill -9 the postmaster and its processes while a bulk
# insert runs; after restart (crash recovery) every acknowledged commit must
# be there, nothing half-done may be, and the indexes must check clean.
#
# Runs its own cluster (fsync on): the suite's cluster is left alone.
# Called by test/suite.sh with XID_BINDIR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/cluster.sh
bindir=$XID_BINDIR
work=$XID_WORK
dir="$work/cluster"
mkdir -p "$work"
trap 'cluster_stop "$bindir" "$dir"' EXIT

port=$(free_port)
cluster_start "$bindir" "$dir" "$port" "fsync = on" "synchronous_commit = on"
export PGHOST="$dir/sock" PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql <<'SQL'
CREATE EXTENSION xid;
CREATE EXTENSION amcheck;
CREATE TABLE bulk (id public.xid PRIMARY KEY DEFAULT public.xid_new(), batch int NOT NULL, k int NOT NULL);
CREATE INDEX bulk_hash ON bulk USING hash (id);
CREATE INDEX bulk_brin ON bulk USING brin (id);
CREATE TABLE batches (batch int PRIMARY KEY);
SQL

# The loader: one transaction per batch of 2,000 rows; a batch is written to
# acked.txt only after its COMMIT returned.
: >"$work/acked.txt"
(
	for b in $(seq 1 100000); do
		psql -c "BEGIN; INSERT INTO bulk (batch, k) SELECT $b, g FROM generate_series(1, 2000) AS g; INSERT INTO batches VALUES ($b); COMMIT;" 2>/dev/null || exit 0
		echo "$b" >>"$work/acked.txt"
	done
) &
loader=$!

# let it run, then kill the whole server at once
while [ "$(wc -l <"$work/acked.txt")" -lt 30 ]; do sleep 0.2; done
pm=$(head -1 "$dir/data/postmaster.pid")
children=$(pgrep -P "$pm" || true)
kill -9 "$pm" $children 2>/dev/null || true
wait "$loader" || true
acked=$(wc -l <"$work/acked.txt")
for i in $(seq 1 100); do
	kill -0 "$pm" 2>/dev/null || pgrep -P "$pm" >/dev/null 2>&1 || break
	sleep 0.2
done

# restart: crash recovery
runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start >/dev/null 2>&1 ||
	{ echo "restart failed"; tail -20 "$dir/server.log"; exit 1; }
grep -q "database system was interrupted\|not properly shut down" "$dir/server.log" ||
	{ echo "the server did not go through crash recovery"; exit 1; }

max_acked=$(tail -1 "$work/acked.txt")
read -r rows batches missing partial <<<"$(psql -A -t -F ' ' <<SQL
SELECT (SELECT count(*) FROM bulk),
       (SELECT count(*) FROM batches),
       (SELECT count(*) FROM generate_series(1, $max_acked) AS b
        WHERE NOT EXISTS (SELECT FROM batches WHERE batch = b)),
       (SELECT count(*) FROM (SELECT batch FROM bulk GROUP BY batch HAVING count(*) <> 2000) p)
       + (SELECT count(*) FROM (SELECT DISTINCT batch FROM bulk) d
          WHERE NOT EXISTS (SELECT FROM batches b WHERE b.batch = d.batch));
SQL
)"
echo "crash: $acked batches acknowledged before the kill, $batches committed after recovery ($rows rows)"
[ "$missing" -eq 0 ] || { echo "FAIL $missing acknowledged batches lost"; exit 1; }
[ "$partial" -eq 0 ] || { echo "FAIL $partial partial or orphan batches"; exit 1; }
[ "$rows" -eq $((batches * 2000)) ] || { echo "FAIL row count does not match the batches"; exit 1; }
psql -A -t <<'SQL' >"$work/checks.txt"
SELECT bt_index_parent_check('bulk_pkey', heapallindexed => true);
SELECT count(*) FROM bulk WHERE id ^@ left((SELECT min(id) FROM bulk)::text, 6);
SET enable_seqscan = off;
SELECT count(*) FROM bulk WHERE id = (SELECT max(id) FROM bulk);
SQL
echo "crash: indexes check clean after recovery"

# after the restart, new ids are above every id issued before it (the clock
# has passed the last issued time)
above=$(psql -A -t -c "SELECT public.xid_new() > max(id) FROM bulk")
[ "$above" = t ] || { echo "FAIL an id made after the restart is not above the ids made before"; exit 1; }
echo "crash: ids made after the restart are above every earlier id"
