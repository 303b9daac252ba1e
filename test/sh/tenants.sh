#!/usr/bin/env bash
# test/sh/tenants.sh: a server shared by database owners who are not
# superusers, each of whom installed the trusted extension, tried as those
# roles themselves.
#
# - Two owners, alice and bob.  alice, in her databases: the 1.0 extension
#   beside a sequence of her own named xid_durable_mark set to 2106 (not
#   taken for the mark; the update to 1.1 refuses it clearly), and the 1.1
#   extension's own mark set to 2106 and to its maximum with setval(), which
#   she may (refused by xid_new() in her database only).  Then, and after a
#   restart, bob's ids keep the clock's time, xid_new() works for him, and
#   xid_generator_status() shows him his own last id.
# - pg_dump and pg_restore as alice; the restored database makes ids above
#   the restored ones.
# - DDL by carol, who has CREATE but not USAGE on a schema of alice's, and
#   a temporary table named like the table made: no error, the warning for
#   the right table.
# - 96 databases, more than the pool of slots 1.1 had before each database
#   had its own generator state (its max_connections is 8: 8 + backends of
#   its own + 64 spare slots; each database now has its own entry,
#   test/t/060_databases.pl), written by three
#   concurrent writers, while a fourth session drops and creates the
#   extension 100 times in another database; with synchronous_commit off,
#   so that only the mark's own flush can keep an id durable.  In every
#   database: ids increasing for each writer, none twice, never ahead of
#   the clock (no state read again that moves ids ahead).  Then an immediate
#   stop: after it, every database's mark is at or above every id a client
#   received (no id before the record that covers it is flushed), and new
#   ids are above all of them.
#
# Runs its own cluster (the library preloaded, max_connections = 8).
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

# Few backends, so that 96 databases are more than the old pool had slots
# for: MaxBackends (about 10 here) + 64.
small=("max_connections = 8" "superuser_reserved_connections = 0" "max_worker_processes = 0"
	"max_wal_senders = 0" "wal_level = minimal" "autovacuum_max_workers = 1"
	"synchronous_commit = off" "shared_preload_libraries = 'xid'")
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
try() # ROLE DB SQL: the error a statement gives (empty when it succeeds)
{
	{ "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$1" -d "$2" -c "$3" 2>&1 >/dev/null || true; } |
		sed -n 's/^[^:]*ERROR:  //p' | head -1
}
restart() { runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m "$1" -w -t 60 stop >/dev/null && cluster_run "$bindir" "$dir"; }

as postgres postgres <<'SQL'
CREATE ROLE alice LOGIN;
CREATE ROLE bob LOGIN;
CREATE ROLE carol LOGIN;
CREATE DATABASE alice_a OWNER alice;
CREATE DATABASE alice_b OWNER alice;
CREATE DATABASE alice_copy OWNER alice;
CREATE DATABASE bob_db OWNER bob;
SQL

# bob's ids: made now, at the clock
as bob bob_db <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), at timestamptz DEFAULT clock_timestamp(), phase int);
INSERT INTO ids (phase) SELECT 1 FROM generate_series(1, 1000);
SQL
bob_phase() # PHASE: bob makes 1,000 ids; prints "above-all-before ahead-ms dups"
{
	as bob bob_db -F ' ' <<SQL
INSERT INTO ids (phase) SELECT $1 FROM generate_series(1, 1000);
SELECT min(id) FILTER (WHERE phase = $1) > max(id) FILTER (WHERE phase < $1),
       round(max(extract(epoch FROM public.xid_time(id) - at) * 1000) FILTER (WHERE phase = $1))::int,
       count(*) - count(DISTINCT id)
FROM ids;
SQL
}

