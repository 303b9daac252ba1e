#!/usr/bin/env bash
# bench/safety-local.sh PG_CONFIG BEFORE_SQL: what the protections of issue
# 28 cost, in one run against the PostgreSQL that PG_CONFIG names (called
# by bench/safety.sh, on the host or in a chroot).  BEFORE_SQL is the
# portable script before its bodies were qualified.
#
# DDL: 200 rounds of CREATE TABLE (3 columns, primary key), ALTER TABLE
# ADD COLUMN, DROP TABLE, in one transaction, on two throwaway servers
# side by side, one without shared_preload_libraries and one with 'xid':
#   none     a database without the extension (the baseline of its server)
#   xid      the extension: its trigger at ddl_command_start and the hook
#   end      no extension, an empty PL/pgSQL trigger at ddl_command_end for
#            the same tags (what any trigger there costs: PostgreSQL
#            collects commands and dropped objects for it)
#   end_ddl  the same trigger reading pg_event_trigger_ddl_commands() (the
#            OIDs a trigger at the end gets)
# Portable: xid_new(), xid_encode() and xid_decode() 200,000 times each,
# in microseconds per value: "before" (BEFORE_SQL), "qualified" (the
# script as it is), "pinned" (the script as it is with SET search_path =
# pg_catalog, pg_temp on every PL/pgSQL function).
#
# Seven rounds; in each, every case once, in an order that rotates, each
# sample the best of three runs, after a VACUUM of the catalogs.  Prints
# every sample, then medians and the ratios to the baseline.
#
# Then, where valgrind is installed, the same cases counted in
# instructions, which other work on the machine does not move: each server
# run under callgrind, each case in two sessions, of 50 and of 150 DDL
# rounds (5,000 and 25,000 calls of the portable functions); the difference
# of the two sessions' totals, divided by 100 (20,000), is the cost of a
# round (a call), without the session's start and the library's loading.
# (5,000 and 25,000 calls for the portable functions: with fewer, a
# one-off in one of the two sessions moved the per-call figure by 10%.)
set -euo pipefail
pg_config=$1
before_sql=$2
cd "$(dirname "$0")/.."
. ci/cluster.sh
bindir=$("$pg_config" --bindir)
major=$(pg_major "$pg_config")
rounds=${BENCH_ROUNDS:-7}

make -s PG_CONFIG="$pg_config" clean >/dev/null
make -s PG_CONFIG="$pg_config" >/dev/null
make -s PG_CONFIG="$pg_config" install >/dev/null

work=$(mktemp -d /tmp/xid-safety.XXXXXX)
chmod 711 "$work"
trap 'cluster_stop "$bindir" "$work/plain"; cluster_stop "$bindir" "$work/pre"; rm -rf "$work"' EXIT
settings=("shared_buffers = 1GB" "jit = off" "autovacuum = off" "synchronous_commit = off"
	"full_page_writes = off" "checkpoint_timeout = 1h" "max_wal_size = 10GB")
port_plain=$(free_port 55600)
cluster_start "$bindir" "$work/plain" "$port_plain" "${settings[@]}"
port_pre=$(free_port $((port_plain + 1)))
cluster_start "$bindir" "$work/pre" "$port_pre" "${settings[@]}" "shared_preload_libraries = 'xid'"
q() # SERVER DB SQL...
{
	local dir=$work/$1 port=$port_plain db=$2
	[ "$1" = pre ] && port=$port_pre
	shift 2
	"$bindir/psql" -X -q -At -h "$dir/sock" -p "$port" -U postgres -d "$db" -v ON_ERROR_STOP=1 "$@"
}

# the databases of the DDL cases
for s in plain pre; do
	q $s postgres -c "CREATE DATABASE ddl_none" -c "CREATE DATABASE ddl_xid"
	q $s ddl_xid -c "CREATE EXTENSION xid"
