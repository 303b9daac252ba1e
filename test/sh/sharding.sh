#!/usr/bin/env bash
# test/sh/sharding.sh: xid on three servers.
#
# Starts three clusters with the library preloaded and xid.node_bits = 4:
# a coordinator (node 1) and two shards (nodes 2 and 3).
# 1. Node numbers: each server's ids carry its node; a reload changes it
#    without breaking the order; a pair that does not fit is an error, and
#    a preloaded server with one does not start.
# 2. All three generate concurrently, 1,050,000 ids in all: no duplicates,
#    every id's node field is its server's.
# 3. One table sharded over postgres_fdw by HASH (id) and one by RANGE (id),
#    a month a shard: rows routed, conditions and aggregates sent to the
#    shards (Remote SQL), partitions pruned, ordered and async scans, and
#    the shards answer the Remote SQL with their indexes.
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh

bindir=$XID_BINDIR
major=$XID_MAJOR
work=$XID_WORK
mkdir -p "$work"
chmod 711 "$work"

names=(coord shard_a shard_b)
declare -A port node
node=([coord]=1 [shard_a]=2 [shard_b]=3)
bad="$work/bad"
cleanup()
{
	local n
	for n in "${names[@]}"; do cluster_stop "$bindir" "$work/$n"; done
	cluster_stop "$bindir" "$bad"
}
trap '[ -n "${XID_KEEP:-}" ] || cleanup' EXIT
for n in "${names[@]}"; do rm -rf "${work:?}/$n"; done
rm -rf "$bad"

for n in "${names[@]}"; do
	port[$n]=$(free_port)
	cluster_start "$bindir" "$work/$n" "${port[$n]}" \
		"shared_preload_libraries = 'xid'" "xid.node_bits = 4" "xid.node_id = ${node[$n]}" \
		"max_connections = 60"
done

q() # q SERVER SQL...: run SQL on a server, unaligned, tuples only
{
	local n=$1
	shift
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$work/$n/sock" -p "${port[$n]}" -U postgres -d postgres "$@"
}

for n in "${names[@]}"; do
	q "$n" -c "CREATE EXTENSION xid"
done

# 1. node numbers ---------------------------------------------------------
for n in "${names[@]}"; do
	got=$(q "$n" -c "SELECT DISTINCT public.xid_node(public.xid_new(), 4) FROM generate_series(1, 1000)")
	check "$n makes ids of node ${node[$n]} only (got $got)" '[ "$got" = "${node[$n]}" ]'
done
before=$(q coord -c "SELECT public.xid_new()")
q coord -c "ALTER SYSTEM SET xid.node_id = 9" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
after=$(q coord -c "SELECT public.xid_new()")
moved=$(q coord -c "SELECT public.xid_node('$after', 4) = 9 AND '$after'::public.xid > '$before'::public.xid")
check "a reload moves the coordinator to node 9, above its last id" '[ "$moved" = t ]'
q coord -c "ALTER SYSTEM SET xid.node_id = 16" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
err=$(q coord -c "SELECT public.xid_new()" 2>&1 || true)
echo "  $err"
check "a node id that does not fit is an error" 'grep -q "xid.node_id 16 does not fit in xid.node_bits 4" <<<"$err"'
q coord -c "ALTER SYSTEM SET xid.node_id = -1" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
err=$(q coord -c "SELECT public.xid_new('2026-01-01+00')" 2>&1 || true)
check "node bits without a node id is an error" 'grep -q "xid.node_bits is 4 but xid.node_id is not set" <<<"$err"'
q coord -c "ALTER SYSTEM SET xid.node_id = ${node[coord]}" -c "SELECT pg_reload_conf()" >/dev/null
sleep 1
check "back to node 1" '[ "$(q coord -c "SELECT public.xid_node(public.xid_new(), 4)")" = 1 ]'
if cluster_start "$bindir" "$bad" "$(free_port)" \
	"shared_preload_libraries = 'xid'" "xid.node_bits = 2" "xid.node_id = 7" 2>/dev/null; then
	check "a preloaded server with node id 7 in 2 bits does not start" 'false'
