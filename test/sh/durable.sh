#!/usr/bin/env bash
# test/sh/durable.sh: ids that never go back.  A primary, with the library
# preloaded and its clock moved by libfaketime, goes through a clean
# restart, an immediate stop (a crash), the kill -9 of a backend under load
# (crash recovery) and the promotion of a streaming standby after the
# primary dies, with the clock 0 s, 10 min and 1 h back; the promoted
# standby, its own clock a further 10 min behind, is the primary of the
# next round.  After each event a load by concurrent writers, and then:
# every new id (stored, or returned to a client and never stored) above
# every id stored or returned before, and no duplicate at all.  Also: one
# WAL record per lease, not per id; xid.max_ahead refuses ids too far
# ahead of the clock, with SQLSTATE 2200H; the run-ahead WARNING, at most
# once a minute per database; xid_generator_status(); a hot standby's
# xid_new(); pg_dump carrying the mark; and the same without
# shared_preload_libraries (the DSM registry on 17+, the spare shared memory
# on 15 and 16).
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.  Needs
# libfaketime (Debian's libfaketime package).
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
chmod 711 "$work"

faketime=$(faketime_env) || { echo "libfaketime is not installed (apt-get install libfaketime)"; exit 1; }

dirs=()
cleanup()
{
	local d
	for d in "${dirs[@]}"; do cluster_stop "$bindir" "$d"; done
}
trap cleanup EXIT

# The clock of a server: libfaketime reads the offset (seconds, "-600")
# from DIR/clock at most a second old, so it can also step while the
# server runs (the rest of the environment: cluster.sh's faketime_env).
set_clock() { echo "$2" >"$1/clock"; chmod 644 "$1/clock"; }
start() # DIR
{
	runuser -u postgres -- env $faketime FAKETIME_TIMESTAMP_FILE="$1/clock" FAKETIME_CACHE_DURATION=1 \
		"$bindir/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 120 start >/dev/null ||
		{ tail -20 "$1/server.log"; return 1; }
}
stop() { runuser -u postgres -- "$bindir/pg_ctl" -D "$1/data" -m "$2" -w -t 120 stop >/dev/null; }
# the clients see no run-ahead WARNING; the server's log has them
export PGOPTIONS="-c client_min_messages=error"
q() # DIR SQL...: run SQL on the server in DIR
{
	local dir=$1
	shift
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$dir/sock" -p "$(cat "$dir/port")" -U postgres -d postgres "$@"
}
wait_ready() # DIR: after a crash, until the server takes connections again
{
	local i
	for i in $(seq 1 300); do
		q "$1" -c "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "the server in $1 did not come back"
	tail -20 "$1/server.log"
	return 1
}

# load DIR PHASE: four writers at once, 20 transactions of 250 rows each,
# and a client that takes 300 ids and stores none (kept in a file).  It
# returns only once every writer has stopped, also when one failed (a
# writer stops at its first failure, as in the crash of the kill -9
# phase): a writer that outlived the crash must not go on writing this
# phase's rows into the next phase.  Non-zero if anything failed.
load()
{
	local dir=$1 phase=$2 w pids=() rc=0
	for w in 1 2 3 4; do
		(for t in $(seq 1 20); do
			q "$dir" -c "INSERT INTO ids (phase, w) SELECT $phase, $w FROM generate_series(1, 250)"
		done) &
		pids+=($!)
	done
	q "$dir" -c "SELECT public.xid_new(), $phase FROM generate_series(1, 300)" -F ' ' \
		>>"$work/returned.txt" || rc=$?
	for w in "${pids[@]}"; do wait "$w" || rc=$?; done
	return "$rc"
}

