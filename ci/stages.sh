#!/usr/bin/env bash
# ci/stages.sh FUNCTION ARGS...: the work of one stage of the CI matrix
# (ci/Makefile says which stage runs which, and after what).  Runs in the
# repository's root; XID_VERSIONS (the versions of the run) and
# XID_CHROOT_CACHE come from ci/Makefile.  Prints "ok" and "FAIL" lines.
set -uo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
. ci/cluster.sh
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
versions=${XID_VERSIONS:-15 17 18 19}
has() { case " $versions " in *" $1 "*) return 0 ;; esac; return 1; }

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

# One version's suite (ci/suite.sh): on the host for 15, else in its
# chroot; it builds and installs xid there for the stages after it
run_suite()
{
	local major=$1 copy rc
	if [ "$major" = 15 ]; then
		copy=$(mktemp -d /tmp/xid-src-15.XXXXXX)
		copy_sources "$top" "$copy"
		bash "$copy/ci/suite.sh" /usr/lib/postgresql/15/bin/pg_config
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
	chroot_exec "$dir" XID_SKIP_SH="$skip" -- bash /build/xid/ci/suite.sh "/usr/lib/postgresql/$major/bin/pg_config"
	rc=$?
	[ -f "$dir/build/xid/regression.diffs" ] && cp "$dir/build/xid/regression.diffs" "$top/regression-$major.diffs"
	return $rc
}

# A test of the 18 chroot that needs the xid suite-18 installed there:
# ci/pooler.sh (PgBouncer) or ci/ha.sh (Patroni with etcd), from a
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
# plain pg_dump of ci/major/fixture.sql restored there.  Each MAJOR has
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
	chroot_exec "$dir" -- bash /build/xid-cross/ci/rep_subscriber.sh "$major" "$pub_port" "$sub_port" \
		>"$work/rep.log" 2>&1
	rc=$?
	sed 's/^/     /' "$work/rep.log"
	result "replication 15 -> $major (text and binary)" $rc

	# the fixture on 15, dumped with 15's pg_dump
	local psql15=(/usr/lib/postgresql/15/bin/psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pub_port" -U postgres)
	rc=0
	{ "${psql15[@]}" -d postgres -c "CREATE DATABASE fx" &&
		"${psql15[@]}" -d fx -v xid_version=1.0 -f "$top/ci/major/fixture.sql" &&
		"${psql15[@]}" -d fx -f "$top/ci/major/values.sql" >"$src/fx-before.txt" &&
		/usr/lib/postgresql/15/bin/pg_dump -h 127.0.0.1 -p "$pub_port" -U postgres -f "$src/fx.sql" fx; } \
		>"$work/dump.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		chroot_exec "$dir" -- bash /build/xid-cross/ci/major/restore.sh "$major" \
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
	chroot_exec "$dir" -- bash /build/xid-upgrade/ci/major/pg_upgrade.sh 18 19 >"$cache/upgrade-$$.out" 2>&1
	rc=$?
	sed 's/^/     /' "$cache/upgrade-$$.out"
	rm -f "$cache/upgrade-$$.out"
	rm -rf "$dir/build/xid-upgrade"
	result "pg_upgrade 18 -> 19" $rc
}

# The PGXN zip of the committed tree, checked against the meta spec, every
# place that states the version (ci/check_versions.py) and the links of
# the Markdown (ci/check_links.py)
run_dist()
{
	local copy rc
	copy=$(mktemp -d /tmp/xid-dist.XXXXXX)
	git clone -q "$top" "$copy/xid" && make -s -C "$copy/xid" dist PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	rc=$?
	result "make dist (PGXN zip, META.json)" $rc
	python3 "$copy/xid/ci/check_versions.py" "$copy/xid" >"$copy/versions.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || grep -v '^ok ' "$copy/versions.log"
	result "one version everywhere: the extension, META.json, CHANGELOG, debian/changelog, the client packages" $rc
	python3 "$copy/xid/ci/check_links.py" "$copy/xid" >"$copy/links.log" 2>&1
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
		env XID_CHROOT_CACHE="$cache" bash ci/clients.sh
	else
		env XID_CHROOT_CACHE="$cache" XID_CLIENTS_NO15=1 bash ci/clients.sh
	fi
}

"$@"
