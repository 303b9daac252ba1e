#!/usr/bin/env bash
# test/sh/move.sh: the online move of a table's key to xid (xid_move_*),
# run by the database owner (not a superuser) while 8 pgbench writers
# insert, update and delete, with an immediate stop in the middle of the
# backfill and in the middle of the swap, each followed by a resumed move.
#
# Afterwards: the rows nobody wrote are unchanged (checksums), the writers'
# committed work is all there and nothing else (a ledger they write in the
# same transactions), every foreign key is valid, the ids are unique, each
# the one xid_from_key() gives, and in time order.  Prints the writers'
# latency distribution: its maximum bounds the longest lock wait.
# What the move refuses (no primary key, a composite key, a referencing
# table of another owner) fails with its SQLSTATE and changes nothing;
# abort before and after the swap puts everything back, and is refused once
# the finish began.
#
# Runs its own cluster (it is stopped with -m immediate twice).
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
bindir=$XID_BINDIR
work=$XID_WORK
dir="$work/cluster"
rm -rf "$work"
mkdir -p "$work"
chmod 777 "$work"
bgpids=()
cleanup()
{
	local p
	for p in "${bgpids[@]}"; do kill "$p" 2>/dev/null || true; done
	cluster_stop "$bindir" "$dir"
}
trap cleanup EXIT

[ -x "$bindir/pgbench" ] || { echo "no pgbench in $bindir"; exit 77; }

port=$(free_port)
cluster_start "$bindir" "$dir" "$port" "shared_preload_libraries = 'xid'" \
	"max_connections = 40" "log_lock_waits = on" "deadlock_timeout = '100ms'"
export PGHOST="$dir/sock" PGPORT=$port
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
start_server()
{
	runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 120 start >/dev/null ||
		{ echo "restart failed"; tail -20 "$dir/server.log"; exit 1; }
}
crash()
{
	runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
}
fail() { echo "FAIL $*"; exit 1; }
check() # check LABEL SQL: SQL must print t
{
	local got
	got=$(psql -At -c "$2")
	[ "$got" = t ] || fail "$1 (got: $got)"
	echo "ok   $1"
}

# to_swap TABLE [START_ARGS]: a move of TABLE from its start to its swap
to_swap()
{
	psql 2>/dev/null <<SQL
CALL public.xid_move_start('$1'${2:+, $2});
CALL public.xid_move_backfill('$1');
SELECT * FROM public.xid_move_index_commands('$1') \\gexec
CALL public.xid_move_validate('$1');
CALL public.xid_move_swap('$1');
SQL
}

psql -U postgres -d postgres -c "CREATE ROLE mover LOGIN" -c "CREATE DATABASE movedb OWNER mover"
export PGUSER=mover PGDATABASE=movedb

psql <<'SQL'
CREATE EXTENSION xid;
CREATE EXTENSION xid_move;
-- the parent, in a schema and with a name that need quoting
CREATE SCHEMA "Shop";
CREATE TABLE "Shop"."Order Items" (
	id bigserial PRIMARY KEY,
	created_at timestamptz NOT NULL DEFAULT now(),
	n bigint NOT NULL,
	v bigint NOT NULL DEFAULT 0);
CREATE INDEX ON "Shop"."Order Items" (n);
-- 50 rows per millisecond: many rows share a time, as rows of one
-- transaction share now()
INSERT INTO "Shop"."Order Items" (created_at, n)
SELECT '2026-01-01+00'::timestamptz + (g / 50) * interval '1 ms', g FROM generate_series(1, 20000) g;
-- two children in another schema; one is partitioned
CREATE TABLE public.notes (
	nid bigserial PRIMARY KEY,
	item_id bigint NOT NULL REFERENCES "Shop"."Order Items" ON DELETE CASCADE,
	n bigint NOT NULL);
CREATE INDEX ON public.notes (item_id);
CREATE INDEX ON public.notes (n);
INSERT INTO public.notes (item_id, n) SELECT 1 + (g * 7) % 20000, g FROM generate_series(1, 10000) g;
CREATE TABLE public.events (
	eid bigint NOT NULL,
	at date NOT NULL,
	item_id bigint REFERENCES "Shop"."Order Items",
	n bigint) PARTITION BY RANGE (at);
