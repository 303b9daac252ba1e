#!/usr/bin/env bash
# ci/run-one.sh: one test, in seconds, against the working tree's build.
#
# Usage: ci/run-one.sh NAME [VERSION]           (as root; VERSION default 15)
#   NAME is a regression file, sql/NAME.sql (or move/NAME, portable/NAME for
#   move/sql/NAME.sql, portable/sql/NAME.sql), a TAP test, test/t/NNN_NAME.pl
#   (NAME or NNN_NAME); a path to either works too.
#
# Builds the working tree with every warning an error and installs it (for
# 15 into PG_CONFIG's installation when given, else the host's
# /usr/lib/postgresql/15), starts one throwaway cluster with
# shared_preload_libraries = 'xid' on a free port (ci/cluster.sh's
# free_port, from XID_PORT_BASE when set), runs the one test against it and
# stops the cluster.  Prints what ci/suite.sh prints for that test: an
# "ok   NAME", "FAIL NAME" or "skip NAME" line (a failure with the diffs or
# the script's last lines), then "PostgreSQL N: N passed, N failed in N s".
# Exits non-zero on a failure.
#
# A VERSION not installed on the host runs inside its chroot of
# ci/chroot.sh ($XID_CHROOT_CACHE/pgVERSION, default /var/cache/xid-ci,
# made by `bash ci/matrix.sh prepare VERSION`), from a copy of the
# working tree kept there between runs.
#
#   XID_KEEP=1       keep the cluster's directory (and say where it is)
#   XID_PORT_BASE    the first port to try (default 55000)
#   the tests read their own settings (see each one's header), e.g.
#   XID_CLAUSE_DDL_SECONDS=2 ci/run-one.sh clause_ddl
set -uo pipefail

usage() { echo "usage: ci/run-one.sh NAME [VERSION]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
name=$1
version=${2:-15}
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/cluster.sh
t0=$SECONDS

if [ "$(id -u)" -ne 0 ]; then
	echo "ci/run-one.sh needs root (it runs the server as the postgres user)" >&2
	exit 2
fi

# NAME: which test, and where pg_regress runs it
name=${name%.sql}
name=${name%.sh}
name=${name%.pl}
name=${name#./}
case "$name" in
	test/t/*) name=${name#test/t/} ;;
	sql/*) name=${name#sql/} ;;
	move/sql/* | portable/sql/*) name=${name%%/*}/${name##*/} ;;
esac
regress_dir="" tap=""
case "$name" in
	move/* | portable/*)
		[ -f "${name%%/*}/sql/${name#*/}.sql" ] && regress_dir=${name%%/*}
		;;
	*)
		if [ -f "sql/$name.sql" ]; then
			regress_dir=.
		elif [ -f "test/t/$name.pl" ]; then
			tap=test/t/$name.pl
		elif compgen -G "test/t/[0-9][0-9][0-9]_$name.pl" >/dev/null; then
			tap=$(compgen -G "test/t/[0-9][0-9][0-9]_$name.pl" | head -1)
		fi
		;;
esac
if [ -z "$regress_dir" ] && [ -z "$tap" ]; then
	echo "ci/run-one.sh: no test $name: neither sql/$name.sql (move/NAME, portable/NAME) nor test/t/NNN_$name.pl" >&2
	exit 2
fi

# VERSION: the host's, PG_CONFIG's, or a chroot's
if [ -n "${PG_CONFIG:-}" ]; then
	pg_config=$PG_CONFIG
elif [ -x "/usr/lib/postgresql/$version/bin/pg_config" ]; then
	pg_config=/usr/lib/postgresql/$version/bin/pg_config
else
	chroot_dir=${XID_CHROOT_CACHE:-/var/cache/xid-ci}/pg$version
	if [ ! -x "$chroot_dir/usr/lib/postgresql/$version/bin/pg_config" ]; then
		echo "ci/run-one.sh: PostgreSQL $version is neither installed here nor in $chroot_dir (bash ci/matrix.sh prepare $version makes that chroot)" >&2
		exit 2
	fi
	. ci/lib.sh
	# the working tree over the copy of the last run: what did not change
	# keeps its objects, so the build there is incremental too
	mkdir -p "$chroot_dir/build/xid-one"
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 tar -cf - --no-recursion 2>/dev/null | tar -xf - -C "$chroot_dir/build/xid-one"
	chroot_exec "$chroot_dir" XID_PORT_BASE="${XID_PORT_BASE:-}" XID_KEEP="${XID_KEEP:-}" \
		-- bash /build/xid-one/ci/run-one.sh "$name" "$version"
	exit $?
