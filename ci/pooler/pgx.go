// ci/pooler/pgx.go: pgx through PgBouncer in transaction mode
// (ci/pooler.sh), as ci/pooler/drivers.py does for psycopg and asyncpg.
// Built from Debian's golang-github-jackc-pgx-v5-dev (GOPATH mode, nothing
// downloaded).
//
// Usage: pgx DIRECT_DSN POOLER_DSN PROBES_JSON
//
// Eight clients, each with two connections of its own to PgBouncer (two
// server connections), pgx's default query mode (QueryExecModeCacheStatement:
// every query a named prepared statement): on one xid comes as text, on the
// other in binary (xid's OID registered with pgx's int8 codec: 8 bytes, a
// big-endian int64).  Every result is compared with a direct connection's
// rows; then inserts with DEFAULT xid_new() ... RETURNING id.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

const clients, rounds, inserts = 8, 6, 25

type query struct{ name, sql string; fields []string }

var queries = []query{
	{"prefix ^@", "SELECT id FROM orders WHERE id ^@ $1 ORDER BY id", []string{"prefix"}},
	{"LIKE", "SELECT id FROM orders WHERE id LIKE $1 ORDER BY id", []string{"pattern"}},
	{"time window", "SELECT id FROM orders WHERE id >= $1::timestamptz AND id < $2::timestamptz ORDER BY id", []string{"t0", "t1"}},
	{"<@ prefix range", "SELECT id FROM orders WHERE id <@ xid_prefix_range($1) ORDER BY id", []string{"prefix"}},
	{"<@ time range", "SELECT id FROM orders WHERE id <@ xid_time_range(tstzrange($1, $2)) ORDER BY id", []string{"t0", "t1"}},
}

var failures int

func report(ok bool, text string) {
	if ok {
		fmt.Println("ok   " + text)
	} else {
		failures++
		fmt.Println("FAIL " + text)
	}
}

func args(p map[string]string, fields []string) []any {
	out := []any{}
	for _, f := range fields {
		if f == "t0" || f == "t1" {
			t, err := time.Parse(time.RFC3339Nano, p[f])
			if err != nil {
				panic(err)
			}
			out = append(out, t)
		} else {
			out = append(out, p[f])
		}
	}
	return out
}

func texts(ctx context.Context, c *pgx.Conn, sql string, a []any) ([]string, error) {
	rows, err := c.Query(ctx, sql, a...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func ints(ctx context.Context, c *pgx.Conn, sql string, a []any) ([]int64, error) {
	rows, err := c.Query(ctx, sql, a...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

func main() {
	if err := run(); err != nil {
		report(false, "pgx: "+err.Error())
	}
	if failures > 0 {
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	direct, pooled, probesFile := os.Args[1], os.Args[2], os.Args[3]
	raw, err := os.ReadFile(probesFile)
	if err != nil {
		return err
	}
	var probes []map[string]string
	if err := json.Unmarshal(raw, &probes); err != nil {
		return err
	}
	dc, err := pgx.Connect(ctx, direct+" application_name=direct")
	if err != nil {
		return err
	}
	defer dc.Close(ctx)
	if _, err := dc.Exec(ctx, "SET plan_cache_mode = force_custom_plan"); err != nil {
		return err
	}
	var xidOID uint32
	if err := dc.QueryRow(ctx, "SELECT 'public.xid'::regtype::oid").Scan(&xidOID); err != nil {
		return err
	}
	text := map[string][][]string{}
	big := map[string][][]int64{}
	for _, q := range queries {
		for _, p := range probes {
			t, err := texts(ctx, dc, q.sql, args(p, q.fields))
			if err != nil {
				return err
			}
			b, err := ints(ctx, dc, strings.Replace(q.sql, "SELECT id FROM", "SELECT id::bigint FROM", 1), args(p, q.fields))
			if err != nil {
				return err
			}
			text[q.name] = append(text[q.name], t)
			big[q.name] = append(big[q.name], b)
		}
	}

	var mu sync.Mutex
	var wrong []string
	ntext, nbin := 0, 0
	returned := map[int][]string{}
	var wg sync.WaitGroup
	start := time.Now()
	errs := make(chan error, clients)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			tc, err := pgx.Connect(ctx, pooled+" application_name=pgx")
			if err != nil {
				errs <- err
				return
			}
			defer tc.Close(ctx)
			bc, err := pgx.Connect(ctx, pooled+" application_name=pgx")
			if err != nil {
				errs <- err
				return
			}
			defer bc.Close(ctx)
			bc.TypeMap().RegisterType(&pgtype.Type{Name: "xid", OID: xidOID, Codec: pgtype.Int8Codec{}})
			for r := 0; r < rounds; r++ {
				for k, p := range probes {
					for _, q := range queries {
						a := args(p, q.fields)
						t, err := texts(ctx, tc, q.sql, a)
						if err != nil {
							errs <- err
							return
						}
						b, err := ints(ctx, bc, q.sql, a)
						if err != nil {
							errs <- err
							return
						}
						mu.Lock()
						ntext++
						nbin++
						if fmt.Sprint(t) != fmt.Sprint(text[q.name][k]) {
							wrong = append(wrong, fmt.Sprintf("%d %s text %v: %d rows, %d expected", c, q.name, p, len(t), len(text[q.name][k])))
						}
						if fmt.Sprint(b) != fmt.Sprint(big[q.name][k]) {
							wrong = append(wrong, fmt.Sprintf("%d %s binary %v: %d rows, %d expected", c, q.name, p, len(b), len(big[q.name][k])))
						}
						mu.Unlock()
					}
				}
			}
			ids := []string{}
			for i := 0; i < inserts; i++ {
				var id string
				if err := tc.QueryRow(ctx, "INSERT INTO events (driver, client) VALUES ($1, $2) RETURNING id", "pgx", c).Scan(&id); err != nil {
					errs <- err
					return
				}
				ids = append(ids, id)
			}
			mu.Lock()
			returned[c] = ids
			mu.Unlock()
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	for i, w := range wrong {
		if i < 10 {
			fmt.Println("    wrong rows: " + w)
		}
	}
	report(len(wrong) == 0 && ntext == clients*rounds*len(probes)*len(queries),
		fmt.Sprintf("pgx v5 (default QueryExecModeCacheStatement), %d clients on 2 server connections: %d text and %d binary results "+
			"(xid's OID on pgx's int8 codec) of prefix ^@, LIKE, time window, <@ ranges, each the direct connection's rows (%.1f s)",
			clients, ntext, nbin, time.Since(start).Seconds()))

	stored := map[string]int{}
	rows, err := dc.Query(ctx, "SELECT id::text, client FROM events WHERE driver = 'pgx'")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		var c int
		if err := rows.Scan(&id, &c); err != nil {
			return err
		}
		stored[id] = c
	}
	all := 0
	ok := len(returned) == clients
	seen := map[string]bool{}
	for c, ids := range returned {
		ok = ok && sort.StringsAreSorted(ids)
		for i, id := range ids {
			all++
			ok = ok && !seen[id] && stored[id] == c && (i == 0 || ids[i-1] < id)
			_, in := stored[id]
			ok = ok && in
			seen[id] = true
		}
	}
	report(ok && len(stored) == all && all == clients*inserts,
		fmt.Sprintf("pgx: %d inserts with DEFAULT xid_new() ... RETURNING id through the pooler: every returned id stored once (%d rows), each client's strictly increasing", all, len(stored)))
	return nil
}
