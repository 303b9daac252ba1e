#!/usr/bin/env bash
# clients/go/test.sh: the Go package against a live server (ci/clients.sh's
# contract: PGHOST PGPORT PGUSER PGDATABASE, XID_CLIENTS_WORK; prints
# ok/FAIL lines).
#
# Module mode: every module comes from the Go module proxy, pinned by the
# go.sum of the module that needs it (the package: pgx v5; v4check: pgx v4;
# gormcheck: GORM and its PostgreSQL driver; sqlccheck: sqlc, a tool of that
# module), with -mod=readonly so that nothing is resolved anew.  Only Go
# itself comes from Debian (golang-go), and GOTOOLCHAIN=local keeps it: a
# module that needs a newer Go fails here instead of fetching one.  The go
# command caches in its own places under $HOME (~/go/pkg/mod,
# ~/.cache/go-build).  CGO_ENABLED=0: sqlc's PostgreSQL parser is then the
# WebAssembly build of libpg_query, and no C compiler runs.
#
# The module's own tests are "go test ./..." here (README's "Testing"); the
# nested modules' the same in their directories.  XID_CLIENTS_SERVER_ONLY=1
# (ci/clients.sh, against PostgreSQL 15): those tests only (xid, pgxxid,
# v4check, gormcheck): not go vet, sqlc, README's programs or the
# application outside the repository.
#
# The sources are copied to the scratch directory, where sqlc writes its
# code (sqlccheck/db) and the README's programs are put.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
failed=0
export GOFLAGS=-mod=readonly GOTOOLCHAIN=local CGO_ENABLED=0

src="$work/go"
rm -rf "$src"
cp -r "$here" "$src"
rm -rf "$src/sqlccheck/db" "$src/readme"
start=$SECONDS
pgx=$(cd "$src" && go list -m -f '{{.Version}}' github.com/jackc/pgx/v5) &&
	gorm=$(cd "$src/gormcheck" && go list -m -f '{{.Version}}' gorm.io/gorm) &&
	sqlc=$(cd "$src/sqlccheck" && go list -m -f '{{.Version}}' github.com/sqlc-dev/sqlc) ||
	{ echo "FAIL go list -m: the modules' versions"; exit 1; }
echo "$(go version); pgx $pgx, GORM $gorm, sqlc $sqlc (module proxy, go.sum)"

# go test -v: "--- PASS: Name" and "--- FAIL: Name" become ok/FAIL lines,
# named by their package (the line "ok|FAIL  PATH" that ends its output)
report()
{
	awk '
		/^ *--- (PASS|FAIL|SKIP): / {
			w = $2 == "PASS:" ? "ok  " : $2 == "FAIL:" ? "FAIL" : "skip"
			sub(/^ *--- [A-Z]+: /, ""); sub(/ \([0-9.]+s\)$/, "")
			word[++n] = w; out[n] = $0; next
		}
		/^(ok|FAIL|\?)[ \t]+[^ \t]+\// { pkg = $2; sub(/.*\//, "", pkg); flush(); next }
		/^(=== RUN|=== PAUSE|=== CONT|PASS$|FAIL$)/ { next }
		{ word[++n] = ""; out[n] = "    " $0 }
		function flush(i) {
			for (i = 1; i <= n; i++) print word[i] == "" ? out[i] : word[i] " " pkg ": " out[i]
			n = 0
		}
		END { pkg = "go"; flush() }'
}

