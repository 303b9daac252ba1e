//go:build go1.27

package bench

// The frameworks beside UUID, against a live server (PGHOST ...; skipped
// without one): the same table shape keyed by public.xid and by uuid, 10,000
// rows each, read through GORM (database/sql, the key as text both ways) and
// through pgx as sqlc's generated code reads it (binary: xid.Xid registered
// with pgxxid, uuid as pgtype.UUID).

import (
	"context"
	"os"
	"sync"
	"testing"

	guuid "github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/xid-pg/xid/clients/go/pgxxid"
	"github.com/xid-pg/xid/clients/go/xid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

const rows = 10000

type XidRow struct {
	ID   xid.Xid `gorm:"type:public.xid;primaryKey;default:xid_new()"`
	N    int
	Item string
}

type UUIDRow struct {
	ID   guuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	N    int
	Item string
}

var (
	setupOnce sync.Once
	setupErr  error
	gdb       *gorm.DB
	xidKeys   []xid.Xid
	uuidKeys  []guuid.UUID
)

// setup makes the two tables once per run, and keeps their keys
func setup(b *testing.B) {
	b.Helper()
	if os.Getenv("PGHOST") == "" {
		b.Skip("no server: PGHOST is not set")
	}
	setupOnce.Do(func() {
		gdb, setupErr = gorm.Open(postgres.Open(""), &gorm.Config{Logger: logger.Discard})
		if setupErr != nil {
			return
		}
		for _, q := range []string{
			"DROP TABLE IF EXISTS xid_rows, uuid_rows",
			"CREATE TABLE xid_rows (id public.xid PRIMARY KEY DEFAULT xid_new(), n int NOT NULL, item text NOT NULL)",
			"CREATE TABLE uuid_rows (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), n int NOT NULL, item text NOT NULL)",
			"INSERT INTO xid_rows (n, item) SELECT g, 'item ' || g FROM generate_series(1, 10000) g",
			"INSERT INTO uuid_rows (n, item) SELECT g, 'item ' || g FROM generate_series(1, 10000) g",
			"VACUUM ANALYZE xid_rows",
			"VACUUM ANALYZE uuid_rows",
		} {
			if setupErr = gdb.Exec(q).Error; setupErr != nil {
				return
			}
		}
		if setupErr = gdb.Table("xid_rows").Order("n").Pluck("id", &xidKeys).Error; setupErr != nil {
			return
		}
		setupErr = gdb.Table("uuid_rows").Order("n").Pluck("id", &uuidKeys).Error
	})
	if setupErr != nil {
		b.Fatal(setupErr)
	}
}

func BenchmarkGormLoad10000(b *testing.B) {
	setup(b)
	b.Run("xid", func(b *testing.B) {
		for range b.N {
			var rs []XidRow
			if err := gdb.Table("xid_rows").Find(&rs).Error; err != nil || len(rs) != rows {
				b.Fatal(len(rs), err)
			}
		}
	})
	b.Run("uuid", func(b *testing.B) {
		for range b.N {
			var rs []UUIDRow
			if err := gdb.Table("uuid_rows").Find(&rs).Error; err != nil || len(rs) != rows {
				b.Fatal(len(rs), err)
			}
		}
	})
}

func BenchmarkGormFirstByKey(b *testing.B) {
	setup(b)
	b.Run("xid", func(b *testing.B) {
		for i := range b.N {
			var r XidRow
			if err := gdb.Table("xid_rows").First(&r, "id = ?", xidKeys[i%rows]).Error; err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uuid", func(b *testing.B) {
		for i := range b.N {
			var r UUIDRow
			if err := gdb.Table("uuid_rows").First(&r, "id = ?", uuidKeys[i%rows]).Error; err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPgxScan10000(b *testing.B) {
	setup(b)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := pgxxid.Register(ctx, conn); err != nil {
		b.Fatal(err)
	}
	b.Run("xid", func(b *testing.B) {
		for range b.N {
			rs, _ := conn.Query(ctx, "SELECT id, n, item FROM xid_rows")
			k := 0
			for rs.Next() {
				var id xid.Xid
				var n int32
				var item string
				if err := rs.Scan(&id, &n, &item); err != nil {
					b.Fatal(err)
				}
				k++
			}
			if rs.Err() != nil || k != rows {
				b.Fatal(k, rs.Err())
			}
		}
	})
	b.Run("uuid", func(b *testing.B) {
		for range b.N {
			rs, _ := conn.Query(ctx, "SELECT id, n, item FROM uuid_rows")
			k := 0
			for rs.Next() {
				var id pgtype.UUID
				var n int32
				var item string
				if err := rs.Scan(&id, &n, &item); err != nil {
					b.Fatal(err)
				}
				k++
			}
			if rs.Err() != nil || k != rows {
				b.Fatal(k, rs.Err())
			}
		}
	})
}
