#!/usr/bin/env bash
# bench/scale-local.sh PG_CONFIG OUTDIR: one run of the scaling benchmark
# against the PostgreSQL that PG_CONFIG names, with xid installed there
# (called by bench/scale.sh on the host or in a chroot, and by
# ci/matrix.sh's scale stage at one small step).  Needs root (the server
# runs as postgres; the cold-cache cases drop the kernel's page cache).
#
#   SCALE_STEPS    the table sizes, in rows (default 1000000 3000000
#                  10000000 30000000)
#   SCALE_ROUNDS   rounds at each step (default 3)
#   SCALE_SECONDS  length of each timed pgbench run (default 8)
#
# One server, as users run it: shared_buffers 1GB (smaller than the larger
# indexes), fsync, full_page_writes and synchronous_commit on, checkpoints
# and autovacuum at their defaults, no setting for xid.  Four tables of one
# shape (bench/scale.sql), keyed by xid, bigserial, uuid v4 and uuidv7()
# (18 and later; 15 has no uuidv7() in core).  At each step the tables are
# filled to the step's size (untimed); then, in SCALE_ROUNDS rounds with the
# tables in a rotating order:
#   - inserts: 10 rows a transaction from pgbench, 1 session then 2, each
#     SCALE_SECONDS: rows per second, WAL bytes and full-page images per row
#     (pg_stat_wal), primary key pages touched per row (pg_statio), with the
#     primary key the only index;
# then the rivals' index on created_at is built (their time windows need
# it, xid's do not), and in as many rounds:
#   - a restart and the kernel's page cache dropped, then with every table
#     cold: a time window of one hour of history (about 36,000 rows), point
#     lookups and prefix lookups (100 each, ms per lookup);
#   - the same warm: lookups per second, the window's time, its planning
#     time and its estimate against the true count; and the estimate of the
#     rows the step's inserts added, which no ANALYZE has seen.
# Each step starts from empty tables, filled with a history that ends at
# the step's start.
# Per step: heap, primary key and (rivals) created_at index sizes, and on
# xid: xid_new()'s cost per id against clock_timestamp()'s, and how often
# the durable mark was written during the inserts.
#
# Writes OUTDIR/scale-MAJOR.txt (the report), OUTDIR/scale-MAJOR.tsv (the
# medians the plots use) and OUTDIR/scale-MAJOR-raw.tsv (every figure).
# Ends with ok/FAIL lines: every figure of every table at every step is
# there and is a number (ci/matrix.sh runs one small step).
set -euo pipefail
pg_config=$1
out=$2
cd "$(dirname "$0")/.."
. ci/cluster.sh
bindir=$("$pg_config" --bindir)
major=$(pg_major "$pg_config")
read -r -a steps <<<"${SCALE_STEPS:-1000000 3000000 10000000 30000000}"
rounds=${SCALE_ROUNDS:-3}
secs=${SCALE_SECONDS:-8}
mkdir -p "$out"

if [ -z "${XID_INSTALLED:-}" ]; then
	make -s PG_CONFIG="$pg_config" >/dev/null
	make -s PG_CONFIG="$pg_config" install >/dev/null
fi

dir=$(mktemp -d /tmp/xid-scale.XXXXXX)
chmod 711 "$dir"
trap 'cluster_stop "$bindir" "$dir"; rm -rf "$dir"' EXIT
port=$(free_port 55600)
cluster_start "$bindir" "$dir" "$port" \
	"shared_buffers = 1GB" "fsync = on" "full_page_writes = on" "synchronous_commit = on" \
	"max_connections = 20"
