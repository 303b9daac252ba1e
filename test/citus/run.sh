#!/usr/bin/env bash
# test/citus/run.sh: the Citus tests, inside a chroot that has Citus and xid
# installed (test/citus.sh prepares it and calls this).
#
# Usage: test/citus/run.sh MAJOR [OUTDIR]
#   OUTDIR gets each test's output and, on a failure, regression.diffs
#   (default: a directory that is removed at the end).
#   XID_CITUS_TESTS="distribute router ..." runs only those SQL tests.
#   XID_KEEP=SECONDS keeps the servers running that long at the end, for a
#   look with psql (ports printed), before stopping them.
#
# Starts a coordinator and two workers with shared_preload_libraries =
# 'citus,xid' on 127.0.0.1 (the nodes connect to each other and to
# themselves over TCP, with trust authentication), gives each its node
# number (xid.node_bits = 4: coordinator 1, workers 2 and 3) by ALTER
# SYSTEM and a reload, registers the workers and creates xid on the
# coordinator only.  Then:
# - two tests with concurrent clients (pgbench): writes through all three
#   nodes at once, and a shard move by logical replication under writes;
# - each test/citus/sql/NAME.sql, in order, on the coordinator (psql
#   switches nodes with \c where a test needs a worker); its output, ports
#   replaced by names, must equal test/citus/expected/NAME.out (or
#   NAME_1.out, a version's alternative).  Their data are ids made for
#   fixed instants, so results and plans are exact;
# - a third worker added at the end, with node_bits but no node number at
#   first, then its own; the rebalancer moves shards to it.
# Prints "ok   ..." or "FAIL ..." per test and exits non-zero on a failure.
set -uo pipefail

cd "$(dirname "$0")/../.."
top=$(pwd)
. test/cluster.sh

major=${1:?usage: test/citus/run.sh MAJOR [OUTDIR]}
bindir=/usr/lib/postgresql/$major/bin
work=$(mktemp -d "/tmp/xid-citus-$major.XXXXXX")
chmod 755 "$work"
out=${2:-$work/out}
rm -rf "$out"
mkdir -p "$out"
names=(coord worker1 worker2)
declare -A port node
node=([coord]=1 [worker1]=2 [worker2]=3)
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

cleanup()
{
	local n
	for n in "${names[@]}"; do cluster_stop "$bindir" "$work/$n"; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# q NODE SQL...: run SQL on a node, unaligned, tuples only
q()
{
	local n=$1
	shift
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${port[$n]}" -U postgres -d postgres "$@"
}

start=$SECONDS
p=$((29000 + major * 10))
for n in "${names[@]}"; do
	port[$n]=$(free_port $p)
	p=$((port[$n] + 1))
	# Citus: wal_level logical and replication slots for shard moves,
	# background workers for the rebalancer, two-phase commit across nodes,
	# self-connections by address
	cluster_start "$bindir" "$work/$n" "${port[$n]}" \
		"listen_addresses = '127.0.0.1'" "shared_buffers = 64MB" "max_connections = 150" \
		"shared_preload_libraries = 'citus,xid'" "wal_level = logical" \
		"max_worker_processes = 24" "max_replication_slots = 16" "max_wal_senders = 16" \
		"max_prepared_transactions = 100" \
		"citus.local_hostname = '127.0.0.1'" || {
		fail "starting the Citus $n"
		exit 1
	}
done

# node numbers, the way README says: in the server's configuration, reload
setup_rc=0
for n in "${names[@]}"; do
	q "$n" -c "CREATE EXTENSION citus" \
		-c "ALTER SYSTEM SET xid.node_bits = 4" -c "ALTER SYSTEM SET xid.node_id = ${node[$n]}" \
		-c "SELECT pg_reload_conf()" >/dev/null || setup_rc=1
done
q coord -c "SELECT citus_set_coordinator_host('127.0.0.1', ${port[coord]})" \
	-c "SELECT citus_add_node('127.0.0.1', ${port[worker1]})" \
	-c "SELECT citus_add_node('127.0.0.1', ${port[worker2]})" \
	-c "CREATE EXTENSION xid" >/dev/null || setup_rc=1
if [ $setup_rc -eq 0 ] && [ "$(q coord -c "SELECT count(*) FROM pg_dist_node WHERE isactive")" = 3 ]; then
	pass "a coordinator and two workers (Citus $(q coord -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'"), PostgreSQL $major) in $((SECONDS - start)) s"
