#!/usr/bin/env bash
# demo.sh: install what xid needs on Debian 12, build and install it, start a
# throwaway PostgreSQL 15 server (as the postgres user, unix socket only, in
# a private directory) and run demo.sql against it.  Needs root.
set -euo pipefail
cd "$(dirname "$0")"
. ci/cluster.sh
. ci/lib.sh

apt_install postgresql-15 postgresql-server-dev-15 make gcc

bindir=/usr/lib/postgresql/15/bin
make -s PG_CONFIG=$bindir/pg_config >/dev/null
make -s PG_CONFIG=$bindir/pg_config install >/dev/null

dir=$(mktemp -d /tmp/xid-demo.XXXXXX)
port=$(free_port 54399)
trap 'cluster_stop "$bindir" "$dir"; rm -rf "$dir"' EXIT
cluster_start "$bindir" "$dir" "$port"
"$bindir/psql" -X -h "$dir/sock" -p "$port" -U postgres -d postgres \
	-v ON_ERROR_STOP=1 -e -f demo.sql