fi
major=$(pg_major "$pg_config")
if [ -n "${2:-}" ] && [ "$major" != "$version" ]; then
	echo "ci/run-one.sh: PG_CONFIG=$pg_config is PostgreSQL $major, not $version" >&2
	exit 2
fi
bindir=$("$pg_config" --bindir)

passed=0 failed=0
work=$(mktemp -d "/tmp/xid-one-${name//\//-}.XXXXXX")
chmod 711 "$work"
finish()
{
	cluster_stop "$bindir" "$work/c"
	if [ -n "${XID_KEEP:-}" ]; then
		echo "(kept: $work)"
	else
		rm -rf "$work"
	fi
}
trap finish EXIT
trap 'exit 130' INT TERM

# Build and install, as ci/suite.sh does, but incrementally: the objects
# are cleaned only when they were built for another pg_config (the last one
# is in .run-one.stamp, which git ignores).
CFLAGS_STRICT="-Wall -Wextra -Werror -Wno-unused-parameter"
make_args=(-s PG_CONFIG="$pg_config")
if [ "$(cat .run-one.stamp 2>/dev/null)" != "$pg_config" ]; then
	make "${make_args[@]}" clean >/dev/null 2>&1
	echo "$pg_config" >.run-one.stamp
fi
if ! { make "${make_args[@]}" COPT="$CFLAGS_STRICT" >"$work/build.log" 2>&1 &&
	make "${make_args[@]}" install >>"$work/build.log" 2>&1 &&
	make "${make_args[@]}" -C portable install >>"$work/build.log" 2>&1; }; then
	cat "$work/build.log"
	echo "FAIL build and install with $CFLAGS_STRICT"
	echo "PostgreSQL $major: 0 passed, 1 failed in $((SECONDS - t0)) s"
	exit 1
fi
t_built=$SECONDS

# A TAP test starts the servers it needs itself, as postgres (initdb
# refuses root), in tmp_check here
if [ -n "$tap" ]; then
	chmod o+rwx .
	runuser -u postgres -- timeout -k 10 900 make "${make_args[@]}" prove_installcheck \
		PROVE_TESTS="$tap" PROVE_FLAGS=-v >"$work/tap.log" 2>&1
	rc=$?
	label=$(basename "$tap" .pl)
	if [ $rc -eq 0 ] && grep -q ' skipped: ' "$work/tap.log"; then
		echo "skip $label ($(sed -nE 's/^.* skipped: //p' "$work/tap.log"))"
	elif [ $rc -eq 0 ]; then
		passed=1
		grep -E '^(ok [0-9]|# )' "$work/tap.log" | sed 's/^/     /'
		echo "ok   $label ($((SECONDS - t_built)) s)"
	else
		failed=1
		grep -vE '^ok ' "$work/tap.log" | sed 's/^/    /' | tail -60
		echo "    (the servers' logs and regress_log_$label: tmp_check/log)"
		echo "FAIL $label"
	fi
	echo "PostgreSQL $major: $passed passed, $failed failed in $((SECONDS - t0)) s"
	[ "$failed" -eq 0 ]
	exit
fi

port=$(free_port)
if ! cluster_start "$bindir" "$work/c" "$port" "shared_preload_libraries = 'xid'"; then
	echo "FAIL start a cluster with shared_preload_libraries (port $port)"
	echo "PostgreSQL $major: 0 passed, 1 failed in $((SECONDS - t0)) s"
	exit 1
fi
export PGHOST="$work/c/sock" PGPORT="$port" PGUSER=postgres
t_start=$SECONDS

label="pg_regress ${name}"
make "${make_args[@]}" -C "$regress_dir" installcheck REGRESS="${name#*/}" >"$work/regress.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	passed=1
	echo "ok   $label ($((SECONDS - t_start)) s)"
else
	failed=1
	grep -E 'tests? (failed|passed)|FAILED|failed|not ok' "$work/regress.log" | head -20
	diffs=$regress_dir/regression.diffs
	if [ -f "$diffs" ]; then
		echo "---- $diffs ($(wc -l <"$diffs") lines)"
		head -400 "$diffs"
	else
		tail -20 "$work/regress.log"
	fi
	echo "FAIL $label"
fi
echo "PostgreSQL $major: $passed passed, $failed failed in $((SECONDS - t0)) s" \
	"(build and install $((t_built - t0)) s, cluster $((t_start - t_built)) s, test $((SECONDS - t_start)) s)"
[ "$failed" -eq 0 ]
