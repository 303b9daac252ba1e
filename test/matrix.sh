#!/usr/bin/env bash
# test/matrix.sh: the whole test suite on every supported PostgreSQL major
# version: 15 from this Debian 12 host, 17, 18 and 19 from Debian trixie,
# sid and sid with experimental in cached debootstrap chroots
# (test/chroot.sh); 18 built with assertions, xid under the sanitizers
# (test/assert.sh); replication, dump and pg_upgrade across versions; the
# client packages (test/clients.sh); PgBouncer and Patroni with xid on 18
# (test/pooler.sh, test/ha.sh); the Debian packages (test/package.sh).
# Needs root.
#
# Usage: test/matrix.sh [prepare|plan] [MAJOR...]  (default: 15 17 18 19)
#   prepare           only install and build what the tests need (the
#                     host's packages, every chroot, the assert-enabled
#                     server), no tests: warms the caches of a new machine
#   plan              print the stages of the run (the stage table below,
#                     as the versions and XID_SKIP_* select it), run nothing
#   XID_CHROOT_CACHE  where chroots are kept (default /var/cache/xid-ci)
#   XID_JOBS          stages that compute at once (default 3 on 2 cores:
#                     the two longest chains at full priority, the others
#                     at a lower one filling what they leave idle)
#   XID_SKIP_ASSERT, XID_SKIP_CODEC, XID_SKIP_PACKAGES, XID_SKIP_CLIENTS
#                     leave that stage out
#
# The work is cut into stages, declared in one table below (stage, kind,
# needs, when, runs; `test/matrix.sh plan` prints this run's): a chroot
# before the tests in it, a version's suite before what uses the xid it
# installed.  Stages that only download and unpack (debootstrap, apt) run
# beside up to XID_JOBS stages that compute, so a chroot is made while
# another version is tested.  Each stage writes a log of its own, printed
# whole when the stage ends, so that the output of stages that overlap
# never interleaves.  Closes with a table of every stage's result and wall
# time (a full run writes it to test/matrix-times.txt too), the total, and
# "N passed, N failed": the "ok" and "FAIL" lines of all stages (a test
# stage that printed neither, or failed without a FAIL line, counts one
# failure; a stage whose prerequisite that made what it needs (a chroot)
# failed is not run and counts one).  Exits non-zero on any failure.
set -uo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
. test/cluster.sh
prepare_only=""
plan_only=""
if [ "${1:-}" = prepare ]; then
	prepare_only=1
	shift
elif [ "${1:-}" = plan ]; then
	plan_only=1
	shift
fi
versions=${*:-15 17 18 19}
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
jobs=${XID_JOBS:-3}
# stages that mostly wait on the network may run beside them
net_jobs=3

if [ -z "$plan_only" ] && [ "$(id -u)" -ne 0 ]; then
	echo "test/matrix.sh needs root (apt-get, chroot, runuser)" >&2
	exit 2
fi
for v in $versions; do
	case "$v" in
		15 | 17 | 18 | 19) ;;
		*)
			echo "unsupported PostgreSQL version: $v" >&2
			exit 2
			;;
	esac
done
has() { case " $versions " in *" $1 "*) return 0 ;; esac; return 1; }

logs=$(mktemp -d /tmp/xid-matrix.XXXXXX)
[ -n "$plan_only" ] || mkdir -p "$cache"
trap 'echo "interrupted"; exit 130' INT TERM
trap 'jobs -p | xargs -r kill 2>/dev/null; rm -rf "$logs"' EXIT

# ---- the stages' work (each runs in the background, its output to a log)

# The host: PostgreSQL 15 server and headers, debootstrap for the chroots,
# clang with libFuzzer for the codec's fuzz target, libfaketime to move a
# server's clock, sqlsmith, and what builds and checks the Debian package
# of 15: all in one apt transaction.
host_setup()
{
	apt_install postgresql-15 postgresql-server-dev-15 debootstrap make gcc \
		clang-14 libclang-rt-14-dev git python3 libfaketime sqlsmith libipc-run-perl \
		build-essential debhelper postgresql-server-dev-all dpkg-dev lintian
}

