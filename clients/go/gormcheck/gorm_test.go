// Package gormcheck tests xid with GORM and its PostgreSQL driver (pgx v5
// through database/sql) against a live server: a model whose primary key is
// an xid the server generates, a nullable xid, a has-many association,
// queries by id and by time.  GORM needs nothing from the xid package but
// Scan and Value; the column type is given by the tag, type:public.xid.  A
// module of its own, so that the xid package does not depend on GORM.
package gormcheck

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/xid-pg/xid/clients/go/xid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Order has an xid primary key that the server fills (xid_new()), a
// nullable xid, and lines.
type Order struct {
	ID       xid.Xid     `gorm:"type:public.xid;primaryKey;default:xid_new()"`
	Item     string      `gorm:"not null"`
	ParentID xid.NullXid `gorm:"type:public.xid"`
	Lines    []Line
}

// Line belongs to an order through an xid foreign key.
type Line struct {
	ID      xid.Xid `gorm:"type:public.xid;primaryKey;default:xid_new()"`
	OrderID xid.Xid `gorm:"type:public.xid;not null;index"`
	Qty     int
}

func open(t *testing.T) *gorm.DB {
	t.Helper()
	if os.Getenv("PGHOST") == "" {
		t.Skip("no server: PGHOST is not set")
	}
	// an empty DSN: pgx reads PGHOST, PGPORT, PGUSER, PGDATABASE
	db, err := gorm.Open(postgres.Open(""), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := db.DB()
	t.Cleanup(func() { sqlDB.Close() })
	if err := db.Migrator().DropTable(&Line{}, &Order{}); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&Order{}, &Line{}); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestGormMigrateMakesXidColumns(t *testing.T) {
	db := open(t)
	var types []string
	err := db.Raw(`SELECT c.relname || '.' || a.attname || ' ' || (a.atttypid = 'public.xid'::regtype)::text
		|| ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON (d.adrelid, d.adnum) = (a.attrelid, a.attnum)
		WHERE c.relname IN ('orders', 'lines') AND a.attname IN ('id', 'parent_id', 'order_id') ORDER BY 1`).Scan(&types).Error
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lines.id true xid_new()", "lines.order_id true ", "orders.id true xid_new()", "orders.parent_id true "}
	if len(types) != len(want) {
		t.Fatalf("%q", types)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Errorf("%q, want %q", types[i], want[i])
		}
	}
	// a second AutoMigrate: GORM compares "public.xid" with the catalog's
	// "xid" and alters each xid column that is not the primary key to the
	// same type, which rewrites nothing (the files of the tables and of
	// their indexes stay the same) but takes the table's lock
	files := func() (f []string) {
		t.Helper()
		if err := db.Raw(`SELECT relname || ' ' || pg_relation_filenode(oid) FROM pg_class
			WHERE relname IN ('orders', 'lines', 'orders_pkey', 'lines_pkey', 'idx_lines_order_id') ORDER BY 1`).Scan(&f).Error; err != nil || len(f) != 5 {
			t.Fatal(f, err)
		}
		return f
	}
	before := files()
	if err := db.AutoMigrate(&Order{}, &Line{}); err != nil {
		t.Fatal(err)
	}
	if after := files(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("AutoMigrate rewrote: %q, then %q", before, after)
	}
}

func TestGormCreateAndFind(t *testing.T) {
	db := open(t)
	before := time.Now().Add(-time.Second)
	// the server makes the id (RETURNING "id")
	o := Order{Item: "pear", Lines: []Line{{Qty: 1}, {Qty: 2}}}
	if err := db.Create(&o).Error; err != nil {
		t.Fatal(err)
	}
	if o.ID == 0 || o.ID.Time().Before(before) || o.ID.Time().After(time.Now().Add(time.Second)) {
		t.Fatalf("id %v at %v", o.ID, o.ID.Time())
	}
	if o.Lines[0].OrderID != o.ID || o.Lines[1].ID <= o.Lines[0].ID {
		t.Fatalf("%+v", o.Lines)
	}
	// an id made here, and a parent
	child := Order{ID: xid.New(), Item: "plum", ParentID: xid.NullXid{Xid: o.ID, Valid: true}}
	if err := db.Create(&child).Error; err != nil {
		t.Fatal(err)
	}
	// by primary key, with the association
	var got Order
	if err := db.Preload("Lines").First(&got, child.ID).Error; err != nil || got.ID != child.ID || got.ParentID != child.ParentID {
		t.Fatalf("%+v %v", got, err)
	}
	var parent Order // a fresh one: GORM adds a non-zero key of the target to the conditions
	if err := db.Preload("Lines").First(&parent, "id = ?", o.ID.String()).Error; err != nil || parent.ID != o.ID ||
		parent.ParentID.Valid || len(parent.Lines) != 2 || parent.Lines[1].ID != o.Lines[1].ID {
		t.Fatalf("%+v %v", parent, err)
	}
	// by the parent's id
	var children []Order
	if err := db.Where(&Order{ParentID: xid.NullXid{Xid: o.ID, Valid: true}}).Find(&children).Error; err != nil ||
		len(children) != 1 || children[0].ID != child.ID {
		t.Fatalf("%+v %v", children, err)
	}
	// no row: gorm.ErrRecordNotFound
	var none Order
	if err := db.First(&none, xid.Max).Error; !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Fatal(err)
	}
	// update and delete by the key
	if err := db.Model(&child).Update("item", "fig").Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Delete(&Order{}, o.ID).Error; err == nil {
		t.Fatal("deleted an order that lines refer to")
	}
	if err := db.Select("Lines").Delete(&o).Error; err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.Model(&Order{}).Count(&n).Error; err != nil || n != 1 {
		t.Fatal(n, err)
	}
}

