#!/usr/bin/env bash
# ci/pooler.sh: xid behind PgBouncer in transaction pooling mode, with
# max_prepared_statements on, so that every prepared statement reaches the
# server as a protocol-level one with parameters, on whichever of the pool's
# server connections is free.  Runs inside the PostgreSQL 18 chroot of
# ci/chroot.sh (pgbouncer, python3-psycopg, python3-asyncpg, node-pg,
# golang-github-jackc-pgx-v5-dev and libpostgresql-jdbc-java from Debian:
# nothing is downloaded), as root, from a copy of the sources;
# ci/matrix.sh's "pgbouncer" stage calls it after suite-18.
#
# Usage: ci/pooler.sh            (XID_INSTALLED=1: xid is installed already)
#
# One server (shared_preload_libraries = 'xid', plan_cache_mode =
# force_generic_plan, auto_explain logging every plan of the role the pooler
# connects as), one PgBouncer (pool_mode = transaction, default_pool_size =
# 2, max_prepared_statements = 200), eight clients at once per driver:
# - psycopg 3, asyncpg, node-postgres, pgx and pgjdbc each run prefix (^@ and
#   LIKE), time window (id >= $1::timestamptz AND id < $2::timestamptz)
#   and <@ range queries with parameters, prepared, six rounds over ten
#   probes, with results in text and in binary (node-postgres: text; its
#   binary results are counted apart), and compare each result with the
#   rows a direct connection returns (ci/pooler/drivers.py, node.js,
#   pgx.go, Jdbc.java); then inserts with DEFAULT xid_new() ... RETURNING id;
# - every plan the server ran for them (auto_explain) is an index range
#   scan of the primary key with an index condition on $1, a generic plan;
# - through the pooler, EXPLAIN (GENERIC_PLAN) and EXPLAIN EXECUTE of a
#   statement prepared in the same transaction show the same.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/cluster.sh
bindir=/usr/lib/postgresql/18/bin
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   pgbouncer: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL pgbouncer: $*"; }
finish()
{
	echo "pgbouncer: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

work=$(mktemp -d /tmp/xid-pooler.XXXXXX)
chmod 755 "$work"
bouncer_pid=""
cleanup()
{
	# PgBouncer by the pid it wrote, and runuser, which started it
	[ -f "$work/bouncer/pgbouncer.pid" ] && kill "$(cat "$work/bouncer/pgbouncer.pid")" 2>/dev/null
	[ -n "$bouncer_pid" ] && kill "$bouncer_pid" 2>/dev/null
	cluster_stop "$bindir" "$work/pg"
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
for b in pgbouncer python3 node go java; do
	command -v $b >/dev/null || { fail "$b is not installed (ci/chroot.sh's package line for 18)"; finish; }
done

port=$(free_port 25440)
if ! cluster_start "$bindir" "$work/pg" "$port" "listen_addresses = '127.0.0.1'" \
	"shared_preload_libraries = 'xid'" "plan_cache_mode = force_generic_plan" "log_line_prefix = '%a: '"; then
	fail "starting PostgreSQL 18"
	finish
fi
psql=("$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
# The table read: 20,000 ids over the last two hours (about 3 a second),
# so that 4 to 6 leading symbols match hundreds to a few ids.  The pooler
# connects as "app", whose sessions log every plan they run.
if ! "${psql[@]}" -d postgres >"$work/setup.log" 2>&1 <<'SQL'; then
CREATE ROLE app LOGIN;
CREATE DATABASE pool OWNER app;
ALTER ROLE app SET session_preload_libraries = 'auto_explain';
ALTER ROLE app SET auto_explain.log_min_duration = 0;
ALTER ROLE app SET auto_explain.log_level = 'log';
\c pool
CREATE EXTENSION xid SCHEMA public;
SET ROLE app;
CREATE TABLE orders (id public.xid PRIMARY KEY, n int NOT NULL);
INSERT INTO orders SELECT xid_new(now() - interval '2 hours' * random()), i FROM generate_series(1, 20000) i;
CREATE TABLE events (id public.xid PRIMARY KEY DEFAULT xid_new(), driver text NOT NULL, client int NOT NULL);
ANALYZE orders;
SQL
	sed 's/^/     /' "$work/setup.log"
	fail "creating the database, the role and the tables"
	finish
fi

# ten probes: prefixes of 4 to 6 symbols of stored ids, and time windows of
# a minute to ten minutes within the two hours
"${psql[@]}" -d pool >"$work/probes.json" <<'SQL'
SELECT json_agg(json_build_object(
	'prefix', left(id::text, 4 + g % 3),
	'pattern', left(id::text, 4 + g % 3) || '%',
	't0', to_char(t0 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
	't1', to_char((t0 + interval '1 minute' * (1 + g % 10)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')))
FROM (SELECT g, o.id, xid_time(o.id) - interval '30 seconds' AS t0
	FROM generate_series(0, 9) g, LATERAL (SELECT id FROM orders WHERE n = 1 + g * 1999) o) y;
SQL
if ! python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); assert len(p) == 10' "$work/probes.json" 2>"$work/probes.err"; then
	cat "$work/probes.json" "$work/probes.err" | sed 's/^/     /'
	fail "making the probes"
	finish
fi

# PgBouncer: two server connections for eight clients, statements prepared
# by the clients kept per server connection
bport=$(free_port $((port + 1)))
mkdir -p "$work/bouncer"
cat >"$work/bouncer/pgbouncer.ini" <<INI
[databases]
pool = host=127.0.0.1 port=$port dbname=pool user=app

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bport
unix_socket_dir =
auth_type = trust
auth_file = $work/bouncer/users.txt
pool_mode = transaction
default_pool_size = 2
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = 100
max_prepared_statements = 200
logfile = $work/bouncer/pgbouncer.log
pidfile = $work/bouncer/pgbouncer.pid
admin_users = app
INI
echo '"app" ""' >"$work/bouncer/users.txt"
chown -R postgres: "$work/bouncer"
runuser -u postgres -- pgbouncer "$work/bouncer/pgbouncer.ini" >"$work/bouncer/stdout.log" 2>&1 &
bouncer_pid=$!
ready=""
for i in $(seq 1 100); do
	"$bindir/psql" -X -At -h 127.0.0.1 -p "$bport" -U app -d pool -c "SELECT 1" >/dev/null 2>&1 && ready=1 && break
	sleep 0.1
done
if [ -z "$ready" ]; then
	cat "$work/bouncer/stdout.log" "$work/bouncer/pgbouncer.log" 2>/dev/null | tail -20 | sed 's/^/     /'
	fail "starting PgBouncer"
	finish
fi
version=$(pgbouncer --version | head -1)
pass "$version started: pool_mode = transaction, default_pool_size = 2, max_prepared_statements = 200"

direct="host=127.0.0.1 port=$port user=app dbname=pool"
pooled="host=127.0.0.1 port=$bport user=app dbname=pool"
drivers_out()
{
	local name=$1 rc
	shift
	"$@" >"$work/$name.log" 2>&1
	rc=$?
	# the drivers' own ok and FAIL lines, counted here
	while IFS= read -r line; do
		case "$line" in
			"ok   "*) pass "${line#ok   }" ;;
			"FAIL "*) fail "${line#FAIL }" ;;
			*) echo "     $line" ;;
		esac
	done <"$work/$name.log"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$work/$name.log"; then
		fail "$name exited $rc"
	fi
}
# plans before the drivers ran are not theirs
mark=$(wc -l <"$work/pg/server.log")
drivers_out psycopg python3 ci/pooler/drivers.py psycopg "$direct" "$pooled" "$work/probes.json"
drivers_out asyncpg python3 ci/pooler/drivers.py asyncpg \
	"postgresql://app@127.0.0.1:$port/pool" "postgresql://app@127.0.0.1:$bport/pool" "$work/probes.json"
drivers_out node-postgres env PGHOST=127.0.0.1 PGUSER=app PGDATABASE=pool NODE_PATH=/usr/share/nodejs \
	node ci/pooler/node.js "$port" "$bport" "$work/probes.json"
# pgx from Debian's sources (GOPATH mode: no module proxy), its build cache
# kept in the chroot
mkdir -p "$work/gopath/src/pgxcheck"
cp ci/pooler/pgx.go "$work/gopath/src/pgxcheck/main.go"
start=$SECONDS
if (cd "$work" && env GO111MODULE=off GOPATH="$work/gopath:/usr/share/gocode" GOPROXY=off GOTOOLCHAIN=local \
	GOFLAGS=-p=2 GOCACHE=/root/.cache/xid-pooler-go go build -o "$work/pgxcheck" pgxcheck) >"$work/pgx-build.log" 2>&1; then
	echo "     pgx: built in $((SECONDS - start)) s"
	drivers_out pgx "$work/pgxcheck" "$direct" "$pooled" "$work/probes.json"
else
	sed 's/^/     /' "$work/pgx-build.log" | tail -20
	fail "building ci/pooler/pgx.go with Debian's pgx v5 (golang-github-jackc-pgx-v5-dev)"
fi

# pgjdbc from Debian, as a single source file
drivers_out pgjdbc java -cp /usr/share/java/postgresql.jar ci/pooler/Jdbc.java "$port" "$bport" "$work/probes.json"

# How the server connections were shared: PgBouncer's own counters
"$bindir/psql" -X -At -h 127.0.0.1 -p "$bport" -U app -d pgbouncer -c "SHOW POOLS" >"$work/pools.txt" 2>&1
"$bindir/psql" -X -At -h 127.0.0.1 -p "$bport" -U app -d pgbouncer -c "SHOW SERVERS" >"$work/servers.txt" 2>&1
servers=$(grep -c '|pool|' "$work/servers.txt")
pass "server connections PgBouncer opened to the pool database: $servers (at most 2)"
[ "$servers" -le 2 ] || fail "PgBouncer opened $servers server connections, more than default_pool_size = 2"

# Every plan the server ran for the drivers' pooled queries (auto_explain,
# one entry per execution; the log line's prefix is the client's
# application_name, which PgBouncer sets on the server connection): an
# index scan of orders_pkey, its condition on $1 (a generic plan)
awk -v from="$mark" 'NR > from' "$work/pg/server.log" | awk '
	function out() { if (q != "") print app "\t" q "\t" p; q = ""; p = "" }
	/^[^\t ]*: LOG:  duration: .* plan:/ { out(); app = $1; sub(/:$/, "", app); inplan = 1; next }
	/^[^\t ]*: (LOG|STATEMENT|ERROR|WARNING|DETAIL|HINT):/ { out(); inplan = 0; next }
	inplan && /Query Text:/ { sub(/.*Query Text: */, ""); q = $0; next }
	inplan { gsub(/^[ \t]+/, ""); p = p " | " $0 }
	END { out() }' | grep 'FROM orders WHERE' | grep -v '^direct' >"$work/plans.txt"
# an index range scan of the key: Index Scan, Index Only Scan or, with a
# generic plan's default estimate (a third of the rows for id >= $1), a
# Bitmap Index Scan
scan_re='Index (Only )?Scan using orders_pkey on orders|Bitmap Index Scan on orders_pkey'
for what in '\^@' 'LIKE' '>= \$1::timestamptz' 'xid_prefix_range' 'xid_time_range'; do
	grep -E "WHERE id $what|WHERE id <@ $what" "$work/plans.txt" >"$work/plans.one"
	n=$(wc -l <"$work/plans.one")
	good=$(grep -E "$scan_re" "$work/plans.one" |
		grep -E 'Index Cond: [^|]*\$1' | grep -vc 'Seq Scan')
	label=$(echo "$what" | tr -d '\\')
	by=$(cut -f1 "$work/plans.one" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }')
	if [ "$(cut -f1 "$work/plans.one" | sort -u | tr '\n' ' ')" = "asyncpg node-postgres pgjdbc pgx psycopg " ] &&
		[ "$n" -eq "$good" ]; then
		pass "every plan the server ran for 'id $label' through the pooler ($by; auto_explain): an index range scan of orders_pkey whose condition reads \$1 (generic)"
	else
		grep -vE 'Index Cond: [^|]*\$1' "$work/plans.one" | cut -f1 | sort | uniq -c | sed 's/^/     not generic: /'
		grep -vE 'Index Cond: [^|]*\$1' "$work/plans.one" | head -2 | sed 's/^/     /'
		fail "plans for 'id $label' through the pooler ($by): $good of $n are an index range scan of orders_pkey on \$1"
	fi
done
echo "     for example:$(grep -m1 'WHERE id >= \$1::timestamptz' "$work/plans.txt" | cut -f3 | sed 's/^ | Query Parameters:[^|]*//')"

# Through the pooler, as a user would look: EXPLAIN (GENERIC_PLAN), and
# EXPLAIN EXECUTE of a statement prepared in the same transaction
viapool=("$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$bport" -U app -d pool)
for q in 'id ^@ $1' 'id LIKE $1' 'id >= $1::timestamptz' 'id <@ xid_time_range($1::tstzrange)'; do
	out=$("${viapool[@]}" -c "EXPLAIN (GENERIC_PLAN, COSTS OFF) SELECT id FROM orders WHERE $q" 2>&1)
	if grep -qE "$scan_re" <<<"$out" && grep -qE 'Index Cond: .*\$1' <<<"$out"; then
		pass "through the pooler, EXPLAIN (GENERIC_PLAN) of WHERE $q: $(echo "$out" | grep -oE "$scan_re" | head -1), $(echo "$out" | grep 'Index Cond' | sed 's/^ *//')"
	else
		echo "$out" | sed 's/^/     /'
		fail "through the pooler, EXPLAIN (GENERIC_PLAN) of WHERE $q"
	fi
done
out=$("${viapool[@]}" 2>&1 <<'SQL'
BEGIN;
PREPARE p(text, timestamptz) AS SELECT id FROM orders WHERE id ^@ $1 AND id >= $2;
EXPLAIN (COSTS OFF) EXECUTE p('5', '2000-01-01+00');
DEALLOCATE p;
COMMIT;
SQL
)
if grep -qE "$scan_re" <<<"$out" && grep -qE 'Index Cond: .*\$1' <<<"$out"; then
	pass "through the pooler, EXPLAIN EXECUTE of a prepared statement (force_generic_plan): $(echo "$out" | grep -oE "$scan_re" | head -1), $(echo "$out" | grep 'Index Cond' | sed 's/^ *//')"
else
	echo "$out" | sed 's/^/     /'
	fail "through the pooler, EXPLAIN EXECUTE of a prepared statement"
fi

# PgBouncer logged no error of a prepared statement
missing=$(grep -hE 'prepared statement .* (does not exist|already exists)' "$work/pg/server.log" "$work/bouncer/pgbouncer.log" || true)
if [ -n "$missing" ]; then
	sed -n 's/^/     /; 1,5p' <<<"$missing"
	fail "a prepared statement missing or prepared twice on a server connection (above)"
else
	pass "no prepared statement missing or prepared twice on a server connection (server and PgBouncer logs)"
fi
finish