# The codec on its own: unit tests under ASan/UBSan, then a short fuzz run.
run_codec()
{
	local copy
	copy=$(mktemp -d /tmp/xid-codec.XXXXXX)
	copy_sources "$top" "$copy"
	if make -s -C "$copy" sanitize PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >"$copy/sanitize.log" 2>&1; then
		echo "ok   codec unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
	else
		tail -30 "$copy/sanitize.log"
		echo "FAIL codec unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
	fi
	if make -s -C "$copy" fuzz FUZZ_CC=clang-14 FUZZ_SECONDS="${XID_FUZZ_SECONDS:-60}" \
		PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >"$copy/fuzz.log" 2>&1; then
		echo "ok   fuzzing the codec for ${XID_FUZZ_SECONDS:-60} s ($(sed -nE 's/^stat::number_of_executed_units: *//p' "$copy/fuzz.log") inputs)"
	else
		grep -E 'invariant failed|ERROR|SUMMARY|Test unit written' "$copy/fuzz.log" | head -20
		cp -r "$copy"/crash-* "$top/" 2>/dev/null || true
		echo "FAIL fuzzing the codec (crashing input copied to the repository root)"
	fi
	rm -rf "$copy"
}

# One version's suite (test/suite.sh): on the host for 15, else in its
# chroot; it builds and installs xid there for the stages after it
run_suite()
{
	local major=$1 copy rc
	if [ "$major" = 15 ]; then
		copy=$(mktemp -d /tmp/xid-src-15.XXXXXX)
		copy_sources "$top" "$copy"
		bash "$copy/test/suite.sh" /usr/lib/postgresql/15/bin/pg_config
		rc=$?
		[ -f "$copy/regression.diffs" ] && cp "$copy/regression.diffs" "$top/regression-15.diffs"
		rm -rf "$copy"
		return $rc
	fi
	local dir="$cache/pg$major" skip=""
	# 18's multi-session tests that the assert stage runs on the same
	# major (the same source package, built with assertions, xid under
	# the sanitizers) are not run twice; 18 keeps the move's (the assert
	# stage leaves them to the suites) and those that need Debian's
	# packages (pg_partman and pg_cron, TimescaleDB)
	if [ "$major" = 18 ] && [ -z "${XID_SKIP_ASSERT:-}" ]; then
		skip="clause_ddl concurrency crash databases dump_restore durable hostile owner_dump"
		skip="$skip portable_sessions replication sharding sqlsmith tenants"
	fi
	copy_sources "$top" "$dir/build/xid"
	chroot_exec "$dir" XID_SKIP_SH="$skip" -- bash /build/xid/test/suite.sh "/usr/lib/postgresql/$major/bin/pg_config"
	rc=$?
	[ -f "$dir/build/xid/regression.diffs" ] && cp "$dir/build/xid/regression.diffs" "$top/regression-$major.diffs"
	return $rc
}

# A test of the 18 chroot that needs the xid suite-18 installed there:
# test/pooler.sh (PgBouncer) or test/ha.sh (Patroni with etcd), from a
# copy of its own, bounded in time (its traps stop what it started)
run_in18()
{
	local name=$1 script=$2 dir="$cache/pg18" rc
	copy_sources "$top" "$dir/build/xid-$name"
	chroot_exec "$dir" XID_INSTALLED=1 -- timeout -k 10 600 bash "/build/xid-$name/$script"
	rc=$?
	rm -rf "$dir/build/xid-$name"
	return $rc
}

# One small step of the scaling benchmark (bench/scale.sh), so that the
# script cannot rot: a million rows a table, one round, short runs, in the
# 18 chroot on the xid its suite installed.  Its figures mean nothing on a
# busy machine; its last line says whether each was measured.
run_scale()
{
	local dir="$cache/pg18" rc
	copy_sources "$top" "$dir/build/xid-scale"
	chroot_exec "$dir" XID_INSTALLED=1 SCALE_STEPS=1000000 SCALE_ROUNDS=1 SCALE_SECONDS=2 -- \
		timeout -k 10 900 bash /build/xid-scale/bench/scale-local.sh /usr/lib/postgresql/18/bin/pg_config /build/xid-scale/out
	rc=$?
	rm -rf "$dir/build/xid-scale"
	return $rc
}

# result NAME RC: an ok or FAIL line
result()
{
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fi
}