# verify DIR PHASE WHAT: the ids of PHASE above all earlier ones, none twice
verify()
{
	local dir=$1 phase=$2 what=$3 out
	q "$dir" -c "TRUNCATE returned" -c "\\copy returned FROM '$work/returned.txt' (DELIMITER ' ')"
	out=$(q "$dir" -F ' ' <<SQL
WITH everything AS (SELECT id, phase FROM ids UNION ALL SELECT id, phase FROM returned),
before AS (SELECT max(id) AS top FROM everything WHERE phase < $phase),
now AS (SELECT min(id) AS low, count(*) AS n FROM everything WHERE phase = $phase)
SELECT n, coalesce(low > top, true),
       (SELECT count(*) - count(DISTINCT id) FROM everything),
       round(extract(epoch FROM public.xid_time(low) - clock_timestamp()))
FROM now, before;
SQL
)
	read -r n above dups ahead <<<"$out"
	if [ "$above" != t ] || [ "$dups" != 0 ]; then
		# what went wrong: the ids of earlier phases at or above this
		# phase's lowest, and where they came from
		echo "    above every earlier id: $above, ids twice: $dups"
		q "$dir" -F ' ' <<SQL | sed 's/^/    /'
WITH everything AS (SELECT id, phase, 'stored' AS src, at FROM ids
                    UNION ALL SELECT id, phase, 'returned', NULL FROM returned),
low AS (SELECT min(id) AS low FROM everything WHERE phase = $phase)
SELECT 'earlier ids at or above this phase''s lowest:', phase, src, count(*), min(id), max(id),
       public.xid_time(max(id)), 'made', min(at), max(at)
FROM everything, low WHERE phase < $phase AND id >= low GROUP BY phase, src
UNION ALL
SELECT 'this phase''s lowest:', $phase, min(src), 0, low, low, public.xid_time(low), 'made', min(at), max(at)
FROM everything, low WHERE id = low GROUP BY low;
SQL
		# when the server restarted (the clock is the server's, as "made")
		grep -E "all server processes terminated|database system is ready to accept connections" \
			"$dir/server.log" | tail -4 | sed 's/^/    /'
	fi
	check "$what: $n new ids (time field ${ahead} s from the clock), all above every earlier id, none twice" \
		'[ "$n" -ge 20300 ] && [ "$above" = t ] && [ "$dups" = 0 ]'
}

# setup DIR: the extension, the table of stored ids and that of the ids
# returned to a client (filled from returned.txt by verify), no ids yet
setup()
{
	q "$1" <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), phase int NOT NULL, w int NOT NULL,
	at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE TABLE returned (id public.xid NOT NULL, phase int NOT NULL);
SQL
	: >"$work/returned.txt"
}

# a primary
new_cluster() # DIR
{
	dirs+=("$1")
	mkdir -p "$1"
	free_port >"$1/port"
	set_clock "$1" "-0"
}
p="$work/n1"
new_cluster "$p"
cluster_init "$bindir" "$p" "$(cat "$p/port")" "shared_preload_libraries = 'xid'" \
	"wal_level = replica" "max_wal_senders = 4" "wal_keep_size = '256MB'" "hot_standby = on"
start "$p"
setup "$p"
phase=1
load "$p" $phase

# one WAL record per lease (a second), however many ids: ids for 3 s
wal=$(q "$p" -F ' ' <<'SQL'
CREATE EXTENSION IF NOT EXISTS pg_walinspect;
SELECT pg_current_wal_flush_lsn() AS a, clock_timestamp() AS t0 \gset
CREATE TEMP TABLE made (n bigint);
DO $$
DECLARE
	n bigint := 0;
	t0 timestamptz := clock_timestamp();
BEGIN
	WHILE clock_timestamp() < t0 + interval '3 s' LOOP
		PERFORM count(public.xid_new()) FROM generate_series(1, 100000);
		n := n + 100000;
	END LOOP;
	INSERT INTO made VALUES (n);
END
$$;
SELECT (SELECT n FROM made), count(*), ceil(extract(epoch FROM clock_timestamp() - :'t0'))
FROM pg_get_wal_records_info(:'a', pg_current_wal_flush_lsn())
WHERE resource_manager = 'Generic';
SQL
)
read -r made records seconds <<<"$wal"
check "$made ids in ${seconds} s wrote $records WAL records of the mark" \
	'[ "$records" -ge 2 ] && [ "$records" -le $((seconds + 1)) ]'

