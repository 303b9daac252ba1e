#!/usr/bin/env bash
# test/sh/replication.sh: logical replication of xid columns between two
# servers of this version (ci/replication.sh does the work; ci/matrix.sh
# runs it again from 15 to 17, 18 and 19).
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh

bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
chmod 711 "$work"
pub="$work/publisher"
sub="$work/subscriber"
trap 'cluster_stop "$bindir" "$pub"; cluster_stop "$bindir" "$sub"' EXIT
rm -rf "$pub" "$sub"
port=$(free_port)
cluster_start "$bindir" "$pub" "$port" "wal_level = logical"
cluster_start "$bindir" "$sub" "$port"

REP_PSQL="$bindir/psql" \
	REP_PUB="-h $pub/sock -p $port -U postgres" \
	REP_SUB="-h $sub/sock -p $port -U postgres" \
	REP_PUB_CONNINFO="host=$pub/sock port=$port user=postgres" \
	REP_WORK="$work/rep" \
	bash ci/replication.sh