# From the host's 15 to a chroot's MAJOR, after both suites installed xid:
# logical replication (a 15 publisher on 127.0.0.1 here, the subscriber
# and the test in the chroot, which shares the host's network), and a
# plain pg_dump of test/major/fixture.sql restored there.  Each MAJOR has
# ports of its own: these stages may run side by side.
run_cross()
{
	local major=$1 dir="$cache/pg$1" work pub_port sub_port rc
	work=$(mktemp -d /tmp/xid-cross.XXXXXX)
	chmod 711 "$work"
	pub_port=$(free_port $((28100 + major * 4)))
	if ! cluster_start /usr/lib/postgresql/15/bin "$work/pub" "$pub_port" \
		"listen_addresses = '127.0.0.1'" "wal_level = logical"; then
		result "replication 15 -> $major" 1
		return
	fi
	sub_port=$(free_port $((pub_port + 1)))
	local src="$dir/build/xid-cross"
	copy_sources "$top" "$src"
	chroot_exec "$dir" -- bash /build/xid-cross/test/rep_subscriber.sh "$major" "$pub_port" "$sub_port" \
		>"$work/rep.log" 2>&1
	rc=$?
	sed 's/^/     /' "$work/rep.log"
	result "replication 15 -> $major (text and binary)" $rc

	# the fixture on 15, dumped with 15's pg_dump
	local psql15=(/usr/lib/postgresql/15/bin/psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pub_port" -U postgres)
	rc=0
	{ "${psql15[@]}" -d postgres -c "CREATE DATABASE fx" &&
		"${psql15[@]}" -d fx -v xid_version=1.0 -f "$top/test/major/fixture.sql" &&
		"${psql15[@]}" -d fx -f "$top/test/major/values.sql" >"$src/fx-before.txt" &&
		/usr/lib/postgresql/15/bin/pg_dump -h 127.0.0.1 -p "$pub_port" -U postgres -f "$src/fx.sql" fx; } \
		>"$work/dump.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		chroot_exec "$dir" -- bash /build/xid-cross/test/major/restore.sh "$major" \
			/build/xid-cross/fx.sql /build/xid-cross/fx-before.txt >"$work/restore.log" 2>&1
		rc=$?
		sed 's/^/     /' "$work/restore.log"
	else
		sed 's/^/     /' "$work/dump.log"
	fi
	result "pg_dump 15 -> restore into $major" $rc
	cluster_stop /usr/lib/postgresql/15/bin "$work/pub"
	rm -rf "$work" "$src"
}

# pg_upgrade from 18 to 19 in the 19 chroot, which holds both
run_pg_upgrade()
{
	local dir="$cache/pg19" rc
	copy_sources "$top" "$dir/build/xid-upgrade"
	chroot_exec "$dir" -- bash /build/xid-upgrade/test/major/pg_upgrade.sh 18 19 >"$logs/upgrade.out" 2>&1
	rc=$?
	sed 's/^/     /' "$logs/upgrade.out"
	rm -rf "$dir/build/xid-upgrade"
	result "pg_upgrade 18 -> 19" $rc
}

# The PGXN zip of the committed tree, checked against the meta spec, every
# place that states the version (test/check_versions.py) and the links of
# the Markdown (test/check_links.py)
run_dist()
{
	local copy rc
	copy=$(mktemp -d /tmp/xid-dist.XXXXXX)
	git clone -q "$top" "$copy/xid" && make -s -C "$copy/xid" dist PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	rc=$?
	result "make dist (PGXN zip, META.json)" $rc
	python3 "$copy/xid/test/check_versions.py" "$copy/xid" >"$copy/versions.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || grep -v '^ok ' "$copy/versions.log"
	result "one version everywhere: the extension, META.json, CHANGELOG, debian/changelog, the client packages" $rc
	python3 "$copy/xid/test/check_links.py" "$copy/xid" >"$copy/links.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || cat "$copy/links.log"
	result "every relative link and anchor in the Markdown resolves, every table renders" $rc
	rm -rf "$copy"
}

# The clients against 18, then against the host's 15 where 15 is in the
# run (after suite-15, which installs xid on the host: the two never
# install at once)
run_clients()
{
	if has 15; then
		env XID_CHROOT_CACHE="$cache" bash test/clients.sh
	else
		env XID_CHROOT_CACHE="$cache" XID_CLIENTS_NO15=1 bash test/clients.sh
	fi
}

# ---- the stages
#
# One line a stage: its name; its kind: net (downloads and unpacks), build
# (computes, and makes what tests use: no ok lines) or test (computes and
# prints ok and FAIL lines); the stages it needs first, comma-separated (one
# not in this run is no prerequisite); when it is in the run: every item of
# a comma-separated list holds, an item being a version given (15, 17, 18,
# 19; "18|19" either) or a part not left out (assert, codec, clients,
# packages: XID_SKIP_ASSERT and so on), "-" always; and what it runs, a
# command line evaluated when it starts (in $top, its output to its log).
# The order is the priority: of the stages ready at once, the first start.
# The assert stage, the longest (its debug_discard_caches pass), comes
# first of the test stages, so that it takes the first free core once its
# server is built.
stage_table='
# stage        kind   needs                  when           runs
host           net    -                      -              host_setup
base-sid       net    -                      18|19          chroot_base "$cache" sid
chroot-18      net    base-sid               18             bash test/chroot.sh 18 "$cache/pg18"
assert-build   build  base-sid               18,assert      bash test/assert.sh prepare
assert         test   assert-build           18,assert      env XID_CHROOT_CACHE="$cache" bash test/assert.sh
base-trixie    net    -                      17             chroot_base "$cache" trixie
chroot-19      net    base-sid               19             bash test/chroot.sh 19 "$cache/pg19"
chroot-17      net    base-trixie            17             bash test/chroot.sh 17 "$cache/pg17"
codec          test   host                   codec          run_codec
suite-15       test   host                   15             run_suite 15
suite-18       test   chroot-18              18             run_suite 18
clients        test   suite-18,suite-15      18,clients     run_clients
pgbouncer      test   suite-18               18             run_in18 pgbouncer test/pooler.sh
patroni        test   suite-18               18             run_in18 patroni test/ha.sh
scale          test   suite-18               18             run_scale
suite-17       test   chroot-17              17             run_suite 17
suite-19       test   chroot-19              19             run_suite 19
cross-17       test   suite-15,suite-17      15,17          run_cross 17
cross-18       test   suite-15,suite-18      15,18          run_cross 18
cross-19       test   suite-15,suite-19      15,19          run_cross 19
pg_upgrade     test   suite-19               18,19          run_pg_upgrade
base-bookworm  net    -                      15,packages    chroot_base "$cache" bookworm
runtime-15     net    base-bookworm          15,packages    bash test/chroot.sh 15 "$cache/pg15-runtime" runtime
package-15     test   host,runtime-15        15,packages    env XID_CHROOT_CACHE="$cache" bash test/package.sh 15
runtime-17     net    base-trixie            17,packages    bash test/chroot.sh 17 "$cache/pg17-runtime" runtime
package-17     test   chroot-17,runtime-17   17,packages    env XID_CHROOT_CACHE="$cache" bash test/package.sh 17
runtime-18     net    base-sid               18,packages    bash test/chroot.sh 18 "$cache/pg18-runtime" runtime
package-18     test   chroot-18,runtime-18   18,packages    env XID_CHROOT_CACHE="$cache" bash test/package.sh 18
runtime-19     net    base-sid               19,packages    bash test/chroot.sh 19 "$cache/pg19-runtime" runtime
package-19     test   chroot-19,runtime-19   19,packages    env XID_CHROOT_CACHE="$cache" bash test/package.sh 19
dist           test   host                   -              run_dist
'

# ---- the scheduler

# stage_wanted WHEN: is a stage with this "when" column in the run?
stage_wanted()
{
	local item alt ok
	[ "$1" = - ] && return 0
	for item in ${1//,/ }; do
		ok=""
		for alt in ${item//|/ }; do
			case "$alt" in
				15 | 17 | 18 | 19) has "$alt" && ok=1 ;;
				assert) [ -z "${XID_SKIP_ASSERT:-}" ] && ok=1 ;;
				codec) [ -z "${XID_SKIP_CODEC:-}" ] && ok=1 ;;
				clients) [ -z "${XID_SKIP_CLIENTS:-}" ] && ok=1 ;;
				packages) [ -z "${XID_SKIP_PACKAGES:-}" ] && ok=1 ;;
				*)
					echo "test/matrix.sh: unknown condition $alt in the stage table" >&2
					exit 2
					;;
			esac
		done
		[ -n "$ok" ] || return 1
	done
}

