#!/usr/bin/env bash
# bench/move.sh [ROWS]: the online move of test/t/200_move.pl at 2,000,000
# rows (or ROWS), on the installed extension, against the offline rewrite.
#
# One throwaway server (library preloaded, fsync on, as users run it): a
# parent of ROWS rows (50 per millisecond, a bigserial key) referenced by
# notes (ROWS/2 rows) and a partitioned events table (ROWS/2 rows), run by
# its owner (no superuser).  It measures, with 8 pgbench writers inserting,
# updating and deleting (the test's script, copied below: keep the two alike):
#   - the writers' throughput alone (20 s), then during the whole move;
#   - the writers' latency during the move: p50, p99, p99.9, max (the max
#     bounds the longest lock wait);
#   - the time of each step and of the whole move;
#   - the offline rewrite of a copy of the tables, which blocks
#     everything while it runs:
#       ALTER TABLE ... ALTER COLUMN id TYPE public.xid
#         USING public.xid_from_key(created_at, id)
#   - the online move of another copy with no writers: its own cost, apart
#     from the cores it shares with the writers above;
#   - for each move and the rewrite, the WAL written, and for each move the
#     database's size before, at its peak (sampled every 2 s) and after:
#     what a user needs free on disk and in WAL archive to move a table.
# Usage: PG_BIN=/usr/lib/postgresql/15/bin bench/move.sh [ROWS]; needs root
# (the server runs as postgres).  BENCH_PORT picks the first port tried;
# BENCH_MOVE_ALONE=0 leaves out the move with no writers.
# BENCH_BACKFILL_ARGS adds arguments to the backfill's call (for example
# "pause => '200ms'", to see what a slower backfill leaves the writers).
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/cluster.sh
rows=${1:-2000000}
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
work=$(mktemp -d /tmp/xid-move-bench.XXXXXX)
chmod 777 "$work"
# On exit: the disk sampler below (once it runs), then the server.
# BENCH_KEEP_LOG=FILE keeps the server's log (lock waits name the process
# holding the lock; the move's sessions connect as application xid-move)
spid=""
trap '[ -z "$spid" ] || kill "$spid" 2>/dev/null; cluster_stop "$bin" "$work/c"; [ -z "${BENCH_KEEP_LOG:-}" ] || cp "$work/c/server.log" "$BENCH_KEEP_LOG"; rm -rf "$work"' EXIT

port=$(free_port "${BENCH_PORT:-55950}")
cluster_start "$bin" "$work/c" "$port" "shared_preload_libraries = 'xid'" "fsync = on" \
	"max_wal_size = 4GB" "checkpoint_timeout = 30min" \
	"log_lock_waits = on" "deadlock_timeout = '100ms'" "log_connections = on"
