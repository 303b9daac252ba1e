#!/usr/bin/env bash
# ci/assert.sh: xid under an assert-enabled PostgreSQL 18, with the
# extension built under AddressSanitizer and UndefinedBehaviorSanitizer:
# make installcheck, the TAP tests (test/t) and a sqlsmith run.
# Needs root.  Called by ci/matrix.sh; also runs alone.
#
# Usage: ci/assert.sh [prepare]
#   prepare: only build the cached chroot, no tests
#   XID_CHROOT_CACHE     where chroots are kept (default /var/cache/xid-ci)
#   XID_SQLSMITH_QUERIES how many queries sqlsmith sends (default 10000; a
#                        new seed each run, so runs add up)
#   XID_SQLSMITH_SEED    its seed (default: a new one each run)
#
# The chroot, CACHE/pg18-assert, is a copy of the Debian sid base
# (ci/lib.sh chroot_base) with PostgreSQL 18 built
# from Debian's source package (apt-get source postgresql-18) with
# --enable-cassert --enable-debug --with-icu into /usr/local/pgsql-assert,
# and with sqlsmith.  Its bin/postgres is a wrapper that preloads the ASan
# runtime (the server itself is not instrumented, xid.so is) into every
# server, however a test starts it.  The chroot is reused when it holds
# the marker written as the very last step; anything else at its place (a
# half-built one from an interrupted run) is unmounted, removed and built
# again, as ci/chroot.sh does.  One run at a time (a lock beside the
# chroot): two would unmount each other's /proc and /dev/shm.
#
# A failed check prints "FAIL ..." and an excerpt of the report; an
# assertion failure (TRAP), a sanitizer report, a server process killed by
# a signal other than the tests' own kill -9, or a write past a chunk end
# in any server's log fails the stage.  pg_regress's diffs are copied to
# regression-18-assert.diffs, the whole queries of the server processes
# sqlsmith crashed to sqlsmith-crashes.sql.  Closes with "PostgreSQL 18
# (assert): N passed, N failed"; exits non-zero on any failure.
set -uo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh

mode=${1:-test}
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
dir="$cache/pg18-assert"
marker="$dir/.xid-chroot-complete"
mirror=${XID_DEBIAN_MIRROR:-http://deb.debian.org/debian}
prefix=/usr/local/pgsql-assert
# What the build needs, no more (apt-get build-dep would bring the docs
# toolchain and LLVM): perl comes with dpkg-dev; libasan8 and libubsan1 are
# the runtimes of sid's gcc; procps (pgrep), libfaketime and IPC::Run
# (libipc-run-perl, for --enable-tap-tests: PostgreSQL::Test::Cluster is
# installed with the server) for the TAP tests.
packages="build-essential bison flex libreadline-dev zlib1g-dev libicu-dev pkg-config libssl-dev libasan8 libubsan1 sqlsmith procps libfaketime libipc-run-perl"
configure="--enable-cassert --enable-debug --with-icu --with-openssl --enable-tap-tests --prefix=$prefix"
# the contrib modules the tests create (amcheck, pg_walinspect in
# durable.sh, postgres_fdw in sharding.sh)
contrib="amcheck pg_walinspect postgres_fdw"
want="sid $packages configure:$configure contrib:$contrib"

bindir=$prefix/bin
# the flags suite.sh's XID_SANITIZE adds, for the canary
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"

# Inside the chroot (ci/assert.sh calls itself there):
#   canary: prove that the checks catch what they are for.  A throwaway
#   library, built as suite.sh builds xid, makes a heap buffer overflow,
#   an undefined shift and a failed Assert in turn on one server (which
#   restarts after each); each must be found by cluster.sh's
#   server_reports, and nothing when the same functions stay within bounds.
#   sqlsmith: a database of xid tables, indexes, partitions, views and a
#   domain, owned by a role that is no superuser (sqlsmith calls every
#   function it finds), and XID_SQLSMITH_QUERIES random queries on it.
inside()
{
	. ci/cluster.sh
	inside_work=/build/$1
	rm -rf "$inside_work"
	mkdir -p "$inside_work"
	chmod 755 "$inside_work"
	sanitizer_env "$inside_work/sanitizer"
	trap 'cluster_stop "$bindir" "$inside_work/cluster"' EXIT
	case $1 in
		canary) canary "$inside_work" "$(free_port)" ;;
		sqlsmith) sqlsmith_run "$inside_work" ;;
	esac
}

