#!/usr/bin/env bash
# test/sh/partition_maintenance.sh: the partition maintenance procedure of
# docs/partitioning.md, taken from that page itself: it creates the
# current and the next partitions, keeps them when run again, drops only
# the partitions older than the retention, and the table it keeps prunes
# at run time.  Where Debian packages pg_cron for this version, pg_cron
# runs it; where it packages pg_partman, pg_partman must still refuse an
# xid column (docs/partitioning.md says so).
#
# Runs its own cluster.  Called by ci/suite.sh with XID_BINDIR, XID_MAJOR
# and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
bindir=$XID_BINDIR
work=$XID_WORK
dir="$work/cluster"
libdir=$("$bindir/pg_config" --pkglibdir)
sharedir=$("$bindir/pg_config" --sharedir)
mkdir -p "$work"
trap 'cluster_stop "$bindir" "$dir"' EXIT

# the procedure exactly as docs/partitioning.md shows it
sed -n '/^-- xid_maintain_partitions: begin$/,/^-- xid_maintain_partitions: end$/p' docs/partitioning.md >"$work/recipe.sql"
check "docs/partitioning.md holds the maintenance procedure" "[ \$(wc -l <\"$work/recipe.sql\") -gt 20 ]"

cron=no
[ -f "$libdir/pg_cron.so" ] && cron=yes
settings=("max_parallel_workers_per_gather = 0")
[ $cron = yes ] && settings+=("shared_preload_libraries = 'pg_cron'" "cron.database_name = 'postgres'"
	"cron.use_background_workers = on" "max_worker_processes = 20")
port=$(free_port)
cluster_start "$bindir" "$dir" "$port" "${settings[@]}"
export PGHOST="$dir/sock" PGPORT=$port PGUSER=postgres PGDATABASE=postgres
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 "$@"; }
q() { psql -A -t -c "$1"; }

psql -c "CREATE EXTENSION xid" -f "$work/recipe.sql"
psql <<'SQL'
CREATE TABLE events (id public.xid NOT NULL DEFAULT public.xid_new(), payload text,
                     PRIMARY KEY (id)) PARTITION BY RANGE (id);
-- a partition of long ago, with rows, for the retention to drop
CREATE TABLE events_old PARTITION OF events
    FOR VALUES FROM (public.xid_time_lower_bound(date_trunc('day', now(), 'UTC') - interval '100 days', true))
                 TO (public.xid_time_lower_bound(date_trunc('day', now(), 'UTC') - interval '99 days', true));
INSERT INTO events (id, payload)
SELECT public.xid_new(date_trunc('day', now(), 'UTC') - interval '100 days' + g * interval '1 minute'), 'old'
FROM generate_series(1, 100) AS g;
SQL

# exact PARENT UNIT FIRST N: how many of the N partitions of PARENT, one
# UNIT each from FIRST (an SQL expression of a timestamptz) on, exist with
# exactly those bounds
exact()
{
	q "SELECT count(*) FROM generate_series(0, $4 - 1) AS k, (SELECT $3 AS first) f
	   WHERE EXISTS (SELECT FROM pg_class c JOIN pg_inherits i ON i.inhrelid = c.oid
	                 WHERE i.inhparent = '$1'::regclass
	                   AND pg_get_expr(c.relpartbound, c.oid) = format('FOR VALUES FROM (%L) TO (%L)',
	                       public.xid_time_lower_bound(f.first + k * interval '1 $2', true),
	                       public.xid_time_lower_bound(f.first + (k + 1) * interval '1 $2', true)))"
}

psql -c "CALL xid_maintain_partitions('events', 'day', 4, interval '90 days')"
parts=$(q "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")
check "today's partition and four more were made, the one of 100 days ago dropped" "[ $parts -eq 5 ]"
check "each made partition holds exactly one UTC day of ids" \
	"[ \"\$(exact events day \"date_trunc('day', now(), 'UTC')\" 5)\" = 5 ]"
