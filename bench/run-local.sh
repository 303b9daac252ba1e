#!/usr/bin/env bash
# bench/run-local.sh PG_CONFIG OUTDIR: one benchmark run against the
# PostgreSQL that PG_CONFIG names (called by bench/run.sh, on the host or in
# a chroot).  Writes OUTDIR/report-N.txt and OUTDIR/ratios-N.tsv.
set -euo pipefail
pg_config=$1
out=$2
cd "$(dirname "$0")/.."
. ci/cluster.sh
bindir=$("$pg_config" --bindir)
major=$(pg_major "$pg_config")
rows=${BENCH_ROWS:-2000000}
rounds=${BENCH_ROUNDS:-5}
mkdir -p "$out"

make -s PG_CONFIG="$pg_config" clean >/dev/null
make -s PG_CONFIG="$pg_config" >/dev/null
make -s PG_CONFIG="$pg_config" install >/dev/null
make -s -C portable PG_CONFIG="$pg_config" install >/dev/null

dir=$(mktemp -d /tmp/xid-bench.XXXXXX)
chmod 711 "$dir"
trap 'cluster_stop "$bindir" "$dir"; rm -rf "$dir"' EXIT
port=$(free_port 55500)
# Fixed settings: everything in memory, one core per query, no JIT, no
# background work; identical for every case and rival.
cluster_start "$bindir" "$dir" "$port" \
	"shared_buffers = 4GB" "work_mem = 1GB" "maintenance_work_mem = 1GB" \
	"max_parallel_workers_per_gather = 0" "jit = off" "autovacuum = off" \
	"synchronous_commit = off" "full_page_writes = off" "checkpoint_timeout = 1h" \
	"max_wal_size = 50GB" "shared_preload_libraries = 'xid'"
psql() { "$bindir/psql" -X -q -h "$dir/sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }

has_uuidv7=false
[ "$major" -ge 18 ] && has_uuidv7=true
echo "loading $rows rows per table on PostgreSQL $major"
psql -v rows="$rows" -v has_uuidv7="$has_uuidv7" -f bench/bench.sql >/dev/null

# Rounds interleave every case with its rivals; the case order rotates so
# that no case always runs first or after the same neighbour.
mapfile -t cases < <(psql -A -t -c "SELECT name FROM bench.cases ORDER BY grp, name")
n=${#cases[@]}
for r in $(seq 1 "$rounds"); do
	for i in $(seq 0 $((n - 1))); do
		c=${cases[$(((i + r) % n))]}
		# start every case with nothing left to write: the clusters run with
		# fsync = off, so without this the kernel writes back what the
		# inserts left behind while later cases are being timed
		# and with the catalogs vacuumed: autovacuum is off, and the DDL
		# cases leave thousands of dead catalog rows that slow down
		# whichever case runs after them
		psql -c "VACUUM pg_catalog.pg_class, pg_catalog.pg_attribute, pg_catalog.pg_type, pg_catalog.pg_depend, pg_catalog.pg_index, pg_catalog.pg_constraint" \
			-c "CHECKPOINT" >/dev/null
		sync
		psql -A -t -c "SELECT bench.run('$c', $r)" >/dev/null
	done
	echo "round $r of $rounds done"
done

{
	echo "PostgreSQL: $("$bindir/postgres" --version)"
	echo "xid: ${XID_COMMIT:-$(git -C . rev-parse --short HEAD 2>/dev/null || echo unknown)}, rows: $rows, rounds: $rounds"
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(sed -nE 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
	echo
	psql -v tsv="$out/ratios-$major.tsv" -v rows="$rows" -f bench/report.sql
} | tee "$out/report-$major.txt"