fi
check "a preloaded server with node id 7 in 2 bits does not start" \
	'grep -q "xid.node_id 7 does not fit in xid.node_bits 2" "$bad/server.log"'

# 2. three servers generating at once ------------------------------------
per_server=350000
for n in "${names[@]}"; do
	q "$n" -c "CREATE TABLE gen (id public.xid)"
	q "$n" -c "INSERT INTO gen SELECT public.xid_new() FROM generate_series(1, $per_server)" &
done
wait
q coord -c "CREATE TABLE gen_all (server int, id public.xid)"
for n in "${names[@]}"; do
	q "$n" -c "COPY (SELECT ${node[$n]}, id FROM gen) TO STDOUT" |
		q coord -c "COPY gen_all FROM STDIN"
done
read -r total distinct wrong_node < <(q coord -F ' ' -c \
	"SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE public.xid_node(id, 4) <> server) FROM gen_all")
echo "  three servers: $total ids, $distinct distinct, $wrong_node with another server's node"
check "1,050,000 ids from three servers, no duplicate, each with its server's node" \
	'[ "$total" -eq $((3 * per_server)) ] && [ "$distinct" -eq "$total" ] && [ "$wrong_node" -eq 0 ]'

# 3. sharding over postgres_fdw -------------------------------------------
for n in shard_a shard_b; do
	q "$n" <<'SQL'
CREATE TABLE ev_h (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int NOT NULL);
CREATE TABLE ev_r (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int NOT NULL);
SQL
done
q coord <<SQL
CREATE EXTENSION postgres_fdw;
CREATE SERVER shard_a FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$work/shard_a/sock', port '${port[shard_a]}', dbname 'postgres',
			 extensions 'xid', async_capable 'true');
CREATE SERVER shard_b FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$work/shard_b/sock', port '${port[shard_b]}', dbname 'postgres',
			 extensions 'xid', async_capable 'true');
CREATE USER MAPPING FOR postgres SERVER shard_a OPTIONS (user 'postgres');
CREATE USER MAPPING FOR postgres SERVER shard_b OPTIONS (user 'postgres');

-- hash: half the ids on each shard
CREATE TABLE ev_h (id public.xid NOT NULL DEFAULT public.xid_new(), v int NOT NULL) PARTITION BY HASH (id);
CREATE FOREIGN TABLE ev_h_a PARTITION OF ev_h FOR VALUES WITH (MODULUS 2, REMAINDER 0)
	SERVER shard_a OPTIONS (table_name 'ev_h');
CREATE FOREIGN TABLE ev_h_b PARTITION OF ev_h FOR VALUES WITH (MODULUS 2, REMAINDER 1)
	SERVER shard_b OPTIONS (table_name 'ev_h');

