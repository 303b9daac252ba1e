#!/usr/bin/env bash
# ci/ha.sh: ids that never go back under Patroni.  One etcd and three
# Patroni members (each its own data directory and ports on 127.0.0.1;
# shared_preload_libraries = 'xid', xid.node_bits = 4 for the cluster and
# xid.node_id per member through Patroni's postgresql.parameters;
# synchronous_mode on), four writers inserting with DEFAULT xid_new()
# through libpq's multi-host connection string (target_session_attrs =
# read-write) while Patroni goes through:
#   1. a switchover (patronictl switchover);
#   2. a failover: kill -9 of the primary's postmaster (primary_start_timeout
#      = 0: Patroni fails over at once instead of restarting it);
#   3. a failover to m3, whose clock (libfaketime, through a wrapper for
#      postgres in its own bin_dir) runs five minutes behind the others':
#      until then m3 has the tags nofailover and nosync; before the kill
#      they move to the other replica, so that m3 is the synchronous
#      standby and the only candidate.
# After them (ci/ha/ha.py): every id the new primary made is above every
# id any client saw before the event, and any id answered before another
# was asked for is below it; no id twice; no committed row lost; each id
# carries its member's node number.  Then on every member the durable mark
# (the sequence xid_durable_mark, replicated as WAL) covers every stored
# id; the primary's generator is durable and runs ahead of its slow clock,
# the replicas' are not durable.  Last, what a node number is for in such
# a cluster: ids made at once on the two hot standbys, first with their
# own node numbers (none twice), then with the same one (Patroni reloads
# it; how many come twice is printed).
#
# Runs inside the PostgreSQL 18 chroot of ci/chroot.sh (patroni,
# etcd-server, python3-psycopg, libfaketime from Debian), as root, from a
# copy of the sources; ci/matrix.sh's "patroni" stage calls it after
# suite-18.  Every process it starts is its own, stopped by its pid (etcd,
# Patroni) or by its data directory (PostgreSQL) on exit; every wait is
# bounded.
#
# Usage: ci/ha.sh            (XID_INSTALLED=1: xid is installed already)
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/cluster.sh
bindir=/usr/lib/postgresql/18/bin
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   patroni: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL patroni: $*"; }
finish()
{
	echo "patroni: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

work=$(mktemp -d /tmp/xid-ha.XXXXXX)
chmod 755 "$work"
members="m1 m2 m3"
writers_pid=""
cleanup()
{
	local m p i
	touch "$work/stop"
	[ -n "$writers_pid" ] && kill "$writers_pid" 2>/dev/null
	# Patroni stops its PostgreSQL on SIGTERM; whatever is left is stopped
	# by its data directory, then Patroni and etcd by their pids
	for m in $members; do
		[ -f "$work/$m/patroni.pid" ] && kill "$(cat "$work/$m/patroni.pid")" 2>/dev/null
	done
	for i in $(seq 1 40); do
		p=""
		for m in $members; do
			[ -f "$work/$m/patroni.pid" ] && kill -0 "$(cat "$work/$m/patroni.pid")" 2>/dev/null && p=1
		done
		[ -z "$p" ] && break
		sleep 0.25
	done
	for m in $members; do
		[ -f "$work/$m/data/postmaster.pid" ] &&
			runuser -u postgres -- "$bindir/pg_ctl" -D "$work/$m/data" -m immediate -w stop >/dev/null 2>&1
		[ -f "$work/$m/patroni.pid" ] && kill -9 "$(cat "$work/$m/patroni.pid")" 2>/dev/null
	done
	# etcd last, and gone before its data directory is
	if [ -f "$work/etcd/etcd.pid" ]; then
		p=$(cat "$work/etcd/etcd.pid")
		kill "$p" 2>/dev/null
		for i in $(seq 1 40); do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.25
		done
		kill -9 "$p" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${XID_INSTALLED:-}" ]; then
	if ! make -s PG_CONFIG="$bindir/pg_config" >"$work/build.log" 2>&1 ||
		! make -s install PG_CONFIG="$bindir/pg_config" >>"$work/build.log" 2>&1; then
		tail -30 "$work/build.log" | sed 's/^/     /'
		fail "building and installing xid for PostgreSQL 18"
		finish
	fi
fi
for b in patroni patronictl etcd python3; do
	command -v $b >/dev/null || { fail "$b is not installed (ci/chroot.sh's package line for 18)"; finish; }
done
faketime=$(faketime_env) || { fail "libfaketime is not installed"; finish; }

now_ns() { python3 -c 'import time; print(time.monotonic_ns())'; }
# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS
wait_for()
{
	local until=$((SECONDS + $1))
	shift
	while [ $SECONDS -lt $until ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
	done
	return 1
}
# a member's port, and SQL on it
declare -A pgport rport node
q() # MEMBER SQL...
{
	local m=$1
	shift
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "${pgport[$m]}" -U postgres -d postgres "$@"
}

# ---- etcd
eport=$(free_port 25520)
epeer=$(free_port $((eport + 1)))
mkdir -p "$work/etcd"
chown -R postgres: "$work/etcd"
runuser -u postgres -- bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$work/etcd/etcd.pid" \
	etcd --name xidha --data-dir "$work/etcd/data" \
	--listen-client-urls "http://127.0.0.1:$eport" --advertise-client-urls "http://127.0.0.1:$eport" \
	--listen-peer-urls "http://127.0.0.1:$epeer" --initial-advertise-peer-urls "http://127.0.0.1:$epeer" \
	--initial-cluster "xidha=http://127.0.0.1:$epeer" --log-level warn >"$work/etcd/etcd.log" 2>&1 &
etcd_healthy() { python3 -c "import urllib.request,sys; sys.exit(b'true' not in urllib.request.urlopen('http://127.0.0.1:$eport/health', timeout=2).read())"; }
if ! wait_for 30 etcd_healthy; then
	tail -20 "$work/etcd/etcd.log" | sed 's/^/     /'
	fail "starting etcd"
	finish
fi
pass "$(etcd --version | head -1) on 127.0.0.1:$eport"

# ---- the members.  m3's postgres sees a clock five minutes behind: its
# bin_dir holds the server's programs, postgres through libfaketime
# (FAKETIME_TIMESTAMP_FILE is read at most a second old, as in
# test/t/020_durable.pl)
mkdir -p "$work/fakebin"
for f in "$bindir"/*; do ln -s "$f" "$work/fakebin/"; done
rm "$work/fakebin/postgres"
cat >"$work/fakebin/postgres" <<SH
#!/bin/sh
exec env $faketime FAKETIME_TIMESTAMP_FILE=$work/m3/clock FAKETIME_CACHE_DURATION=1 \\
	$bindir/postgres "\$@"
SH
chmod 755 "$work/fakebin/postgres"

n=0
p=25530
for m in $members; do
	n=$((n + 1))
	node[$m]=$n
	pgport[$m]=$(free_port $p)
	rport[$m]=$(free_port $((pgport[$m] + 1)))
	p=$((rport[$m] + 1))
	mkdir -p "$work/$m"
done
echo "-300" >"$work/m3/clock"
chmod 644 "$work/m3/clock"

# member_config MEMBER NOFAILOVER: its patroni.yml (a change of tags is
# read on SIGHUP)
member_config()
{
	local m=$1 nofail=$2 bin=$bindir
	[ "$m" = m3 ] && bin=$work/fakebin
	cat >"$work/$m/patroni.yml" <<YML
scope: xidha
namespace: /xid-test-ha/
name: $m
log:
  level: INFO
  dir: $work/$m/log
restapi:
  listen: 127.0.0.1:${rport[$m]}
  connect_address: 127.0.0.1:${rport[$m]}
etcd3:
  hosts: 127.0.0.1:$eport
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    primary_start_timeout: 0
    maximum_lag_on_failover: 16777216
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        shared_preload_libraries: xid
        xid.node_bits: 4
        wal_keep_size: 256MB
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: 'on'
        fsync: 'off'
  initdb:
  - encoding: UTF8
  - locale: C.UTF-8
postgresql:
  listen: 127.0.0.1:${pgport[$m]}
  connect_address: 127.0.0.1:${pgport[$m]}
  data_dir: $work/$m/data
  bin_dir: $bin
  pgpass: $work/$m/pgpass
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
    rewind:
      username: postgres
  parameters:
    unix_socket_directories: $work/$m
    xid.node_id: ${node[$m]}
    max_connections: 40
    shared_buffers: 64MB
  pg_hba:
  - local all all trust
  - host all all 127.0.0.1/32 trust
  - host replication all 127.0.0.1/32 trust
tags:
  nofailover: $nofail
  nosync: $nofail
YML
}
start_member() # MEMBER
{
	local m=$1
	mkdir -p "$work/$m/log"
	chown -R postgres: "$work/$m"
	runuser -u postgres -- bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$work/$m/patroni.pid" \
		patroni "$work/$m/patroni.yml" >"$work/$m/patroni.out" 2>&1 &
}
ctl() { patronictl -c "$work/m1/patroni.yml" "$@"; }
# the cluster as Patroni sees it: lines "member role state"
members_state()
{
	ctl list -f json 2>/dev/null | python3 -c '
import json, sys
for r in json.load(sys.stdin):
    print(r["Member"], r["Role"].replace(" ", "_"), r["State"])'
}
leader() { members_state | awk '$2 == "Leader" && $3 == "running" { print $1 }'; }
writable() { [ "$(q "$1" -c "SELECT pg_is_in_recovery()")" = f ]; }
new_leader() # OLD: a leader other than OLD, taking writes
{
	local l
	l=$(leader)
	[ -n "$l" ] && [ "$l" != "$1" ] && writable "$l"
}
has_sync() { members_state | grep ' Sync_Standby streaming$' >/dev/null; }
all_streaming() { [ "$(members_state | grep -cE ' (Replica|Sync_Standby) streaming$')" -eq 2 ] && [ -n "$(leader)" ]; }
show_state()
{
	members_state | sed 's/^/     /'
	for m in $members; do tail -5 "$work/$m/log/patroni.log" 2>/dev/null | sed "s/^/     $m: /"; done
}

member_config m1 false
member_config m2 false
member_config m3 true
start_member m1
if ! wait_for 60 writable m1; then
	show_state
	tail -20 "$work/m1/patroni.out" | sed 's/^/     /'
	fail "Patroni bootstrapping m1"
	finish
fi
start_member m2
start_member m3
if ! wait_for 90 all_streaming; then
	show_state
	fail "m2 and m3 streaming from m1"
	finish
fi
pass "$(patroni --version) with etcd3: m1 primary, m2 and m3 streaming ($(members_state | tr '\n' ';'))"

# xid.node_id per member, as Patroni set it
nodes_ok=1
for m in $members; do
	[ "$(q "$m" -c "SHOW xid.node_id")" = "${node[$m]}" ] && [ "$(q "$m" -c "SHOW xid.node_bits")" = 4 ] || nodes_ok=""
done
if [ -n "$nodes_ok" ]; then
	pass "xid.node_bits = 4 from Patroni's dynamic configuration, xid.node_id = 1, 2, 3 from each member's postgresql.parameters"
else
	fail "xid.node_id per member through Patroni"
fi

q m1 -c "CREATE EXTENSION xid" \
	-c "CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT xid_new(), w int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())"
printf '{"%s": %s, "%s": %s, "%s": %s}\n' "${pgport[m1]}" 1 "${pgport[m2]}" 2 "${pgport[m3]}" 3 >"$work/nodes.json"

hosts="127.0.0.1,127.0.0.1,127.0.0.1"
ports="${pgport[m1]},${pgport[m2]},${pgport[m3]}"
dsn="host=$hosts port=$ports user=postgres dbname=postgres target_session_attrs=read-write connect_timeout=2"
export PGOPTIONS="-c client_min_messages=error"
python3 ci/ha/ha.py writers "$dsn" "$work/ops" "$work/stop" 240 >"$work/writers.log" 2>&1 &
writers_pid=$!
: >"$work/events"
sleep 3

# event NAME: record when it started, run the rest of the arguments, wait
# for a new primary that takes writes, record when it did
event()
{
	local name=$1 old t0 t1 l
	shift
	# Patroni in synchronous mode promotes only a synchronous standby
	if ! wait_for 60 has_sync; then
		show_state
		fail "$name: no synchronous standby within 60 s"
		finish
	fi
	old=$(leader)
	t0=$(now_ns)
	event_at=$SECONDS
	"$@" "$old" >"$work/event.log" 2>&1 || { sed 's/^/     /' "$work/event.log"; }
	if ! wait_for 90 new_leader "$old"; then
		show_state
		fail "$name: no new primary within 90 s"
		finish
	fi
	t1=$(now_ns)
	l=$(leader)
	promoted_at=$SECONDS
	printf '%s\t%s\t%s\t%s\n' "$name" "$t0" "$t1" "${pgport[$l]}" >>"$work/events"
	echo "     $name: $old -> $l in $(((t1 - t0) / 1000000)) ms"
	sleep 4
	# the old primary back as a replica before the next event
	if ! wait_for 90 all_streaming; then
		show_state
		fail "$name: the old primary did not rejoin as a replica within 90 s"
		finish
	fi
}
switchover() { ctl switchover xidha --leader "$1" --force; }
kill_postmaster() { kill -9 "$(head -1 "$work/$1/data/postmaster.pid")"; }

event "switchover (patronictl switchover)" switchover
event "failover (kill -9 of the primary's postmaster)" kill_postmaster

# m3 the only candidate: its tags off, the other replica's on
l=$(leader)
for m in m1 m2; do [ "$m" != "$l" ] && other=$m; done
member_config m3 false
member_config "$other" true
for m in m3 "$other"; do kill -HUP "$(cat "$work/$m/patroni.pid")"; done
m3_sync() { members_state | grep '^m3 Sync_Standby streaming$' >/dev/null; }
if ! wait_for 60 m3_sync; then
	show_state
	fail "m3 the synchronous standby after its nofailover tag was taken off"
	finish
fi
event "failover to m3, its clock 300 s behind (kill -9 of the primary's postmaster)" kill_postmaster
if [ "$(leader)" != m3 ]; then
	fail "the third failover promoted $(leader), not m3"
fi
touch "$work/stop"
wait "$writers_pid"
writers_pid=""
sed 's/^/     /' "$work/writers.log"

python3 ci/ha/ha.py check "$work/ops" "$work/events" "host=127.0.0.1 port=${pgport[$(leader)]} user=postgres dbname=postgres" \
	"$work/nodes.json" >"$work/check.log" 2>&1
while IFS= read -r line; do
	case "$line" in
		"ok   patroni: "*) pass "${line#ok   patroni: }" ;;
		"FAIL patroni: "*) fail "${line#FAIL patroni: }" ;;
		*) echo "     $line" ;;
	esac
done <"$work/check.log"

# ---- the durable mark on every member, once the replicas replayed all
# the primary wrote
p=$(leader)
lsn=$(q "$p" -c "SELECT pg_current_wal_flush_lsn()")
caught_up() { [ "$(q "$1" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ]; }
top_ms=$(cat "$work"/ops.* | awk '$1 != "u" { print $4 }' | sort -n | tail -1)
top_ms=$((top_ms >> 22))
for m in $members; do
	[ "$m" = "$p" ] || wait_for 60 caught_up "$m" || echo "     $m did not replay up to $lsn within 60 s"
	read -r mark stored durable ahead <<<"$(q "$m" -F ' ' -c "
		SELECT (SELECT last_value FROM xid_durable_mark), (SELECT max(id)::bigint >> 22 FROM ids),
		       durable, round(extract(epoch FROM last_ahead))
		FROM xid_generator_status()")"
	if [ "$m" = "$p" ]; then
		# its ids started at the mark, about 300 s ahead of its clock, and
		# stay there while the clock catches up: 300 s less the time since
		# the old primary stopped, less a little for its last ids and the
		# rounding (measured from the promotion, the failover's own time
		# was in the margin: 9 s of failover on a loaded machine failed
		# a check 10 s wide)
		min_ahead=$((300 - (SECONDS - event_at) - 5))
		if [ "$mark" -ge "$top_ms" ] && [ "$durable" = t ] && [ "$ahead" -ge "$min_ahead" ]; then
			pass "$m, the primary: durable, its mark at or above every id any client got ($((mark - top_ms)) ms above the highest), ids ${ahead} s ahead of its clock (300 s behind, promoted $((SECONDS - promoted_at)) s ago)"
		else
			fail "$m, the primary: mark $mark, highest id's ms $top_ms, durable $durable, ${ahead} s ahead"
		fi
	else
		if [ "$mark" -ge "$stored" ] && [ "$durable" = f ]; then
			pass "$m, a replica: the replayed mark at or above every stored id ($((mark - stored)) ms above the highest), not durable (a hot standby writes no mark)"
		else
			fail "$m, a replica: mark $mark, highest stored id's ms $stored, durable $durable"
		fi
	fi
done

# ---- node numbers on the hot standbys: 200,000 ids on each at once
replicas=$(for m in $members; do [ "$m" != "$p" ] && echo $m; done | tr '\n' ' ' | sed 's/ $//')
twice()
{
	local m pids=()
	for m in $replicas; do
		q "$m" -c "COPY (SELECT xid_new() FROM generate_series(1, 200000)) TO STDOUT" >"$work/standby.$m" &
		pids+=($!)
	done
	wait "${pids[@]}"
	cat $(for m in $replicas; do echo "$work/standby.$m"; done) | sort | uniq -d | wc -l
}
dups=$(twice)
if [ "$dups" -eq 0 ]; then
	pass "replicas $replicas with their own xid.node_id: 400,000 ids made at once on the two hot standbys, none twice"
else
	fail "replicas with their own xid.node_id made $dups ids twice"
fi
# the same node number for both (Patroni reloads postgresql.parameters on
# SIGHUP): the counters of the two meet
for m in $replicas; do
	sed -i 's/^    xid.node_id: .*/    xid.node_id: 7/' "$work/$m/patroni.yml"
	kill -HUP "$(cat "$work/$m/patroni.pid")"
done
both_seven() { for m in $replicas; do [ "$(q "$m" -c "SHOW xid.node_id")" = 7 ] || return 1; done; }
if wait_for 30 both_seven; then
	dups=$(twice)
	pass "replicas $replicas both given xid.node_id = 7 by Patroni: $dups of 400,000 ids made at once on the two hot standbys came twice (nothing keeps them apart now; the primary's ids are unaffected)"
else
	fail "xid.node_id = 7 reloaded by Patroni on $replicas within 30 s"
fi
finish
