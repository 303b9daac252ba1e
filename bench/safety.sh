#!/usr/bin/env bash
# bench/safety.sh [MAJOR]: what the protections for a shared server cost: DDL with
# the core-xid warning against DDL without it (and against event triggers
# at ddl_command_end), and the portable functions with qualified bodies
# against their unqualified predecessor and a pinned search_path.  On the
# host (15) or in a chroot of ci/chroot.sh (XID_CHROOT to use a copy).
# Needs root.  Output: bench/results-safety-MAJOR.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
major=${1:-15}
# the portable script before its bodies were qualified
before_rev=${XID_PORTABLE_BEFORE:-cceccda}
out="$top/bench/results-safety-$major.txt"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes)"

if [ "$major" = 15 ]; then
	apt_install postgresql-15 postgresql-server-dev-15 make gcc
	git show "$before_rev:portable/xid_portable.sql" >/tmp/xid-portable-before.sql
	XID_COMMIT=$commit bash bench/safety-local.sh /usr/lib/postgresql/15/bin/pg_config \
		/tmp/xid-portable-before.sql | tee "$out"
else
	dir=${XID_CHROOT:-${XID_CHROOT_CACHE:-/var/cache/xid-ci}/pg$major}
	[ -n "${XID_CHROOT:-}" ] || bash ci/chroot.sh "$major" "$dir"
	copy_sources "$top" "$dir/build/xid"
	git show "$before_rev:portable/xid_portable.sql" >"$dir/build/portable-before.sql"
	chroot_exec "$dir" XID_COMMIT="$commit" BENCH_ROUNDS="${BENCH_ROUNDS:-}" -- \
		bash /build/xid/bench/safety-local.sh "/usr/lib/postgresql/$major/bin/pg_config" \
		/build/portable-before.sql | tee "$out"
fi