# gotest DIR PACKAGES...: go vet (not against 15) and go test -v of a
# module's packages; the package's own is "go test ./..." in this directory
gotest()
{
	local dir=$1 t=$SECONDS
	shift
	if [ -z "${XID_CLIENTS_SERVER_ONLY:-}" ] && ! (cd "$src/$dir" && go vet "$@") >"$work/vet.log" 2>&1; then
		sed 's/^/    /' "$work/vet.log"
		echo "FAIL go vet in ${dir/#./the module}"
		failed=1
	fi
	(cd "$src/$dir" && go test -count=1 -v "$@") 2>&1 | report
	[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
	echo "    ${dir/#./the module}: tested in $((SECONDS - t)) s"
}
gotest . ./...
gotest v4check .
gotest gormcheck .
if [ -n "${XID_CLIENTS_SERVER_ONLY:-}" ]; then
	echo "    go: $((SECONDS - start)) s in all"
	exit $failed
fi

# README.md's section "From your application": go blocks are programs, the yaml block is
# sqlccheck's sqlc.yaml
awk '$0 == "## From your application" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```(go|yaml)$/ { code = 1; n++; lang = substr($0, 4); next }
	code && /^```$/ { code = 0; next }
	code { print > (dir "/" n "." lang) }' dir="$work" "$here/README.md"
readme_go=$(ls "$work"/*.go 2>/dev/null | wc -l)
readme_yaml=$(ls "$work"/*.yaml 2>/dev/null)
if [ "$readme_go" -ne 3 ] || [ "$(echo "$readme_yaml" | grep -c .)" -ne 1 ]; then
	echo "FAIL README: the Go section should hold three go blocks (pgx, database/sql, GORM) and one yaml block (sqlc)"
	failed=1
elif grep -v '^ *#' "$here/sqlccheck/sqlc.yaml" | cmp -s - "$readme_yaml"; then
	cp "$readme_yaml" "$src/sqlccheck/sqlc.yaml"
	echo "ok   README: its sqlc.yaml is sqlccheck's"
else
	grep -v '^ *#' "$here/sqlccheck/sqlc.yaml" | diff - "$readme_yaml" | sed 's/^/    /'
	echo "FAIL README: its sqlc.yaml differs from clients/go/sqlccheck/sqlc.yaml (comments aside)"
	failed=1
fi

# sqlc: built from the module cache and run; what it writes is compiled by
# the tests below
t=$SECONDS
if (cd "$src/sqlccheck" && go tool sqlc generate) >"$work/sqlc.log" 2>&1 && [ -f "$src/sqlccheck/db/query.sql.go" ]; then
	echo "ok   sqlc generate: sqlc $sqlc built and run in $((SECONDS - t)) s"
else
	sed 's/^/    /' "$work/sqlc.log"
	echo "FAIL sqlc generate"
	failed=1
fi

# what README says of sqlc without the override: a bare xid is core's
# transaction id (pgtype.Uint32), public.xid an interface{}
mkdir -p "$src/sqlccheck/bare"
echo 'CREATE TABLE t (a xid PRIMARY KEY, b public.xid);' >"$src/sqlccheck/bare/schema.sql"
printf -- '-- name: Get :one\nSELECT * FROM t WHERE a = $1;\n' >"$src/sqlccheck/bare/query.sql"
sed -n '/^version/,/sql_package/p' "$src/sqlccheck/sqlc.yaml" >"$src/sqlccheck/bare/sqlc.yaml"
if (cd "$src/sqlccheck/bare" && go tool sqlc generate) >"$work/sqlc-bare.log" 2>&1 &&
	grep -Eq '^\s+A\s+pgtype\.Uint32$' "$src/sqlccheck/bare/db/models.go" &&
	grep -Eq '^\s+B\s+interface\{\}$' "$src/sqlccheck/bare/db/models.go"; then
	echo "ok   sqlc without the override: a bare xid is pgtype.Uint32, public.xid interface{}"
else
	cat "$work/sqlc-bare.log" "$src/sqlccheck/bare/db/models.go" 2>/dev/null | sed 's/^/    /'
	echo "FAIL sqlc without the override: a bare xid should be pgtype.Uint32 (README)"
	failed=1
fi

gotest sqlccheck .

# README: the pgx and database/sql programs run in the package's module,
# the GORM program in gormcheck's, each against a fresh table orders
mkdir -p "$src/readme" "$src/gormcheck/readme"
for f in "$work"/*.go; do
	n=$(basename "$f" .go)
	if grep -q '"gorm.io/gorm"' "$f"; then
		d=gormcheck/readme/$n
		what="the GORM program"
	elif grep -q '"database/sql"' "$f"; then
		d=readme/$n
		what="the database/sql program"
	else
		d=readme/$n
		what="the pgx program"
	fi
	mkdir -p "$src/$d"
	cp "$f" "$src/$d/main.go"
	if psql -X -q -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS lines, orders" \
		-c "CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)" \
		-c "INSERT INTO orders (item) VALUES ('pear'), ('plum')" >"$work/readme.log" 2>&1 &&
		(cd "$src/$d" && go vet . && go run .) >>"$work/readme.log" 2>&1 &&
		grep -q -E '^[1-9A-HJ-NP-Za-km-z]{11} ' "$work/readme.log"; then
		echo "ok   README: $what runs ($(tail -1 "$work/readme.log"))"
	else
		sed 's/^/    /' "$work/readme.log"
		echo "FAIL README: $what"
		failed=1
	fi
done
# An application outside the repository (app/: its own go.mod and go.sum,
# pgx pinned, the xid module not in go.sum): the module served by a module
# proxy in a directory (GOPROXY=file://...), a zip of the package without
# its nested modules, as a published version would be, fetched by go get of
# the package's path, as README says (a go get of the module alone, which
# has no package at its root, leaves the zip's checksum out of go.sum);
# then real queries through pgx and database/sql.  The go command keeps
# what it downloads: the cached copy of the module is removed first, so
# that the version is fetched anew from this run's sources, and its index
# of the module cache's packages (in GOCACHE, which takes a version for
# immutable) is not used for the app (GODEBUG=goindex=0): it would still
# list an earlier run's packages.
goproxy_dir()
{
	python3 - "$@" <<'PY'
import json, os, sys, zipfile
src, mod, ver, proxy = sys.argv[1:]
d = os.path.join(proxy, mod, "@v")
os.makedirs(d, exist_ok=True)
with zipfile.ZipFile(os.path.join(d, ver + ".zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(x for x in dirs if x not in (".git", "vendor")
                         and not os.path.exists(os.path.join(root, x, "go.mod")))
        for f in sorted(files):
            p = os.path.join(root, f)
            if os.path.isfile(p) and not os.path.islink(p):
                z.write(p, mod + "@" + ver + "/" + os.path.relpath(p, src))
with open(os.path.join(d, ver + ".mod"), "w") as o, open(os.path.join(src, "go.mod")) as i:
    o.write(i.read())
with open(os.path.join(d, ver + ".info"), "w") as o:
    json.dump({"Version": ver, "Time": "2026-11-21T00:00:00Z"}, o)
with open(os.path.join(d, "list"), "w") as o:
    o.write(ver + "\n")
PY
}
t=$SECONDS
module=github.com/xid-pg/xid/clients/go
version=$(awk -v m="$module" '$1 == m { print $2 }' "$here/app/go.mod")
proxy="$work/goproxy"
modcache=$(go env GOMODCACHE)
rm -rf "$proxy" "$work/app"
for d in "$modcache/github.com/xid-pg" "$modcache/cache/download/github.com/xid-pg"; do
	[ -d "$d" ] && chmod -R u+w "$d" && rm -rf "$d"
done
cp -r "$here/app" "$work/app"
if ! goproxy_dir "$here" "$module" "$version" "$proxy" >"$work/app.log" 2>&1 ||
	! (cd "$work/app" && GODEBUG=goindex=0 GOPROXY="file://$proxy,$(go env GOPROXY)" GONOSUMDB=github.com/xid-pg GOFLAGS=-mod=mod \
		go get "$module/xid@$version") >>"$work/app.log" 2>&1; then
	sed 's/^/    /' "$work/app.log" | tail -20
	echo "FAIL app: go get $module@$version from a module proxy directory"
	failed=1
elif (cd "$work/app" && export GODEBUG=goindex=0 && go vet . && go run .) >"$work/app.log" 2>&1 &&
	grep -q "^pgx and database/sql: " "$work/app.log"; then
	echo "ok   app outside the repository installs the built module zip ($module@$version, from a module proxy directory) and runs: $(tail -1 "$work/app.log") ($((SECONDS - t)) s)"
else
	sed 's/^/    /' "$work/app.log" | tail -20
	echo "FAIL app: go run of app/ with $module@$version"
	failed=1
fi
# README's section "Installing" before the module is published: its block
# (require and replace) is the go.mod of a copy of app/ without app's own
# requirement of the module, with the module's sources at the path that
# the replace names, ../xid/clients/go; then go mod tidy, as README says,
# and the program runs.
t=$SECONDS
rm -rf "$work/replace"
mkdir -p "$work/replace/xid/clients" "$work/replace/app"
cp -r "$here" "$work/replace/xid/clients/go"
cp -r "$here/app/." "$work/replace/app/"
awk '$0 == "## Installing" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```$/ { if (code) code = 0; else { code = 1; n++ }; next }
	code && n == 1 { print }
	END { if (n != 1) exit 1 }' "$here/README.md" >"$work/readme-gomod" &&
	grep -q '^replace github.com/xid-pg/xid/clients/go => \.\./xid/clients/go$' "$work/readme-gomod" || {
	sed 's/^/    | /' "$work/readme-gomod"
	echo "FAIL README's section Installing: one block, with the replace by ../xid/clients/go, expected"
	failed=1
}
{ grep -v "^[[:space:]]*$module v" "$here/app/go.mod"; echo; cat "$work/readme-gomod"; } >"$work/replace/app/go.mod"
if (cd "$work/replace/app" && GOFLAGS= go mod tidy && go vet . && go run .) >"$work/replace.log" 2>&1 &&
	grep -q "^pgx and database/sql: " "$work/replace.log"; then
	echo "ok   README's Installing block: app/ with that require and replace (a copy of the module at ../xid/clients/go), go mod tidy, runs: $(tail -1 "$work/replace.log") ($((SECONDS - t)) s)"
else
	sed 's/^/    /' "$work/replace.log" | tail -20
	echo "FAIL README's Installing block: app/ with its require and replace"
	failed=1
fi
echo "    go: $((SECONDS - start)) s in all"
exit $failed