else
	fail "a coordinator and two workers"
	exit 1
fi
got=$(for n in worker1 worker2; do q "$n" -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'"; done | tr '\n' ' ')
want=$(q coord -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'")
if [ "$got" = "$want $want " ]; then pass "CREATE EXTENSION xid on the coordinator creates it on both workers ($want)"; else fail "CREATE EXTENSION xid reaches the workers (got '$got', want $want)"; fi
sleep 1
got=$(q coord -c "SELECT string_agg(n.nodeport || '=' || r.result, ' ' ORDER BY n.nodeport)
	FROM run_command_on_all_nodes('SELECT public.xid_node(public.xid_new(), 4)') r JOIN pg_dist_node n USING (nodeid)")
want=$(for n in "${names[@]}"; do echo "${port[$n]}=${node[$n]}"; done | sort | tr '\n' ' ')
if [ "$got " = "$want" ]; then pass "each node makes ids with its own node number ($got)"; else fail "node numbers per node: got '$got', want '$want'"; fi

# Writes through all three nodes at once: 4 clients on each, single rows
# and 20 rows a statement, ids from DEFAULT xid_new() on the node written to
q coord -c "CREATE TABLE node_writes (id public.xid PRIMARY KEY DEFAULT public.xid_new(), via int NOT NULL)" \
	-c "SELECT create_distributed_table('node_writes', 'id', shard_count => 8)" >/dev/null
cat >"$work/node_writes.sql" <<'SQL'
INSERT INTO node_writes (via) VALUES (:via);
INSERT INTO node_writes (via) SELECT :via FROM generate_series(1, 20);
SQL
per_client=150
rcs=""
for n in "${names[@]}"; do
	"$bindir/pgbench" -n -h 127.0.0.1 -p "${port[$n]}" -U postgres -c 4 -j 2 -t $per_client \
		-D via="${node[$n]}" -f "$work/node_writes.sql" postgres >"$work/pgbench-$n.log" 2>&1 &
done
for n in "${names[@]}"; do
	wait -n
	rcs="$rcs$?"
done
read -r total distinct wrong < <(q coord -F ' ' -c "SELECT count(*), count(DISTINCT id),
	count(*) FILTER (WHERE public.xid_node(id, 4) <> via) FROM node_writes")
want=$((3 * 4 * per_client * 21))
if [ "$rcs" = 000 ] && [ "$total" = "$want" ] && [ "$distinct" = "$want" ] && [ "$wrong" = 0 ]; then
	pass "writes through the coordinator and both workers at once: $total ids, all distinct, each with its node's number"
else
	tail -n 5 "$work"/pgbench-*.log
	fail "writes through all nodes at once: pgbench exit codes $rcs, $total rows of $want, $distinct distinct, $wrong with another node's number"
fi

# A shard moved by logical replication while a client writes to the table
q coord -c "CREATE TABLE move_writes (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int NOT NULL)" \
	-c "SELECT create_distributed_table('move_writes', 'id', shard_count => 4, colocate_with => 'none')" \
	-c "INSERT INTO move_writes (id, v) SELECT public.xid_new('2024-01-01+00'::timestamptz + g * interval '1 s'), g FROM generate_series(1, 20000) g" \
	>/dev/null
before=$(q coord -c "SELECT md5(string_agg(id::text || v, ',' ORDER BY id)) FROM move_writes")
echo "INSERT INTO move_writes (v) VALUES (-1);" >"$work/move_writes.sql"
"$bindir/pgbench" -n -h 127.0.0.1 -p "${port[coord]}" -U postgres -c 2 -j 2 -T 6 \
	-f "$work/move_writes.sql" postgres >"$work/pgbench-move.log" 2>&1 &
writer=$!
sleep 1
shard=$(q coord -c "SELECT shardid FROM pg_dist_shard_placement JOIN pg_dist_shard USING (shardid)
	WHERE logicalrelid = 'move_writes'::regclass AND nodeport = ${port[worker1]} ORDER BY shardid LIMIT 1")
q coord -c "SELECT citus_move_shard_placement($shard, '127.0.0.1', ${port[worker1]}, '127.0.0.1', ${port[worker2]},
	shard_transfer_mode := 'force_logical')" >"$work/move.log" 2>&1
move_rc=$?
kill -0 "$writer" 2>/dev/null && during=yes || during=no
wait "$writer"
writer_rc=$?
written=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/pgbench-move.log")
read -r total distinct < <(q coord -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM move_writes")
old_same=$(q coord -c "SELECT md5(string_agg(id::text || v, ',' ORDER BY id)) = '$before' FROM move_writes WHERE v > 0")
moved=$(q coord -c "SELECT nodeport = ${port[worker2]} FROM pg_dist_shard_placement WHERE shardid = $shard")
if [ $move_rc -eq 0 ] && [ $writer_rc -eq 0 ] && [ "$during" = yes ] && [ -n "$written" ] &&
	[ "$total" = $((20000 + written)) ] && [ "$distinct" = "$total" ] && [ "$old_same" = t ] && [ "$moved" = t ]; then
	pass "a shard moved by logical replication during writes: 20000 rows unchanged, all $written written rows there"
else
	cat "$work/move.log"
	tail -n 5 "$work/pgbench-move.log"
	fail "shard move during writes: move rc $move_rc, writer rc $writer_rc, move ended while writing: $during, $total rows (20000 + ${written:-?}), $distinct distinct, old rows unchanged: $old_same, moved: $moved"
fi

# normalize: the ports in an output file, by node name
normalize()
{
	sed -e "s/port=${port[coord]}\b/port=:coord_port/g" \
		-e "s/port=${port[worker1]}\b/port=:worker1_port/g" \
		-e "s/port=${port[worker2]}\b/port=:worker2_port/g" \
		-e "s/\b${port[coord]}\b/:coord_port/g" \
		-e "s/\b${port[worker1]}\b/:worker1_port/g" \
		-e "s/\b${port[worker2]}\b/:worker2_port/g" "$@"
}

# the SQL tests, in order (later ones use the tables of earlier ones)
tests=${XID_CITUS_TESTS:-distribute router pushdown joins copy reference insert_select partitioned
	tenant columnar alter defaults shard_count rebalance drop_extension}
declare -A title=(
	[distribute]="create_distributed_table on an xid key, co-located tables, rows on their hash's shard"
	[router]="id = const (and a parameter) is a router query to one shard"
	[pushdown]="^@, LIKE, <@ and id >= now() - interval pushed to every shard, answered by its index"
	[joins]="co-located joins and repartition joins on xid"
	[copy]="COPY in binary and text, out and back in"
	[reference]="reference tables with xid columns"
	[insert_select]="INSERT ... SELECT between co-located tables is pushed down"
	[partitioned]="a distributed table partitioned by day on its xid key prunes on the shards"
	[tenant]="tenant_id distribution, primary key (tenant_id, id)"
	[columnar]="citus_columnar with an xid column and a filter on it"
	[alter]="ALTER TABLE on xid columns of a distributed table"
	[defaults]="where DEFAULT xid_new() runs: the node the statement came in through"
	[shard_count]="alter_distributed_table to another shard count keeps every row"
	[rebalance]="shards moved by hand and by the rebalancer, off a worker and back, rows unchanged"
	[drop_extension]="DROP EXTENSION xid with distributed tables that use it is refused"
)
for t in $tests; do
	t0=$SECONDS
	(cd "$work" && "$bindir/psql" -X -a -q -h 127.0.0.1 -p "${port[coord]}" -U postgres -d postgres \
		-v coord_port="${port[coord]}" -v worker1_port="${port[worker1]}" -v worker2_port="${port[worker2]}" \
		<"$top/test/citus/sql/$t.sql" 2>&1) | normalize >"$out/$t.out"
	ok=""
	for e in "$top/test/citus/expected/$t.out" "$top/test/citus/expected/${t}_1.out"; do
		[ -f "$e" ] && diff -q "$e" "$out/$t.out" >/dev/null && ok=$e
	done
	if [ -n "$ok" ]; then
		pass "$t: ${title[$t]} ($((SECONDS - t0)) s)"
	else
		diff -u "$top/test/citus/expected/$t.out" "$out/$t.out" >>"$out/regression.diffs"
		fail "$t: ${title[$t]}"
	fi
done

# A node added later: started with xid.node_bits but no node number (as a
# base configuration would give it), added with citus_add_node; it gets
# the extension from the coordinator, refuses to make ids until it has a
# number, then makes them with its own, and takes shards from the rebalancer
names+=(worker3)
node[worker3]=4
port[worker3]=$(free_port $((port[worker2] + 1)))
rc=0
cluster_start "$bindir" "$work/worker3" "${port[worker3]}" \
	"listen_addresses = '127.0.0.1'" "shared_buffers = 64MB" "max_connections = 150" \
	"shared_preload_libraries = 'citus'" "wal_level = logical" "max_prepared_transactions = 100" \
	"citus.local_hostname = '127.0.0.1'" "xid.node_bits = 4" || rc=1
[ $rc -eq 0 ] && q worker3 -c "CREATE EXTENSION citus" >/dev/null &&
	q coord -c "SELECT citus_add_node('127.0.0.1', ${port[worker3]})" >/dev/null || rc=1
has_xid=$(q worker3 -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'" 2>&1)
refused=$(q worker3 -c "INSERT INTO node_writes (via) VALUES (4)" 2>&1)
q worker3 -c "ALTER SYSTEM SET xid.node_id = 4" -c "SELECT pg_reload_conf()" >/dev/null || rc=1
sleep 1
q worker3 -c "INSERT INTO node_writes (via) SELECT 4 FROM generate_series(1, 100)" >/dev/null || rc=1
wrong=$(q coord -c "SELECT count(*) FILTER (WHERE public.xid_node(id, 4) <> via) + (100 - count(*) FILTER (WHERE via = 4)) FROM node_writes")
q coord -c "SELECT rebalance_table_shards('rb_events', shard_transfer_mode := 'force_logical')" >/dev/null 2>&1 || rc=1
on_new=$(q coord -c "SELECT count(*) FROM pg_dist_shard_placement JOIN pg_dist_shard USING (shardid)
	WHERE logicalrelid = 'rb_events'::regclass AND nodeport = ${port[worker3]}")
rows=$(q coord -c "SELECT count(*) FROM rb_events")
if [ $rc -eq 0 ] && [ "$has_xid" = "$(q coord -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'")" ] &&
	grep -q 'xid.node_bits is 4 but xid.node_id is not set' <<<"$refused" && [ "$wrong" = 0 ] &&
	[ "${on_new:-0}" -gt 0 ] && [ "$rows" = 10000 ]; then
	pass "a worker added later: has xid $has_xid, makes no ids before it has a number, then its own; $on_new shards rebalanced to it, rows unchanged"
else
	tail -n 5 "$work/worker3/server.log"
	fail "a worker added later: rc $rc, xid there: '$has_xid', insert before its number: '$refused', rows with a wrong node or missing: '$wrong', shards on it: '$on_new', rb_events rows: '$rows'"
fi

if [ -n "${XID_KEEP:-}" ]; then
	echo "keeping the servers for $XID_KEEP s: ports ${port[coord]} (coordinator), ${port[worker1]}, ${port[worker2]}"
	sleep "$XID_KEEP"
fi
echo "Citus on PostgreSQL $major: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" -eq 0 ]
