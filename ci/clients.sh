#!/usr/bin/env bash
# ci/clients.sh: the client packages (clients/LANG/) tested against a real
# PostgreSQL 18 with xid, in the chroot of ci/chroot.sh: the toolchains
# from Debian (clients/debian-packages), the drivers and frameworks from
# each language's registry, pinned by the package's lock file.  Needs root.  Called by ci/matrix.sh; also runs alone.
#
# Usage: ci/clients.sh [LANG...]     (default: every clients/*/test.sh)
#   XID_CHROOT_CACHE     where chroots are kept (default /var/cache/xid-ci)
#   XID_CLIENTS_TIMEOUT  seconds one LANG's test.sh may take (default 1200)
#   XID_CLIENTS_NO15=1   not against the host's PostgreSQL 15 (see below)
#
# What it does:
# - ci/chroot.sh prepares the PostgreSQL 18 chroot; its package line
#   includes clients/debian-packages (one Debian package a line, "#"
#   comments), so a package added there is installed into the cached chroot
#   in place;
# - the sources are copied to /build/xid-clients in the chroot (not
#   /build/xid, which ci/matrix.sh uses), xid is built and installed;
# - one cluster is started as the postgres OS user on 127.0.0.1 and a free
#   port, trust authentication;
# - for each LANG, a fresh database xid_clients with CREATE EXTENSION xid
#   SCHEMA public, then clients/LANG/test.sh runs inside the chroot, as root,
#   from the copy's top directory (bash clients/LANG/test.sh), with
#     PGHOST=127.0.0.1 PGPORT PGUSER=postgres PGDATABASE=xid_clients
#     XID_CLIENTS_WORK  an empty scratch directory of its own
#     XID_PG_BINDIR     the server's bin directory (also first on PATH)
#   and the chroot's network (the host's: Debian's archive and the npm
#   registry, PyPI, Maven Central and the Go module proxy are reachable,
#   nothing else, with the host's certificate authorities);
# - then each LANG's test.sh again, with XID_CLIENTS_SERVER_ONLY=1 (the
#   package's own tests, not its apps, linters and type checks), against
#   the oldest supported server: the host's PostgreSQL 15, xid built and
#   installed for it from a copy of the sources, a cluster on 127.0.0.1
#   (the chroot shares the host's network); "LANG@15" in the output.
#
# The contract of a test.sh: print one line per test, "ok   TEXT" or
# "FAIL TEXT" (or "skip TEXT"); any other line is shown indented.  Here
# every driver and framework is installed from its lock file and a server
# is running, so a skipped test means that something did not install or
# connect: each skip line counts one FAIL too (XID_CLIENTS_ALLOW_SKIP=1
# counts them neither way, for a run by hand without some toolchain).
# Each such line is shown with "LANG: " before TEXT.  A test.sh
# that exits non-zero without a FAIL line counts one FAIL, and so does one
# that prints no ok, FAIL or skip line at all, or runs past the timeout.
#
# Prints a closing "clients: N passed, N failed" and exits non-zero on any
# failure.  One run at a time per chroot (a lock beside it): a second run
# waits for the first.  The chroot's mounts (/proc, /dev/shm) live in a
# private mount namespace, so a run never unmounts another's.
set -uo pipefail

