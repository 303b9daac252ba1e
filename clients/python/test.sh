#!/usr/bin/env bash
# clients/python/test.sh: the Python package's tests (pytest), run by
# test/clients.sh inside the PostgreSQL 18 chroot with PGHOST, PGPORT,
# PGUSER, PGDATABASE set (a database with xid in schema public) and
# XID_CLIENTS_WORK a scratch directory.  One line per test: "ok   ...",
# "FAIL ..." or "skip ...".
#
# Python itself comes from Debian (clients/debian-packages: python3,
# python3-venv); everything else, pytest, the drivers and the frameworks,
# from PyPI at the versions and hashes of requirements.txt, installed as
# wheels only (no .pyc compiled: a third of the CPU time) into a venv in
# the scratch directory (pip's own cache, in
# ~/.cache/pip, is the only thing kept between runs).
set -uo pipefail
cd "$(dirname "$0")"
work=${XID_CLIENTS_WORK:-}
if [ -z "$work" ]; then
	work=$(mktemp -d /tmp/pgxid-test.XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
venv=$work/venv
start=$SECONDS
if ! python3 -m venv "$venv" >"$work/venv.log" 2>&1 ||
	! "$venv/bin/python" -m pip install --quiet --no-compile --disable-pip-version-check --no-input \
		--require-hashes --only-binary :all: -r requirements.txt >>"$work/venv.log" 2>&1; then
	tail -30 "$work/venv.log" | sed 's/^/    /'
	echo "FAIL installing the test requirements from PyPI into a venv (requirements.txt)"
	exit 1
fi
echo "python: $("$venv/bin/python" --version), venv with requirements.txt in $((SECONDS - start)) s"
export PYTHONPATH="$PWD/src" PYTHONDONTWRITEBYTECODE=1 XID_RESULT_LINES=1
"$venv/bin/python" -m pytest --basetemp "$work/pytest" -p no:terminal -p no:cacheprovider \
	--continue-on-collection-errors tests "$@"