CREATE TABLE public.events_1 PARTITION OF public.events FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE public.events_2 PARTITION OF public.events FOR VALUES FROM ('2026-07-01') TO ('2100-01-01');
CREATE INDEX ON public.events (item_id);
INSERT INTO public.events
SELECT g, '2026-01-01'::date + g % 360, CASE WHEN g % 10 = 0 THEN NULL ELSE 1 + (g * 13) % 20000 END, g
FROM generate_series(1, 10000) g;
-- the writers' ledger: what they committed, written in the same transactions
CREATE TABLE public.wlog (n bigint);
CREATE TABLE public.wupd (n bigint);
CREATE TABLE public.wdel (n bigint);
ANALYZE "Shop"."Order Items", public.notes, public.events;
-- the contents no writer touches (n <= 20000), as they are now
CREATE TABLE public.before AS
SELECT (SELECT md5(string_agg(format('%s|%s|%s|%s', id, created_at, n, v), ',' ORDER BY id))
        FROM "Shop"."Order Items" WHERE n <= 20000) AS parent,
       (SELECT md5(string_agg(format('%s|%s|%s', nid, item_id, n), ',' ORDER BY nid))
        FROM public.notes WHERE n <= 10000) AS notes,
       (SELECT md5(string_agg(format('%s|%s|%s|%s', eid, at, item_id, n), ',' ORDER BY eid))
        FROM public.events WHERE n <= 10000) AS events;
SQL

# The writers: a new parent with a note and an event, an update of a
# parent row and a delete of a note, all of rows the writers made; the same
# SQL works before and after the swap (no key type is written).
cat >"$work/writer.sql" <<'SQL'
\set r random(1000001, 2000000000)
\set u random(1000001, 2000000000)
BEGIN;
INSERT INTO "Shop"."Order Items" (n) VALUES (:r);
INSERT INTO public.notes (item_id, n) SELECT id, :r FROM "Shop"."Order Items" WHERE n = :r LIMIT 1;
INSERT INTO public.events (eid, at, item_id, n) SELECT :r, '2026-11-25', id, :r FROM "Shop"."Order Items" WHERE n = :r LIMIT 1;
INSERT INTO public.wlog VALUES (:r);
WITH u AS (UPDATE "Shop"."Order Items" SET v = v + 1
           WHERE n = (SELECT max(n) FROM public.wlog WHERE n < :u) RETURNING n)
INSERT INTO public.wupd SELECT n FROM u;
WITH d AS (DELETE FROM public.notes WHERE n = (SELECT min(n) FROM public.wlog WHERE n > :u) RETURNING n)
INSERT INTO public.wdel SELECT n FROM d;
COMMIT;
SQL
psql -c "CREATE INDEX ON public.wlog (n)"

# writers SECONDS TAG: 8 clients in the background, each transaction's
# latency logged
writers()
{
	(cd "$work" && "$bindir/pgbench" -n -c 8 -j 4 -T "$1" -f writer.sql -l --log-prefix="lat_$2" \
		>"$work/pgbench_$2.out" 2>&1) &
	bgpids+=($!)
}
# writers_from TAG: the same 8 clients from now until writers_until TAG,
# whatever the steps between take: pgbench runs for a set time, so one run
# of 2 s follows another (the gap is their connecting); a run that ends
# with a failed client is noted
writers_from()
{
	rm -f "$work/stop_$1" "$work/failed_$1"
	(
		k=0
		while [ ! -e "$work/stop_$1" ]; do
			k=$((k + 1))
			(cd "$work" && "$bindir/pgbench" -n -c 8 -j 4 -T 2 -f writer.sql -l --log-prefix="lat_$1_$k" \
				>"$work/pgbench_$1_$k.out" 2>&1) || echo "pgbench_$1_$k.out" >>"$work/failed_$1"
		done
	) &
	writers_pid=$!
	bgpids+=($!)
	sleep 1
}
writers_until()
{
	touch "$work/stop_$1"
	wait "$writers_pid"
	bgpids=()
	if [ -s "$work/failed_$1" ]; then
		cat "$work/$(head -1 "$work/failed_$1")"
		fail "a writer failed in phase $1 ($(wc -l <"$work/failed_$1") of $(ls "$work"/pgbench_"$1"_*.out | wc -l) runs)"
	fi
}
# stamp STEP: when each step of phases 2 and 4 began, for the latencies
stamp() { echo "$(date +%s.%N) $1" >>"$work/steps.txt"; }
T='"Shop"."Order Items"'