names=()
declare -A s_kind s_deps s_cmd s_state s_start s_end s_pid s_pass s_fail
declare -A all_stages
while read -r n kind needs when cmd; do
	case "$n" in "" | "#"*) continue ;; esac
	case "$kind" in net | build | test) ;; *)
		echo "test/matrix.sh: stage $n: unknown kind $kind" >&2
		exit 2
		;;
	esac
	all_stages[$n]=1
	stage_wanted "$when" || continue
	# prepare: what installs and builds, no tests
	[ -n "$prepare_only" ] && [ "$kind" = test ] && continue
	names+=("$n")
	s_kind[$n]=$kind
	s_deps[$n]=""
	[ "$needs" = - ] || s_deps[$n]=${needs//,/ }
	s_cmd[$n]=$cmd
	s_state[$n]=wait
done <<<"$stage_table"
# a prerequisite that is no stage at all is a mistake in the table
for n in "${names[@]}"; do
	for d in ${s_deps[$n]}; do
		if [ -z "${all_stages[$d]:-}" ]; then
			echo "test/matrix.sh: stage $n needs $d, which is no stage" >&2
			exit 2
		fi
	done
done

# plan: the stages of this run and what each runs, nothing run
if [ -n "$plan_only" ]; then
	printf '%-14s %-6s %-22s %s\n' stage kind needs runs
	for n in "${names[@]}"; do
		needs=${s_deps[$n]// /,}
		printf '%-14s %-6s %-22s %s\n' "$n" "${s_kind[$n]}" "${needs:--}" "$(eval "echo ${s_cmd[$n]}")"
	done
	exit 0
fi

critical="base-sid assert-build assert chroot-18 suite-18 clients"

# debootstrap first, alone: the chroots' bases are made beside the host's
# own apt transaction (host_setup), and two apt-gets on the host at once
# would fail on its lock
t0=$SECONDS
# cpu_ticks: the cores' busy and idle time so far (/proc/stat), for the
# closing table's use of the cores over the run
cpu_ticks()
{
	local u n s i w q sq st
	read -r _ u n s i w q sq st _ </proc/stat
	echo "$((u + n + s + q + sq + st)) $((i + w))"
}
read -r busy0 idle0 < <(cpu_ticks)
apt_install debootstrap || {
	echo "FAIL installing debootstrap"
	echo "0 passed, 1 failed"
	exit 1
}
# clock T: minutes and seconds from the start to T
clock() { printf '%d:%02d' $((($1 - t0) / 60)) $((($1 - t0) % 60)); }
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

launch()
{
	local n=$1
	s_state[$n]=run
	s_start[$n]=$SECONDS
	echo "---- $(clock $SECONDS) start $n"
	(
		cd "$top"
		# the two longest chains of stages (the sid base, the
		# assert-enabled server's build and the assert stage; the 18
		# chroot, suite-18 and the clients, which on a new machine build
		# their tools) go first whenever they wait for a core: every
		# other stage a lower priority (its servers and chroots inherit
		# it), so that it fills the cores the chains leave idle instead
		# of making the run's tail
		case " $critical " in
			*" $n "*) ;;
			*) renice -n 10 -p "$BASHPID" >/dev/null ;;
		esac
		eval "${s_cmd[$n]}"
	) </dev/null >"$logs/$n.log" 2>&1 &
	s_pid[$n]=$!
}

