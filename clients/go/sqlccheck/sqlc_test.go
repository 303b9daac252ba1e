package sqlccheck

import (
	"context"
	_ "embed"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/xid-pg/xid/clients/go/pgxxid"
	"github.com/xid-pg/xid/clients/go/sqlccheck/db"
	"github.com/xid-pg/xid/clients/go/xid"
)

//go:embed schema.sql
var schema string

// the generated types, checked by the compiler
var (
	_ xid.Xid     = db.Invoice{}.ID
	_ xid.NullXid = db.Invoice{}.Replaces
	_ []xid.Xid   = db.Invoice{}.Related
)

var ctx = context.Background()

func connect(t *testing.T) (*pgx.Conn, *db.Queries) {
	t.Helper()
	if os.Getenv("PGHOST") == "" {
		t.Skip("no server: PGHOST is not set")
	}
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	if err := pgxxid.Register(ctx, conn); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "DROP TABLE IF EXISTS invoices"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, schema); err != nil {
		t.Fatal(err)
	}
	return conn, db.New(conn)
}

func TestSqlcQueries(t *testing.T) {
	_, q := connect(t)
	before := time.Now().Add(-time.Second)
	first, err := q.CreateInvoice(ctx, db.CreateInvoiceParams{Customer: "ann", Related: []xid.Xid{}})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID.Time().Before(before) || first.Replaces.Valid || len(first.Related) != 0 {
		t.Fatalf("%+v", first)
	}
	// an id made here, a minute ago: before the others
	mine, _ := xid.FromTime(time.Now().Add(-time.Minute), 12345)
	second, err := q.CreateInvoiceWithID(ctx, db.CreateInvoiceWithIDParams{ID: mine, Customer: "bob"})
	if err != nil || second.ID != mine {
		t.Fatal(second, err)
	}
	third, err := q.CreateInvoice(ctx, db.CreateInvoiceParams{Customer: "ann",
		Replaces: xid.NullXid{Xid: first.ID, Valid: true}, Related: []xid.Xid{first.ID, second.ID}})
	if err != nil || third.Replaces.Xid != first.ID || !third.Replaces.Valid || len(third.Related) != 2 || third.Related[1] != mine {
		t.Fatal(third, err)
	}
	got, err := q.GetInvoice(ctx, third.ID)
	if err != nil || got.ID != third.ID || got.Replaces != third.Replaces || got.Related[0] != first.ID {
		t.Fatal(got, err)
	}
	if _, err := q.GetInvoice(ctx, xid.Max); !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	all, err := q.InvoicesBetween(ctx, db.InvoicesBetweenParams{Lo: mine, Hi: third.ID})
	if err != nil || len(all) != 3 || all[0].ID != mine || all[1].ID != first.ID || all[2].ID != third.ID {
		t.Fatal(all, err)
	}
	some, err := q.InvoicesIn(ctx, []xid.Xid{third.ID, first.ID, xid.Max})
	if err != nil || len(some) != 2 || some[0].ID != first.ID || some[1].ID != third.ID {
		t.Fatal(some, err)
	}
	repl, err := q.Replacing(ctx, xid.NullXid{Xid: first.ID, Valid: true})
	if err != nil || len(repl) != 1 || repl[0].ID != third.ID {
		t.Fatal(repl, err)
	}
	// = NULL matches nothing
	if repl, err := q.Replacing(ctx, xid.NullXid{}); err != nil || len(repl) != 0 {
		t.Fatal(repl, err)
	}
}

func TestSqlcTimeQuery(t *testing.T) {
	conn, q := connect(t)
	_, err := conn.Exec(ctx, `INSERT INTO invoices (id, customer) SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'), 'c' || g
		FROM generate_series(1, 2880) g`)
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-72 * time.Hour)
	var want int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM invoices WHERE xid_time(id) >= $1::timestamptz", since).Scan(&want); err != nil || want == 0 {
		t.Fatal(want, err)
	}
	got, err := q.InvoicesSince(ctx, pgtype.Timestamptz{Time: since, Valid: true})
	if err != nil || len(got) != want || got[0].ID.Time().Before(since) {
		t.Fatal(len(got), want, err)
	}
}