export PGHOST="$work/c/sock" PGPORT=$port
psql() { "$bin/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
now() { date +%s.%N; }
since() { awk -v a="$(now)" -v b="$1" 'BEGIN { printf "%.3f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

psql -U postgres -d postgres -c "CREATE ROLE mover LOGIN" -c "CREATE DATABASE movedb OWNER mover"
export PGUSER=mover PGDATABASE=movedb

t0=$(now)
psql -v rows="$rows" <<'SQL'
CREATE EXTENSION xid;
CREATE EXTENSION xid_move;
CREATE TABLE items (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(),
	n bigint NOT NULL, v bigint NOT NULL DEFAULT 0);
INSERT INTO items (created_at, n)
SELECT '2026-01-01+00'::timestamptz + (g / 50) * interval '1 ms', g FROM generate_series(1, :rows) g;
CREATE INDEX ON items (n);
CREATE TABLE notes (nid bigserial PRIMARY KEY, item_id bigint NOT NULL REFERENCES items ON DELETE CASCADE, n bigint NOT NULL);
INSERT INTO notes (item_id, n) SELECT 1 + (g * 7) % :rows, g FROM generate_series(1, :rows / 2) g;
CREATE INDEX ON notes (item_id);
CREATE INDEX ON notes (n);
CREATE TABLE events (eid bigint NOT NULL, at date NOT NULL, item_id bigint REFERENCES items, n bigint) PARTITION BY RANGE (at);
CREATE TABLE events_1 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE events_2 PARTITION OF events FOR VALUES FROM ('2026-07-01') TO ('2100-01-01');
INSERT INTO events SELECT g, '2026-01-01'::date + g % 360, CASE WHEN g % 10 = 0 THEN NULL ELSE 1 + (g * 13) % :rows END, g
FROM generate_series(1, :rows / 2) g;
CREATE INDEX ON events (item_id);
CREATE TABLE wlog (n bigint);
CREATE INDEX ON wlog (n);
CREATE TABLE wupd (n bigint);
CREATE TABLE wdel (n bigint);
VACUUM ANALYZE items, notes, events, wlog;
SQL
psql -U postgres -c CHECKPOINT
echo "setup: $rows parent rows, $((rows / 2)) notes, $((rows / 2)) events in $(since "$t0") s"

# the writers of test/t/200_move.pl, a copy of its script, on these tables
sed -e 's/"Shop"."Order Items"/items/g' -e 's/public\.//g' >"$work/writer.sql" <<'SQL'
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

# writers SECONDS|0 TAG: 8 clients; 0 = until $work/stop exists
writers()
{
	local dur=$1
	[ "$dur" = 0 ] && dur=3600
	(cd "$work" && exec "$bin/pgbench" -n -c 8 -j 4 -T "$dur" -f writer.sql -l --log-prefix="lat_$2" \
		>"$work/pgbench_$2.out" 2>&1) &
	pid=$!
}
# the writers' transactions (complete log lines) that ended between FROM
# and TO (epoch seconds; default: all): end time and latency in ms
window() # TAG [FROM TO]
{
	cat "$work"/lat_"$1".* | awk -v a="${2:-0}" -v b="${3:-1e12}" \
		'NF == 6 && $3 ~ /^[0-9]+$/ { t = $5 + $6 / 1e6; if (t >= a && t <= b) printf "%.6f %.3f\n", t, $3 / 1000 }'
}
latencies() # TAG [FROM TO]: the distribution of the latencies
{
	window "$@" | awk '{ print $2 }' | sort -n >"$work/sorted_$1.txt"
	awk '{ a[NR] = $1 } END { printf "%d transactions, p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms\n",
		NR, a[int(NR * 0.5)], a[int(NR * 0.99)], a[int(NR * 0.999)], a[NR] }' "$work/sorted_$1.txt"
}
# transactions per second: the count over the span of their ends
tps() { window "$@" | awk '{ if (!n++ || $1 < lo) lo = $1; if ($1 > hi) hi = $1 } END { printf "%.0f", n / (hi - lo) }'; }

# the writers alone
writers 20 alone
wait "$pid"
echo "writers alone (20 s): $(tps alone) tps; $(latencies alone)"

# the writers during the whole move; pgbench's -T must be known in advance,
# so it runs long and is stopped after the finish (its log gives the numbers)
log0=$(stat -c %s "$work/c/server.log")
writers 0 move
sleep 2
step()
{
	local t
	t=$(now)
	echo "$t $1" >>"$work/steps.txt"
	PGAPPNAME=xid-move psql -c "$2" 2>>"$work/move.log" || { tail -20 "$work/move.log"; kill -TERM "$pid"; exit 1; }
	echo "  $1: $(since "$t") s"
}
# move TABLE: every step of the move of TABLE, each timed; sets moved to
# the whole move's time
move()
{
	local t t0
	t0=$(now)
	step start "CALL xid_move_start('$1', time_column => 'created_at')"
	step backfill "CALL xid_move_backfill('$1', batch_blocks => 256${BENCH_BACKFILL_ARGS:+, $BENCH_BACKFILL_ARGS})"
	t=$(now)
	echo "$t index-commands" >>"$work/steps.txt"
	echo "SELECT * FROM xid_move_index_commands('$1') \\gexec" | psql 2>>"$work/move.log"
	echo "  index commands: $(since "$t") s"
	step validate "CALL xid_move_validate('$1')"
	step swap "CALL xid_move_swap('$1')"
	step finish "CALL xid_move_finish('$1')"
	moved=$(since "$t0")
	echo "$(now) after" >>"$work/steps.txt"
	echo "  whole move: $moved s"
}
# disk: the database's size every 2 s while the moves run (the peak is
# what a user must have free); WAL: what each move and the rewrite write
dbsize() { psql -At -c "SELECT pg_database_size(current_database())"; }
sampler() { while :; do dbsize >>"$work/sizes.txt" 2>/dev/null; sleep 2; done; }
walpos() { psql -At -c "SELECT pg_current_wal_insert_lsn()"; }
walsince() { psql -At -c "SELECT round(pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '$1') / 1048576.0)"; }
mb() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }
# peak SINCE_LINE: the largest size sampled from that line of sizes.txt on
peak() { tail -n +"$1" "$work/sizes.txt" | sort -n | tail -1; }
: >"$work/sizes.txt"
sampler &
spid=$!
before=$(dbsize)
wal0=$(walpos)
echo "the move, under the writers:"
move items
total=$moved
echo "  WAL written during the move (the writers' too): $(walsince "$wal0") MB"
p=$(peak 1)
echo "  database size: $(mb "$before") MB before, $(mb "$p") MB at the peak (sampled every 2 s: $(mb $((p - before))) MB more), $(mb "$(dbsize)") MB after the finish"
sleep 2
kill -TERM "$pid"
wait "$pid" || true
mfrom=$(head -1 "$work/steps.txt" | cut -d' ' -f1)
mto=$(tail -1 "$work/steps.txt" | cut -d' ' -f1)
echo "writers during the move: $(tps move "$mfrom" "$mto") tps (alone: $(tps alone)); $(latencies move "$mfrom" "$mto")"
# lock waits of 100 ms or more (deadlock_timeout), from log_lock_waits:
# the writers' (the move's own waits end in its lock_timeout)
tail -c +$((log0 + 1)) "$work/c/server.log" | grep -E 'acquired [A-Za-z]+Lock on .* after [0-9.]+ ms' |
	sed -E 's/.* acquired ([A-Za-z]+) on (.*) after ([0-9.]+) ms.*/\3 \1 on \2/' | sort -n >"$work/waits.txt" || true
