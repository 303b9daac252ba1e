#!/usr/bin/env bash
# test/sh/no_preload.sh: xid_new() on a server without
# shared_preload_libraries, as README's quick start leaves it.  The state
# is shared on every version (the DSM registry on 17+, the server's spare
# shared memory on 15 and 16), so:
#
# - xid_generator_status() shows the database scope, durable;
# - 8 concurrent pgbench clients inserting with DEFAULT xid_new() under a
#   primary key: no failed transaction (no duplicate), each client's ids
#   strictly increasing, and every id above every id its statement could
#   see committed (strictly increasing across sessions); the same with a
#   new connection per transaction (the library loaded anew each time);
# - a query whose parallel workers make ids (through a parallel-safe
#   wrapper of the C function: xid_new() itself is PARALLEL RESTRICTED),
#   run beside them: no duplicate, all above what was committed before it;
# - a clean restart, an immediate stop (a crash) and the kill -9 of a
#   backend (the postmaster's crash restart): new ids above every id before
#   and above the durable mark read before;
# - 15 and 16: with the spare shared memory used up (test/eat_shmem.c takes
#   it all), xid_new() fails with SQLSTATE 53200 and a hint to preload the
#   library, and DROP DATABASE in a session that loaded it still works.
#
# Runs its own cluster, without shared_preload_libraries: the suite's
# preloaded cluster is left alone.  Called by ci/suite.sh with
# XID_BINDIR, XID_MAJOR, XID_WORK and PG_CONFIG; XID_NO_PRELOAD_PORT picks
# the port to start looking from.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
bindir=$XID_BINDIR
major=$XID_MAJOR
work=$XID_WORK
pg_config=${PG_CONFIG:-$bindir/pg_config}
mkdir -p "$work"
chmod 711 "$work"
dir="$work/cluster"
trap 'cluster_stop "$bindir" "$dir"' EXIT

port=$(free_port "${XID_NO_PRELOAD_PORT:-$((57200 + major * 10))}")
cluster_start "$bindir" "$dir" "$port" "max_worker_processes = 16" "max_parallel_workers = 8"
export PGHOST="$dir/sock" PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
q() { psql -A -t "$@"; }
pg_ctl() { runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 "$@" >/dev/null; }

check "shared_preload_libraries is empty" '[ -z "$(q -c "SHOW shared_preload_libraries")" ]'

psql <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (
    id public.xid PRIMARY KEY DEFAULT public.xid_new(),
    run int NOT NULL,           -- one pgbench run
    client int NOT NULL,
    counter bigint NOT NULL,
    seen public.xid  -- the largest id committed before the statement
);
-- the C function, parallel safe, so that parallel workers make ids
CREATE FUNCTION par_new() RETURNS public.xid AS '$libdir/xid', 'xid_new'
    LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION par_pid() RETURNS int AS 'pg_backend_pid'
    LANGUAGE internal VOLATILE PARALLEL SAFE;
CREATE TABLE src AS SELECT g FROM generate_series(1, 200000) AS g;
ANALYZE src;
SQL

read -r scope durable <<<"$(q -F ' ' -c "SELECT public.xid_new() IS NOT NULL" -c "SELECT scope, durable FROM public.xid_generator_status()" | tail -1)"
check "xid_generator_status() without preloading: scope $scope, durable $durable" \
	'[ "$scope" = database ] && [ "$durable" = t ]'

cat >"$work/insert.sql" <<'SQL'
\set counter :counter + 1
INSERT INTO ids (run, client, counter, seen) SELECT :run, :client_id, :counter, (SELECT max(id) FROM ids);
SQL

# pgbench_run NAME ARGS...: 8 clients; no failed transaction
runs=0
pgbench_run()
{
	local name=$1 out="$work/pgbench-$runs.log"
	shift
	runs=$((runs + 1))
	"$bindir/pgbench" -n -c 8 -j 2 -D counter=0 -D run=$runs -f "$work/insert.sql" "$@" postgres >"$out" 2>&1 ||
		{ cat "$out"; echo "FAILED: pgbench $name"; exit 1; }
	failed_tx=$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' "$out")
	check "pgbench $name: 8 clients, ${failed_tx:-0} failed transactions" '[ "${failed_tx:-0}" -eq 0 ]'
}

# the parallel query, beside the first pgbench run: workers only
before=$(q -c "INSERT INTO ids (run, client, counter) VALUES (0, 0, 0) RETURNING id")
psql >"$work/parallel.log" 2>&1 <<'SQL' &
SET max_parallel_workers_per_gather = 4;
SET parallel_leader_participation = off;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CREATE TABLE par AS SELECT par_new() AS id, par_pid() AS pid FROM src;
SQL
parallel=$!
pgbench_run "one connection each" -t 2000
wait "$parallel" || { cat "$work/parallel.log"; echo "FAILED: the parallel query"; exit 1; }
pgbench_run "a connection per transaction" -t 100 -C

read -r rows dups unordered unseen par_rows par_pids par_dups par_below <<<"$(q -F ' ' <<SQL
SELECT (SELECT count(*) FROM ids),
       (SELECT count(*) - count(DISTINCT id) FROM ids),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY run, client ORDER BY counter) AS prev
                              FROM ids) s WHERE id <= prev),
       (SELECT count(*) FROM ids WHERE id <= seen),
       (SELECT count(*) FROM par),
       (SELECT count(DISTINCT pid) FROM par),
       (SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM par UNION ALL SELECT id FROM ids) u),
       (SELECT count(*) FROM par WHERE id <= '$before'::public.xid);