# 1. alice's own sequence named xid_durable_mark, beside the 1.0 extension
out=$(as alice alice_a -F ' ' <<'SQL'
CREATE SCHEMA s;
CREATE EXTENSION xid VERSION '1.0' SCHEMA s;
CREATE SEQUENCE s.xid_durable_mark;
SELECT setval('s.xid_durable_mark', 3000000000000) IS NOT NULL;
SELECT extract(year FROM s.xid_time(s.xid_new())) = extract(year FROM now());
SQL
)
check "alice: a sequence of hers named xid_durable_mark is not the mark (her ids keep the clock's year)" '[ "$out" = "$(printf "t\nt")" ]'
err=$(try alice alice_a "ALTER EXTENSION xid UPDATE")
check "alice: the update to 1.1 refuses it: $err" '[[ "$err" == "relation \"xid_durable_mark\" already exists in schema \"s\"" ]]'
out=$(as alice alice_a -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'" \
	-c "SELECT count(*) FROM pg_depend WHERE classid = 'pg_class'::regclass AND objid = 's.xid_durable_mark'::regclass AND deptype = 'e'")
check "alice: the extension stays at 1.0 and her sequence is not made a member" '[ "$out" = "$(printf "1.0\n0")" ]'

# 2. the 1.1 extension's own mark, set far ahead by its owner
as alice alice_b -c "CREATE EXTENSION xid" -c "SELECT public.xid_new()" >/dev/null
# (the library reads a mark set by someone else at its next lease: a second)
as alice alice_b -c "SELECT setval('public.xid_durable_mark', 3000000000000)" >/dev/null
sleep 1.2
err=$(try alice alice_b "SELECT public.xid_new()")
check "alice: her mark set to 2106 is refused in her database: $err" '[[ "$err" == "durable mark of xid_new() in database \"alice_b\" is "*" ms ahead of the clock" ]]'
read -r above ahead dups <<<"$(bob_phase 2)"
check "bob: ids above his earlier ones, ${ahead} ms from the clock, none twice" \
	'[ "$above" = t ] && [ "$ahead" -le 0 ] && [ "$ahead" -gt -1000 ] && [ "$dups" = 0 ]'
as alice alice_b -c "SELECT setval('public.xid_durable_mark', 4398046511103)" >/dev/null
sleep 1.2
err=$(try alice alice_b "SELECT public.xid_new()")
check "alice: her mark at its maximum is refused in her database too" '[[ "$err" == "durable mark of xid_new() in database \"alice_b\" is "*" ms ahead of the clock" ]]'
read -r above ahead dups <<<"$(bob_phase 3)"
check "bob: xid_new() works, ${ahead} ms from the clock" '[ "$above" = t ] && [ "$ahead" -le 0 ] && [ "$ahead" -gt -1000 ] && [ "$dups" = 0 ]'
out=$(as bob bob_db -F ' ' <<'SQL'
SELECT public.xid_new() AS made \gset
SELECT last_id = :'made'::public.xid, abs(extract(epoch FROM last_ahead)) < 1, scope FROM public.xid_generator_status();
SQL
)
check "bob: xid_generator_status() shows his own last id ($out)" '[ "$out" = "t t database" ]'
restart fast
read -r above ahead dups <<<"$(bob_phase 4)"
check "bob, after a restart: ids above his earlier ones, ${ahead} ms from the clock" \
	'[ "$above" = t ] && [ "$ahead" -le 1000 ] && [ "$dups" = 0 ]'
out=$(as bob bob_db -c "SELECT extract(epoch FROM mark_ahead) < 2 FROM public.xid_generator_status()")
check "bob: his mark was never moved by alice's (at most a lease ahead)" '[ "$out" = t ]'
err=$(try alice alice_b "SELECT public.xid_new()")
check "alice: still refused after the restart, in her database only" '[[ "$err" == "durable mark of xid_new() in database \"alice_b\" is "*" ms ahead of the clock" ]]'
# she can set it back, as its owner
out=$(as alice alice_b -c "SELECT setval('public.xid_durable_mark', 0) >= 0" -c "SELECT public.xid_time(public.xid_new()) <= clock_timestamp() + interval '2 s'")
check "alice: her mark set back by her, her database makes ids again" '[ "$out" = "$(printf "t\nt")" ]'

# 3. pg_dump and pg_restore as alice, owner of the database
as alice alice_b <<'SQL'
CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT public.xid_new(), n int);
INSERT INTO orders (n) SELECT g FROM generate_series(1, 5000) AS g;
SQL
"$bindir/pg_dump" -U alice -Fc -f "$work/alice_b.dump" alice_b
check "alice: pg_dump of her database as herself" '[ -s "$work/alice_b.dump" ]'
"$bindir/pg_restore" -U alice --exit-on-error -d alice_copy "$work/alice_b.dump"
out=$(as alice alice_copy -F ' ' -c "SELECT count(*), public.xid_new() > max(id) FROM orders")
check "alice: pg_restore as herself; new ids above the 5000 restored ones" '[ "$out" = "5000 t" ]'
out=$(as alice alice_copy -c "SELECT '2011-11-11 11:11:11.111+00'::timestamptz + (SELECT last_value FROM public.xid_durable_mark) * interval '1 ms' >= (SELECT max(public.xid_time(id)) FROM orders)")
check "alice: the restored mark covers the restored ids" '[ "$out" = t ]'
"$bindir/pg_dump" -U alice -Fp -f "$work/alice_b.sql" alice_b
check "alice: the dump holds the mark's value and no GRANT to repeat" \
	'grep -q "setval('"'"'public.xid_durable_mark'"'"'" "$work/alice_b.sql" && ! grep -q "GRANT.*xid_durable_mark" "$work/alice_b.sql"'

