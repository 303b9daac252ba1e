#!/usr/bin/env bash
# test/clients.sh: the client packages (clients/LANG/) tested against a real
# PostgreSQL 18 with xid, in the chroot of test/chroot.sh: the toolchains
# from Debian (clients/debian-packages), the drivers and frameworks from
# each language's registry, pinned by the package's lock file.  Needs root.  Called by test/matrix.sh; also runs alone.
#
# Usage: test/clients.sh [LANG...]     (default: every clients/*/test.sh)
#   XID_CHROOT_CACHE     where chroots are kept (default /var/cache/xid-ci)
#   XID_CLIENTS_TIMEOUT  seconds one LANG's test.sh may take (default 1200)
#
# What it does:
# - test/chroot.sh prepares the PostgreSQL 18 chroot; its package line
#   includes clients/debian-packages (one Debian package a line, "#"
#   comments), so a package added there is installed into the cached chroot
#   in place;
# - the sources are copied to /build/xid-clients in the chroot (not
#   /build/xid, which test/matrix.sh uses), xid is built and installed;
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
#   nothing else, with the host's certificate authorities).
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
	. test/cluster.sh
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
	port=$(free_port 55180)
	if ! cluster_start "$bindir" "$work/pg" "$port" "listen_addresses = '127.0.0.1'" \
		"max_connections = 100"; then
		echo "FAIL starting PostgreSQL 18 for the client tests"
		failed=$((failed + 1))
		finish
	fi
	psql=("$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres)

	for lang in "$@"; do
		script="clients/$lang/test.sh"
		log="$work/$lang.log"
		scratch="$work/work-$lang"
		rm -rf "$scratch"
		mkdir -p "$scratch"
		if ! "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS xid_clients WITH (FORCE)" \
			-c "CREATE DATABASE xid_clients" >"$log" 2>&1 ||
			! "${psql[@]}" -d xid_clients -c "CREATE EXTENSION xid SCHEMA public" >>"$log" 2>&1; then
			sed 's/^/     /' "$log"
			echo "FAIL $lang: creating database xid_clients with xid"
			failed=$((failed + 1))
			continue
		fi
		echo "---- $lang ($script)"
		start=$SECONDS
		env PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres PGDATABASE=xid_clients \
			XID_CLIENTS_WORK="$scratch" XID_PG_BINDIR="$bindir" PATH="$bindir:$PATH" \
			timeout -k 10 "${XID_CLIENTS_TIMEOUT:-1200}" bash "$script" </dev/null 2>&1 |
			tee "$log" | awk -v lang="$lang" '
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
			echo "FAIL $lang: $script ran past ${XID_CLIENTS_TIMEOUT:-1200} s"
			f=$((f + 1))
		elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "FAIL $lang: $script exited $rc"
			f=1
		elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
			echo "FAIL $lang: $script printed no result"
			f=1
		fi
		skipped=""
		if [ "$s" -gt 0 ] && [ -z "${XID_CLIENTS_ALLOW_SKIP:-}" ]; then
			echo "FAIL $lang: $s tests skipped (the skip lines above): a framework, driver or the server was missing"
			f=$((f + 1))
		fi
		[ "$s" -gt 0 ] && skipped=", $s skipped"
		echo "---- $lang: $p passed, $f failed$skipped in $((SECONDS - start)) s"
		passed=$((passed + p))
		failed=$((failed + f))
	done
	finish
fi

# ---- on the host
cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
dir="$cache/pg18"

if [ "$(id -u)" -ne 0 ]; then
	echo "test/clients.sh needs root (chroot, mounts, runuser)" >&2
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
	echo "test/clients.sh: another run holds $dir.clients.lock, waiting"
	flock 9
fi

# every command that mounts inside the chroot runs in a private mount
# namespace: its unmounting at the end touches no other run's mounts
in_namespace()
{
	unshare --mount --propagation private bash -c '. "$1/test/lib.sh"; shift; "$@"' _ "$top" "$@"
}

if ! unshare --mount --propagation private bash "$top/test/chroot.sh" 18 "$dir"; then
	echo "FAIL preparing the PostgreSQL 18 chroot with clients/debian-packages (test/chroot.sh)"
	echo "clients: 0 passed, 1 failed"
	exit 1
fi
mkdir -p "$dir/build"
copy_sources "$top" "$dir/build/xid-clients"
in_namespace chroot_exec "$dir" XID_CLIENTS_TIMEOUT="${XID_CLIENTS_TIMEOUT:-1200}" -- \
	bash /build/xid-clients/test/clients.sh --inside "${langs[@]}"
rc=$?
rm -rf "$dir/build/xid-clients"
exit $rc