standby_n=1
for offset in 0 600 3600; do
	# the clock steps back: a clean restart
	set_clock "$p" "-$offset"
	stop "$p" fast
	start "$p"
	phase=$((phase + 1))
	load "$p" $phase
	verify "$p" $phase "clock -${offset}s, clean restart"

	# a crash: immediate stop
	stop "$p" immediate
	start "$p"
	phase=$((phase + 1))
	load "$p" $phase
	verify "$p" $phase "clock -${offset}s, immediate stop"

	# kill -9 of a backend under load: the server goes through crash recovery
	phase=$((phase + 1))
	load "$p" $phase 2>/dev/null &
	q "$p" -c "INSERT INTO ids (phase, w) SELECT $phase, 9 FROM generate_series(1, 5000000)" >/dev/null 2>&1 &
	victim=""
	for i in $(seq 1 100); do
		victim=$(q "$p" -c "SELECT pid FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 5000000)' AND pid <> pg_backend_pid()")
		[ -n "$victim" ] && break
		sleep 0.1
	done
	sleep 0.3
	kill -9 "$victim"
	wait || true
	wait_ready "$p"
	grep -q "terminated by signal 9" "$p/server.log" || { echo "FAIL no backend was killed"; exit 1; }
	killed=$(q "$p" -c "SELECT count(*) FROM ids WHERE phase = $phase")
	phase=$((phase + 1))
	load "$p" $phase
	# the phases did not overlap: no writer of the kill phase wrote on
	check "clock -${offset}s, kill -9: $killed rows of that phase, none added after its writers were waited for" \
		'[ "$(q "$p" -c "SELECT count(*) FROM ids WHERE phase = $((phase - 1))")" = "$killed" ]'
	verify "$p" $phase "clock -${offset}s, kill -9 of a backend under load"

	# a streaming standby whose clock is 10 minutes behind the primary's
	standby_n=$((standby_n + 1))
	s="$work/n$standby_n"
	new_cluster "$s"
	set_clock "$s" "-$((offset + 600))"
	chown postgres: "$s"
	runuser -u postgres -- "$bindir/pg_basebackup" -D "$s/data" -R -X stream -c fast \
		-h "$p/sock" -p "$(cat "$p/port")" -U postgres >"$s/basebackup.log" 2>&1 ||
		{ cat "$s/basebackup.log"; exit 1; }
	mkdir -p "$s/sock"
	chown -R postgres: "$s"
	cluster_configure "$s" "$(cat "$s/port")"
	start "$s"
	phase=$((phase + 1))
	load "$p" $phase
	# a hot standby issues ids, but no mark: it writes no WAL
	sid=$(q "$s" -c "SELECT public.xid_new()")
	read -r sscope sdurable <<<"$(q "$s" -F ' ' -c "SELECT scope, durable FROM public.xid_generator_status()")"
	check "hot standby: xid_new() works ($sid), durable = $sdurable" '[ -n "$sid" ] && [ "$sdurable" = f ]'
	lsn=$(q "$p" -c "SELECT pg_current_wal_flush_lsn()")
	for i in $(seq 1 300); do
		[ "$(q "$s" -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'")" = t ] && break
		sleep 0.2
	done
	# the primary dies: kill -9 of every process
	pm=$(head -1 "$p/data/postmaster.pid")
	kill -9 "$pm" $(pgrep -P "$pm" || true) 2>/dev/null || true
	sleep 0.5
	runuser -u postgres -- "$bindir/pg_ctl" -D "$s/data" -w promote >/dev/null
	promoted=$(date +%s)
	phase=$((phase + 1))
	load "$s" $phase
	verify "$s" $phase "clock -${offset}s, standby $((offset + 600))s behind promoted after the primary died"
	rm -f "$p/data/postmaster.pid"
	p=$s
done

