#!/usr/bin/env bash
# test/sh/timescaledb.sh: a TimescaleDB hypertable that takes its time from
# the xid primary key (partition_func => xid_time): creation, inserts with
# DEFAULT xid_new(), chunk exclusion for "id >= now() - interval '1 day'",
# constants and a prepared statement's parameters, the primary key index in
# use inside the chunks, the same rows as xid_time(id) OP t, and retention
# with drop_chunks.
#
# Runs its own cluster with TimescaleDB preloaded.  Exits 77 (skipped) where
# Debian packages no TimescaleDB for this PostgreSQL version.
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
bindir=$XID_BINDIR
work=$XID_WORK
dir="$work/cluster"
if [ ! -f "$("$bindir/pg_config" --pkglibdir)/timescaledb.so" ]; then
	echo "TimescaleDB is not installed for PostgreSQL $XID_MAJOR (ci/chroot.sh installs it for 17 and 18)"
	exit 77
fi
mkdir -p "$work"
trap 'cluster_stop "$bindir" "$dir"' EXIT

port=$(free_port)
cluster_start "$bindir" "$dir" "$port" "shared_preload_libraries = 'timescaledb'" \
	"timescaledb.telemetry_level = off" "max_parallel_workers_per_gather = 0"
export PGHOST="$dir/sock" PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
q() { psql -A -t -c "$1"; }

# the recipe of docs/partitioning.md: one chunk a day, by the
# time in the id
psql <<'SQL'
CREATE EXTENSION timescaledb;
CREATE EXTENSION xid;
CREATE TABLE events (
    id      public.xid NOT NULL DEFAULT public.xid_new() PRIMARY KEY,
    payload text
);
SELECT create_hypertable('events', by_range('id', interval '1 day', partition_func => 'public.xid_time'));
-- ten days of ids made in the past, one every 30 seconds, and 100 new ones
INSERT INTO events (id, payload)
SELECT public.xid_new(now() - g * interval '30 seconds'), 'old' FROM generate_series(1, 28800) AS g;
INSERT INTO events (payload) SELECT 'new' FROM generate_series(1, 100);
ANALYZE events;
-- pruning(query): chunks excluded at start-up, the chunks scanned, and the
-- chunks read whole (not through the primary key: the only index)
CREATE FUNCTION pruning(query text, OUT at_startup int, OUT scanned int, OUT not_by_id int)
LANGUAGE plpgsql AS $$
DECLARE
	plan jsonb;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || query INTO plan;
	SELECT coalesce(max((p ->> 'Chunks excluded during startup')::int), 0),
	       count(*) FILTER (WHERE p ? 'Relation Name' AND p ->> 'Relation Name' LIKE '\_hyper%'),
	       count(*) FILTER (WHERE p ->> 'Node Type' = 'Seq Scan' AND p ->> 'Relation Name' LIKE '\_hyper%')
	INTO at_startup, scanned, not_by_id
	FROM jsonb_path_query(plan, 'strict $.**') AS p
	WHERE jsonb_typeof(p) = 'object';
END
$$;
SQL

chunks=$(q "SELECT count(*) FROM show_chunks('events')")
check "create_hypertable on the id: $chunks daily chunks for ten days of ids" "[ $chunks -ge 10 ] && [ $chunks -le 12 ]"
check "inserts with DEFAULT xid_new() land in today's chunk" \
	"[ \"\$(q \"SELECT count(*) FROM events WHERE payload = 'new' AND public.xid_time(id) > now() - interval '1 minute'\")\" = 100 ]"

# the natural query: id >= now() - interval '1 day'
read -r startup scanned notpk < <(q "SELECT at_startup, scanned, not_by_id FROM pruning(\$\$SELECT count(*) FROM events WHERE id >= now() - interval '1 day'\$\$)" | tr '|' ' ')
check "id >= now() - interval '1 day': $startup of $chunks chunks excluded at start-up, $scanned scanned" \
	"[ $scanned -le 2 ] && [ $((startup + scanned)) -eq $chunks ]"