psql() { PGOPTIONS="-c client_min_messages=warning" "$bindir/psql" -X -q -h "$dir/sock" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
q() { psql -A -t -c "$1"; }
pgb() { (cd "$dir" && "$bindir/pgbench" -h "$dir/sock" -p "$port" -U postgres -n "$@" postgres); }
now() { date +%s.%N; }

has_uuidv7=false
[ "$major" -ge 18 ] && has_uuidv7=true
q "CREATE EXTENSION xid" >/dev/null
q "CREATE EXTENSION pg_walinspect" >/dev/null
q "CREATE EXTENSION pgstattuple" >/dev/null
psql -v has_uuidv7=$has_uuidv7 -f bench/scale.sql
mapfile -t kinds < <(q "SELECT kind FROM scale.kinds ORDER BY ord")
# the durable mark exists from the first id on (the fill's xid_new(t) makes
# none past it)
q "SELECT public.xid_new()" >/dev/null
rivals=("${kinds[@]:1}")
echo "scaling benchmark on PostgreSQL $major: ${kinds[*]}; steps ${steps[*]} rows, $rounds rounds, ${secs} s runs"

# The pgbench scripts of each table: inserts (the keys and created_at by
# their defaults), point and prefix lookups of sampled keys
for k in "${kinds[@]}"; do
	echo "INSERT INTO scale.t_$k (account_id, body) SELECT (random() * 100000)::int8, md5(random()::text) FROM generate_series(1, 10);" \
		>"$dir/ins_$k.sql"
	# the number of sampled keys is set per step (keys_K's size)
	printf '%s\n' '\set k random(1, :nkeys)' \
		"SELECT key FROM scale.keys_$k WHERE n = :k \\gset" \
		"SELECT * FROM scale.t_$k WHERE id = :key" \
		>"$dir/point_$k.sql"
	case $k in
		xid)
			printf '%s\n' '\set k random(1, :nkeys)' \
				"SELECT prefix FROM scale.keys_xid WHERE n = :k \\gset" \
				"SELECT count(*) FROM scale.t_xid WHERE id ^@ :prefix::text" >"$dir/prefix_$k.sql" ;;
		uuid4 | uuid7)
			# a uuid's hex prefix as the range of the keys that start with it
			printf '%s\n' '\set k random(1, :nkeys)' \
				"SELECT prefix FROM scale.keys_$k WHERE n = :k \\gset" \
				"SELECT count(*) FROM scale.t_$k WHERE id BETWEEN (:prefix::text || '00-0000-0000-000000000000')::uuid AND (:prefix::text || 'ff-ffff-ffff-ffffffffffff')::uuid" \
				>"$dir/prefix_$k.sql" ;;
	esac
done

# rec STEP ROUND KIND METRIC VALUE
rec() { q "SELECT scale.record($1, $2, '$3', '$4', $5)" >/dev/null; }
# tps FILE: pgbench's transactions per second (without connection time)
tps() { sed -nE 's/^tps = ([0-9.]+) .*/\1/p' "$1"; }
# lat FILE: pgbench's average latency in ms
lat() { sed -nE 's/^latency average = ([0-9.]+) ms/\1/p' "$1"; }
restart_cold()
{
	cluster_stop "$bindir" "$dir"
	sync
	# the kernel's page cache, where the server's files stay after it
	# stops; without the right to drop it, a restart alone (noted in the
	# report)
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || cold_note="cold: the server restarted, the kernel's page cache not dropped (no right to)"
	cluster_run "$bindir" "$dir"
}
cold_note=""