today=$(q "SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')")
check "the partitions are named as docs/partitioning.md says (events_$today ...) and written without quotes" \
	"[ \$(q \"SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass AND inhrelid::regclass::text ~ '^events_[0-9]{8}\\$'\") -eq 5 ] && psql -c 'SELECT count(*) FROM events_$today' >/dev/null"
psql -c "INSERT INTO events (payload) SELECT 'new' FROM generate_series(1, 1000)"
psql -c "CALL xid_maintain_partitions('events', 'day', 4, interval '90 days')"
check "run again: the same partitions, the new rows kept" \
	"[ \$(q \"SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass\") -eq 5 ] && [ \$(q \"SELECT count(*) FROM events\") -eq 1000 ]"
check "a monthly table: this month and the next two, named monthly_YYYYMM01" \
	"psql -c \"CREATE TABLE monthly (id public.xid NOT NULL) PARTITION BY RANGE (id)\" -c \"CALL xid_maintain_partitions('monthly', 'month', 2)\" && [ \$(q \"SELECT count(*) FROM pg_inherits WHERE inhparent = 'monthly'::regclass AND inhrelid::regclass::text ~ '^monthly_[0-9]{6}01\\$'\") -eq 3 ]"
removed=$(q "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM events WHERE id >= now() - interval '1 hour' AND id < now()" | sed -nE 's/.*Subplans Removed: ([0-9]+).*/\1/p')
check "the last hour on the kept table: ${removed:-no} of 5 partitions removed at start-up" "[ \"${removed:-0}\" -ge 3 ]"

# pg_cron runs the procedure
if [ $cron = yes ]; then
	psql -c "CREATE EXTENSION pg_cron" \
		-c "CREATE TABLE cron_events (id public.xid NOT NULL) PARTITION BY RANGE (id)" \
		-c "SELECT cron.schedule('xid-partitions', '2 seconds', \$\$CALL xid_maintain_partitions('cron_events', 'hour', 3)\$\$)" >/dev/null
	for _ in $(seq 1 30); do
		[ "$(q "SELECT count(*) FROM cron.job_run_details WHERE status = 'succeeded'")" -gt 0 ] && break
		sleep 1
	done
	# stopped before counting (a run after an hour began adds its hour); the
	# hours from that of the last run on
	q "SELECT cron.unschedule('xid-partitions')" >/dev/null
	check "pg_cron ran the procedure: the current hour's partition and three more" \
		"[ \"\$(exact cron_events hour \"(SELECT date_trunc('hour', max(start_time), 'UTC') FROM cron.job_run_details WHERE status = 'succeeded')\" 4)\" = 4 ]"
	check "hourly partitions are named cron_events_YYYYMMDD_HH" \
		"[ \$(q \"SELECT count(*) FROM pg_inherits WHERE inhparent = 'cron_events'::regclass AND inhrelid::regclass::text !~ '^cron_events_[0-9]{8}_[0-9]{2}\\$'\") -eq 0 ]"
else
	echo "not run: pg_cron is not installed for PostgreSQL $XID_MAJOR (ci/chroot.sh installs it for 17 and 18)"
fi

# pg_partman still refuses xid, as docs/partitioning.md ("pg_partman") says
if [ -f "$sharedir/extension/pg_partman.control" ]; then
	psql -c "CREATE SCHEMA partman" -c "CREATE EXTENSION pg_partman SCHEMA partman" >/dev/null
	msg=$(psql -c "CREATE TABLE pm (id public.xid NOT NULL) PARTITION BY RANGE (id)" \
		-c "SELECT partman.create_parent('public.pm', 'id', '1 day')" 2>&1 || true)
	check "pg_partman $(q "SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'") refuses an xid column: docs/partitioning.md's pg_partman section still holds" \
		"grep -q 'Supplied column is of type xid' <<<\"\$msg\""
else
	echo "not run: pg_partman is not installed for PostgreSQL $XID_MAJOR (ci/chroot.sh installs it for 17 and 18)"
fi