# 4. DDL by carol: CREATE on alice's schema without USAGE; a temporary
# table named like the table she makes
as alice alice_b -c "CREATE SCHEMA shop" -c "GRANT CREATE ON SCHEMA shop TO carol" \
	-c "CREATE SCHEMA shared" -c "GRANT USAGE, CREATE ON SCHEMA shared TO carol"
out=$(as carol alice_b -c "CREATE TABLE shop.t1 (a int)" -c "CREATE TABLE shop.t2 AS SELECT 1 AS a" \
	-c "CREATE TABLE shop.t3 (id xid)" -c "SELECT 'ok'" 2>&1 | grep -v -e '^DETAIL' -e '^HINT' | tr '\n' ' ')
check "carol: CREATE TABLE (AS) in a schema she may create in but not use, warned for core's xid" \
	'[ "$out" = "WARNING:  column \"id\" of table \"t3\" has type pg_catalog.xid ok " ]'
warnings() { as carol alice_b -c "SET search_path = shared" -c "$1" -c "$2" 2>&1 | grep -c '^WARNING' || true; }
n3=$(warnings "CREATE TEMP TABLE t4 (id xid)" "CREATE TABLE t4 (id int)")
n4=$(warnings "CREATE TEMP TABLE t5 (id int)" "CREATE TABLE t5 (id xid)")
check "carol: the table made is checked, not a temporary table of its name ($n3 and $n4 warnings, one for each core-xid table)" \
	'[ "$n3" = 1 ] && [ "$n4" = 1 ]'