start=$(now)
for step in "${steps[@]}"; do
	t=$(now)
	# Each step's tables anew, their history ending now: the rows the
	# pgbench runs add are made at the real clock's time, after the
	# history, and a history grown further from there would go into the
	# middle of the time-ordered keys' indexes (splitting their pages in
	# half), not at their end as their keys do in use
	q "SELECT scale.restart($step)" >/dev/null
	for k in "${kinds[@]}"; do
		q "CALL scale.fill('$k', $step)" >/dev/null
		q "VACUUM ANALYZE scale.t_$k" >/dev/null
	done
	q CHECKPOINT >/dev/null
	echo "step $step rows: filled in $(awk -v a="$(now)" -v b="$t" 'BEGIN { printf "%.0f", a - b }') s"
	# the history's last hour: about 36,000 rows of the fill
	w_to=$(q "SELECT scale.row_time($step)")
	w_from=$(q "SELECT scale.row_time($step) - interval '1 hour'")
	for k in "${kinds[@]}"; do
		q "CALL scale.sample('$k', 10000)" >/dev/null
		rec "$step" 0 "$k" heap_mb "pg_relation_size('scale.t_$k') / 1048576.0"
		# the index's pages in use and how full they are (pgstatindex)
		rec "$step" 0 "$k" pk_mb "(SELECT (leaf_pages + internal_pages + 1) * 8192 / 1048576.0 FROM pgstatindex('scale.t_${k}_pkey'))"
		rec "$step" 0 "$k" pk_density "(SELECT avg_leaf_density FROM pgstatindex('scale.t_${k}_pkey'))"
	done

	# the tables in a rotating order: none always first or after the same
	order_of() # ROUND
	{
		local i n=${#kinds[@]}
		order=()
		for i in $(seq 0 $((n - 1))); do order+=("${kinds[$(((i + $1 + step / 1000000) % n))]}"); done
	}
	# inserts, the primary key the only index
	since=$(q "SELECT now()")
	for r in $(seq 1 "$rounds"); do
		order_of "$r"
		for k in "${order[@]}"; do
			rows0=$(q "SELECT count(*) FROM scale.t_$k")
			read -r wal0 fpi0 < <(q "SELECT wal_bytes, wal_fpi FROM pg_stat_wal" | tr '|' ' ')
			pk0=$(q "SELECT idx_blks_read + idx_blks_hit FROM pg_statio_all_indexes WHERE indexrelid = 'scale.t_${k}_pkey'::regclass")
			lsn0=$(q "SELECT pg_current_wal_insert_lsn()")
			pgb -c 1 -j 1 -T "$secs" -f "$dir/ins_$k.sql" >"$dir/ins1.out" 2>&1
			pgb -c 2 -j 2 -T "$secs" -f "$dir/ins_$k.sql" >"$dir/ins2.out" 2>&1
			rec "$step" "$r" "$k" insert_rows_s_1 "$(tps "$dir/ins1.out") * 10"
			rec "$step" "$r" "$k" insert_rows_s_2 "$(tps "$dir/ins2.out") * 10"
			rows1=$(q "SELECT count(*) FROM scale.t_$k")
			added=$((rows1 - rows0))
			# the sessions that ended have flushed their statistics
			rec "$step" "$r" "$k" wal_bytes_row "(SELECT (wal_bytes - $wal0)::float8 / $added FROM pg_stat_wal)"
			rec "$step" "$r" "$k" fpi_row "(SELECT (wal_fpi - $fpi0)::float8 / $added FROM pg_stat_wal)"
			rec "$step" "$r" "$k" pk_pages_row "(SELECT (idx_blks_read + idx_blks_hit - $pk0)::float8 / $added FROM pg_statio_all_indexes WHERE indexrelid = 'scale.t_${k}_pkey'::regclass)"
			if [ "$k" = xid ]; then
				# the mark's WAL records (generic WAL, src/xid_mark.c): the
				# only ones of that kind while xid's rows go in
				rec "$step" "$r" xid mark_writes_s "(SELECT count(*) / ($secs * 2.0) FROM pg_get_wal_records_info('$lsn0', pg_current_wal_insert_lsn()) WHERE resource_manager = 'Generic')"
			fi
		done
		echo "step $step rows: inserts, round $r of $rounds done"
	done

	# the queries, with the rivals' index on created_at, which their time
	# windows need
	for k in "${rivals[@]}"; do
		q "CREATE INDEX t_${k}_created_at ON scale.t_$k (created_at)" >/dev/null
		rec "$step" 0 "$k" time_index_mb "pg_relation_size('scale.t_${k}_created_at') / 1048576.0"
	done
	q CHECKPOINT >/dev/null
	for r in $(seq 1 "$rounds"); do
		order_of "$r"
		# cold: every table after a restart and with no page cache
		restart_cold
		for k in "${order[@]}"; do
			nkeys=$(q "SELECT count(*) FROM scale.keys_$k")
			read -r _ e _ _ < <(q "SELECT * FROM scale.explain(scale.window_sql('$k', '$w_from', '$w_to'))" | tr '|' ' ')
			rec "$step" "$r" "$k" window_cold_ms "$e"
			pgb -c 1 -t 100 -M extended -D nkeys="$nkeys" -f "$dir/point_$k.sql" >"$dir/p.out" 2>&1
			rec "$step" "$r" "$k" point_cold_ms "$(lat "$dir/p.out")"
			if [ -f "$dir/prefix_$k.sql" ]; then
				pgb -c 1 -t 100 -M extended -D nkeys="$nkeys" -f "$dir/prefix_$k.sql" >"$dir/p.out" 2>&1
				rec "$step" "$r" "$k" prefix_cold_ms "$(lat "$dir/p.out")"
			fi
		done
		# warm
		for k in "${order[@]}"; do
			nkeys=$(q "SELECT count(*) FROM scale.keys_$k")
			pgb -c 1 -T "$secs" -M extended -D nkeys="$nkeys" -f "$dir/point_$k.sql" >"$dir/p.out" 2>&1
			rec "$step" "$r" "$k" point_warm_s "$(tps "$dir/p.out")"
			if [ -f "$dir/prefix_$k.sql" ]; then
				pgb -c 1 -T "$secs" -M extended -D nkeys="$nkeys" -f "$dir/prefix_$k.sql" >"$dir/p.out" 2>&1
				rec "$step" "$r" "$k" prefix_warm_s "$(tps "$dir/p.out")"
			fi
			read -r p e x a < <(q "SELECT * FROM scale.explain(scale.window_sql('$k', '$w_from', '$w_to'), 3)" | tr '|' ' ')
			rec "$step" "$r" "$k" window_warm_ms "$e"
			rec "$step" "$r" "$k" window_planning_ms "$p"
			rec "$step" "$r" "$k" window_estimate "$x::float8 / greatest($a, 1)"
			# the rows the inserts added, after the last ANALYZE
			read -r p e x a < <(q "SELECT * FROM scale.explain(scale.window_sql('$k', '$since', NULL), 3)" | tr '|' ' ')
			rec "$step" "$r" "$k" recent_estimate "$x::float8 / greatest($a, 1)"
			rec "$step" "$r" "$k" recent_rows "$a"
		done
		echo "step $step rows: queries, round $r of $rounds done"
	done
	for k in "${rivals[@]}"; do
		q "DROP INDEX scale.t_${k}_created_at" >/dev/null
	done

	# xid_new()'s cost per id against clock_timestamp()'s: a million calls,
	# their milliseconds are nanoseconds a call
	for r in $(seq 1 "$rounds"); do
		for call in "xid_new_ns_id public.xid_new()" "clock_ns_id clock_timestamp()"; do
			read -r metric f <<<"$call"
			t=$(now)
			q "SELECT count($f) FROM generate_series(1, 1000000)" >/dev/null
			rec "$step" "$r" xid "$metric" "$(awk -v a="$(now)" -v b="$t" 'BEGIN { printf "%.1f", (a - b) * 1000 }')"
		done
	done
done
elapsed=$(awk -v a="$(now)" -v b="$start" 'BEGIN { printf "%.0f", (a - b) / 60 }')

{
	echo "PostgreSQL: $("$bindir/postgres" --version)"
	echo "xid: ${XID_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}; steps ${steps[*]} rows, $rounds rounds, ${secs} s pgbench runs; the run took $elapsed min"
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(sed -nE 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
	echo "server: shared_buffers 1GB; fsync, full_page_writes, synchronous_commit on; checkpoints and autovacuum at their defaults"
	[ -z "$cold_note" ] || echo "$cold_note"
	echo
	psql -v tsv="$out/scale-$major.tsv" -v raw="$out/scale-$major-raw.tsv" -f bench/scale-report.sql
} | tee "$out/scale-$major.txt"