echo "  lock waits of 100 ms or more during the move: $(wc -l <"$work/waits.txt"), the longest: $(tail -1 "$work/waits.txt" | awk '{ w = $1; $1 = ""; print w " ms (" substr($0, 2) ")" }')"
grep -h 'swapped to xid' "$work/move.log" | sed 's/^NOTICE: */  /'
# the slowest writer transaction of each step
for st in start backfill index-commands validate swap finish; do
	from=$(awk -v s=$st '$2 == s { print $1 }' "$work/steps.txt")
	to=$(awk -v s=$st 'f { print $1; exit } $2 == s { f = 1 }' "$work/steps.txt")
	window move "$from" "$to" | awk -v st=$st '{ n++; if ($2 > m) m = $2 }
		END { printf "    during %s: %d transactions ended, the slowest %.1f ms\n", st, n, m }'
done
psql -At -c "SELECT 'check: ' || count(*) || ' parent rows, ' || count(DISTINCT id) || ' distinct ids, ' ||
	(SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND confrelid = 'items'::regclass AND convalidated) || ' valid foreign keys'
	FROM items"

# the offline rewrite of the same tables, on copies (no writers: it blocks
# them): the children through a lookup of their parent's time, then the
# parent, then the foreign keys again, in one transaction
psql -U postgres -c CHECKPOINT
psql 2>/dev/null <<SQL
CREATE TABLE items_c AS SELECT id_old AS id, created_at, n, v FROM items WHERE n <= $rows;
ALTER TABLE items_c ADD PRIMARY KEY (id);
CREATE INDEX ON items_c (n);
CREATE TABLE notes_c AS SELECT nid, item_id_old AS item_id, n FROM notes WHERE n <= $rows / 2;
ALTER TABLE notes_c ADD PRIMARY KEY (nid), ADD FOREIGN KEY (item_id) REFERENCES items_c;
CREATE INDEX ON notes_c (item_id);
CREATE INDEX ON notes_c (n);
CREATE TABLE events_c (eid bigint NOT NULL, at date NOT NULL, item_id bigint, n bigint) PARTITION BY RANGE (at);
CREATE TABLE events_c1 PARTITION OF events_c FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE events_c2 PARTITION OF events_c FOR VALUES FROM ('2026-07-01') TO ('2100-01-01');
INSERT INTO events_c (eid, at, item_id, n) SELECT eid, at, item_id_old, n FROM events WHERE n <= $rows / 2;
ALTER TABLE events_c ADD FOREIGN KEY (item_id) REFERENCES items_c;
CREATE INDEX ON events_c (item_id);
VACUUM ANALYZE items_c, notes_c, events_c;
CREATE FUNCTION item_xid(bigint) RETURNS public.xid LANGUAGE sql STABLE
	AS 'SELECT public.xid_from_key(created_at, id) FROM items_c WHERE id = \$1';
