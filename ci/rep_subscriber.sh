#!/usr/bin/env bash
# ci/rep_subscriber.sh MAJOR PUB_PORT SUB_PORT: start a throwaway server
# of version MAJOR on 127.0.0.1:SUB_PORT (where xid is installed: a chroot
# of ci/chroot.sh after its suite ran) and run ci/replication.sh from
# the publisher on 127.0.0.1:PUB_PORT into it.  ci/matrix.sh uses it for
# replication across major versions.
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/cluster.sh
major=$1 pub_port=$2 sub_port=$3
bindir=/usr/lib/postgresql/$major/bin
work=$(mktemp -d /tmp/xid-rep-sub.XXXXXX)
chmod 711 "$work"
trap 'cluster_stop "$bindir" "$work/sub"; rm -rf "$work"' EXIT
cluster_start "$bindir" "$work/sub" "$sub_port" "listen_addresses = '127.0.0.1'"
REP_PSQL="$bindir/psql" \
	REP_PUB="-h 127.0.0.1 -p $pub_port -U postgres" \
	REP_SUB="-h 127.0.0.1 -p $sub_port -U postgres" \
	REP_PUB_CONNINFO="host=127.0.0.1 port=$pub_port user=postgres" \
	REP_WORK="$work/rep" \
	bash ci/replication.sh