done
q plain postgres -c "CREATE DATABASE ddl_end" -c "CREATE DATABASE ddl_end_ddl"
q plain ddl_end <<'SQL'
CREATE FUNCTION noop() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN END $$;
CREATE EVENT TRIGGER noop ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE')
	EXECUTE FUNCTION noop();
SQL
q plain ddl_end_ddl <<'SQL'
CREATE FUNCTION oids() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM count(*) FROM pg_event_trigger_ddl_commands() WHERE classid = 'pg_class'::regclass;
END $$;
CREATE EVENT TRIGGER oids ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE')
	EXECUTE FUNCTION oids();
SQL
# a sample: the best of three runs, as wall-clock time and as the time the
# backend was on a CPU (/proc/self/schedstat, in ns; less moved by other
# processes on a busy machine)
cpu_ns="split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint"
ddl_sql="DO \$\$ DECLARE t0 timestamptz; c0 bigint; best float8 := 'Infinity'; best_cpu float8 := 'Infinity';
BEGIN
	FOR run IN 1 .. 3 LOOP
		t0 := clock_timestamp();
		c0 := $cpu_ns;
		FOR i IN 1 .. 200 LOOP
			CREATE TABLE ddl_t (id bigint PRIMARY KEY, v int, t text);
			ALTER TABLE ddl_t ADD COLUMN w int;
			DROP TABLE ddl_t;
		END LOOP;
		best_cpu := least(best_cpu, ($cpu_ns - c0) / 1e6 / 200);
		best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1000 / 200);
	END LOOP;
	RAISE NOTICE '% %', round(best::numeric, 4), round(best_cpu::numeric, 4);
END \$\$;"

# the portable variants, side by side in one database
q plain postgres -c "CREATE DATABASE portable"
sed -E 's/^(LANGUAGE plpgsql .*)$/\1\nSET search_path = pg_catalog, pg_temp/' portable/xid_portable.sql >"$work/pinned.sql"
for v in before qualified pinned; do
	case $v in
		before) f=$before_sql ;;
		qualified) f=portable/xid_portable.sql ;;
		pinned) f=$work/pinned.sql ;;
	esac
	q plain portable -c "CREATE SCHEMA p_$v" -c "SET search_path = p_$v" -f "$f" >/dev/null
done
[ "$(q plain portable -c "SELECT count(*) FROM pg_proc WHERE pronamespace = 'p_pinned'::regnamespace AND proconfig IS NOT NULL")" -ge 8 ] ||
	{ echo "the pinned variant has no SET search_path"; exit 1; }
q plain portable -c "CREATE TABLE vals AS SELECT p_qualified.xid_new() AS id FROM generate_series(1, 200000)" \
	-c "CREATE TABLE texts AS SELECT p_qualified.xid_encode(id) AS t FROM vals"
portable_sql() # VARIANT FUNCTION: microseconds per value, best of three
{
	local expr
	case $2 in
		new) expr="count(p_$1.xid_new()) FROM generate_series(1, 200000)" ;;
		encode) expr="count(p_$1.xid_encode(id)) FROM vals" ;;
		decode) expr="count(p_$1.xid_decode(t)) FROM texts" ;;
	esac
	echo "DO \$\$ DECLARE t0 timestamptz; c0 bigint; best float8 := 'Infinity'; best_cpu float8 := 'Infinity';
BEGIN
	FOR run IN 1 .. 3 LOOP
		t0 := clock_timestamp();
		c0 := $cpu_ns;
		PERFORM $expr;
		best_cpu := least(best_cpu, ($cpu_ns - c0) / 1e3 / 200000);
		best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1e6 / 200000);
	END LOOP;
	RAISE NOTICE '% %', round(best::numeric, 4), round(best_cpu::numeric, 4);
END \$\$;"
}

cases=(plain:none plain:xid plain:end plain:end_ddl pre:none pre:xid
	portable:before:new portable:qualified:new portable:pinned:new
	portable:before:encode portable:qualified:encode portable:pinned:encode
	portable:before:decode portable:qualified:decode portable:pinned:decode)
