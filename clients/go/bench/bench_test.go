//go:build go1.27

// Package bench compares the xid codec with Go's UUID handling, side by
// side in one run: the standard library's uuid package (Go 1.27) and
// github.com/google/uuid.  A module of its own, so that the xid package
// depends on neither.
//
//	go test -run '^$' -bench . -benchtime 1s -count 5
package bench

import (
	"math/rand/v2"
	"testing"
	"uuid"

	guuid "github.com/google/uuid"
	"github.com/xid-pg/xid/clients/go/xid"
)

const n = 4096

var (
	ids       [n]xid.Xid
	texts     [n]string
	uuids     [n]uuid.UUID
	uuidTexts [n]string
	gUUIDs    [n]guuid.UUID
	sinkInt   int
)

func init() {
	for i := range ids {
		ids[i] = xid.Xid(rand.Uint64())
		texts[i] = ids[i].String()
		uuids[i] = uuid.New()
		uuidTexts[i] = uuids[i].String()
		gUUIDs[i] = guuid.UUID(uuids[i])
	}
}

func BenchmarkParse(b *testing.B) {
	b.Run("xid.Parse", func(b *testing.B) {
		for i := range b.N {
			x, _ := xid.Parse(texts[i%n])
			sinkInt ^= int(x)
		}
	})
	b.Run("uuid.Parse(std)", func(b *testing.B) {
		for i := range b.N {
			u, _ := uuid.Parse(uuidTexts[i%n])
			sinkInt ^= int(u[15])
		}
	})
	b.Run("google-uuid.Parse", func(b *testing.B) {
		for i := range b.N {
			u, _ := guuid.Parse(uuidTexts[i%n])
			sinkInt ^= int(u[15])
		}
	})
}

func BenchmarkFormat(b *testing.B) {
	b.Run("xid.String", func(b *testing.B) {
		for i := range b.N {
			sinkInt ^= len(ids[i%n].String())
		}
	})
	b.Run("uuid.String(std)", func(b *testing.B) {
		for i := range b.N {
			sinkInt ^= len(uuids[i%n].String())
		}
	})
	b.Run("google-uuid.String", func(b *testing.B) {
		for i := range b.N {
			sinkInt ^= len(gUUIDs[i%n].String())
		}
	})
}

func BenchmarkGenerate(b *testing.B) {
	b.Run("xid.New", func(b *testing.B) {
		for range b.N {
			sinkInt ^= int(xid.New())
		}
	})
	b.Run("uuid.New(std)", func(b *testing.B) {
		for range b.N {
			sinkInt ^= int(uuid.New()[15])
		}
	})
	b.Run("uuid.NewV7(std)", func(b *testing.B) {
		for range b.N {
			sinkInt ^= int(uuid.NewV7()[15])
		}
	})
	b.Run("google-uuid.New", func(b *testing.B) {
		for range b.N {
			sinkInt ^= int(guuid.New()[15])
		}
	})
	b.Run("google-uuid.NewV7", func(b *testing.B) {
		for range b.N {
			u, _ := guuid.NewV7()
			sinkInt ^= int(u[15])
		}
	})
	b.Run("xid.New-parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			s := 0
			for pb.Next() {
				s ^= int(xid.New())
			}
			sinkInt ^= s
		})
	})
	b.Run("uuid.New(std)-parallel", func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			s := 0
			for pb.Next() {
				s ^= int(uuid.New()[15])
			}
			sinkInt ^= s
		})
	})
}