-- range: January 2026 on one shard, February on the other
CREATE TABLE ev_r (id public.xid NOT NULL DEFAULT public.xid_new(), v int NOT NULL) PARTITION BY RANGE (id);
CREATE FOREIGN TABLE ev_r_jan PARTITION OF ev_r
	FOR VALUES FROM (lower(public.xid_time_range('[2026-01-01+00, 2026-02-01+00)')))
	TO (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')))
	SERVER shard_a OPTIONS (table_name 'ev_r');
CREATE FOREIGN TABLE ev_r_feb PARTITION OF ev_r
	FOR VALUES FROM (lower(public.xid_time_range('[2026-02-01+00, 2026-03-01+00)')))
	TO (lower(public.xid_time_range('[2026-03-01+00, 2026-04-01+00)')))
	SERVER shard_b OPTIONS (table_name 'ev_r');

INSERT INTO ev_h (v) SELECT g FROM generate_series(1, 20000) AS g;
INSERT INTO ev_r (id, v)
SELECT public.xid_new('2026-01-01+00'::timestamptz + g * interval '4 minutes'), g
FROM generate_series(1, 20000) AS g;
SQL
for n in shard_a shard_b; do q "$n" -c "VACUUM ANALYZE ev_h" -c "VACUUM ANALYZE ev_r"; done
q coord -c "ANALYZE ev_h_a" -c "ANALYZE ev_h_b" -c "ANALYZE ev_r_jan" -c "ANALYZE ev_r_feb"

# routing: every row on the shard its hash or its month says, none lost
ha=$(q shard_a -c "SELECT count(*) FROM ev_h")
hb=$(q shard_b -c "SELECT count(*) FROM ev_h")
# (OFFSET 0 keeps the check on the coordinator, whose OID of ev_h it needs)
hwrong=$(q coord -c "SELECT (SELECT count(*) FROM (SELECT id FROM ev_h_a OFFSET 0) s
		WHERE NOT satisfies_hash_partition('ev_h'::regclass, 2, 0, id))
	+ (SELECT count(*) FROM (SELECT id FROM ev_h_b OFFSET 0) s
		WHERE NOT satisfies_hash_partition('ev_h'::regclass, 2, 1, id))")
echo "  hash: $ha rows on shard_a, $hb on shard_b, $hwrong on the wrong shard"
check "hash routing: 20,000 rows, both shards used, none misplaced" \
	'[ $((ha + hb)) -eq 20000 ] && [ "$ha" -gt 0 ] && [ "$hb" -gt 0 ] && [ "$hwrong" -eq 0 ]'
ra=$(q shard_a -c "SELECT count(*) FROM ev_r WHERE public.xid_time(id) >= '2026-01-01+00' AND public.xid_time(id) < '2026-02-01+00'")
rb=$(q shard_b -c "SELECT count(*) FROM ev_r WHERE public.xid_time(id) >= '2026-02-01+00' AND public.xid_time(id) < '2026-03-01+00'")
rall=$(q coord -c "SELECT count(*) FROM ev_r")
echo "  range: $ra January rows on shard_a, $rb February rows on shard_b, $rall in all"
check "range routing: each month on its shard, 20,000 rows in all" \
	'[ "$rall" -eq 20000 ] && [ $((ra + rb)) -eq 20000 ]'

# plan QUERY: EXPLAIN (VERBOSE, COSTS OFF) on the coordinator
plan() { q coord -c "SET enable_partitionwise_aggregate = on" -c "EXPLAIN (VERBOSE, COSTS OFF) $1"; }
# scans PLAN: the foreign scans in a plan, one "relation" per line
scans() { grep -oE 'Foreign Scan on public\.ev_[a-z_]+' <<<"$1" | sed 's/.* //' | sort | tr '\n' ' '; }
# remote PLAN: the Remote SQL lines
remote() { grep 'Remote SQL' <<<"$1" | sed 's/^ *//'; }

sample=$(q shard_b -c "SELECT id FROM ev_h ORDER BY v LIMIT 1")
p=$(plan "SELECT v FROM ev_h WHERE id = '$sample'")
echo "$p" >"$work/plan-point.txt"
check "id = const: one shard (shard_b), condition sent" \
	'[ "$(scans "$p")" = "public.ev_h_b " ] && remote "$p" | grep -F >/dev/null "WHERE ((id OPERATOR(public.=) '"'"'$sample'"'"'"'
cnt=$(q coord -c "SELECT count(*) FROM ev_h WHERE id = '$sample'")
check "id = const finds its row" '[ "$cnt" = 1 ]'

# range conditions: pruned to one shard and sent in the Remote SQL
jan_id=$(q shard_a -c "SELECT id FROM ev_r ORDER BY id OFFSET 5000 LIMIT 1")
prefix=${jan_id:0:6}
declare -A cond=(
	[contained]="id <@ public.xid_time_range('[2026-01-10+00, 2026-01-11+00)')"
	[starts_with]="id ^@ '$prefix'"
	[time_ge_lt]="id >= '2026-01-10+00'::timestamptz AND id < '2026-01-11+00'::timestamptz"
	[like]="id LIKE '$prefix%'"
)
declare -A truth=(
	[contained]="public.xid_time(id) >= '2026-01-10+00' AND public.xid_time(id) < '2026-01-11+00'"
	[starts_with]="id::text LIKE '$prefix%'"
	[time_ge_lt]="public.xid_time(id) >= '2026-01-10+00' AND public.xid_time(id) < '2026-01-11+00'"
	[like]="id::text LIKE '$prefix%'"
)
for k in contained starts_with time_ge_lt like; do
	p=$(plan "SELECT id, v FROM ev_r WHERE ${cond[$k]}")
	echo "$p" >"$work/plan-$k.txt"
	r=$(remote "$p")
	check "$k: pruned to January's shard" '[ "$(scans "$p")" = "public.ev_r_jan " ]'
	check "$k: the condition is in the Remote SQL, nothing filtered locally" \
		'grep -q "WHERE" <<<"$r" && ! grep -q "^ *Filter:" <<<"$p"'
	got=$(q coord -c "SELECT count(*) FROM ev_r WHERE ${cond[$k]}")
	want=$(q shard_a -c "SELECT count(*) FROM ev_r WHERE ${truth[$k]}")
	check "$k: $got rows through the coordinator, $want on the shard" '[ "$got" = "$want" ] && [ "$got" -gt 0 ]'
	# the shard runs that Remote SQL with its primary key index
	sql=$(sed -E 's/^Remote SQL: //' <<<"$r")
	sp=$(q shard_a -c "EXPLAIN (COSTS OFF) $sql")
	check "$k: the shard uses its index" 'grep -qE "Index (Only )?Scan using ev_r_pkey|Bitmap Index Scan on ev_r_pkey" <<<"$sp"'
done

# aggregates: a shard's count, min and max are computed on the shard; over
# the partitioned table min and max become ordered remote scans merged on
# the coordinator (core's postgres_fdw cannot send partial aggregates, so a
# count over all shards is summed from rows: docs/many-servers.md says so)
p=$(plan "SELECT count(*), min(id), max(id) FROM ev_h_a")
echo "$p" >"$work/plan-agg.txt"
check "count, min and max of a shard computed on the shard" \
	'grep -qF "Remote SQL: SELECT count(*), public.min(id), public.max(id) FROM public.ev_h" <<<"$p"'
p=$(plan "SELECT min(id), max(id) FROM ev_h")
echo "$p" >"$work/plan-minmax.txt"
check "min and max over the shards: ordered remote scans merged" \
	'[ "$(grep -c "Merge Append" <<<"$p")" -eq 2 ] && [ "$(grep -c "ORDER BY id ASC NULLS LAST" <<<"$p")" -eq 2 ] && ! grep -q "Sort Method\|  Sort$" <<<"$p"'
got=$(q coord -c "SELECT count(*), min(id), max(id) FROM ev_h")
want=$(q coord -c "SELECT count(*), min(id), max(id) FROM (SELECT id FROM ev_h_a UNION ALL SELECT id FROM ev_h_b) s")
check "aggregates agree ($got)" '[ "$got" = "$want" ]'

# ORDER BY id LIMIT: ordered remote scans merged, the first rows in order
p=$(plan "SELECT id FROM ev_h ORDER BY id LIMIT 10")
echo "$p" >"$work/plan-order.txt"
check "ORDER BY id LIMIT merges ordered remote scans" \
	'grep -q "Merge Append" <<<"$p" && [ "$(grep -c "ORDER BY id ASC NULLS LAST" <<<"$p")" -eq 2 ]'
got=$(q coord -c "SELECT string_agg(id::text, ',') FROM (SELECT id FROM ev_h ORDER BY id LIMIT 10) s")
want=$(q coord -c "SELECT string_agg(id::text, ',') FROM (SELECT id FROM (SELECT id FROM ev_h_a UNION ALL SELECT id FROM ev_h_b) u ORDER BY id LIMIT 10) s")
check "ORDER BY id LIMIT 10 gives the ten smallest ids" '[ "$got" = "$want" ]'

# async: both shards scanned at once
p=$(q coord -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT v FROM ev_h WHERE v % 7 = 0")
echo "$p" >"$work/plan-async.txt"
check "async_capable: both shards scanned concurrently" '[ "$(grep -c "Async Foreign Scan" <<<"$p")" -eq 2 ]'
