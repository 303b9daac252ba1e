#!/usr/bin/env bash
# clients/node/test.sh: the JavaScript/TypeScript package against a live
# server (test/clients.sh's contract: PGHOST PGPORT PGUSER PGDATABASE,
# XID_CLIENTS_WORK; prints ok/FAIL lines).  Runs from anywhere.
#
# node_modules comes from npm (exact versions, package-lock.json) once per
# lock file, into a cache kept beside the chroot's other caches.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
cache=${XID_NODE_CACHE:-/var/cache/xid-clients/node}
failed=0

lock_sum=$(sha256sum "$here/package-lock.json" | cut -c1-16)
modules="$cache/$lock_sum/node_modules"
if [ ! -d "$modules" ]; then
	rm -rf "$work/npm"
	mkdir -p "$work/npm" "$cache"
	cp "$here/package.json" "$here/package-lock.json" "$work/npm/"
	# npm ci checks every tarball against the sha512 in package-lock.json.
	# Where the registry is reached through a proxy whose certificate
	# authority this system does not hold, TLS cannot be verified: then the
	# lock file's hashes are what vouches for the packages.
	if ! (cd "$work/npm" && npm ci --no-audit --no-fund --ignore-scripts >"$work/npm.log" 2>&1) &&
		! { grep -q -E 'SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)' "$work/npm.log" &&
			(cd "$work/npm" && npm ci --no-audit --no-fund --ignore-scripts --strict-ssl=false >"$work/npm.log" 2>&1); }; then
		sed 's/^/    /' "$work/npm.log" | tail -20
		echo "FAIL npm ci (package-lock.json)"
		exit 1
	fi
	rm -rf "$cache/$lock_sum.tmp"
	mkdir -p "$cache/$lock_sum.tmp"
	mv "$work/npm/node_modules" "$cache/$lock_sum.tmp/node_modules"
	mv "$cache/$lock_sum.tmp" "$cache/$lock_sum"
fi
ln -sfn "$modules" "$here/node_modules"
echo "node $(node --version), $(cd "$here" && node -p "['pg', 'postgres', 'typescript'].map((m) => m + ' ' + JSON.parse(require('fs').readFileSync('node_modules/' + m + '/package.json')).version).join(', ')")"

cd "$here"
node test/codec.test.js || failed=1
node test/server.test.js || failed=1

# The TypeScript declarations: a program using every declared name compiles
if node_modules/.bin/tsc --noEmit -p . >"$work/tsc.log" 2>&1; then
	echo "ok   tsc --noEmit: the declarations and test/types.ts agree"
else
	sed 's/^/    /' "$work/tsc.log"
	echo "FAIL tsc --noEmit"
	failed=1
fi

# README: every fenced block under "### JavaScript and TypeScript" runs
node test/readme.test.js "$top/README.md" "$work" || failed=1

[ -n "${XID_CLIENTS_BENCH:-}" ] && node bench.js
exit $failed
