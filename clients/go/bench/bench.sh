#!/usr/bin/env bash
# clients/go/bench/bench.sh: run the benchmarks (GOPATH mode over Debian's
# Go sources, as test.sh does) and print ns/op and the ratios xid/UUID.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
module=github.com/xid-pg/xid/clients/go
mkdir -p "$work/src/$(dirname "$module")"
cp -r "$here/.." "$work/src/$module"
export GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOPROXY=off GOTOOLCHAIN=local
export GOCACHE=${XID_GO_CACHE:-/var/cache/xid-clients/go-build}
cd "$work/src/$module/bench"
go version
go test -run '^$' -bench . -benchtime "${BENCHTIME:-1s}" -count "${COUNT:-5}" | tee "$work/out"
# the best (lowest) ns/op of each benchmark
awk '/^Benchmark/ { n = $1; sub(/-[0-9]+$/, "", n); v = $3 + 0; if (!(n in best) || v < best[n]) best[n] = v }
	END {
		for (k in best) printf "%-44s %8.1f ns/op\n", k, best[k] | "sort"
		close("sort")
		fast = best["BenchmarkGenerate/uuid.New(std)"]
		split("BenchmarkGenerate/uuid.NewV7(std) BenchmarkGenerate/google-uuid.New BenchmarkGenerate/google-uuid.NewV7", g, " ")
		for (i in g) if (best[g[i]] < fast) fast = best[g[i]]
		printf "ratio parse  xid.Parse / uuid.Parse(std)          %.2f\n", best["BenchmarkParse/xid.Parse"] / best["BenchmarkParse/uuid.Parse(std)"]
		printf "ratio parse  xid.Parse / google-uuid.Parse        %.2f\n", best["BenchmarkParse/xid.Parse"] / best["BenchmarkParse/google-uuid.Parse"]
		printf "ratio format xid.String / uuid.String(std)        %.2f\n", best["BenchmarkFormat/xid.String"] / best["BenchmarkFormat/uuid.String(std)"]
		printf "ratio format xid.String / google-uuid.String      %.2f\n", best["BenchmarkFormat/xid.String"] / best["BenchmarkFormat/google-uuid.String"]
		printf "ratio generate xid.New / fastest UUID generator   %.2f\n", best["BenchmarkGenerate/xid.New"] / fast
		printf "ratio generate, 2 goroutines: xid / uuid.New(std) %.2f\n", best["BenchmarkGenerate/xid.New-parallel"] / best["BenchmarkGenerate/uuid.New(std)-parallel"]
	}' "$work/out"
