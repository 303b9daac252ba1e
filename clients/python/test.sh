#!/usr/bin/env bash
# clients/python/test.sh: the Python package's tests (pytest), run by
# test/clients.sh inside the PostgreSQL 18 chroot with PGHOST, PGPORT,
# PGUSER, PGDATABASE set (a database with xid in schema public) and
# XID_CLIENTS_WORK a scratch directory.  One line per test: "ok   ...",
# "FAIL ..." or "skip ...".
set -uo pipefail
cd "$(dirname "$0")"
export PYTHONPATH="$PWD/src" PYTHONDONTWRITEBYTECODE=1 XID_RESULT_LINES=1
basetemp=()
[ -n "${XID_CLIENTS_WORK:-}" ] && basetemp=(--basetemp "$XID_CLIENTS_WORK/pytest")
exec python3 -m pytest "${basetemp[@]}" -p no:terminal -p no:cacheprovider --continue-on-collection-errors tests "$@"
