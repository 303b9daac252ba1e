#!/usr/bin/env bash
# clients/rust/test.sh: the Rust crate against a live server (ci/clients.sh's
# contract: PGHOST PGPORT PGUSER PGDATABASE, XID_CLIENTS_WORK; prints ok/FAIL
# lines).
#
# rustc, cargo, clippy and rustfmt come from Debian (clients/debian-packages);
# every crate from crates.io at the versions Cargo.lock pins (--locked: a
# lock file that no longer fits Cargo.toml fails instead of being redone).
# Cargo keeps its downloads in ~/.cargo (CARGO_HOME) and the build in one
# target directory under ~/.cache, shared by clippy, rustdoc and the tests,
# so a warm run compiles only the crate itself.  The sources are copied to
# the scratch directory, with this directory's README.md's Rust blocks (section
# "From your application") added as examples
# (examples/readme_N.rs), which run after the tests against a table orders.
# `cargo test` prints "test NAME ... ok|FAILED|ignored": each becomes an
# ok/FAIL/skip line.  The benchmark (examples/bench.rs) is built and
# linted here, and run by hand (BENCHMARKS.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${XID_CLIENTS_WORK:-$(mktemp -d)}
failed=0
export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/xid-clients-rust/target}
# no debug info in the test builds: a cold build (every driver crate,
# compiled once for clippy and once for the tests) links faster
export CARGO_TERM_COLOR=never CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0
mkdir -p "$CARGO_HOME" "$CARGO_TARGET_DIR"
start=$SECONDS

src="$work/rust"
rm -rf "$src"
mkdir -p "$src"
(cd "$here" && tar --exclude=./target -cf - .) | (cd "$src" && tar -xf -)
cd "$src" || exit 1

crates=$(awk '/^name = "(tokio-postgres|postgres-types|sqlx|diesel|uuid)"$/ { n = $3; getline; gsub(/"/, "", n); printf "%s%s %s", sep, n, $3; sep = ", " }' Cargo.lock | sed 's/version = //g; s/"//g')
echo "    $(rustc --version); $(cargo --version); $crates (crates.io, Cargo.lock)"

# step NAME COMMAND...: one ok/FAIL line, the log's tail on a failure
step()
{
	local name=$1 t=$SECONDS
	shift
	if "$@" >"$work/step.log" 2>&1; then
		echo "ok   $name ($((SECONDS - t)) s)"
	else
		grep -E '^(error|warning)|^ *--> |^Diff in' "$work/step.log" | head -40 | sed 's/^/    /'
		tail -15 "$work/step.log" | sed 's/^/    /'
		echo "FAIL $name"
		failed=1
		return 1
	fi
}

# README.md's section "From your application": each rust block is a program
mkdir -p "$src/examples"
awk '$0 == "## From your application" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```rust$/ { code = 1; n++; next } code && /^```$/ { code = 0; next }
	code { print > (dir "/readme_" n ".rs") }' dir="$src/examples" "$here/README.md"
readme=$(ls "$src"/examples/readme_*.rs 2>/dev/null | wc -l)
if [ "$readme" -lt 1 ]; then
	echo "FAIL README: no rust block in the Rust section"
	failed=1
fi

step "cargo fetch --locked: the crates of Cargo.lock" cargo fetch --locked || exit 1
# XID_CLIENTS_SERVER_ONLY=1 (ci/clients.sh, against PostgreSQL 15): cargo
# test only, not the lints, the docs, README's programs or the application
server_only=${XID_CLIENTS_SERVER_ONLY:-}
[ -n "$server_only" ] || {
step "cargo fmt --check" cargo fmt --check
step "no_std: the codec builds without std (alloc only)" cargo check --locked --lib --no-default-features
step "cargo clippy --all-targets --all-features -D warnings" \
	cargo clippy --locked --all-targets --all-features -- -D warnings
step "cargo doc --all-features, warnings denied" \
	env RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --all-features
}

t=$SECONDS
cargo test --locked --all-features --no-fail-fast -- --test-threads=2 >"$work/test.log" 2>&1
rc=$?
awk '
	/^test .* \.\.\. ok$/ { sub(/^test /, ""); sub(/ \.\.\. ok$/, ""); print "ok   " $0; n++; next }
	/^test .* \.\.\. FAILED$/ { sub(/^test /, ""); sub(/ \.\.\. FAILED$/, ""); print "FAIL " $0; n++; next }
	/^test .* \.\.\. ignored/ { sub(/^test /, ""); sub(/ \.\.\. ignored.*$/, ""); print "skip " $0; n++; next }
	END { if (n == 0) print "FAIL cargo test ran no test" }' "$work/test.log"
