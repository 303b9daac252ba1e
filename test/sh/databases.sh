#!/usr/bin/env bash
# test/sh/databases.sh: no database's owner can move another database's ids
# ahead of the clock or stall xid_new() there, however many databases they
# make (each database has its own generator state), tried as the roles
# themselves.
#
# - mallory has CREATEDB and nothing else.  She makes more databases than
#   the pool of slots 1.1 had before this test (MaxBackends + 64 on a
#   server with max_connections = 10), installs the trusted extension in
#   each as their owner, sets each one's durable mark an hour ahead of the
#   clock (her right as the extension's owner) and keeps connecting to
#   every one of them from three clients, making an id in each.
# - bob owns the database victim.  While she connects he opens sessions
#   and makes ids: in every one they are at the clock (never later than
#   clock_timestamp() read after them), above all his earlier ones, and
#   his first xid_new() of the session takes no wait (its median time over
#   the rounds is far below the second the old slot search slept).
# - bob's second database, on 1.0's objects (no durable mark) and updated
#   to 1.1 halfway, gets ids above each other throughout: its state is
#   never taken, so it never restarts (it could not be read again).
# - mallory's ids are an hour ahead in her own databases: the attack was
#   real, and stayed there.
# - Some of her databases dropped, one of them WITH (FORCE) while a session of hers
#   is connected to it, the generator state of each goes with it when the
#   drop commits (the dropping session has the library, preloaded, and
#   says so at DEBUG1), and bob's ids are still at the clock.
#
# Runs its own cluster (the library preloaded, max_connections = 10).
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
bindir=$XID_BINDIR
major=$XID_MAJOR
work=$XID_WORK
dir="$work/cluster"
mkdir -p "$work"
chmod 711 "$work"
trap 'cluster_stop "$bindir" "$dir"' EXIT
rm -rf "$dir"

# Few backends: the old pool had MaxBackends (12 here) + 64 slots (76,
# fewer than her databases); 10 connections, not fewer: three clients of
# hers each hold two during a \c, with bob's and those still exiting
small=("max_connections = 10" "superuser_reserved_connections = 0" "max_worker_processes = 0"
	"max_wal_senders = 0" "wal_level = minimal" "autovacuum_max_workers = 1"
	"shared_preload_libraries = 'xid'")
[ "$major" -ge 18 ] && small+=("autovacuum_worker_slots = 1")
port=$(free_port)
cluster_start "$bindir" "$dir" "$port" "${small[@]}"
export PGHOST="$dir/sock" PGPORT=$port
unset PGDATABASE PGUSER
as() # ROLE DB [psql args]: a session of ROLE, errors stop it
{
	local role=$1 db=$2
	shift 2
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"
}

ndb=80
rounds=8
ndrop=5
slots=$(as postgres postgres -c "SELECT current_setting('max_connections')::int + current_setting('autovacuum_max_workers')::int + 1 + current_setting('max_worker_processes')::int + current_setting('max_wal_senders')::int + 64")
check "mallory's $ndb databases are more than the $slots slots of the old pool" '[ "$ndb" -gt "$slots" ]'

as postgres postgres <<'SQL'
CREATE ROLE mallory LOGIN CREATEDB;
CREATE ROLE bob LOGIN;
CREATE DATABASE victim OWNER bob;
SQL
as bob victim <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid PRIMARY KEY, at timestamptz NOT NULL, round int NOT NULL);
SQL
# bob's second database, on 1.0's objects (no mark) until its update
as postgres postgres -c "CREATE DATABASE legacy OWNER bob" >/dev/null
as bob legacy <<'SQL'
CREATE EXTENSION xid VERSION '1.0';
CREATE TABLE ids (n serial PRIMARY KEY, id public.xid NOT NULL, round int NOT NULL);
SQL

# mallory's databases, each with the extension and its mark an hour ahead
# (copies of one she made, so the mark is set once)
as mallory postgres -c "CREATE DATABASE m_tpl" >/dev/null
as mallory m_tpl <<'SQL' >/dev/null
CREATE EXTENSION xid;
SELECT setval('public.xid_durable_mark',
	(extract(epoch FROM now() + interval '1 hour' - '2011-11-11 11:11:11.111+00'::timestamptz) * 1000)::bigint);
SQL
for i in $(seq 1 $ndb); do echo "CREATE DATABASE m_$i TEMPLATE m_tpl;"; done | as mallory postgres
# her loop L: new sessions in each of her databases in turn, from her
# own starting point, an id in each, ten databases a client, until bob is
# done
mallory_loop()
{
	local l=$1 c i
	while [ ! -e "$work/done" ]; do
		for c in $(seq 0 10 $((ndb - 1))); do
			[ -e "$work/done" ] && break
			for i in $(seq "$c" $((c + 9))); do
				echo "\\c m_$(((i + l * 30) % ndb + 1))"
				echo "SELECT public.xid_new();"
			done | as mallory postgres >/dev/null 2>&1 || true
		done
	done
}