# Whether the chunk left is read through the primary key is the planner's
# choice by its size: just after midnight UTC today's chunk holds little
# more than the 100 new rows, all of them selected, and a sequential scan is
# right.  What is checked is that the index can be used for the clause in a
# chunk: with sequential scans disabled, a chunk without an index path would
# still be read whole.
read -r startup scanned notpk < <(psql -A -t <<'SQL' | tail -1 | tr '|' ' '
SET enable_seqscan = off;
SELECT at_startup, scanned, not_by_id FROM pruning($$SELECT count(*) FROM events WHERE id >= now() - interval '10 minutes'$$);
SQL
)
# two chunks are left in the first ten minutes of a day (UTC)
left=$(q "SELECT CASE WHEN date_trunc('day', now() - interval '10 minutes', 'UTC') = date_trunc('day', now(), 'UTC') THEN 1 ELSE 2 END")
check "id >= now() - interval '10 minutes': $startup chunks excluded at start-up, the $left left can be read through the primary key" \
	"[ $scanned -eq $left ] && [ $((startup + scanned)) -eq $chunks ] && [ $notpk -eq 0 ]"
# (both counts in one statement: one now() for both)
check "id >= now() - interval '1 day': the rows of xid_time(id) >= now() - interval '1 day'" \
	"[ \"\$(q \"SELECT (SELECT count(*) FROM events WHERE id >= now() - interval '1 day') = (SELECT count(*) FROM events WHERE public.xid_time(id) >= now() - interval '1 day')\")\" = t ]"

# a constant: excluded when planning
read -r startup scanned notpk < <(q "SELECT at_startup, scanned, not_by_id FROM pruning(format('SELECT count(*) FROM events WHERE id >= %L::timestamptz AND id < %L::timestamptz', now() - interval '3 days', now() - interval '2 days'))" | tr '|' ' ')
check "a constant window of one day: excluded when planning, $scanned chunks in the plan" \
	"[ $scanned -le 2 ] && [ $startup -eq 0 ]"

# a prepared statement's generic plan, as ORMs send it
read -r startup scanned notpk < <(psql -A -t <<'SQL' | tail -1 | tr '|' ' '
SET plan_cache_mode = force_generic_plan;
PREPARE since(timestamptz) AS SELECT count(*) FROM events WHERE id >= $1;
SELECT at_startup, scanned, not_by_id FROM pruning(format('EXECUTE since(%L)', now() - interval '1 day'));
SQL
)
check "prepared id >= \$1 (generic plan): $startup chunks excluded at start-up, $scanned scanned" \
	"[ $scanned -le 2 ] && [ $((startup + scanned)) -eq $chunks ]"

# the same rows as xid_time(id) OP t for every operator, at and around
# chunk boundaries, with a parameter-like stable time
wrong=$(psql -A -t <<'SQL'
SELECT count(*) FROM
	(SELECT date_trunc('day', now(), 'UTC') - k * interval '1 day' + o AS t
	 FROM generate_series(0, 10) AS k,
	      unnest('{0 s, 1 ms, -1 ms, 0.5 ms, 6 hours}'::interval[]) AS o) AS times,
	LATERAL (SELECT
		(SELECT count(*) FROM events WHERE id >= t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) >= t) AS ge,
		(SELECT count(*) FROM events WHERE id > t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) > t) AS gt,
		(SELECT count(*) FROM events WHERE id < t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) < t) AS lt,
		(SELECT count(*) FROM events WHERE id <= t::text::timestamptz) - (SELECT count(*) FROM events WHERE public.xid_time(id) <= t) AS le,
		(SELECT count(*) FROM events WHERE NOT (id >= t::text::timestamptz)) - (SELECT count(*) FROM events WHERE NOT (public.xid_time(id) >= t)) AS nge) AS d
WHERE ge <> 0 OR gt <> 0 OR lt <> 0 OR le <> 0 OR nge <> 0;
SQL
)
check "every operator at 55 times around chunk boundaries: the rows of xid_time(id) OP t" "[ $wrong -eq 0 ]"

# retention: drop_chunks by the time in the id
before=$(q "SELECT count(*) FROM events")
dropped=$(q "SELECT count(*) FROM drop_chunks('events', older_than => interval '5 days')")
left=$(q "SELECT count(*) FROM show_chunks('events')")
oldest=$(q "SELECT min(public.xid_time(id)) >= date_trunc('day', now() - interval '5 days', 'UTC') - interval '1 day' FROM events")
check "drop_chunks(older_than => 5 days): $dropped of $chunks chunks dropped, $left left, no row older than their range" \
	"[ $dropped -ge 4 ] && [ $((dropped + left)) -eq $chunks ] && [ $oldest = t ]"
check "drop_chunks removed only the rows of the dropped chunks" \
	"[ \$(q \"SELECT count(*) FROM events\") -lt $before ] && [ \$(q \"SELECT (SELECT count(*) FROM events WHERE public.xid_time(id) >= now() - interval '4 days') = (SELECT count(*) FROM events WHERE id >= now() - interval '4 days')\") = t ]"