# finish NAME RC: print its log whole and count its ok and FAIL lines
finish()
{
	local n=$1 rc=$2 p f
	s_end[$n]=$SECONDS
	s_state[$n]=done
	p=$(grep -c '^ok ' "$logs/$n.log")
	f=$(grep -c '^FAIL ' "$logs/$n.log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $n: exited $rc" >>"$logs/$n.log"
		f=1
	elif [ "${s_kind[$n]}" = test ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $n: printed no result" >>"$logs/$n.log"
		f=1
	fi
	s_pass[$n]=$p
	s_fail[$n]=$f
	echo "==== $n ($(mmss $((s_end[$n] - s_start[$n]))), ended at $(clock $SECONDS))"
	cat "$logs/$n.log"
}

declare -A pid_name
while :; do
	running_cpu=0 running_net=0 waiting=0
	for n in "${names[@]}"; do
		[ "${s_state[$n]}" = run ] || continue
		if [ "${s_kind[$n]}" = net ]; then running_net=$((running_net + 1)); else running_cpu=$((running_cpu + 1)); fi
	done
	for n in "${names[@]}"; do
		[ "${s_state[$n]}" = wait ] || continue
		waiting=$((waiting + 1))
		ready=1 broken=""
		for d in ${s_deps[$n]}; do
			[ -n "${s_state[$d]:-}" ] || continue
			case "${s_state[$d]}" in
				# a stage that failed to make what others use (a
				# chroot, the assert-enabled server) stops them; a
				# test stage that failed does not (it still
				# installed xid, or the stage after it says what is
				# missing)
				done) [ "${s_fail[$d]}" -eq 0 ] || [ "${s_kind[$d]}" = test ] || broken=$d ;;
				*) ready=0 ;;
			esac
		done
		[ "$ready" -eq 1 ] || continue
		if [ -n "$broken" ]; then
			s_start[$n]=$SECONDS
			echo "FAIL $n: not run, $broken failed" >"$logs/$n.log"
			finish "$n" 1
			continue
		fi
		if [ "${s_kind[$n]}" != net ] && [ "$running_cpu" -lt "$jobs" ]; then
			launch "$n"
			running_cpu=$((running_cpu + 1))
		elif [ "${s_kind[$n]}" = net ] && [ "$running_net" -lt "$net_jobs" ]; then
			launch "$n"
			running_net=$((running_net + 1))
		fi
		[ "${s_state[$n]}" = run ] && pid_name[${s_pid[$n]}]=$n
	done
	[ $((running_cpu + running_net)) -eq 0 ] && [ "$waiting" -eq 0 ] && break
	if [ $((running_cpu + running_net)) -eq 0 ]; then
		echo "test/matrix.sh: stages wait on each other (a cycle in their prerequisites)" >&2
		exit 2
	fi
	done_pid=""
	wait -n -p done_pid
	rc=$?
	[ -n "$done_pid" ] && [ -n "${pid_name[$done_pid]:-}" ] || continue
	finish "${pid_name[$done_pid]}" "$rc"
	unset "pid_name[$done_pid]"