# the dry run prints the plan and changes nothing
psql -c "CALL xid_move_start('$T', time_column => 'created_at', dry_run => true)" 2>"$work/dry.txt"
grep -q 'No two existing rows would share an id' "$work/dry.txt" || { cat "$work/dry.txt"; fail "dry run"; }
check "the dry run prints the plan and changes nothing" \
	"SELECT NOT EXISTS (SELECT FROM pg_attribute WHERE attname LIKE '%_xid' AND NOT attisdropped AND attrelid IN ('$T'::regclass, 'notes'::regclass, 'events'::regclass))
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)"

# phase 1: start and backfill under writers, killed in the middle
writers 20 1
sleep 1
psql -c "CALL xid_move_start('$T', time_column => 'created_at')" 2>/dev/null
for c in "batch_blocks => 0:batch_blocks must be at least 1" "batch_blocks => NULL:batch_blocks must be at least 1" \
	"batch_time => '-1s':batch_time must not be negative"; do
	err=$(psql -v VERBOSITY=verbose -c "CALL xid_move_backfill('$T', ${c%%:*})" 2>&1 || true)
	grep -q "22023: ${c#*:}" <<<"$err" || fail "xid_move_backfill with ${c%%:*}: $err"
done
(psql -c "CALL xid_move_backfill('$T', batch_blocks => 4, pause => '30ms')" >/dev/null 2>&1 || true) &
bgpids+=($!)
for i in $(seq 1 200); do
	done_blocks=$(psql -At -c "SELECT sum(blocks_done) FROM xid_move_status('$T')")
	[ "$done_blocks" -ge 60 ] && break
	sleep 0.1
done
crash
wait || true
bgpids=()
start_server
check "after a crash in the backfill, its progress is kept" \
	"SELECT sum(blocks_done) BETWEEN 60 AND sum(blocks) - 1 AND bool_and(step = 'started') FROM xid_move_status('$T')"

# phase 2: resume; indexes; validate; writers from before the first step
# to after the last
log2=$(stat -c %s "$dir/server.log")
writers_from 2
stamp backfill
psql -c "CALL xid_move_backfill('$T', batch_blocks => 32)" 2>/dev/null
check "the resumed backfill completes" \
	"SELECT bool_and(blocks_done = blocks AND step = 'backfilled') FROM xid_move_status('$T')"
stamp index-commands
echo "SELECT * FROM xid_move_index_commands('$T') \\gexec" | psql
stamp validate
psql -c "CALL xid_move_validate('$T')" 2>/dev/null
stamp end-of-phase-2
sleep 1
writers_until 2
log2_end=$(stat -c %s "$dir/server.log")

# phase 3: a swap that cannot get its locks, killed while it retries
psql -c "BEGIN; LOCK public.notes IN SHARE MODE; SELECT pg_sleep(30); COMMIT" >/dev/null 2>&1 &
bgpids+=($!)
sleep 0.5
(psql -c "CALL xid_move_swap('$T', lock_timeout => '100ms', retries => 1000)" >/dev/null 2>&1 || true) &
bgpids+=($!)
sleep 1.5
crash
wait || true
bgpids=()
start_server
check "after a crash in the swap, nothing of it is done" \
	"SELECT (SELECT step FROM xid_move_status('$T') LIMIT 1) = 'validated'
	    AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')"

# phase 4: the swap and the finish under writers, from before the first
# step to after the last
log4=$(stat -c %s "$dir/server.log")
writers_from 4
stamp validate-again
psql -c "CALL xid_move_validate('$T')" 2>/dev/null
stamp swap
psql -c "CALL xid_move_swap('$T')" 2>"$work/swap.txt"
stamp after-swap
sleep 1
stamp finish
psql -c "CALL xid_move_finish('$T')" 2>/dev/null
stamp end
sleep 1
writers_until 4

# what the move left
check "the key is an xid, the old key kept with a unique index" \
	"SELECT (SELECT atttypid = 'public.xid'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')
	    AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id_old')
	    AND EXISTS (SELECT FROM pg_constraint WHERE conrelid = '$T'::regclass AND contype = 'u')
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)"
check "every foreign key references the new key and is valid" \
	"SELECT count(*) = 4 AND bool_and(convalidated) AND bool_and(confkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')])
	 FROM pg_constraint WHERE contype = 'f' AND confrelid = '$T'::regclass"