if [ "${1:-}" = --inside ]; then
	# ---- inside the chroot, from /build/xid-clients
	shift
	cd "$(dirname "$0")/.."
	top=$(pwd)
	. ci/cluster.sh
	bindir=/usr/lib/postgresql/18/bin
	passed=0
	failed=0
	work=$(mktemp -d /tmp/xid-clients.XXXXXX)
	chmod 755 "$work"
	cleanup()
	{
		cluster_stop "$bindir" "$work/pg"
		rm -rf "$work"
	}
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	finish()
	{
		echo "clients: $passed passed, $failed failed"
		[ "$failed" -eq 0 ]
		exit
	}

	if ! make -s PG_CONFIG="$bindir/pg_config" >"$work/build.log" 2>&1 ||
		! make -s install PG_CONFIG="$bindir/pg_config" >>"$work/build.log" 2>&1; then
		tail -30 "$work/build.log" | sed 's/^/     /'
		echo "FAIL building and installing xid for PostgreSQL 18"
		failed=$((failed + 1))
		finish
	fi
	port=$(free_port 25180)
	if ! cluster_start "$bindir" "$work/pg" "$port" "listen_addresses = '127.0.0.1'" \
		"max_connections = 100"; then
		echo "FAIL starting PostgreSQL 18 for the client tests"
		failed=$((failed + 1))
		finish
	fi

	# run_lang LANG PORT LABEL [VAR=value...]: LANG's test.sh against the
	# server on 127.0.0.1:PORT, in a fresh database xid_clients
	run_lang()
	{
		local lang=$1 port=$2 label=$3 script log scratch start rc p f s skipped
		shift 3
		script="clients/$lang/test.sh"
		log="$work/$label.log"
		scratch="$work/work-$label"
		rm -rf "$scratch"
		mkdir -p "$scratch"
		psql=("$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)
		if ! "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS xid_clients WITH (FORCE)" \
			-c "CREATE DATABASE xid_clients" >"$log" 2>&1 ||
			! "${psql[@]}" -d xid_clients -c "CREATE EXTENSION xid SCHEMA public" >>"$log" 2>&1; then
			sed 's/^/     /' "$log"
			echo "FAIL $label: creating database xid_clients with xid"
			failed=$((failed + 1))
			return
		fi
		echo "---- $label ($script)"
		start=$SECONDS
		env PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres PGDATABASE=xid_clients \
			XID_CLIENTS_WORK="$scratch" XID_PG_BINDIR="$bindir" PATH="$bindir:$PATH" "$@" \
			timeout -k 10 "${XID_CLIENTS_TIMEOUT:-1200}" bash "$script" </dev/null 2>&1 |
			tee "$log" | awk -v lang="$label" '
				match($0, /^(ok|FAIL|skip) +/) {
					word = substr($0, 1, RLENGTH)
					sub(/ +$/, "", word)
					printf "%-5s%s: %s\n", word, lang, substr($0, RLENGTH + 1)
					fflush()
					next
				}
				{ print "     " $0; fflush() }'
		rc=${PIPESTATUS[0]}
		p=$(grep -cE '^ok +' "$log")
		f=$(grep -cE '^FAIL +' "$log")
		s=$(grep -cE '^skip +' "$log")
		if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
			echo "FAIL $label: $script ran past ${XID_CLIENTS_TIMEOUT:-1200} s"
			f=$((f + 1))
		elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "FAIL $label: $script exited $rc"
			f=1
		elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
			echo "FAIL $label: $script printed no result"
			f=1
		fi
		skipped=""
		if [ "$s" -gt 0 ] && [ -z "${XID_CLIENTS_ALLOW_SKIP:-}" ]; then
			echo "FAIL $label: $s tests skipped (the skip lines above): a framework, driver or the server was missing"
			f=$((f + 1))
		fi
		[ "$s" -gt 0 ] && skipped=", $s skipped"
		echo "---- $label: $p passed, $f failed$skipped in $((SECONDS - start)) s"
		passed=$((passed + p))
		failed=$((failed + f))
	}

	for lang in "$@"; do
		run_lang "$lang" "$port" "$lang"
	done
	# the oldest supported server: the host's PostgreSQL 15 (ci/clients.sh
	# started it, on the network the chroot shares), each package's own
	# tests against it (XID_CLIENTS_SERVER_ONLY=1: not the apps, the
	# linters and the type checks, which do not depend on the server)
	if [ -n "${XID_CLIENTS_PG15_PORT:-}" ]; then
		for lang in "$@"; do
			run_lang "$lang" "$XID_CLIENTS_PG15_PORT" "$lang@15" XID_CLIENTS_SERVER_ONLY=1
		done
	fi
	finish
fi

# ---- on the host
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
dir="$cache/pg18"

if [ "$(id -u)" -ne 0 ]; then
	echo "ci/clients.sh needs root (chroot, mounts, runuser)" >&2
	exit 2
fi

langs=()
if [ $# -eq 0 ]; then
	for t in clients/*/test.sh; do
		[ -f "$t" ] && langs+=("$(basename "$(dirname "$t")")")
	done
else
	for lang in "$@"; do
		if [ ! -f "clients/$lang/test.sh" ]; then
			echo "FAIL $lang: no clients/$lang/test.sh"
			echo "clients: 0 passed, 1 failed"
			exit 1
		fi
		langs+=("$lang")
	done
fi
if [ ${#langs[@]} -eq 0 ]; then
	echo "FAIL no clients/*/test.sh"
	echo "clients: 0 passed, 1 failed"
	exit 1
fi

mkdir -p "$cache"
exec 9>"$dir.clients.lock"
if ! flock -n 9; then
	echo "ci/clients.sh: another run holds $dir.clients.lock, waiting"
	flock 9
fi

# every command that mounts inside the chroot runs in a private mount
# namespace: its unmounting at the end touches no other run's mounts
in_namespace()
{
	unshare --mount --propagation private bash -c '. "$1/ci/lib.sh"; shift; "$@"' _ "$top" "$@"
}

if ! unshare --mount --propagation private bash "$top/ci/chroot.sh" 18 "$dir"; then
	echo "FAIL preparing the PostgreSQL 18 chroot with clients/debian-packages (ci/chroot.sh)"
	echo "clients: 0 passed, 1 failed"
	exit 1
fi
mkdir -p "$dir/build"
copy_sources "$top" "$dir/build/xid-clients"

# PostgreSQL 15 on the host (ci/matrix.sh's host stage installs it, and
# this stage comes after suite-15): xid built from a copy of the sources and
# installed for it, one cluster on 127.0.0.1, which the chroot reaches
pg15=/usr/lib/postgresql/15/bin
pg15_vars=()
w15=""
if [ -n "${XID_CLIENTS_NO15:-}" ]; then
	echo "     (XID_CLIENTS_NO15: the packages are not tested against PostgreSQL 15)"
elif [ ! -x "$pg15/pg_ctl" ] || [ ! -x "$pg15/pg_config" ]; then
	echo "FAIL PostgreSQL 15 (server and dev files) is not installed on the host, for the packages' tests against it (XID_CLIENTS_NO15=1 leaves them out)"
	echo "clients: 0 passed, 1 failed"
	rm -rf "$dir/build/xid-clients"
	exit 1
else
	. ci/cluster.sh
	w15=$(mktemp -d /tmp/xid-clients15.XXXXXX)
	chmod 755 "$w15"
	copy_sources "$top" "$w15/src"
	port15=$(free_port 25150)
	# installed only where it differs from what is there: in the matrix,
	# suite-15 installed the same, and a stage after it may be loading it
	installed_same()
	{
		local lib share f
		lib=$("$pg15/pg_config" --pkglibdir)
		share=$("$pg15/pg_config" --sharedir)/extension
		cmp -s "$w15/src/xid.so" "$lib/xid.so" || return 1
		for f in "$w15"/src/xid*.control "$w15"/src/xid*--*.sql "$w15"/src/move/xid_move*; do
			[ -f "$f" ] || continue
			cmp -s "$f" "$share/$(basename "$f")" || return 1
		done
	}
	if ! make -s -C "$w15/src" PG_CONFIG="$pg15/pg_config" >"$w15/build.log" 2>&1 ||
		! { installed_same || make -s -C "$w15/src" install PG_CONFIG="$pg15/pg_config" >>"$w15/build.log" 2>&1; } ||
		! cluster_start "$pg15" "$w15/pg" "$port15" "listen_addresses = '127.0.0.1'" "max_connections = 100"; then
		tail -20 "$w15/build.log" | sed 's/^/     /'
		echo "FAIL building xid for the host's PostgreSQL 15 and starting it for the packages' tests"
		echo "clients: 0 passed, 1 failed"
		rm -rf "$dir/build/xid-clients" "$w15"
		exit 1
	fi
	pg15_vars=(XID_CLIENTS_PG15_PORT="$port15")
fi
in_namespace chroot_exec "$dir" XID_CLIENTS_TIMEOUT="${XID_CLIENTS_TIMEOUT:-1200}" "${pg15_vars[@]}" -- \
	bash /build/xid-clients/ci/clients.sh --inside "${langs[@]}"
rc=$?
if [ -n "$w15" ]; then
	cluster_stop "$pg15" "$w15/pg"
	rm -rf "$w15"
fi
rm -rf "$dir/build/xid-clients"
exit $rc