done

# The closing table: every stage's result and wall time.  A full run (every
# version, nothing left out) also writes it to test/matrix-times.txt, the
# table DEVELOPING.md shows: commit that file with the change it measured.
total_passed=0
total_failed=0
for n in "${names[@]}"; do
	total_passed=$((total_passed + s_pass[$n]))
	total_failed=$((total_failed + s_fail[$n]))
done
read -r busy idle < <(cpu_ticks)
busy=$((busy - busy0)) idle=$((idle - idle0))
closing_table()
{
	local n r
	echo "==== stages (wall time; the total is less than their sum where they overlapped)"
	printf '%-16s %-7s %6s %6s %8s %8s\n' stage result passed failed start wall
	for n in "${names[@]}"; do
		r=ok
		[ "${s_fail[$n]}" -eq 0 ] || r=FAIL
		printf '%-16s %-7s %6d %6d %8s %8s\n' "$n" "$r" "${s_pass[$n]}" "${s_fail[$n]}" \
			"$(mmss $((s_start[$n] - t0)))" "$(mmss $((s_end[$n] - s_start[$n])))"
	done
	echo "total wall time $(mmss $((SECONDS - t0)))"
	[ $((busy + idle)) -gt 0 ] && echo "the cores were busy $((100 * busy / (busy + idle)))% of the run ($(nproc) cores, $((busy / $(getconf CLK_TCK) / 60)) core-minutes)"
	echo "$total_passed passed, $total_failed failed"
}
closing_table
if [ "$versions" = "15 17 18 19" ] && [ -z "$prepare_only" ] &&
	[ -z "${XID_SKIP_ASSERT:-}${XID_SKIP_CODEC:-}${XID_SKIP_PACKAGES:-}${XID_SKIP_CLIENTS:-}" ]; then
	{
		echo "# test/matrix.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$top" describe --always --dirty 2>/dev/null || echo 'no git')"
		echo "# chroot cache $cache, XID_JOBS=$jobs"
		closing_table
	} >"$top/test/matrix-times.txt"
fi
[ "$total_failed" -eq 0 ]
