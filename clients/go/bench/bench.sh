#!/usr/bin/env bash
# clients/go/bench/bench.sh: run the benchmarks and print ns/op and the
# ratios xid/UUID.  A module of its own (google/uuid, pgx, GORM pinned by its
# go.sum); Go 1.27 for the standard library's uuid package, which
# GOTOOLCHAIN=go1.27.3 takes from the module proxy where the machine's Go is
# older.  With PGHOST (and PGPORT, PGUSER, PGDATABASE: a database with
# xid) it also reads 10,000 rows keyed by public.xid and by uuid through
# GORM and pgx; it creates the tables xid_rows and uuid_rows there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GOFLAGS=-mod=readonly GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3} CGO_ENABLED=0
cd "$here"
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
		split("GormLoad10000 GormFirstByKey PgxScan10000", f, " ")
		for (i = 1; i <= 3; i++)
			if (("Benchmark" f[i] "/xid") in best)
				printf "ratio %-44s %.2f\n", f[i] " xid / uuid", best["Benchmark" f[i] "/xid"] / best["Benchmark" f[i] "/uuid"]
	}' "$work/out"