check "the rows no writer touched are unchanged" \
	"SELECT b.parent = (SELECT md5(string_agg(format('%s|%s|%s|%s', id_old, created_at, n, v), ',' ORDER BY id_old)) FROM \"Shop\".\"Order Items\" WHERE n <= 20000)
	    AND b.notes = (SELECT md5(string_agg(format('%s|%s|%s', nid, item_id_old, n), ',' ORDER BY nid)) FROM public.notes WHERE n <= 10000)
	    AND b.events = (SELECT md5(string_agg(format('%s|%s|%s|%s', eid, at, item_id_old, n), ',' ORDER BY eid)) FROM public.events WHERE n <= 10000)
	 FROM public.before b"
check "the writers' committed work is all there, and nothing else" \
	"SELECT (SELECT count(*) FROM \"Shop\".\"Order Items\" WHERE n > 1000000) = (SELECT count(*) FROM public.wlog)
	    AND (SELECT count(*) FROM public.events WHERE n > 1000000) = (SELECT count(*) FROM public.wlog)
	    AND (SELECT count(*) FROM public.notes WHERE n > 1000000) = (SELECT count(*) FROM public.wlog) - (SELECT count(*) FROM public.wdel)
	    AND (SELECT sum(v) FROM \"Shop\".\"Order Items\" WHERE n > 1000000) = (SELECT count(*) FROM public.wupd)
	    AND (SELECT count(*) FROM public.wlog) > 100"
check "each child row references the parent it referenced" \
	"SELECT NOT EXISTS (SELECT FROM public.notes c JOIN \"Shop\".\"Order Items\" p ON p.id = c.item_id WHERE c.item_id_old IS NOT NULL AND c.item_id_old <> p.id_old)
	    AND NOT EXISTS (SELECT FROM public.events c JOIN \"Shop\".\"Order Items\" p ON p.id = c.item_id WHERE c.item_id_old IS NOT NULL AND c.item_id_old <> p.id_old)
	    AND NOT EXISTS (SELECT FROM public.events c WHERE (c.item_id IS NULL) <> (c.item_id_old IS NULL) AND c.n <= 10000)"
check "the ids are unique, and made from each row's time and old key" \
	"SELECT count(DISTINCT id) = count(*) AND count(*) FILTER (WHERE n <= 20000 AND id <> public.xid_from_key(created_at, id_old)) = 0
	 FROM \"Shop\".\"Order Items\""
check "rows in id order are in time order" \
	"SELECT count(*) = 0 FROM (SELECT created_at, lag(created_at) OVER (ORDER BY id) AS prev FROM \"Shop\".\"Order Items\" WHERE n <= 20000) s
	 WHERE date_trunc('milliseconds', prev) > date_trunc('milliseconds', created_at)"

# the writers' latencies (microseconds, third field of pgbench's log) in
# phases 2 and 4, every step of the move but the two cut short by a crash:
# the longest bounds the longest any writer waited on a lock
cat "$work"/lat_[24]_* | awk '{print $3}' | sort -n >"$work/lat.txt"
nlat=$(wc -l <"$work/lat.txt")
pct() { sed -n "$(( ($1 * nlat + 999) / 1000 ))p" "$work/lat.txt"; }
max=$(tail -1 "$work/lat.txt")
# the step that the slowest transaction overlapped
slow=$(cat "$work"/lat_[24]_* | sort -k3,3n | tail -1 | awk '{printf "%.6f %.6f", $5 + $6 / 1e6 - $3 / 1e6, $5 + $6 / 1e6}')
during=$(awk -v s="${slow% *}" -v e="${slow#* }" '$1 <= e { step = $2 } END { print step }' "$work/steps.txt")
echo "writers during the resumed backfill, the indexes, validate, swap and finish: $nlat transactions in $(ls "$work"/pgbench_[24]_*.out | wc -l) runs of 2 s," \
	"latency p50 $(( $(pct 500) / 1000 )) ms, p99 $(( $(pct 990) / 1000 )) ms, p99.9 $(( $(pct 999) / 1000 )) ms, max $((max / 1000)) ms (ended during: ${during:-before the backfill})"
grep -h 'swapped to xid' "$work/swap.txt" | sed 's/^NOTICE: */    /'
# lock waits of 100 ms or more (deadlock_timeout), from log_lock_waits
{
	tail -c +$((log2 + 1)) "$dir/server.log" | head -c $((log2_end - log2))
	tail -c +$((log4 + 1)) "$dir/server.log"
} | grep -E 'acquired [A-Za-z]+ on .* after [0-9.]+ ms' |
	sed -E 's/.* acquired ([A-Za-z]+) on (.*) after ([0-9.]+) ms.*/\3 \1 on \2/' | sort -n >"$work/waits.txt" || true
echo "lock waits of 100 ms or more in those steps: $(wc -l <"$work/waits.txt")$(tail -1 "$work/waits.txt" | awk '{ w = $1; $1 = ""; print ", the longest " w " ms (" substr($0, 2) ")" }')"
# The goal (a lock wait of at most 1 s) is bench/move.sh's to show; here,
# on a CI machine that runs other stages beside this one, a wait of 5 s
# fails
[ "$nlat" -gt 100 ] || fail "the writers made only $nlat transactions"
[ "$max" -lt 5000000 ] || fail "a writer waited $((max / 1000)) ms"
longest=$(tail -1 "$work/waits.txt" | awk '{ printf "%d", $1 }')
[ "${longest:-0}" -lt 5000 ] || fail "a lock wait of ${longest} ms"

# what the move refuses: a clear error, nothing changed
psql <<'SQL'
CREATE TABLE public.nopk (a bigint, t timestamptz);
CREATE TABLE public.comp (a bigint, b bigint, t timestamptz, PRIMARY KEY (a, b));
CREATE TABLE public.owned (id bigint PRIMARY KEY, t timestamptz);
CREATE TABLE public.v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
INSERT INTO public.v4 DEFAULT VALUES;
SQL
psql -U postgres -c "CREATE TABLE public.foreign_child (x bigint REFERENCES public.owned)"
snapshot="SELECT md5(string_agg(format('%s %s %s', attrelid::regclass, attname, atttypid::regtype), ',' ORDER BY 1)) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = 'public'::regnamespace"
s0=$(psql -At -c "$snapshot")
# each with its SQLSTATE (psql's verbose errors: "ERROR:  55000: ...")
for t in "nopk:55000: table [^ ]*nopk cannot be moved to xid" \
	"comp:0A000: table [^ ]*comp cannot be moved to xid" \
	"owned:42501: table [^ ]*owned cannot be moved to xid"; do
	err=$(psql -v VERBOSITY=verbose -c "CALL xid_move_start('public.${t%%:*}', time_column => 't')" 2>&1 || true)
	grep -Eq "${t#*:}" <<<"$err" || fail "xid_move_start on ${t%%:*}: $err"
done
err=$(psql -v VERBOSITY=verbose -c "CALL xid_move_start('public.v4')" 2>&1 || true)
grep -Eq "22023: table [^ ]*v4 cannot be moved to xid" <<<"$err" ||
	fail "xid_move_start on v4 without a time column: $err"
[ "$(psql -At -c "$snapshot")" = "$s0" ] || fail "a refused move changed a table"
echo "ok   a table without a primary key (55000), a composite key (0A000), a referencing table of another owner (42501), random uuids without a time (22023): refused, nothing changed"
# every step, and the procedures the steps call, on a table with no move
for c in "xid_move_backfill('public.owned')" "xid_move_validate('public.owned')" "xid_move_swap('public.owned')" \
	"xid_move_finish('public.owned')" "xid_move_abort('public.owned')" "xid_move_abort(NULL)" \
	"xid_move_swap_back('public.owned', '1s', 1)" "xid_move_fk_validate('public.owned', '1s', 1)" \
	"xid_move_not_null_checks('public.owned', true, '1s', 1)"; do
	err=$(psql -v VERBOSITY=verbose -c "CALL public.$c" 2>&1 || true)
	grep -Eq "55000: no move of table [^ ]+ is under way" <<<"$err" || fail "$c without a move: $err"
done
echo "ok   each step and each procedure they call, on a table with no move: 55000"

# a uuid key: a uuidv7 keeps its own time (no time column); abort undoes a
# move before its swap, and after it
psql <<'SQL'
CREATE TABLE public.u7 (id uuid PRIMARY KEY, note text);
INSERT INTO public.u7 SELECT x::uuid, x::text FROM (SELECT public.xid_new() AS x FROM generate_series(1, 500)) g;
CREATE TABLE public.u7c (u uuid REFERENCES public.u7);
INSERT INTO public.u7c SELECT id FROM public.u7;
CREATE TABLE public.u7p (u uuid NOT NULL REFERENCES public.u7 ON DELETE CASCADE, k int NOT NULL) PARTITION BY RANGE (k);
CREATE TABLE public.u7p_1 PARTITION OF public.u7p FOR VALUES FROM (0) TO (100);
CREATE TABLE public.u7p_2 PARTITION OF public.u7p FOR VALUES FROM (100) TO (1000);
INSERT INTO public.u7p SELECT id, row_number() OVER () % 200 FROM public.u7;
CREATE TABLE public.u7_shape AS
SELECT a.attrelid::regclass::text AS rel, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass, 'public.u7p_1'::regclass)
  AND a.attnum > 0 AND NOT a.attisdropped;
CALL public.xid_move_start('public.u7');
CALL public.xid_move_backfill('public.u7');
CALL public.xid_move_abort('public.u7');
SQL
check "abort leaves the tables as they were" \
	"SELECT NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid IN ('u7'::regclass, 'u7c'::regclass) AND attname LIKE '%xid%' AND NOT attisdropped)
	    AND NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid IN ('u7'::regclass, 'u7c'::regclass) AND NOT tgisinternal)
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)"
# the whole way to the swap, then rows written with xid keys, then abort
to_swap public.u7
psql <<'SQL' 2>/dev/null
INSERT INTO public.u7 (id, note) SELECT x, x::text FROM (SELECT public.xid_new() AS x FROM generate_series(1, 20)) g;
INSERT INTO public.u7c (u) SELECT id FROM public.u7 ORDER BY id DESC LIMIT 20;
INSERT INTO public.u7p (u, k) SELECT id, 150 FROM public.u7 ORDER BY id DESC LIMIT 20;
SQL
err=$(psql -v VERBOSITY=verbose -c "CALL public.xid_move_abort('public.u7')" 2>&1) || fail "xid_move_abort after the swap: $err"
grep -q "swapped back to its old key" <<<"$err" || fail "xid_move_abort after the swap said: $err"
check "abort after the swap: the uuid key, its foreign keys (valid, on a partitioned table too) and every column as before" \
	"SELECT (SELECT count(*) FROM public.u7) = 520
	    AND (SELECT count(*) FROM public.u7c) = 520 AND (SELECT count(*) FROM public.u7p) = 520
	    AND (SELECT bool_and(public.xid_from_uuidv7(id)::text = note) FROM public.u7)
	    AND NOT EXISTS (SELECT rel, attname, type, attnotnull FROM public.u7_shape
	                    EXCEPT SELECT a.attrelid::regclass::text, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
	                    FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass, 'public.u7p_1'::regclass)
	                      AND a.attnum > 0 AND NOT a.attisdropped)
	    AND (SELECT count(*) FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass) AND a.attnum > 0 AND NOT a.attisdropped) = 5
	    AND (SELECT conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = 'public.u7'::regclass AND attname = 'id')]
	         FROM pg_constraint WHERE conrelid = 'public.u7'::regclass AND contype = 'p' AND conname = 'u7_pkey')
	    AND (SELECT count(*) = 4 AND bool_and(convalidated) FROM pg_constraint WHERE confrelid = 'public.u7'::regclass AND contype = 'f')
	    AND (SELECT count(*) FROM pg_constraint WHERE conrelid = 'public.u7p'::regclass AND contype = 'f' AND confdeltype = 'c') = 1
	    AND NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid IN ('u7'::regclass, 'u7c'::regclass, 'u7p'::regclass, 'u7p_1'::regclass) AND NOT tgisinternal)
	    AND NOT EXISTS (SELECT FROM pg_proc WHERE proname LIKE 'u7%xm%')
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)"
# a second move of the same tables goes through
to_swap public.u7
psql -c "CALL public.xid_move_finish('public.u7', drop_old => true)" 2>/dev/null
check "a uuidv7 key becomes the id it stands for" \
	"SELECT count(*) = 520 AND bool_and(p.id::text = p.note)
	 FROM public.u7 p JOIN public.u7c c ON c.u = p.id"