canary()
{
	local work=$1 port=$2 fn arg what expect i
	cat >"$work/canary.c" <<'C'
/* ci/assert.sh's canary: what the assert stage must catch */
#include "postgres.h"
#include "fmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(canary_asan);
Datum
canary_asan(PG_FUNCTION_ARGS)
{
	volatile int n = 8;
	char	   *volatile p = malloc(n);
	int			r;

	p[PG_GETARG_INT32(0)] = 1;
	r = p[0];
	free(p);
	PG_RETURN_INT32(r);
}

PG_FUNCTION_INFO_V1(canary_ubsan);
Datum
canary_ubsan(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(1 << PG_GETARG_INT32(0));
}

PG_FUNCTION_INFO_V1(canary_assert);
Datum
canary_assert(PG_FUNCTION_ARGS)
{
	Assert(PG_GETARG_INT32(0) == 0);
	PG_RETURN_INT32(0);
}
C
	printf 'MODULES = canary\nPG_CONFIG = %s\nPGXS := $(shell $(PG_CONFIG) --pgxs)\ninclude $(PGXS)\n' \
		"$bindir/pg_config" >"$work/Makefile"
	if ! make -s -C "$work" COPT="-Wall -Wextra -Werror -Wno-unused-parameter $sanitize" >"$work/build.log" 2>&1; then
		cat "$work/build.log"
		echo "FAIL canary: build the throwaway library"
		return
	fi
	cluster_start "$bindir" "$work/cluster" "$port" || {
		echo "FAIL canary: start a cluster"
		return
	}
	# within bounds, defined, true: nothing to report
	for fn in asan ubsan assert; do
		echo "CREATE FUNCTION canary_$fn(int) RETURNS int AS '$work/canary.so' LANGUAGE c;"
	done >"$work/canary.sql"
	if "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$work/cluster/sock" -p "$port" -U postgres -d postgres \
		-f "$work/canary.sql" -c "SELECT canary_asan(7), canary_ubsan(30), canary_assert(0)" \
		>"$work/none.out" 2>&1 &&
		server_reports "$work/sanitizer" "$work/cluster/server.log" >"$work/none.reports"; then
		echo "ok   canary: the same functions called within bounds: nothing reported"
	else
		cat "$work/none.out" "$work/none.reports"
		echo "FAIL canary: the same functions called within bounds"
	fi
	while IFS='|' read -r fn arg what expect; do
		: >"$work/cluster/server.log"
		"$bindir/psql" -X -q -h "$work/cluster/sock" -p "$port" -U postgres -d postgres \
			-c "SELECT canary_$fn($arg)" </dev/null >"$work/$fn.out" 2>&1
		# the postmaster restarts after the crash
		for i in $(seq 1 60); do
			"$bindir/pg_isready" -q -h "$work/cluster/sock" -p "$port" && break
			sleep 1
		done
		if ! server_reports "$work/sanitizer" "$work/cluster/server.log" >"$work/$fn.reports" &&
			grep -q "$expect" "$work/$fn.reports" &&
			grep -q "terminated by signal 6" "$work/$fn.reports"; then
			echo "ok   canary: $what is caught ($expect, a server process terminated by signal 6)"
		else
			cat "$work/$fn.out" "$work/$fn.reports" "$work/cluster/server.log"
			echo "FAIL canary: $what is not caught"
		fi
		mkdir -p "$work/sanitizer/seen"
		mv "$work/sanitizer"/*san.* "$work/sanitizer/seen/" 2>/dev/null || true
	done <<'CASES'
asan|8|a write past a malloc'd block|heap-buffer-overflow
ubsan|40|an undefined shift|runtime error: shift exponent
assert|1|a failed Assert|TRAP: failed Assert
CASES
}

# sqlsmith: test/t/160_sqlsmith.pl, as postgres (initdb refuses root); one
# "ok" or "FAIL" line for the count (its own "ok N" lines indented), the
# queries of the processes that died copied to WORK/crashes.sql
sqlsmith_run()
{
	local work=$1 rc
	chown -R postgres: .
	XID_SANITIZER_DIR="$work/sanitizer" XID_SQLSMITH_QUERIES="${XID_SQLSMITH_QUERIES:-10000}" \
		XID_SQLSMITH_STANDALONE=1 runuser -u postgres -- make -s prove_installcheck \
		PG_CONFIG="$bindir/pg_config" PROVE_TESTS=test/t/160_sqlsmith.pl PROVE_FLAGS=-v >"$work/tap.log" 2>&1
	rc=$?
	[ -s tmp_check/log/sqlsmith-crashes.sql ] && cp tmp_check/log/sqlsmith-crashes.sql "$work/crashes.sql"
	if [ $rc -eq 0 ] && ! grep -q ' skipped: ' "$work/tap.log"; then
		grep -E '^(ok [0-9]|# )' "$work/tap.log" | sed 's/^/     /'
		echo "ok   sqlsmith: $(sed -nE 's/^# sqlsmith: //p' "$work/tap.log"): no assertion failure, sanitizer report or crash"
	else
		# a skip is a failure too: this chroot has sqlsmith
		grep -vE '^ok ' "$work/tap.log" | sed 's/^/    /' | tail -150
		echo "FAIL sqlsmith: $(sed -nE 's/^# sqlsmith: //p' "$work/tap.log") (test/t/160_sqlsmith.pl; the server's log in $(pwd)/tmp_check/log)"
	fi
}

case $mode in
	canary | sqlsmith)
		inside "$mode"
		exit
		;;
esac

if [ "$(id -u)" -ne 0 ]; then
	echo "ci/assert.sh needs root (debootstrap, chroot, runuser)" >&2
	exit 2
fi

# wrapper: bin/postgres, a script in front of the server, postgres.bin,
# that preloads the ASan runtime into every server however a test starts
# it: xid.so is instrumented, the server is not, and the runtime must be
# loaded before the program's libraries.  Written on every run (it is not
# part of what the marker stands for).
wrapper()
{
	local asan
	asan=$(chroot "$dir" gcc -print-file-name=libasan.so)
	asan=$(readlink -f "$dir$asan")
	asan=${asan#"$dir"}
	[ -f "$dir$asan" ] || {
		echo "assert.sh: no libasan.so in the chroot" >&2
		return 1
	}
	cat >"$dir$prefix/bin/postgres" <<WRAPPER
#!/bin/bash
# ci/assert.sh: the ASan runtime preloaded ahead of the server's
# libraries.  Ahead of libfaketime (test/t/020_durable.pl) the server hangs at
# start; after it, ASan is told not to check that it comes first.  The
# server keeps this script's name as its own (postmaster.opts, pg_ctl
# restart).  The options come from the environment (cluster.sh's
# sanitizer_env).
case "\${LD_PRELOAD:-}" in
	*libfaketime*)
		export LD_PRELOAD="\$LD_PRELOAD $asan"
		export ASAN_OPTIONS="\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}verify_asan_link_order=0" ;;
	*) export LD_PRELOAD="$asan\${LD_PRELOAD:+ \$LD_PRELOAD}" ;;
esac
exec -a "\$0" "\$0.bin" "\$@"
WRAPPER
	chmod 755 "$dir$prefix/bin/postgres"
}

# prepare: the chroot with the assert-enabled server, once
prepare()
{
	local start
	chroot_base "$cache" sid || return 1
	want="$(cat "$cache/base-sid/.xid-base-complete") $want"
	if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
		echo "chroot for PostgreSQL 18 (assert): reusing $dir"
		return 0
	fi
	start=$(date +%s)
	echo "chroot for PostgreSQL 18 (assert): making $dir from the Debian sid base and postgresql-18's source"
	chroot_from_base "$cache" sid "$dir" || return 1
	echo "deb-src $mirror sid main" >"$dir/etc/apt/sources.list.d/deb-src.list"

	# the server runs as postgres (ci/cluster.sh)
	chroot_apt "$cache" sid "$dir" "$packages" >"$dir.apt.log" 2>&1 &&
		chroot_exec "$dir" -- useradd --system --user-group --home-dir /var/lib/postgresql postgres \
			>>"$dir.apt.log" 2>&1 || {
		tail -20 "$dir.apt.log" >&2
		return 1
	}
	rm -f "$dir.apt.log"

	# Debian's source of the server, its patches applied; the server,
	# its headers (install) and the contrib modules, no docs
	chroot_exec "$dir" -- sh -c "set -e
		mkdir -p /usr/src/pg && cd /usr/src/pg
		apt-get source -q postgresql-18
		cd postgresql-18-*/
		./configure $configure
		make -j2 -s
		make -s install
		for m in $contrib; do make -s -C contrib/\$m install; done
		cd / && rm -rf /usr/src/pg" >"$dir.build.log" 2>&1 || {
		tail -30 "$dir.build.log" >&2
		return 1
	}
	rm -f "$dir.build.log"

	mv "$dir$prefix/bin/postgres" "$dir$prefix/bin/postgres.bin"
	wrapper || return 1
	chroot_exec "$dir" ASAN_OPTIONS=detect_leaks=0 -- "$prefix/bin/postgres" -V >/dev/null || {
		echo "assert.sh: the server does not run" >&2
		return 1
	}
	echo "$want" >"$marker"
	echo "chroot for PostgreSQL 18 (assert): ready in $(($(date +%s) - start)) s"
}

