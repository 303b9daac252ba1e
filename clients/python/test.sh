#!/usr/bin/env bash
# clients/python/test.sh: the Python package's tests (pytest), run by
# ci/clients.sh inside the PostgreSQL 18 chroot with PGHOST, PGPORT,
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
# the package's tests: pytest, as README's "Testing" runs it (pyproject.toml
# names tests/ and src/), here with one line per test (XID_RESULT_LINES);
# against 15 (XID_CLIENTS_SERVER_ONLY=1) the tests that talk to a server:
# the codec's, pydantic's and the package's own talk to none
export PYTHONDONTWRITEBYTECODE=1 XID_RESULT_LINES=1
only=()
[ -n "${XID_CLIENTS_SERVER_ONLY:-}" ] &&
	only=(--ignore=tests/test_codec.py --ignore=tests/test_pydantic.py --ignore=tests/test_package.py)
"$venv/bin/pytest" --basetemp "$work/pytest" -p no:terminal -p no:cacheprovider \
	--continue-on-collection-errors "${only[@]}" "$@"
rc=$?
# XID_CLIENTS_SERVER_ONLY=1 (ci/clients.sh, against PostgreSQL 15): the
# package's tests only, not the application below
[ -n "${XID_CLIENTS_SERVER_ONLY:-}" ] && exit $rc

# An application outside the package (app/app.py, in the scratch
# directory): pgxid built as it is published, a wheel and an sdist (the
# PEP 517 hooks of pyproject.toml's backend, no network), each installed
# into the application's own directory and imported from there, with the
# drivers of requirements.txt (the venv's), against the server.
start=$SECONDS
unset PYTHONPATH
py="$venv/bin/python"
pkg="$work/pkg"
dist="$work/dist"
ver=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml)
rm -rf "$pkg" "$dist"
mkdir -p "$dist"
cp -r . "$pkg"
rm -rf "$pkg/tests" "$pkg/app"
if ! (cd "$pkg" && "$py" -c 'import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))' "$dist" &&
	PIP_NO_INDEX=1 "$py" -m pip wheel --quiet --no-deps --no-build-isolation --disable-pip-version-check -w "$dist" "$pkg") \
	>"$work/build.log" 2>&1 || [ ! -f "$dist/pgxid-$ver.tar.gz" ] || ! ls "$dist/pgxid-$ver"-*.whl >/dev/null 2>&1; then
	tail -20 "$work/build.log" | sed 's/^/    /'
	ls "$dist" | sed 's/^/    /'
	echo "FAIL app: building the sdist (setuptools' build_meta) and the wheel (pip wheel)"
	rc=1
else
	for artifact in "$dist"/pgxid-*.whl "$dist"/pgxid-*.tar.gz; do
		name=$(basename "$artifact")
		app="$work/app-${name##*.}"
		rm -rf "$app"
		mkdir -p "$app"
		cp app/app.py "$app/"
		if ! (cd "$app" && PIP_NO_INDEX=1 "$py" -m pip install --quiet --no-deps --no-build-isolation \
			--disable-pip-version-check --target "$app/site" "$artifact") >"$work/app.log" 2>&1; then
			tail -20 "$work/app.log" | sed 's/^/    /'
			echo "FAIL app: pip install of $name into an application outside the repository"
			rc=1
		elif (cd "$app" && PYTHONPATH="$app/site" "$py" app.py) >"$work/app.log" 2>&1; then
			echo "ok   app outside the repository installs the built $name and runs: $(tail -1 "$work/app.log")"
		else
			tail -20 "$work/app.log" | sed 's/^/    /'
			echo "FAIL app: app.py with the built $name"
			rc=1
		fi
	done
fi
echo "    app: $((SECONDS - start)) s"

# Typing: app/shop, a Django app with README's model, checked by mypy
# --strict with django-stubs' plugin (both pinned by requirements.txt) and
# the configuration of README's ini block, against pgxid as an application
# has it: the built wheel installed into the venv (PEP 561: py.typed).
# views.py's assert_type lines fail the check where a type is not the one
# README says (order.id an Xid).
start=$SECONDS
typing="$work/typing"
rm -rf "$typing"
mkdir -p "$typing"
cp -r app/shop "$typing/"
awk '$0 == "```ini" { code = 1; n++; next } code && /^```$/ { code = 0; next } code { print }
	END { if (n != 1) exit 1 }' README.md >"$typing/mypy.ini" || {
	echo "FAIL typing: README should hold one ini block (the mypy configuration)"
	rc=1
}
wheel=$(ls "$dist"/pgxid-*.whl 2>/dev/null | head -1)
if [ -z "$wheel" ] || ! PIP_NO_INDEX=1 "$py" -m pip install --quiet --no-deps --no-compile --disable-pip-version-check \
	"$wheel" >"$work/typing.log" 2>&1; then
	tail -20 "$work/typing.log" | sed 's/^/    /'
	echo "FAIL typing: pip install of the built wheel into the venv, for mypy"
	rc=1
elif (cd "$typing" && "$py" -m mypy --no-incremental --config-file mypy.ini shop) >"$work/typing.log" 2>&1; then
	echo "ok   typing: mypy --strict with django-stubs' plugin (README's mypy.ini) on app/shop: XidField is Field[Xid | str, Xid], order.id an Xid ($(tail -1 "$work/typing.log"); $("$py" -m mypy --version | cut -d' ' -f1-2), django-stubs $("$py" -c 'from importlib.metadata import version; print(version("django-stubs"))'), $((SECONDS - start)) s)"
else
	sed 's/^/    /' "$work/typing.log" | tail -30
	echo "FAIL typing: mypy --strict of app/shop (README's mypy.ini)"
	rc=1
fi
exit $rc