err=$(psql -v VERBOSITY=verbose -c "CALL public.xid_move_abort('public.u7')" 2>&1 || true)
grep -Eq "55000: no move of table [^ ]*u7 is under way" <<<"$err" || fail "xid_move_abort after the finish: $err"

# a bigint key without a default: rows written after the swap have no old
# key, and abort says so and changes nothing until they have one
psql <<'SQL' 2>/dev/null
CREATE TABLE public.nd (id bigint PRIMARY KEY, t timestamptz NOT NULL);
INSERT INTO public.nd SELECT g, '2025-01-01+00'::timestamptz + g * interval '1 s' FROM generate_series(1, 100) g;
SQL
to_swap public.nd "time_column => 't'"
psql -c "INSERT INTO public.nd (t) VALUES (now())"
err=$(psql -v VERBOSITY=verbose -c "CALL public.xid_move_abort('public.nd')" 2>&1 || true)
grep -Eq "55000: 1 rows of table [^ ]*nd have no old key" <<<"$err" || fail "xid_move_abort with a row without an old key: $err"
check "a refused abort after the swap changes nothing" \
	"SELECT (SELECT step FROM public.xid_move_status('public.nd') LIMIT 1) = 'swapped'
	    AND (SELECT atttypid = 'public.xid'::regtype FROM pg_attribute WHERE attrelid = 'public.nd'::regclass AND attname = 'id')"