# bob's round: a new session; the time of its first xid_new() (ms), then
# 100 more ids stored with the clock read after each, 0.6 s later: past
# the first half of the lease his first id took, so the next lease is
# written ahead of time (xid_mark.c), as in any session that makes ids for
# more than half a second
bob_round()
{
	as bob victim -F ' ' <<SQL
\\timing on
SELECT public.xid_new() AS first \\gset
\\timing off
INSERT INTO ids VALUES (:'first', clock_timestamp(), $1);
SELECT pg_sleep(0.6) \\g /dev/null
INSERT INTO ids SELECT public.xid_new(), clock_timestamp(), $1 FROM generate_series(1, 100);
SQL
}
: >"$work/first.txt"
rm -f "$work/done"
pids=()
for l in 0 1 2; do
	mallory_loop $l &
	pids+=($!)
done
sleep 2
start=$(date +%s)
for r in $(seq 1 $rounds); do
	bob_round "$r" | sed -nE 's/^Time: ([0-9.]+) ms.*/\1/p' >>"$work/first.txt"
	# and a session in legacy, updated to 1.1 halfway
	[ "$r" = $((rounds / 2)) ] && as bob legacy -c "ALTER EXTENSION xid UPDATE TO '1.1'"
	as bob legacy -c "INSERT INTO ids (id, round) SELECT public.xid_new(), $r FROM generate_series(1, 100)"
	sleep 0.2
done
touch "$work/done"
for p in "${pids[@]}"; do wait "$p"; done
took=$(($(date +%s) - start))

out=$(as bob victim -F ' ' <<'SQL'
SELECT count(*),
       count(*) FILTER (WHERE public.xid_time(id) > at),
       coalesce(round(max(extract(epoch FROM public.xid_time(id) - at) * 1000)), 0)::int,
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (ORDER BY round, at, id) AS prev FROM ids) s WHERE id <= prev)
FROM ids;
SQL
)
read -r n late most back <<<"$out"
check "bob, $rounds sessions while mallory connects ($took s): $n ids, $late of them later than the clock (at most $most ms from it), $back out of order" \
	'[ "$n" = $((rounds * 101)) ] && [ "$late" = 0 ] && [ "$back" = 0 ]'
out=$(as bob legacy -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE id <= prev), (SELECT extversion FROM pg_extension WHERE extname = 'xid') FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM ids) s")
read -r n back version <<<"$out"
check "bob's database on 1.0's objects, updated to $version halfway: $n ids, $back not above the one before" \
	'[ "$n" = $((rounds * 100)) ] && [ "$back" = 0 ] && [ "$version" = 1.1 ]'
median=$(sort -n "$work/first.txt" | awk '{ a[NR] = $1 } END { print (NR ? a[int((NR + 1) / 2)] : "none") }')
slowest=$(sort -n "$work/first.txt" | tail -1)
check "bob's first xid_new() of a session: median $median ms, slowest $slowest ms (the old slot search slept up to 1 s)" \
	'[ "$(wc -l <"$work/first.txt")" = "$rounds" ] && awk -v m="$median" "BEGIN { exit !(m < 200) }"'
out=$(as mallory "m_$ndb" -c "SELECT round(extract(epoch FROM public.xid_time(public.xid_new()) - clock_timestamp()) / 60)")
check "mallory's own ids are $out minutes ahead, in her database only" '[ "$out" -ge 55 ] && [ "$out" -le 60 ]'

# some of her databases dropped (each drop takes a checkpoint on 15):
# the generator state of each goes with it (the
# session that drops them has the library, preloaded, and says so at
# DEBUG1), m_1 WITH (FORCE) while a session of hers that made an id there
# is still connected
as mallory m_1 -c "SELECT public.xid_new()" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
sleeper=$!
for _ in $(seq 1 100); do
	n=$(as mallory postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'm_1' AND query LIKE '%pg_sleep%'")
	[ "$n" = 1 ] && break
	sleep 0.1
done
removed=$({
	echo "DROP DATABASE m_1 WITH (FORCE);"
	for i in $(seq 2 $ndrop); do echo "DROP DATABASE m_$i;"; done
} | as mallory postgres -c "SET client_min_messages = debug1" -f - 2>&1 | grep -c 'xid: removed the generator state of database' || true)
wait "$sleeper" || true
check "mallory dropped $ndrop of her databases, one of them with a session of hers in it (WITH (FORCE)): the generator state of $removed of them went with them" \
	'[ "$n" = 1 ] && [ "$removed" = "$ndrop" ]'
out=$(as bob victim -c "SELECT public.xid_time(public.xid_new()) <= clock_timestamp() AND public.xid_new() > (SELECT max(id) FROM ids)")
check "bob's ids after that: at the clock, above all before" '[ "$out" = t ]'