if [ "$rc" -ne 0 ]; then
	sed -n '/^failures:$/,/^test result/p' "$work/test.log" | head -80 | sed 's/^/    /'
	grep -E '^error' -A8 "$work/test.log" | head -40 | sed 's/^/    /'
	echo "FAIL cargo test: exit $rc"
	failed=1
fi
echo "    cargo test: $((SECONDS - t)) s"
[ -n "$server_only" ] && exit $failed

# the README's programs, against a table orders
for f in "$src"/examples/readme_*.rs; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .rs)
	if psql -X -q -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS orders" \
		-c "CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)" \
		-c "INSERT INTO orders (item) VALUES ('pear')" >"$work/readme.log" 2>&1 &&
		cargo run --locked --quiet --all-features --example "$name" >>"$work/readme.log" 2>&1 &&
		grep -q -E '^[1-9A-HJ-NP-Za-km-z]{11} ' "$work/readme.log"; then
		echo "ok   README: $name runs ($(tail -1 "$work/readme.log"))"
	else
		sed 's/^/    /' "$work/readme.log" | tail -30
		echo "FAIL README: $name"
		failed=1
	fi
done
# An application outside the crate (app/: its own Cargo.toml and
# Cargo.lock): the crate as `cargo package` makes it for crates.io (the
# .crate, with the files the manifest publishes and its normalized
# Cargo.toml), unpacked at ../xid/clients/rust beside the application and
# depended on by path as README's section "Installing" writes it,
# then real queries through tokio-postgres against the server.  The files
# are unpacked with the time of unpacking (tar -m): cargo package gives
# every file one fixed old time (2006), which the shared target directory's
# fingerprints would take for unchanged, and build the app against the
# crate of an earlier run.
# README's section "Installing": its toml block ([dependencies] and the
# pgxid line, by path, "../xid/clients/rust") is app/Cargo.toml's, put where
# app/Cargo.toml says, and the crate is unpacked at that path.
t=$SECONDS
app="$work/app"
rm -rf "$app" "$work/xid" "$CARGO_TARGET_DIR/package"
mkdir -p "$work/xid/clients"
marker='# README.md: the toml block of its section "Installing"'
awk '$0 == "## Installing" { sec = 1; next } sec && /^##/ { sec = 0 }
	sec && /^```toml$/ { code = 1; n++; next } code && /^```$/ { code = 0; next }
	code && n == 1 { print }
	END { if (n != 1) exit 1 }' "$here/README.md" >"$work/readme-deps.toml" &&
	grep -qxF "$marker" "$here/app/Cargo.toml" && grep -q '^pgxid = { path = "../xid/clients/rust"' "$work/readme-deps.toml" || {
	sed 's/^/    | /' "$work/readme-deps.toml"
	echo "FAIL README's section Installing: one toml block, pgxid by the path ../xid/clients/rust, expected, and app/Cargo.toml's place for it"
	failed=1
}
mkdir -p "$app"
cp -r "$here/app/." "$app/"
awk -v deps="$work/readme-deps.toml" -v marker="$marker" '$0 == marker { while ((getline l < deps) > 0) print l; next } { print }' \
	"$here/app/Cargo.toml" >"$app/Cargo.toml"
crate="$CARGO_TARGET_DIR/package/pgxid-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1).crate"
if ! cargo package --locked --offline --no-verify --allow-dirty >"$work/package.log" 2>&1 || [ ! -f "$crate" ] ||
	! tar -xzmf "$crate" -C "$work/xid/clients" || ! mv "$work/xid/clients/$(basename "$crate" .crate)" "$work/xid/clients/rust"; then
	tail -20 "$work/package.log" | sed 's/^/    /'
	echo "FAIL app: cargo package"
	failed=1
elif (cd "$app" && cargo run --locked --quiet) >"$work/app.log" 2>&1; then
	echo "ok   app outside the repository installs the built $(basename "$crate") (cargo package) and runs: $(tail -1 "$work/app.log") ($((SECONDS - t)) s)"
else
	grep -E '^error' -A8 "$work/app.log" | head -30 | sed 's/^/    /'
	tail -10 "$work/app.log" | sed 's/^/    /'
	echo "FAIL app: cargo run of app/ with the packaged crate"
	failed=1
fi
echo "    rust: $((SECONDS - start)) s in all"
exit $failed