psql -c "UPDATE public.nd SET id_old = 101 WHERE id_old IS NULL" -c "CALL public.xid_move_abort('public.nd')" 2>/dev/null
check "given its old key, the row is kept by the abort" \
	"SELECT count(*) = 101 AND max(id) = 101 AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = 'public.nd'::regclass AND attname = 'id')
	 FROM public.nd"
# past the finish's first step, abort refuses
to_swap public.nd "time_column => 't'"
psql -c "SELECT public.xid_move_state('public.nd', 'set_step', ARRAY['finishing'])"
err=$(psql -v VERBOSITY=verbose -c "CALL public.xid_move_abort('public.nd')" 2>&1 || true)
grep -Eq "55000: the move of table [^ ]*nd is finishing" <<<"$err" || fail "xid_move_abort while finishing: $err"
psql -c "CALL public.xid_move_finish('public.nd')" 2>/dev/null
echo "ok   abort after the swap refuses rows without an old key (55000) and a move that is finishing (55000)"

# a random (v4) uuid key with a column of each row's time, the old key kept
psql <<'SQL' 2>/dev/null
CREATE TABLE public.u4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), t timestamptz NOT NULL);
-- one row a millisecond: rows of one millisecond would share 42 bits and
-- keep 22 random bits of their uuid, and collide once in about 7,000 runs
INSERT INTO public.u4 (t) SELECT '2025-06-01+00'::timestamptz + g * interval '1 ms' FROM generate_series(1, 600) g;
CREATE TABLE public.u4c (u uuid REFERENCES public.u4);
INSERT INTO public.u4c SELECT id FROM public.u4;
CREATE TEMP TABLE u4_before AS SELECT id, t FROM public.u4;
CALL public.xid_move_start('public.u4', time_column => 't');
CALL public.xid_move_backfill('public.u4');
SELECT * FROM public.xid_move_index_commands('public.u4') \gexec
CALL public.xid_move_validate('public.u4');
CALL public.xid_move_swap('public.u4');
CALL public.xid_move_finish('public.u4');
SQL
check "a v4 uuid key with a time column: each id from its time and old key, the old key kept" \
	"SELECT count(*) = 600 AND count(DISTINCT p.id) = 600
	        AND bool_and(p.id = public.xid_from_key(p.t, p.id_old))
	        AND (SELECT count(*) FROM public.u4 p2 JOIN public.u4c c ON c.u = p2.id) = 600
	        AND (SELECT atttypid FROM pg_attribute WHERE attrelid = 'public.u4'::regclass AND attname = 'id') = 'public.xid'::regtype
	 FROM public.u4 p"