# 5. 96 databases, three writers, 100 CREATE/DROP EXTENSION cycles
as postgres postgres -c "CREATE DATABASE many_tpl" >/dev/null
as postgres many_tpl <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid NOT NULL, at timestamptz NOT NULL, w int NOT NULL, seq int NOT NULL);
SQL
ndb=96
for i in $(seq 1 $ndb); do echo "CREATE DATABASE many_$i TEMPLATE many_tpl;"; done | as postgres postgres
as postgres postgres -c "CREATE DATABASE cycle" >/dev/null
as postgres cycle -c "CREATE TABLE log (n serial PRIMARY KEY, v bigint NOT NULL)" -c "CREATE EXTENSION xid"
# writer W: two passes over the databases, from its own starting point; in
# each, 20 ids stored and 20 returned to it (kept in returned-W.txt)
writer()
{
	local w=$1 pass i db seq=0
	: >"$work/returned-$w.txt"
	for pass in 1 2; do
		for i in $(seq 0 $((ndb - 1))); do
			db=many_$(((i + w * 32) % ndb + 1))
			seq=$((seq + 1))
			as postgres "$db" -c "INSERT INTO ids SELECT public.xid_new(), clock_timestamp(), $w, $seq * 100 + g FROM generate_series(1, 20) AS g" \
				-c "SELECT '$db', public.xid_new(), $w, $seq * 100 + 50 + g FROM generate_series(1, 20) AS g" -F ' ' \
				>>"$work/returned-$w.txt"
		done
	done
}
start=$(date +%s)
pids=()
for w in 1 2 3; do
	writer $w &
	pids+=($!)
done
cycles=0
for c in $(seq 1 100); do
	as postgres cycle -c "DROP EXTENSION xid CASCADE" -c "CREATE EXTENSION xid" \
		-c "INSERT INTO log (v) SELECT public.xid_new()::bigint FROM generate_series(1, 5)"
	cycles=$c
done
for p in "${pids[@]}"; do wait "$p"; done
took=$(($(date +%s) - start))
out=$(as postgres cycle -F ' ' -c "SELECT count(*), count(*) FILTER (WHERE v <= prev), count(*) - count(DISTINCT v) FROM (SELECT v, lag(v) OVER (ORDER BY n) AS prev FROM log) s")
read -r n back dups <<<"$out"
check "$cycles DROP/CREATE EXTENSION cycles: $n ids in the cycled database, increasing across them, none twice" \
	'[ "$n" = 500 ] && [ "$back" = 0 ] && [ "$dups" = 0 ]'
# every database: each writer's ids increasing, none twice, none ahead of
# the clock read after them; the largest id of each database
cat "$work"/returned-[123].txt >"$work/returned.txt"
: >"$work/max.txt"
bad=""
for i in $(seq 1 $ndb); do
	r=$(as postgres "many_$i" -F ' ' <<SQL
CREATE TEMP TABLE r (db text, id public.xid, w int, seq int);
\copy r FROM PROGRAM 'grep "^many_$i " $work/returned.txt' (DELIMITER ' ')
WITH a AS (SELECT id, w, seq FROM ids UNION ALL SELECT id, w, seq FROM r)
SELECT count(*), count(*) - count(DISTINCT id),
       (SELECT count(*) FROM (SELECT id, lag(id) OVER (PARTITION BY w ORDER BY seq) AS prev FROM a) s WHERE id <= prev),
       (SELECT count(*) FROM ids WHERE public.xid_time(id) > at),
       max(id)
FROM a;
SQL
)
	read -r n dups back ahead top <<<"$r"
	[ "$n" = 240 ] && [ "$dups" = 0 ] && [ "$back" = 0 ] && [ "$ahead" = 0 ] || bad+=" many_$i($r)"
	echo "many_$i $top" >>"$work/max.txt"
done
check "$ndb databases, 3 writers, ${took} s with the cycles: in each, 240 ids increasing for each writer, none twice, none ahead of the clock$bad" '[ -z "$bad" ]'

# an immediate stop, with synchronous_commit off: every id a client
# received is at or below its database's mark after recovery, and new ids
# are above every id before
restart immediate
bad=""
while read -r db top; do
	r=$(as postgres "$db" -F ' ' -c "SELECT public.xid_time('$top') <= '2011-11-11 11:11:11.111+00'::timestamptz + last_value * interval '1 ms', public.xid_new() > '$top' FROM public.xid_durable_mark")
	[ "$r" = "t t" ] || bad+=" $db($r)"
done <"$work/max.txt"
check "after an immediate stop: each database's mark covers every id received, and new ids are above them$bad" '[ -z "$bad" ]'