# the run-ahead warning: once per database and minute (one database here)
warnings=$(grep -c "WARNING:  new xids are [0-9]* ms ahead of the clock" "$p/server.log" || true)
minutes=$((($(date +%s) - promoted) / 60 + 1))
check "run-ahead WARNING in the promoted standby's log: $warnings in less than $minutes min" \
	'[ "$warnings" -ge 1 ] && [ "$warnings" -le "$minutes" ]'
# and in every server's log: never two within a minute of one run of the
# server (sessions read the clock a few milliseconds apart, in any order:
# the one that warns second must still see the first's warning)
twice=$(for f in "${dirs[@]}"; do [ -f "$f/server.log" ] && cat "$f/server.log"; done | awk '
	/database system is ready to accept/ { last = "" }
	/WARNING:  new xids are [0-9]* ms ahead of the clock/ {
		split($2, t, ":")
		s = t[1] * 3600 + t[2] * 60 + t[3]
		if (last != "" && s - last < 60 && s - last > -60) { n++; print "        " $0 > "/dev/stderr" }
		last = s
	}
	END { print n + 0 }')
all=$(for f in "${dirs[@]}"; do [ -f "$f/server.log" ] && cat "$f/server.log"; done |
	grep -c "WARNING:  new xids are [0-9]* ms ahead of the clock" || true)
check "run-ahead WARNINGs in every server's log: $all, none within a minute of another in one run" \
	'[ "$twice" -eq 0 ] && [ "$all" -ge 3 ]'

# the state, visible
read -r last_ahead mark_ahead durable <<<"$(q "$p" -F ' ' -c "
	SELECT round(extract(epoch FROM last_ahead)), round(extract(epoch FROM mark_ahead)), durable
	FROM public.xid_generator_status()")"
check "xid_generator_status(): last id ${last_ahead} s and mark ${mark_ahead} s ahead of the clock, durable" \
	'[ "$last_ahead" -ge 4000 ] && [ "$mark_ahead" -ge "$last_ahead" ] && [ "$durable" = t ]'

# a bound on running ahead: refused with a clear error, never an id that goes back
q "$p" -c "ALTER SYSTEM SET xid.max_ahead = '1h'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3
err=$(q "$p" -c "\\set VERBOSITY verbose" -c "SELECT public.xid_new()" 2>&1 || true)
check "xid.max_ahead = 1h refuses: $(echo "$err" | head -1)" \
	'grep -q "ERROR:  2200H: new xid would be [0-9]* ms ahead of the clock, beyond xid.max_ahead (3600000 ms)" <<<"$err"'
q "$p" -c "ALTER SYSTEM SET xid.max_ahead = '3h'" -c "SELECT pg_reload_conf()" >/dev/null
sleep 0.3
phase=$((phase + 1))
load "$p" $phase
verify "$p" $phase "xid.max_ahead = 3h admits them again"

# pg_dump carries the mark (the extension marks its sequence for dumping)
q "$p" -c "CREATE DATABASE restored"
runuser -u postgres -- "$bindir/pg_dump" -h "$p/sock" -p "$(cat "$p/port")" -U postgres -d postgres |
	"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$p/sock" -p "$(cat "$p/port")" -U postgres -d restored >/dev/null
read -r mark_src mark_dst <<<"$(q "$p" -F ' ' -c "SELECT last_value FROM public.xid_durable_mark" -c "\\c restored" -c "SELECT last_value FROM public.xid_durable_mark" | tr '\n' ' ')"
check "pg_dump and restore carry the mark ($mark_dst)" '[ "$mark_src" = "$mark_dst" ] && [ "$mark_src" -gt 0 ]'

# No preloading needed: the DSM registry (17+) or the server's spare shared
# memory (15 and 16) holds the shared state
np="$work/nopreload"
new_cluster "$np"
cluster_init "$bindir" "$np" "$(cat "$np/port")"
start "$np"
setup "$np"
load "$np" 1
set_clock "$np" "-600"
stop "$np" immediate
start "$np"
load "$np" 2
verify "$np" 2 "without shared_preload_libraries, clock -600s, immediate stop"