func TestGormTimeQuery(t *testing.T) {
	db := open(t)
	// 2,880 orders over ten days, made by the server
	err := db.Exec(`INSERT INTO orders (id, item) SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes'), 'o' || g
		FROM generate_series(1, 2880) g`).Error
	if err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-72 * time.Hour)
	var want int64
	if err := db.Raw("SELECT count(*) FROM orders WHERE xid_time(id) >= ?", since).Scan(&want).Error; err != nil || want == 0 {
		t.Fatal(want, err)
	}
	// what to write: the time as timestamptz (xid_time(id) >= t, on the index)
	var orders []Order
	if err := db.Where("id >= ?::timestamptz", since).Order("id").Find(&orders).Error; err != nil || int64(len(orders)) != want {
		t.Fatalf("%d orders, want %d, %v", len(orders), want, err)
	}
	if orders[0].ID.Time().Before(since) {
		t.Fatal(orders[0].ID.Time())
	}
	// or the bound, computed here
	lo, _ := xid.TimeLowerBound(since, true)
	var n int64
	if err := db.Model(&Order{}).Where("id >= ?", lo).Count(&n).Error; err != nil || n != want {
		t.Fatal(n, want, err)
	}
	// the trap, a time bound to an xid parameter: the server's error, no rows
	err = db.Where("id >= ?", since).Find(&orders).Error
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "22P02" {
		t.Fatalf("time.Time in id >= ?: %v", err)
	}
}

// Tagged has an array of ids (public.xid[]): xid.Array.
type Tagged struct {
	ID   xid.Xid   `gorm:"type:public.xid;primaryKey;default:xid_new()"`
	Refs xid.Array `gorm:"type:public.xid[]"`
}

func TestGormArray(t *testing.T) {
	db := open(t)
	if err := db.Migrator().DropTable(&Tagged{}); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&Tagged{}); err != nil {
		t.Fatal(err)
	}
	refs := xid.Array{xid.New(), xid.New()}
	tg := Tagged{Refs: refs}
	if err := db.Create(&tg).Error; err != nil {
		t.Fatal(err)
	}
	var got Tagged
	if err := db.First(&got, "id = ?", tg.ID).Error; err != nil {
		t.Fatal(err)
	}
	if len(got.Refs) != 2 || got.Refs[0] != refs[0] || got.Refs[1] != refs[1] {
		t.Fatalf("%v, want %v", got.Refs, refs)
	}
	var n int64
	if err := db.Model(&Tagged{}).Where("? = ANY(refs)", refs[1]).Count(&n).Error; err != nil || n != 1 {
		t.Fatal(n, err)
	}
	empty := Tagged{}
	if err := db.Create(&empty).Error; err != nil {
		t.Fatal(err)
	}
	var none Tagged
	if err := db.First(&none, "id = ?", empty.ID).Error; err != nil || none.Refs != nil {
		t.Fatalf("%#v, %v", none.Refs, err)
	}
	var isXidArray bool
	if err := db.Raw(`SELECT atttypid = 'public.xid[]'::regtype FROM pg_attribute
		WHERE attrelid = 'taggeds'::regclass AND attname = 'refs'`).Scan(&isXidArray).Error; err != nil || !isXidArray {
		t.Fatal("refs is not public.xid[]", err)
	}
}