trap 'chroot_unmount "$dir"' EXIT
trap 'exit 130' INT TERM

# one run at a time: two would mount and unmount the chroot's /proc and
# /dev/shm under each other
mkdir -p "$cache"
exec 9>"$dir.lock"
flock -n 9 || {
	echo "ci/assert.sh: waiting for the run that holds $dir.lock"
	flock 9
}
if ! prepare || ! wrapper; then
	echo "FAIL the chroot for PostgreSQL 18 (assert)"
	echo "PostgreSQL 18 (assert): 0 passed, 1 failed"
	exit 1
fi
[ "$mode" = prepare ] && exit 0

copy_sources "$top" "$dir/build/xid"
rm -f "$top/regression-18-assert.diffs"
passed=0
failed=0
# count LOG: add up the ok and FAIL lines of LOG
count()
{
	passed=$((passed + $(grep -c '^ok ' "$1")))
	failed=$((failed + $(grep -c '^FAIL ' "$1")))
}
log=$(mktemp /tmp/xid-assert.XXXXXX)

echo "---- the checks catch what they are for"
chroot_exec "$dir" -- bash /build/xid/ci/assert.sh canary 2>&1 | tee "$log"
count "$log"

echo "---- installcheck and the TAP tests, xid under AddressSanitizer and UndefinedBehaviorSanitizer"
rm -f "$dir/build/result"
# The online move's two shell tests are left to every version's suite
# (under ASan they were a fifth of this stage); xid_move's library, built
# with the sanitizers here too, runs under them in its regression tests
chroot_exec "$dir" XID_SANITIZE=1 XID_DISCARD_CACHES=1 XID_SKIP_SH="move move_schema" -- bash /build/xid/ci/suite.sh "$prefix/bin/pg_config" /build/result \
	2>&1 | grep --line-buffered -v '^PostgreSQL 18: [0-9]* passed' | tee "$log"
count "$log"
[ -s "$dir/build/result" ] || { echo "FAIL ci/suite.sh stopped without a result"; failed=$((failed + 1)); }
[ -f "$dir/build/xid/regression.diffs" ] && cp "$dir/build/xid/regression.diffs" "$top/regression-18-assert.diffs"

echo "---- sqlsmith"
start=$(date +%s)
chroot_exec "$dir" ${XID_SQLSMITH_QUERIES:+XID_SQLSMITH_QUERIES=$XID_SQLSMITH_QUERIES} \
	${XID_SQLSMITH_SEED:+XID_SQLSMITH_SEED=$XID_SQLSMITH_SEED} -- bash /build/xid/ci/assert.sh sqlsmith 2>&1 | tee "$log"
count "$log"
echo "     (sqlsmith took $(($(date +%s) - start)) s)"
rm -f "$top/sqlsmith-crashes.sql"
[ -s "$dir/build/sqlsmith/crashes.sql" ] && cp "$dir/build/sqlsmith/crashes.sql" "$top/sqlsmith-crashes.sql"
rm -f "$log"

echo "PostgreSQL 18 (assert): $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
