#!/usr/bin/env bash
# bench/ab.sh REV [ROUNDS]: xid_new() and inserts with the library of commit
# REV against the working tree's, on PostgreSQL 15 (host), in one run.
# Needs root.  For a change to the generator whose cost must not show: the
# rest of the benchmark compares xid with its rivals, this compares xid
# with itself.
#
# One throwaway server (library preloaded, fsync on, as users run it),
# installed with the working tree's extension; each round swaps the
# library file (REV, then the working tree), restarts the server and
# times, after a warm-up: 2,000,000 xid_new(), 2,000,000 clock_timestamp()
# (the same machine's noise, beside it) and an insert of 500,000 rows
# with DEFAULT xid_new() into an emptied table after a checkpoint.
# Prints every round and the medians.  REV must have the same SQL objects
# the calls need (xid_new() exists in every version).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
. ci/cluster.sh
rev=${1:?usage: bench/ab.sh REV [ROUNDS]}
rounds=${2:-5}
bin=/usr/lib/postgresql/15/bin
apt_install postgresql-15 postgresql-server-dev-15 make gcc git
work=$(mktemp -d /tmp/xid-ab.XXXXXX)
chmod 711 "$work"
lib=$("$bin/pg_config" --pkglibdir)
trap 'cluster_stop "$bin" "$work/c"; make -s -C "$top" install PG_CONFIG="$bin/pg_config" >/dev/null 2>&1; rm -rf "$work"' EXIT

# the two libraries
git -C "$top" archive --prefix=old/ "$rev" | tar -xf - -C "$work"
make -s -C "$work/old" PG_CONFIG="$bin/pg_config" >/dev/null 2>&1
copy_sources "$top" "$work/new"
make -s -C "$work/new" PG_CONFIG="$bin/pg_config" install >/dev/null 2>&1

port=$(free_port 55900)
cluster_start "$bin" "$work/c" "$port" "shared_preload_libraries = 'xid'" "fsync = on"
q() { "$bin/psql" -X -At -h "$work/c/sock" -p "$port" -U postgres -d postgres "$@"; }
ms() { q -c '\timing on' -c "$1" | sed -nE 's/^Time: ([0-9.]+) ms.*/\1/p'; }
q -c "CREATE EXTENSION xid" -c "CREATE TABLE ab (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int)" >/dev/null

echo "bench/ab.sh: $(git -C "$top" rev-parse --short "$rev") against the working tree ($(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD || echo +changes)), PostgreSQL 15, $rounds rounds"
: >"$work/times"
for round in $(seq 1 "$rounds"); do
	for side in old new; do
		cp "$work/$side/xid.so" "$lib/xid.so"
		runuser -u postgres -- "$bin/pg_ctl" -D "$work/c/data" -l "$work/c/server.log" -w restart >/dev/null
		q -c "SELECT count(public.xid_new()) FROM generate_series(1, 200000)" >/dev/null
		gen=$(ms "SELECT count(public.xid_new()) FROM generate_series(1, 2000000)")
		clk=$(ms "SELECT count(clock_timestamp()) FROM generate_series(1, 2000000)")
		q -c "TRUNCATE ab" -c "CHECKPOINT" >/dev/null
		ins=$(ms "INSERT INTO ab (v) SELECT g FROM generate_series(1, 500000) AS g")
		echo "round $round $side: xid_new() $gen ms, clock_timestamp() $clk ms, insert $ins ms"
		echo "$side $gen $clk $ins" >>"$work/times"
	done
done
echo "medians (old = $rev, new = working tree):"
for side in old new; do
	awk -v s="$side" '$1 == s { g[n] = $2; c[n] = $3; i[n] = $4; r[n] = $2 / $3; n++ }
		function med(a, n,   k, j, t) {
			for (k = 0; k < n; k++) for (j = k + 1; j < n; j++) if (a[j] < a[k]) { t = a[k]; a[k] = a[j]; a[j] = t }
			return n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2 }
		END { printf "  %s: xid_new() %.1f ms, clock_timestamp() %.1f ms, ratio %.3f, insert %.1f ms\n", s, med(g, n), med(c, n), med(r, n), med(i, n) }' "$work/times"
done
