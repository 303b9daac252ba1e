#!/usr/bin/env bash
# bench/citus-local.sh MAJOR OUTDIR: the Citus insert benchmark, inside a
# chroot with Citus and xid installed (bench/citus.sh prepares it).
#
# A coordinator and two workers (shared_preload_libraries = 'citus,xid',
# xid.node_bits = 4, node ids 1, 2, 3) on 127.0.0.1, with the settings of
# bench/run.sh that matter for inserts.  8 pgbench clients insert single
# rows through the coordinator, prepared, into a distributed table per key
# (bench/citus.sql): xid_new(), bigserial (Citus' distributed sequence),
# gen_random_uuid(), and uuidv7() on 18.  Every case runs once per round
# for BENCH_SECONDS, in an order that rotates from round to round, each
# on an emptied table after a checkpoint; the report gives each case's
# median tps and xid's ratio to each rival.
#
#   BENCH_ROUNDS (3)  BENCH_SECONDS (20)  BENCH_CLIENTS (8)  XID_COMMIT
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. test/cluster.sh

major=${1:?usage: bench/citus-local.sh MAJOR OUTDIR}
out=${2:?usage: bench/citus-local.sh MAJOR OUTDIR}
rounds=${BENCH_ROUNDS:-3}
seconds=${BENCH_SECONDS:-20}
clients=${BENCH_CLIENTS:-8}
bindir=/usr/lib/postgresql/$major/bin
work=$(mktemp -d "/tmp/xid-citus-bench-$major.XXXXXX")
chmod 755 "$work"
mkdir -p "$out"
names=(coord worker1 worker2)
declare -A port node
node=([coord]=1 [worker1]=2 [worker2]=3)
cleanup()
{
	local n
	for n in "${names[@]}"; do cluster_stop "$bindir" "$work/$n"; done
	rm -rf "$work"
}
trap cleanup EXIT

q()
{
	local n=$1
	shift
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${port[$n]}" -U postgres -d postgres "$@"
}

p=$((29500 + major * 10))
for n in "${names[@]}"; do
	port[$n]=$(free_port $p)
	p=$((port[$n] + 1))
	cluster_start "$bindir" "$work/$n" "${port[$n]}" \
		"listen_addresses = '127.0.0.1'" "shared_buffers = 1GB" "max_connections = 150" \
		"shared_preload_libraries = 'citus,xid'" "max_prepared_transactions = 100" \
		"citus.local_hostname = '127.0.0.1'" "xid.node_bits = 4" "xid.node_id = ${node[$n]}" \
		"synchronous_commit = off" "full_page_writes = off" "autovacuum = off" \
		"checkpoint_timeout = '1h'" "max_wal_size = '50GB'" "jit = off"
	q "$n" -c "CREATE EXTENSION citus"
done
q coord -c "SELECT citus_set_coordinator_host('127.0.0.1', ${port[coord]})" \
	-c "SELECT citus_add_node('127.0.0.1', ${port[worker1]})" \
	-c "SELECT citus_add_node('127.0.0.1', ${port[worker2]})" >/dev/null
q coord -f "$top/bench/citus.sql" >/dev/null
cases="xid bigserial uuid4"
[ "$major" -ge 18 ] && cases="$cases uuid7"
payload=$(printf 'p%.0s' $(seq 1 60))
for c in $cases; do
	printf '\\set v random(1, 1000000)\nINSERT INTO ins_%s (v, payload) VALUES (:v, %s);\n' \
		"$c" "'$payload'" >"$work/$c.sql"
done

# run CASE SECONDS: empty the table, checkpoint every node, run; prints tps
run()
{
	local c=$1 s=$2 n
	q coord -c "TRUNCATE ins_$c" >/dev/null
	for n in "${names[@]}"; do q "$n" -c "CHECKPOINT"; done
	"$bindir/pgbench" -n -h 127.0.0.1 -p "${port[coord]}" -U postgres -M prepared \
		-c "$clients" -j 2 -T "$s" -f "$work/$c.sql" postgres >"$work/pgbench.log" 2>&1 || {
		cat "$work/pgbench.log" >&2
		return 1
	}
	grep -q '^number of failed transactions: 0 ' "$work/pgbench.log" || {
		cat "$work/pgbench.log" >&2
		return 1
	}
	sed -nE 's/^tps = ([0-9.]+) .*/\1/p' "$work/pgbench.log"
}

report="$out/results-citus-$major.txt"
{
	echo "bench/citus.sh $major: $clients pgbench clients inserting one row a transaction through"
	echo "the coordinator (-M prepared), $rounds rounds x $seconds s per case, order rotating"
	echo "commit ${XID_COMMIT:-unknown}; $(nproc) cores; $("$bindir/postgres" --version);"
	echo "Citus $(q coord -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'"), xid $(q coord -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'");"
	echo "coordinator + 2 workers on this machine, 32 shards per table"
	echo
} >"$report"
# warm up: every case once, short, untimed
for c in $cases; do run "$c" 5 >/dev/null; done
declare -A samples round_tps ratios
set -- $cases
for r in $(seq 1 "$rounds"); do
	order=""
	for c in "$@"; do order="$order $c"; done
	for c in $order; do
		tps=$(run "$c" "$seconds")
		samples[$c]="${samples[$c]:-} $tps"
		round_tps[$c]=$tps
		echo "round $r $c: $tps tps" | tee -a "$report"
	done
	# xid next to each rival in the same round: less drift than medians
	for c in $cases; do
		[ "$c" = xid ] && continue
		ratios[$c]="${ratios[$c]:-} $(awk -v a="${round_tps[xid]}" -v b="${round_tps[$c]}" 'BEGIN { print a / b }')"
	done
	# rotate: the first case goes last
	first=$1
	shift
	set -- "$@" "$first"
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
{
	echo
	echo "median tps:"
	for c in $cases; do printf '  %-10s %10.1f   (samples:%s)\n' "$c" "$(median <<<"${samples[$c]}")" "${samples[$c]}"; done
	echo
	echo "xid's tps divided by the rival's (above 1 = xid faster):"
	x=$(median <<<"${samples[xid]}")
	for c in $cases; do
		[ "$c" = xid ] && continue
		printf '  xid / %-10s %.3f\n' "$c" "$(awk -v a="$x" -v b="$(median <<<"${samples[$c]}")" 'BEGIN { print a / b }')"
	done
	echo
	echo "xid's tps divided by the rival's in the same round, median over the rounds:"
	for c in $cases; do
		[ "$c" = xid ] && continue
		printf '  xid / %-10s %.3f   (rounds:%s)\n' "$c" "$(median <<<"${ratios[$c]}")" "${ratios[$c]}"
	done
	# every row of the last runs carries the coordinator's node number
	echo
	echo "ids of the last xid run: $(q coord -c "SELECT count(*) || ' rows, ' || count(DISTINCT id) || ' distinct, node numbers ' || string_agg(DISTINCT public.xid_node(id, 4)::text, ',') FROM ins_xid")"
} | tee -a "$report"
