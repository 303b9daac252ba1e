#!/usr/bin/env bash
# clients/go/test.sh: the Go package against a live server (test/clients.sh's
# contract: PGHOST PGPORT PGUSER PGDATABASE, XID_CLIENTS_WORK; prints
# ok/FAIL lines).
#
# pgx v5 (and v4, for v4check) and google/uuid come from Debian's golang-*-dev packages,
# which put their sources under /usr/share/gocode/src.  With no module proxy
# here, the tests build in GOPATH mode over that tree (the package itself
# has an ordinary go.mod for users).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
module=github.com/xid-pg/xid/clients/go
failed=0

gopath="$work/gopath"
rm -rf "$gopath"
mkdir -p "$gopath/src/$(dirname "$module")"
cp -r "$here" "$gopath/src/$module"
export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOPROXY=off GOFLAGS= GOTOOLCHAIN=local
export GOCACHE=${XID_GO_CACHE:-/var/cache/xid-clients/go-build}
mkdir -p "$GOCACHE"
echo "$(go version), pgx $(dpkg-query -W -f '${Version}' golang-github-jackc-pgx-v5-dev) and $(dpkg-query -W -f '${Version}' golang-github-jackc-pgx-v4-dev) (Debian)"

cd "$gopath/src/$module"
# go test -v: "--- PASS: Name" and "--- FAIL: Name" become ok/FAIL lines
report()
{
	awk -v pkg="$1" '
		/^ *--- PASS: / { sub(/^ *--- PASS: /, ""); sub(/ \([0-9.]+s\)$/, ""); print "ok   " pkg ": " $0; next }
		/^ *--- FAIL: / { sub(/^ *--- FAIL: /, ""); sub(/ \([0-9.]+s\)$/, ""); print "FAIL " pkg ": " $0; next }
		/^ *--- SKIP: / { sub(/^ *--- SKIP: /, ""); sub(/ \([0-9.]+s\)$/, ""); print "skip " pkg ": " $0; next }
		/^(=== RUN|=== PAUSE|=== CONT|PASS$|ok  )/ { next }
		{ print "    " $0 }'
}
for pkg in . ./pgxxid ./v4check; do
	[ -d "$pkg" ] || continue
	go vet "$pkg" >"$work/vet.log" 2>&1 || { sed 's/^/    /' "$work/vet.log"; echo "FAIL go vet $pkg"; failed=1; }
	go test -count=1 -v "$pkg" 2>&1 | report "${pkg#./}"
	[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
done
# README: the Go block of "### Go" is a program; it runs against a table
# orders like the JavaScript block's
mkdir -p "$gopath/src/readme"
awk '$0 == "### Go" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```go$/ { code = 1; next } code && /^```$/ { code = 0; n++; next }
	code { print }
	END { if (n != 1) exit 1 }' "$top/README.md" >"$gopath/src/readme/main.go" ||
	{ echo "FAIL README: the Go section should hold exactly one go block"; failed=1; }
if psql -X -q -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS orders" \
	-c "CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)" \
	-c "INSERT INTO orders (item) VALUES ('pear')" >"$work/readme.log" 2>&1 &&
	(cd "$gopath/src/readme" && go vet . && go run .) >>"$work/readme.log" 2>&1 &&
	grep -q -E '^[1-9A-HJ-NP-Za-km-z]{11} 20' "$work/readme.log"; then
	echo "ok   README: the Go program runs ($(tail -1 "$work/readme.log"))"
else
	sed 's/^/    /' "$work/readme.log"
	echo "FAIL README: the Go program"
	failed=1
fi
exit $failed