SQL
# and the same copies again, for the online move with no writers
# (BENCH_MOVE_ALONE=0 leaves that move out, for the largest tables)
[ "${BENCH_MOVE_ALONE:-1}" = 0 ] || psql 2>/dev/null <<SQL
CREATE TABLE items_d (LIKE items_c INCLUDING DEFAULTS);
INSERT INTO items_d SELECT * FROM items_c;
ALTER TABLE items_d ADD PRIMARY KEY (id);
CREATE INDEX ON items_d (n);
CREATE TABLE notes_d (LIKE notes_c INCLUDING DEFAULTS);
INSERT INTO notes_d SELECT * FROM notes_c;
ALTER TABLE notes_d ADD PRIMARY KEY (nid), ADD FOREIGN KEY (item_id) REFERENCES items_d ON DELETE CASCADE;
CREATE INDEX ON notes_d (item_id);
CREATE INDEX ON notes_d (n);
CREATE TABLE events_d (eid bigint NOT NULL, at date NOT NULL, item_id bigint, n bigint) PARTITION BY RANGE (at);
CREATE TABLE events_d1 PARTITION OF events_d FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE events_d2 PARTITION OF events_d FOR VALUES FROM ('2026-07-01') TO ('2100-01-01');
INSERT INTO events_d SELECT * FROM events_c;
ALTER TABLE events_d ADD FOREIGN KEY (item_id) REFERENCES items_d;
CREATE INDEX ON events_d (item_id);
VACUUM ANALYZE items_d, notes_d, events_d;
SQL
psql -U postgres -c CHECKPOINT
t=$(now)
wal0=$(walpos)
psql <<'SQL'
BEGIN;
ALTER TABLE notes_c DROP CONSTRAINT notes_c_item_id_fkey;
ALTER TABLE events_c DROP CONSTRAINT events_c_item_id_fkey;
ALTER TABLE notes_c ALTER COLUMN item_id TYPE public.xid USING item_xid(item_id);
ALTER TABLE events_c ALTER COLUMN item_id TYPE public.xid USING item_xid(item_id);
ALTER TABLE items_c ALTER COLUMN id TYPE public.xid USING public.xid_from_key(created_at, id);
ALTER TABLE notes_c ADD FOREIGN KEY (item_id) REFERENCES items_c;
ALTER TABLE events_c ADD FOREIGN KEY (item_id) REFERENCES items_c;
COMMIT;
SQL
offline=$(since "$t")
offline_wal=$(walsince "$wal0")
t=$(now)
psql -c "ALTER TABLE items_c ALTER COLUMN id TYPE bigint USING id::bigint" 2>/dev/null || true
echo "offline rewrite of the same tables (children by a lookup of their parent, then the parent, then the foreign keys), no writers: $offline s, $offline_wal MB of WAL"
echo "the online move, under 8 writers: $total s = $(ratio "$total" "$offline")x the offline rewrite"

# the online move of the other copies, with no writers: what the move
# costs itself, where the run above shares the two cores with the writers
[ "${BENCH_MOVE_ALONE:-1}" = 0 ] && exit 0
psql -U postgres -c CHECKPOINT
: >"$work/steps.txt"
echo "the move of the copies, no writers:"
before=$(dbsize)
from=$(($(wc -l <"$work/sizes.txt") + 1))
wal0=$(walpos)
move items_d
alone=$moved
echo "  WAL written: $(walsince "$wal0") MB"
p=$(peak "$from")
echo "  database size: $(mb "$before") MB before, $(mb "$p") MB at the peak ($(mb $((p - before))) MB more), $(mb "$(dbsize)") MB after the finish"
echo "the online move, no writers: $alone s = $(ratio "$alone" "$offline")x the offline rewrite"