SQL
)"
check "8 sessions: $rows rows, $dups duplicates, $unordered out of order within a client, $unseen not above an id committed before" \
	'[ "$rows" -eq 16801 ] && [ "$dups" -eq 0 ] && [ "$unordered" -eq 0 ] && [ "$unseen" -eq 0 ]'
check "parallel workers: $par_rows ids from $par_pids workers, $par_dups duplicates with each other and the sessions' ids, $par_below not above the ids before" \
	'[ "$par_rows" -eq 200000 ] && [ "$par_pids" -ge 2 ] && [ "$par_dups" -eq 0 ] && [ "$par_below" -eq 0 ]'

# mark_before: the last id and the mark before an event, the mark's WAL
# flushed (a mark written but not flushed yet covers no id, and need not
# survive a crash); after_event NAME: new ids above both
mark_before()
{
	q -c "SELECT public.xid_new() IS NOT NULL" >/dev/null
	mark=$(q -c "SELECT durable_mark FROM public.xid_generator_status()")
	q -c "CHECKPOINT" >/dev/null
	last=$(q -c "SELECT greatest((SELECT max(id) FROM ids), (SELECT max(id) FROM par))")
}
after_event()
{
	local name=$1 above
	# (a restart within the lease puts ids ahead of the clock: warned)
	above=$(q -c "SET client_min_messages = error" -c "SELECT public.xid_new() > '$last'::public.xid AND public.xid_time(public.xid_new()) > '$mark'::timestamptz")
	pgbench_run "after $name" -t 200
	read -r dups unseen unordered <<<"$(q -F ' ' -c "
		SELECT count(*) - count(DISTINCT id), count(*) FILTER (WHERE id <= seen),
		       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY run, client ORDER BY counter) AS prev
		                              FROM ids WHERE run = $runs) s WHERE id <= prev)
		FROM ids")"
	check "$name: new ids above the last id before ($last) and the mark ($mark); $dups duplicates, $unseen not above an id committed before, $unordered out of order within a client" \
		'[ "$above" = t ] && [ "$dups" -eq 0 ] && [ "$unseen" -eq 0 ] && [ "$unordered" -eq 0 ]'
	read -r scope durable <<<"$(q -F ' ' -c "SELECT scope, durable FROM public.xid_generator_status()")"
	check "$name: scope $scope, durable $durable" '[ "$scope" = database ] && [ "$durable" = t ]'
}

mark_before
pg_ctl restart -m fast
after_event "clean restart"

mark_before
pg_ctl stop -m immediate
pg_ctl start
after_event "immediate stop"

mark_before
psql -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
sleeper=$!
for i in $(seq 1 100); do
	pid=$(q -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
	[ -n "$pid" ] && break
	sleep 0.1
done
kill -9 "$pid"
wait "$sleeper" || true
for i in $(seq 1 300); do
	q -c "SELECT 1" >/dev/null 2>&1 && break
	sleep 0.2
done
check "kill -9 of a backend: the server went through a crash restart" \
	'grep -q "terminating any other active server processes\|all server processes terminated" "$dir/server.log"'
after_event "kill -9 of a backend"

# 15 and 16: no spare shared memory left
if [ "$major" -lt 17 ]; then
	${CC:-cc} -shared -fPIC -O2 -I"$("$pg_config" --includedir-server)" \
		-o "$work/eat_shmem.so" test/eat_shmem.c
	chmod 755 "$work/eat_shmem.so"
	psql -c "CREATE FUNCTION eat_spare_shmem() RETURNS bigint AS '$work/eat_shmem.so' LANGUAGE C"
	psql -c "CREATE DATABASE doomed"
	pg_ctl restart -m fast
	eaten=$(q -c "SELECT eat_spare_shmem()")
	err=$(psql -c "\\set VERBOSITY verbose" -c "SELECT public.xid_new()" 2>&1 || true)
	check "spare shared memory used up ($eaten bytes taken): xid_new() fails: $(head -1 <<<"$err")" \
		'grep -q "^ERROR:  53200: not enough shared memory for the state of xid_new()" <<<"$err" &&
		grep -q "^HINT:  Add xid to shared_preload_libraries and restart the server\." <<<"$err"'
	err=$(psql -c "SELECT * FROM public.xid_generator_status()" 2>&1 || true)
	check "and so does xid_generator_status()" \
		'grep -q "^ERROR:  not enough shared memory for the state of xid_new()" <<<"$err"'
	# the library caught ShmemInitStruct()'s error there: the session can
	# still be interrupted after it (without that, the DROP waited for ever
	# for its own backend to accept a ProcSignalBarrier)
	err=$(timeout 60 "$bindir/psql" -X -q -c "LOAD 'xid'" -c "DROP DATABASE doomed" -c "SET statement_timeout = '200ms'" \
		-c "SELECT pg_sleep(5)" 2>&1 || true)
	check "DROP DATABASE in a session that loaded the library, and a statement timeout after it: $err" \
		'[ "$err" = "ERROR:  canceling statement due to statement timeout" ] &&
		[ -z "$(q -c "SELECT 1 FROM pg_database WHERE datname = '"'"'doomed'"'"'")" ]'
	pg_ctl restart -m fast
	check "after a restart, ids again" \
		'[ -n "$(q -c "SET client_min_messages = error" -c "SELECT public.xid_new()")" ]'
fi
echo "no_preload: all checks passed"
