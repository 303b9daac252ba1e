// Package v4check tests what pgx v4 does with public.xid, and what README
// tells its users to write.  pgx v4 cannot be protected by registering the
// type: it encodes any pgtype value that encodes itself (pgtype.Timestamptz,
// pgtype.Int8 ...) in its own binary form whatever the parameter's type, so
// in `id >= $1` a pgtype.Timestamptz arrives as 8 bytes that the server
// reads as an xid from 2011: the wrong rows, no error.  The remedy is in the
// SQL, `$1::timestamptz`, which makes the parameter a timestamptz.  A module
// of its own, so that the xid package does not depend on pgx v4.
package v4check

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	"github.com/xid-pg/xid/clients/go/xid"
)

var ctx = context.Background()

func setup(t *testing.T) (*pgx.Conn, time.Time, int) {
	t.Helper()
	if os.Getenv("PGHOST") == "" {
		t.Skip("no server: PGHOST is not set")
	}
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	_, err = conn.Exec(ctx, `CREATE TEMP TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL);
		INSERT INTO orders SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes' + random() * interval '1 minute'), 'o' || g
		FROM generate_series(1, 2880) g`)
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-72 * time.Hour)
	var want int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE xid_time(id) >= $1::timestamptz", since).Scan(&want); err != nil {
		t.Fatal(err)
	}
	return conn, since, want
}

func TestV4TimestamptzTrapIsSilent(t *testing.T) {
	conn, since, want := setup(t)
	var n int
	err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1", pgtype.Timestamptz{Time: since, Status: pgtype.Present}).Scan(&n)
	// the trap, as pgx v4 behaves: if this ever fails, pgx changed and README
	// should say so
	if err != nil || n == want {
		t.Fatalf("pgx v4 no longer misreads a pgtype.Timestamptz as an xid: %d rows (want %d), %v", n, want, err)
	}
	t.Logf("id >= $1 with a pgtype.Timestamptz: %d rows, the time comparison has %d", n, want)
}

func TestV4WhatToWrite(t *testing.T) {
	conn, since, want := setup(t)
	for _, arg := range []any{pgtype.Timestamptz{Time: since, Status: pgtype.Present}, since} {
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1::timestamptz", arg).Scan(&n); err != nil || n != want {
			t.Errorf("%T with $1::timestamptz: %d rows, want %d, %v", arg, n, want, err)
		}
	}
	// a bound computed in the client, sent as its text (an xid.Xid is a driver.Valuer)
	lo, _ := xid.TimeLowerBound(since, true)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1", lo).Scan(&n); err != nil || n != want {
		t.Errorf("TimeLowerBound: %d rows, want %d, %v", n, want, err)
	}
	// a plain time.Time in id >= $1 is sent as text: an error, not a wrong count
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1", since).Scan(&n); err == nil {
		t.Errorf("time.Time in id >= $1: %d rows, no error", n)
	}
}

func TestV4ScanArraysCopy(t *testing.T) {
	conn, _, _ := setup(t)
	var x xid.Xid
	var first string
	if err := conn.QueryRow(ctx, "SELECT id, id::text FROM orders ORDER BY 1 LIMIT 1").Scan(&x, &first); err != nil || x.String() != first {
		t.Fatal(x, first, err)
	}
	// arrays: pgx v4 cannot scan public.xid[] (into []xid.Xid pgtype panics
	// in reflect.Value.Convert); cast to text[]
	var ids []string
	if err := conn.QueryRow(ctx, "SELECT array_agg(id ORDER BY id)::text[] FROM orders").Scan(&ids); err != nil || len(ids) != 2880 || ids[0] != first {
		t.Fatal(len(ids), err)
	}
	// parameters: an xid.Xid, and a list as text[]
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1::text[]::public.xid[])", ids[:3]).Scan(&n); err != nil || n != 3 {
		t.Fatal(n, err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = $1", x).Scan(&n); err != nil || n != 1 {
		t.Fatal(n, err)
	}
	// COPY: CopyFrom is binary and knows no public.xid; text COPY through pgconn works
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE copied (id public.xid PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"copied"}, []string{"id"}, pgx.CopyFromRows([][]any{{xid.New().String()}})); err == nil {
		t.Log("pgx v4 CopyFrom now takes strings for public.xid")
	}
	var buf bytes.Buffer
	g, _ := xid.NewGenerator(0, 0)
	for i := 0; i < 1000; i++ {
		buf.WriteString(g.New().String() + "\n")
	}
	tag, err := conn.PgConn().CopyFrom(ctx, &buf, "COPY copied (id) FROM STDIN")
	if err != nil || tag.RowsAffected() != 1000 {
		t.Fatal(tag, err)
	}
}
