// An application outside the module (clients/go/test.sh): the module
// github.com/xid-pg/xid/clients/go fetched from a module proxy as a
// published version would be, then real queries through pgx v5 and
// database/sql against the server (PGHOST, PGPORT, PGUSER, PGDATABASE).
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/xid-pg/xid/clients/go/pgxxid"
	"github.com/xid-pg/xid/clients/go/xid"
)

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "")
	check(err)
	defer conn.Close(ctx)
	check(pgxxid.Register(ctx, conn))
	_, err = conn.Exec(ctx, "DROP TABLE IF EXISTS app_orders")
	check(err)
	_, err = conn.Exec(ctx, "CREATE TABLE app_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text)")
	check(err)
	var made xid.Xid
	check(conn.QueryRow(ctx, "INSERT INTO app_orders (item) VALUES ('pear') RETURNING id").Scan(&made))
	var item string
	check(conn.QueryRow(ctx, "SELECT item FROM app_orders WHERE id = $1", made).Scan(&item))
	prefix := made.String()[:7]
	var found []xid.Xid
	check(conn.QueryRow(ctx, "SELECT array_agg(id) FROM app_orders WHERE id ^@ $1", prefix).Scan(&found))
	lo, hi, ok := xid.PrefixBounds(prefix)
	var n int
	check(conn.QueryRow(ctx, "SELECT count(*) FROM app_orders WHERE id BETWEEN $1 AND $2", lo, hi).Scan(&n))
	if item != "pear" || len(found) != 1 || found[0] != made || !ok || n != 1 {
		check(fmt.Errorf("pgx: got %q, %v, %d", item, found, n))
	}

	// database/sql (pgx's stdlib driver): Scan and Value, text
	db := sql.OpenDB(stdlib.GetConnector(*conn.Config()))
	defer db.Close()
	var plum xid.Xid
	check(db.QueryRow("INSERT INTO app_orders (item) VALUES ('plum') RETURNING id").Scan(&plum))
	check(db.QueryRow("SELECT item FROM app_orders WHERE id = $1", plum).Scan(&item))
	check(db.QueryRow("SELECT count(*) FROM app_orders WHERE id ^@ $1", plum.String()[:7]).Scan(&n))
	if item != "plum" || n != 1 {
		check(fmt.Errorf("database/sql: got %q, %d", item, n))
	}
	var all xid.Array // public.xid[] in database/sql
	check(db.QueryRow("SELECT array_agg(id ORDER BY id) FROM app_orders").Scan(&all))
	check(db.QueryRow("SELECT count(*) FROM app_orders WHERE id = ANY($1::public.xid[])", xid.Array{made, plum}).Scan(&n))
	if len(all) != 2 || n != 2 {
		check(fmt.Errorf("database/sql arrays: got %v, %d", all, n))
	}
	fmt.Printf("pgx and database/sql: inserted %s and %s, selected by id and by prefix\n", made, plum)
}