n=${#cases[@]}
echo "bench/safety.sh: PostgreSQL $("$pg_config" --version | sed 's/^PostgreSQL //'), commit ${XID_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}, $rounds rounds"
: >"$work/samples"
for r in $(seq 1 "$rounds"); do
	for i in $(seq 0 $((n - 1))); do
		c=${cases[$(((i + r) % n))]}
		IFS=: read -r a b f <<<"$c"
		# the catalogs of the case's database vacuumed (the DDL leaves dead
		# rows behind, and autovacuum is off), nothing left to write
		if [ "$a" = portable ]; then srv=plain db=portable; else srv=$a db=ddl_$b; fi
		q "$srv" "$db" -c "VACUUM pg_catalog.pg_class, pg_catalog.pg_attribute, pg_catalog.pg_type, pg_catalog.pg_depend, pg_catalog.pg_index, pg_catalog.pg_constraint, pg_catalog.pg_attrdef, pg_catalog.pg_statistic" -c CHECKPOINT
		if [ "$a" = portable ]; then
			v=$(q plain portable -c "$(portable_sql "$b" "$f")" 2>&1 | sed -n 's/^NOTICE:  //p')
			name="portable $f $b"
		else
			v=$(q "$a" "ddl_$b" -c "$ddl_sql" 2>&1 | sed -n 's/^NOTICE:  //p')
			name="ddl $a $b"
		fi
		echo "round $r: $name $v"
		echo "$name $v" | awk '{ print $1 "_" $2 "_" $3, $4; print $1 "_" $2 "_" $3 "_cpu", $5 }' >>"$work/samples"
	done
done
echo "medians of $rounds rounds (DDL: ms per round of three commands; portable: us per value), ratios to the first of each line:"
med() # KEY: the median of the samples of KEY
{
	grep "^$1 " "$work/samples" | awk '{ print $2 }' | sort -g |
		awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
for m in "" _cpu; do
	[ -z "$m" ] && echo " wall clock:" || echo " backend CPU time:"
	pn=$(med ddl_plain_none$m) px=$(med ddl_plain_xid$m) pe=$(med ddl_plain_end$m) pd=$(med ddl_plain_end_ddl$m)
	rn=$(med ddl_pre_none$m) rx=$(med ddl_pre_xid$m)
	echo "  DDL, no preload: none $pn, xid $px ($(ratio "$px" "$pn")x), end $pe ($(ratio "$pe" "$pn")x), end_ddl $pd ($(ratio "$pd" "$pn")x)"
	echo "  DDL, preloaded: none $rn, xid $rx ($(ratio "$rx" "$rn")x); against none without preload: none $(ratio "$rn" "$pn")x, xid $(ratio "$rx" "$pn")x"
	for f in new encode decode; do
		b=$(med "portable_${f}_before$m") qv=$(med "portable_${f}_qualified$m") pv=$(med "portable_${f}_pinned$m")
		echo "  portable $f: before $b, qualified $qv ($(ratio "$qv" "$b")x), pinned $pv ($(ratio "$pv" "$b")x)"
	done
done

command -v valgrind >/dev/null || { echo "(valgrind is not installed: no instruction counts)"; exit 0; }
for s in plain pre; do cluster_stop "$bindir" "$work/$s"; done
# cg_run SERVER: start the server under callgrind, every process counted
cg_run()
{
	local dir=$work/$1 i
	runuser -u postgres -- valgrind --tool=callgrind --trace-children=yes \
		--callgrind-out-file="$dir/cg.%p" "$bindir/postgres" -D "$dir/data" >"$dir/cg.log" 2>&1 &
	for i in $(seq 1 600); do
		"$bindir/pg_isready" -q -h "$dir/sock" -p "$(awk -F' = ' '$1 == "port" { print $2 }' "$dir/data/postgresql.conf" | tail -1)" && return 0
		sleep 0.5
	done
	echo "the server in $dir did not start under valgrind"; tail "$dir/cg.log"; return 1
}
# cg_count SERVER DB SQL: the instructions of a session that runs SQL
cg_count()
{
	local pid
	pid=$(q "$1" "$2" -c "SELECT pg_backend_pid()" -c "$3" | head -1)
	for i in $(seq 1 100); do
		[ -s "$work/$1/cg.$pid" ] && grep -q '^totals:' "$work/$1/cg.$pid" && break
		sleep 0.2
	done
	awk '$1 == "totals:" { print $2 }' "$work/$1/cg.$pid"
}
ddl_loop() # N: N DDL rounds in one transaction
{
	echo "DO \$\$ BEGIN FOR i IN 1 .. $1 LOOP
		CREATE TABLE ddl_t (id bigint PRIMARY KEY, v int, t text);
		ALTER TABLE ddl_t ADD COLUMN w int;
		DROP TABLE ddl_t;
	END LOOP; END \$\$;"
}
echo "instructions (callgrind), DDL per round of three commands, portable per call:"
: >"$work/counts"
for s in plain pre; do
	cg_run $s
	for c in "${cases[@]}"; do
		IFS=: read -r a b f <<<"$c"
		if [ "$a" = portable ]; then
			[ $s = plain ] || continue
			case $f in
				new) sql="SELECT count(p_$b.xid_new()) FROM generate_series(1, %N)" ;;
				encode) sql="SELECT count(p_$b.xid_encode(id)) FROM (SELECT id FROM vals LIMIT %N) v" ;;
				decode) sql="SELECT count(p_$b.xid_decode(t)) FROM (SELECT t FROM texts LIMIT %N) v" ;;
			esac
			lo=$(cg_count plain portable "${sql/\%N/5000}")
			hi=$(cg_count plain portable "${sql/\%N/25000}")
			per=$(((hi - lo) / 20000))
			echo "  portable $f $b: $per"
			echo "portable_${f}_$b $per" >>"$work/counts"
		else
			[ "$a" = $s ] || continue
			q "$s" "ddl_$b" -c "VACUUM pg_catalog.pg_class, pg_catalog.pg_attribute, pg_catalog.pg_type, pg_catalog.pg_depend, pg_catalog.pg_index, pg_catalog.pg_constraint, pg_catalog.pg_attrdef"
			lo=$(cg_count "$s" "ddl_$b" "$(ddl_loop 50)")
			q "$s" "ddl_$b" -c "VACUUM pg_catalog.pg_class, pg_catalog.pg_attribute, pg_catalog.pg_type, pg_catalog.pg_depend, pg_catalog.pg_index, pg_catalog.pg_constraint, pg_catalog.pg_attrdef"
			hi=$(cg_count "$s" "ddl_$b" "$(ddl_loop 150)")
			per=$(((hi - lo) / 100))
			echo "  ddl $s $b: $per"
			echo "ddl_${s}_$b $per" >>"$work/counts"
		fi
	done
	cluster_stop "$bindir" "$work/$s"
done
cnt() { awk -v k="$1" '$1 == k { print $2 }' "$work/counts"; }
echo "instruction ratios:"
echo "  DDL, no preload: xid $(ratio "$(cnt ddl_plain_xid)" "$(cnt ddl_plain_none)")x, end $(ratio "$(cnt ddl_plain_end)" "$(cnt ddl_plain_none)")x, end_ddl $(ratio "$(cnt ddl_plain_end_ddl)" "$(cnt ddl_plain_none)")x"
echo "  DDL, preloaded: xid $(ratio "$(cnt ddl_pre_xid)" "$(cnt ddl_pre_none)")x; against none without preload: none $(ratio "$(cnt ddl_pre_none)" "$(cnt ddl_plain_none)")x, xid $(ratio "$(cnt ddl_pre_xid)" "$(cnt ddl_plain_none)")x"
for f in new encode decode; do
	echo "  portable $f: qualified $(ratio "$(cnt "portable_${f}_qualified")" "$(cnt "portable_${f}_before")")x, pinned $(ratio "$(cnt "portable_${f}_pinned")" "$(cnt "portable_${f}_before")")x"
done
